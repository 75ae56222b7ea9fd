import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';

/** System installs checked after config and CHECKER_CHROMIUM, in this order. */
const WELL_KNOWN_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/** Executables inside one `~/.cache/ms-playwright/chromium-<build>/` folder (the layout changed across releases). */
const PLAYWRIGHT_EXECUTABLES = [
  ['chrome-linux', 'chrome'],
  ['chrome-linux64', 'chrome'],
  ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ['chrome-win', 'chrome.exe'],
] as const;

export interface ChromiumSearch {
  /** Config `products.browser.executablePath`. */
  configured?: string;
  /** The CHECKER_CHROMIUM environment variable. */
  fromEnvironment?: string;
  /** The home folder whose `.cache/ms-playwright` is searched; absent: not searched. */
  home?: string;
  /** Defaults to WELL_KNOWN_CHROMIUM_PATHS. */
  wellKnown?: readonly string[];
}

export interface FoundChromium {
  executablePath: string;
  source: 'config' | 'CHECKER_CHROMIUM' | 'well-known path' | 'playwright cache';
}

const INSTALL_HINT =
  'Install Chromium: on Debian/Ubuntu `apt-get install chromium`, or `npx playwright install chromium`; ' +
  'or point CHECKER_CHROMIUM (or config products.browser.executablePath) at a Chromium or Chrome executable.';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `chromium-<build>` folders, newest build first. */
async function findPlaywrightCandidates(home: string): Promise<string[]> {
  const cache = join(home, '.cache', 'ms-playwright');
  const entries = await readdir(cache, { withFileTypes: true }).catch(() => []);
  const builds = entries
    .filter((entry) => entry.isDirectory() && /^chromium-\d+$/.test(entry.name))
    .map((entry) => ({ name: entry.name, build: Number(entry.name.slice('chromium-'.length)) }))
    .sort((a, b) => b.build - a.build || a.name.localeCompare(b.name));
  return builds.flatMap((build) => PLAYWRIGHT_EXECUTABLES.map((parts) => join(cache, build.name, ...parts)));
}

/**
 * The Chromium to drive. An explicit choice (config, then CHECKER_CHROMIUM) is used or refused, never skipped: a path
 * the user named that is not an executable file is an error, not a reason to start some other browser. Without one,
 * the first executable among the well-known paths and Playwright's cache (newest build first) wins.
 * Throws CheckerError `product/no-browser` naming every place looked at, with how to install one.
 */
export async function findChromium(search: ChromiumSearch): Promise<FoundChromium> {
  const explicit: [string | undefined, FoundChromium['source'], string][] = [
    [search.configured, 'config', 'config products.browser.executablePath'],
    [search.fromEnvironment, 'CHECKER_CHROMIUM', 'CHECKER_CHROMIUM'],
  ];
  for (const [path, source, name] of explicit) {
    if (path === undefined || path === '') continue;
    if (await isExecutableFile(path)) return { executablePath: path, source };
    throw new CheckerError('product/no-browser', `${name} is ${JSON.stringify(path)}, which is not an executable file`, {
      hint: `Fix or remove ${name}. ${INSTALL_HINT}`,
    });
  }
  const looked: string[] = [];
  for (const path of search.wellKnown ?? WELL_KNOWN_CHROMIUM_PATHS) {
    looked.push(path);
    if (await isExecutableFile(path)) return { executablePath: path, source: 'well-known path' };
  }
  if (search.home !== undefined) {
    looked.push(join(search.home, '.cache', 'ms-playwright', 'chromium-*'));
    for (const path of await findPlaywrightCandidates(search.home)) {
      if (await isExecutableFile(path)) return { executablePath: path, source: 'playwright cache' };
    }
  }
  throw new CheckerError(
    'product/no-browser',
    `no Chromium found for product checks; looked at CHECKER_CHROMIUM (unset), config products.browser.executablePath (unset), ${looked.join(', ')}`,
    { hint: INSTALL_HINT },
  );
}

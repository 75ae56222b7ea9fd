/**
 * Real-corpus builder for tests and benchmarks: two consecutive published versions of npm packages,
 * committed one after the other into a fresh git repository, so the second commit is a real change.
 *
 * Default corpus: zod 4.6.6 → 4.6.7. zod 4 ships its TypeScript sources (332 `src/**\/*.ts` files,
 * 840 files in all) with `.js`-suffixed relative imports, self-references through its `exports` map
 * (`zod/v4`, `zod/v4/core` from its tests) and the built `.js`/`.d.ts`/`.d.cts` files beside them.
 * Several packages can be combined (each under `packages/<slug>/`, with a root package.json declaring
 * `workspaces: ["packages/*"]`) to reach thousands of files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusPackage {
  name: string;
  versions: [string, string];
}

export interface CorpusOptions {
  package?: string;
  versions?: [string, string];
  /** Several packages combined into one workspace repository. */
  packages?: CorpusPackage[];
  /** Where the repository is created (must not exist or be empty); a fresh temp folder by default. */
  workDir?: string;
  /** Tarball cache; `bench/corpus-cache/` by default. */
  cacheDir?: string;
}

export interface RealCorpus {
  dir: string;
  baseOid: string;
  headOid: string;
  /** Files tracked at head. */
  files: number;
  /** Each package and the folder it was extracted to ('' when there is only one). */
  packages: Array<{ name: string; folder: string }>;
}

export const DEFAULT_CORPUS: CorpusPackage = { name: 'zod', versions: ['4.6.6', '4.6.7'] };

/** zod, rxjs (tsconfig `paths` + `baseUrl` + `extends`) and tRPC client/server (cross-package imports): about 3,500 files. */
export const WORKSPACE_CORPUS: CorpusPackage[] = [
  DEFAULT_CORPUS,
  { name: 'rxjs', versions: ['7.8.1', '7.8.2'] },
  { name: '@trpc/server', versions: ['11.23.0', '11.25.2'] },
  { name: '@trpc/client', versions: ['11.22.1', '11.25.2'] },
];

/**
 * Issue 18's large real tree: published packages whose JS/TS files add up to about 17k (next 4.3k, date-fns 3.9k,
 * core-js 3.5k, rxjs 1.3k, three 1k, webpack 0.6k, lodash-es 0.6k, eslint 0.4k, typescript and @angular/core), the
 * kind of tree an install of a web app's dependencies gives. Only for `npm run bench -- --corpus-set large`.
 */
export const LARGE_CORPUS: CorpusPackage[] = [
  { name: 'next', versions: ['15.0.3', '15.0.4'] },
  { name: 'date-fns', versions: ['4.0.0', '4.1.0'] },
  { name: 'core-js', versions: ['3.38.1', '3.39.0'] },
  { name: 'rxjs', versions: ['7.8.1', '7.8.2'] },
  { name: 'three', versions: ['0.169.0', '0.170.0'] },
  { name: 'webpack', versions: ['5.96.0', '5.96.1'] },
  { name: 'lodash-es', versions: ['4.17.20', '4.17.21'] },
  { name: 'eslint', versions: ['9.15.0', '9.16.0'] },
  { name: 'typescript', versions: ['5.6.2', '5.6.3'] },
  { name: '@angular/core', versions: ['19.0.0', '19.0.1'] },
];

const DEFAULT_CACHE_DIR = fileURLToPath(new URL('./corpus-cache/', import.meta.url));

function toTarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace(/\//g, '-')}-${version}.tgz`;
}

function toFolderSlug(name: string): string {
  return name.replace(/^@/, '').replace(/\//g, '__');
}

/**
 * Installs exact package specs (`vitest@3.2.7`) from the registry into a cached folder unless it is there already, and
 * returns its node_modules path: a real test runner a fixture repository can link to. Install scripts do not run.
 */
export function installPackages(specs: readonly string[], cacheDir = DEFAULT_CACHE_DIR): string {
  const folder = join(cacheDir, 'installs', specs.map(toFolderSlug).join('+').replace(/@/g, '-'));
  const modules = join(folder, 'node_modules');
  const marker = join(folder, 'installed.txt');
  if (existsSync(marker)) return modules;
  mkdirSync(join(cacheDir, 'installs'), { recursive: true });
  // As fetchTarball: install into a private folder and rename it into place, so a parallel test never sees half of it.
  const staging = mkdtempSync(join(cacheDir, 'installs', '.install-'));
  try {
    writeFileSync(join(staging, 'package.json'), '{"private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...specs], {
      cwd: staging,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    writeFileSync(join(staging, 'installed.txt'), `${specs.join(' ')}\n`);
    try {
      renameSync(staging, folder);
    } catch (error) {
      if (!existsSync(marker)) throw error;
    }
    return modules;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Downloads `name@version` with `npm pack` into the cache unless it is there already; returns the tarball path. */
export function fetchTarball(name: string, version: string, cacheDir = DEFAULT_CACHE_DIR): string {
  mkdirSync(cacheDir, { recursive: true });
  const tarball = join(cacheDir, toTarballName(name, version));
  if (existsSync(tarball)) return tarball;
  // Test files run in parallel processes: pack into a private folder and rename into the cache, so
  // another process never sees (and extracts) a half-written tarball.
  const staging = mkdtempSync(join(cacheDir, '.pack-'));
  try {
    let output: string;
    try {
      output = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', staging, '--json', '--ignore-scripts'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      });
    } catch (error) {
      const stderr = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
      const reason = /npm error (?!code|A complete)(.*)/.exec(stderr)?.[1] ?? 'npm pack failed';
      throw new Error(`cannot download ${name}@${version}: ${reason}`, { cause: error });
    }
    const parsed: unknown = JSON.parse(output);
    const filename = Array.isArray(parsed) && typeof parsed[0]?.filename === 'string' ? String(parsed[0].filename) : undefined;
    const produced = join(staging, filename === undefined ? toTarballName(name, version) : filename.replace(/^.*\//, ''));
    if (!existsSync(produced)) throw new Error(`npm pack ${name}@${version} did not produce ${produced}`);
    renameSync(produced, tarball);
    return tarball;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function extractInto(tarball: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  // -m: npm tarballs give every file the same fixed mtime, so keeping it would let git's stat cache
  // take a same-size edit for an unchanged file (see commitVersion).
  execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '--no-same-owner', '-m', '-C', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function buildRealCorpus(options: CorpusOptions = {}): Promise<RealCorpus> {
  const packages: CorpusPackage[] = options.packages ?? [
    { name: options.package ?? DEFAULT_CORPUS.name, versions: options.versions ?? DEFAULT_CORPUS.versions },
  ];
  if (packages.length === 0) throw new Error('buildRealCorpus needs at least one package');
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const tarballs = packages.map((entry) => entry.versions.map((version) => fetchTarball(entry.name, version, cacheDir)));
  const dir = options.workDir ?? mkdtempSync(join(tmpdir(), 'checker-corpus-'));
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) throw new Error(`corpus folder ${dir} is not empty`);
  const home = mkdtempSync(join(tmpdir(), 'checker-corpus-home-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Corpus',
    GIT_AUTHOR_EMAIL: 'corpus@example.test',
    GIT_COMMITTER_NAME: 'Corpus',
    GIT_COMMITTER_EMAIL: 'corpus@example.test',
    LANG: 'C',
  };
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 }).trim();
  const single = packages.length === 1;
  const placed = packages.map((entry) => ({ ...entry, folder: single ? '' : `packages/${toFolderSlug(entry.name)}` }));

  const commitVersion = (index: 0 | 1, date: string): string => {
    for (const entry of readdirSync(dir)) if (entry !== '.git') rmSync(join(dir, entry), { recursive: true, force: true });
    for (const [position, entry] of placed.entries()) extractInto(tarballs[position]?.[index] ?? '', join(dir, entry.folder));
    if (!single) {
      const manifest = { name: 'checker-corpus', private: true, workspaces: ['packages/*'] };
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    }
    // Without an index git must hash every file. With the old index, a file whose size, mtime and
    // (reused) inode match its base-side entry is taken as unchanged: a same-length edit such as a
    // version string went missing from the change, depending on inode reuse.
    rmSync(join(dir, '.git', 'index'), { force: true });
    git('add', '-A', '-f');
    const label = placed.map((entry) => `${entry.name}@${entry.versions[index]}`).join(', ');
    execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', label], {
      cwd: dir,
      env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return git('rev-parse', 'HEAD');
  };

  try {
    git('init', '-q', '-b', 'main');
    const baseOid = commitVersion(0, '2026-01-01T00:00:00Z');
    const headOid = commitVersion(1, '2026-01-02T00:00:00Z');
    const files = git('ls-files')
      .split('\n')
      .filter((line) => line !== '').length;
    return { dir, baseOid, headOid, files, packages: placed.map(({ name, folder }) => ({ name, folder })) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

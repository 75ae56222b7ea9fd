import { RE2JS } from 're2js';
import { getDirName } from './paths.js';
import { getString, getStringArray, isJsonObject, type JsonObject } from './json.js';

export interface PackageInfo {
  name: string | undefined;
  /** Repository-relative folder of the package.json ('' for the root). */
  folder: string;
  manifest: JsonObject;
}

/**
 * Reads the `packages:` list of a pnpm-workspace.yaml without a YAML library: block items (`- 'apps/*'`)
 * and a flow list (`packages: [a, b]`). Anything fancier (anchors, multi-line scalars) is not supported.
 */
export function parsePnpmWorkspacePackages(text: string): string[] {
  const globs: string[] = [];
  const lines = text.split(/\r?\n/);
  const unquote = (value: string): string =>
    value
      .trim()
      .replace(/^(['"])(.*)\1$/, '$2')
      .trim();
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? '').replace(/\s+#.*$/, '');
    const header = /^packages\s*:\s*(.*)$/.exec(line);
    if (header === null) continue;
    const rest = (header[1] ?? '').trim();
    if (rest.startsWith('[')) {
      for (const item of rest.replace(/^\[|\]$/g, '').split(',')) if (unquote(item) !== '') globs.push(unquote(item));
      continue;
    }
    for (index += 1; index < lines.length; index += 1) {
      const item = (lines[index] ?? '').replace(/\s+#.*$/, '');
      if (item.trim() === '' || item.trim().startsWith('#')) continue;
      const match = /^\s*-\s*(.+)$/.exec(item);
      if (match === null) {
        index -= 1;
        break;
      }
      globs.push(unquote(match[1] ?? ''));
    }
  }
  return globs;
}

/** Longer globs match nothing: the compiled program, and so the work per folder, grows with the glob. */
export const MAX_WORKSPACE_GLOB_LENGTH = 1024;

/**
 * Compiles a workspace glob (`packages/*`, `apps/**`) to a matcher over repository-relative folders, or
 * undefined when it is too long. The glob is a repository's input, so it runs on RE2, in time linear in
 * the folder path: `a*a*a*a*b` or a run of `**` segments would backtrack for minutes in a RegExp.
 */
export function compileWorkspaceGlob(glob: string): RE2JS | undefined {
  const clean = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (clean.length > MAX_WORKSPACE_GLOB_LENGTH) return undefined;
  let source = '';
  for (let index = 0; index < clean.length; index += 1) {
    const char = clean[index] ?? '';
    if (char === '*' && clean[index + 1] === '*') {
      const slashAfter = clean[index + 2] === '/';
      source += slashAfter ? '(?:[^/]+/)*' : '.*';
      index += slashAfter ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  try {
    return RE2JS.compile(`^${source}$`);
  } catch {
    return undefined;
  }
}

function compileGlobs(globs: readonly string[]): RE2JS[] {
  return globs.map(compileWorkspaceGlob).filter((matcher) => matcher !== undefined);
}

export function getWorkspaceGlobs(rootManifest: JsonObject | undefined): string[] {
  if (rootManifest === undefined) return [];
  const workspaces = rootManifest.workspaces;
  if (Array.isArray(workspaces)) return getStringArray(workspaces);
  if (isJsonObject(workspaces)) return getStringArray(workspaces.packages);
  return [];
}

/** Maps each workspace package name to its package; folders are matched in sorted order, first one wins a name. */
export function findWorkspacePackages(packages: readonly PackageInfo[], globs: readonly string[]): Map<string, PackageInfo> {
  const include = compileGlobs(globs.filter((glob) => !glob.startsWith('!')));
  const exclude = compileGlobs(globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)));
  const byName = new Map<string, PackageInfo>();
  const sorted = [...packages].sort((left, right) => (left.folder < right.folder ? -1 : left.folder > right.folder ? 1 : 0));
  for (const info of sorted) {
    if (info.name === undefined || info.folder === '' || info.folder.split('/').includes('node_modules')) continue;
    if (!include.some((matcher) => matcher.test(info.folder)) || exclude.some((matcher) => matcher.test(info.folder))) continue;
    if (!byName.has(info.name)) byName.set(info.name, info);
  }
  return byName;
}

export function toPackageInfo(path: string, manifest: JsonObject): PackageInfo {
  return { name: getString(manifest, 'name'), folder: getDirName(path), manifest };
}

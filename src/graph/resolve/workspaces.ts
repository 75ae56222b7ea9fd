import { parsePnpmWorkspace } from '../../repo-text/pnpm-workspace.js';
import { compileGlob, MAX_GLOB_LENGTH } from '../../text/glob.js';
import { getDirName } from './paths.js';
import { getString, getStringArray, isJsonObject, type JsonObject } from './json.js';

export interface PackageInfo {
  name: string | undefined;
  /** Repository-relative folder of the package.json ('' for the root). */
  folder: string;
  manifest: JsonObject;
}

/** The `packages:` globs of a pnpm-workspace.yaml (none when it is not valid YAML). */
export function parsePnpmWorkspacePackages(text: string): string[] {
  return parsePnpmWorkspace(text) ?? [];
}

/** Longer globs match nothing (the shared glob compiler's limit). */
export const MAX_WORKSPACE_GLOB_LENGTH = MAX_GLOB_LENGTH;

/**
 * A workspace glob (`packages/*`, `apps/**`) as a predicate over repository-relative folders, or undefined
 * when it cannot run: the shared RE2 compiler, with dot names matched and parentheses literal (no extglobs).
 */
export function compileWorkspaceGlob(glob: string): ((folder: string) => boolean) | undefined {
  const clean = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (clean.length > MAX_WORKSPACE_GLOB_LENGTH) return undefined;
  return compileGlob(clean.replace(/[()]/g, '\\$&'), { dot: true }) ?? undefined;
}

function compileGlobs(globs: readonly string[]): ((folder: string) => boolean)[] {
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
    if (!include.some((matcher) => matcher(info.folder)) || exclude.some((matcher) => matcher(info.folder))) continue;
    if (!byName.has(info.name)) byName.set(info.name, info);
  }
  return byName;
}

export function toPackageInfo(path: string, manifest: JsonObject): PackageInfo {
  return { name: getString(manifest, 'name'), folder: getDirName(path), manifest };
}

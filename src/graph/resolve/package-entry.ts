import { exports as resolveExportsField, imports as resolveImportsField } from 'resolve.exports';
import { joinRepoPath } from './paths.js';
import { getString, isJsonObject } from './json.js';
import { probeExactFile, probeFile, probeIndex, type ProbePass, type RepoFiles } from './probe.js';
import type { PackageInfo } from './workspaces.js';

const PASSES: readonly ProbePass[] = ['typescript', 'javascript'];
/** `import` or `require` as the importing syntax or file extension says; unknown means both, in the package's key order. */
export type ImportMode = 'import' | 'require' | undefined;
const OUTPUT_DIRS = new Set(['dist', 'lib', 'build', 'out', 'esm', 'cjs', 'es', 'mjs', 'types', 'typings', 'module', 'commonjs']);

export type EntryResult = { target: string } | { reason: string };

export function getConditions(customConditions: readonly string[], mode: ImportMode): string[] {
  const syntax = mode === undefined ? ['import', 'require'] : [mode];
  return [...customConditions, 'types', ...syntax, 'node', 'default'];
}

/** What a bundler writes for a source file (`.mjs`, `.d.mts`, `.cjs`…): the stem is the source's, the extension any. */
const OUTPUT_EXTENSION = /\.(?:d\.[mc]?ts|[mc]?js)$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * Heuristic for monorepos whose packages point `exports`/`main` at build output that is not committed:
 * `<pkg>/dist/esm/x.js` → `<pkg>/src/x.ts` when that source exists (up to two output folders are stripped). A bundler
 * (tsup, rollup, esbuild) writes `lib/core/index.mjs` and `index.d.mts` for `src/core/index.ts`, so the output's
 * extension says nothing of the source's.
 */
function findSourceForOutput(repo: RepoFiles, folder: string, relative: string): string | undefined {
  const parts = relative.split('/');
  for (let strip = 1; strip <= 2 && strip < parts.length; strip += 1) {
    if (!OUTPUT_DIRS.has(parts[strip - 1] ?? '')) break;
    const candidate = joinRepoPath(folder, ['src', ...parts.slice(strip)].join('/'));
    if (candidate === undefined) continue;
    for (const pass of PASSES) {
      const found = probeFile(repo, candidate, pass);
      if (found !== undefined) return found;
    }
    if (!OUTPUT_EXTENSION.test(candidate)) continue;
    const stem = candidate.replace(OUTPUT_EXTENSION, '');
    const found = SOURCE_EXTENSIONS.map((extension) => stem + extension).find((path) => repo.files.has(path));
    if (found !== undefined) return found;
  }
  return undefined;
}

function probeTarget(repo: RepoFiles, folder: string, target: string, exact: boolean): string | undefined {
  const path = joinRepoPath(folder, target);
  if (path === undefined) return undefined;
  for (const pass of PASSES) {
    const found = exact ? probeExactFile(repo, path, pass) : (probeFile(repo, path, pass) ?? probeIndex(repo, path, pass));
    if (found !== undefined) return found;
  }
  return findSourceForOutput(repo, folder, path.slice(folder === '' ? 0 : folder.length + 1));
}

function resolveTargets(repo: RepoFiles, info: PackageInfo, targets: readonly string[], label: string): EntryResult {
  const local = targets.filter((target) => target.startsWith('./'));
  for (const target of local) {
    const found = probeTarget(repo, info.folder, target, true);
    if (found !== undefined) return { target: found };
  }
  const shown = local.map((target) => joinRepoPath(info.folder, target) ?? target).join(', ');
  return { reason: `${label} points to a missing file (${shown === '' ? targets.join(', ') : shown})` };
}

/** Resolves `.` or `./sub` of a package through `exports`, else `types`/`typings`/`module`/`main`, else the folder. */
export function resolvePackageEntry(repo: RepoFiles, info: PackageInfo, subpath: string, conditions: readonly string[]): EntryResult {
  const name = info.name ?? info.folder;
  if (info.manifest.exports !== undefined && info.manifest.exports !== null) {
    let targets: string[] = [];
    try {
      targets = resolveExportsField(info.manifest, subpath, { conditions, unsafe: true }) ?? [];
    } catch {
      return { reason: `package '${name}' does not export '${subpath}'` };
    }
    return resolveTargets(repo, info, targets, `export '${subpath}' of '${name}'`);
  }
  if (subpath === '.') {
    for (const field of ['types', 'typings', 'module', 'main']) {
      const value = getString(info.manifest, field);
      if (value === undefined) continue;
      const found = probeTarget(repo, info.folder, value.startsWith('./') ? value : `./${value}`, false);
      if (found !== undefined) return { target: found };
    }
    for (const pass of PASSES) {
      const found = probeIndex(repo, info.folder, pass);
      if (found !== undefined) return { target: found };
    }
    return { reason: `package '${name}' has no entry file (types/module/main/index)` };
  }
  const found = probeTarget(repo, info.folder, subpath, false);
  return found !== undefined ? { target: found } : { reason: `no file for '${subpath}' in package '${name}'` };
}

/** `#name` through the `imports` field; a bare target is handed back as `specifier` to resolve as a package. */
export function resolvePackageImport(
  repo: RepoFiles,
  info: PackageInfo,
  specifier: string,
  conditions: readonly string[],
): EntryResult | { specifier: string } {
  if (!isJsonObject(info.manifest.imports))
    return { reason: `no "imports" field in ${info.folder === '' ? '' : `${info.folder}/`}package.json` };
  let targets: string[] = [];
  try {
    targets = resolveImportsField(info.manifest, specifier, { conditions, unsafe: true }) ?? [];
  } catch {
    return { reason: `'${specifier}' is not in the "imports" of ${info.folder === '' ? '' : `${info.folder}/`}package.json` };
  }
  const bare = targets.find((target) => !target.startsWith('./') && !target.startsWith('../') && !target.startsWith('/'));
  if (bare !== undefined && !targets.some((target) => target.startsWith('./'))) return { specifier: bare };
  return resolveTargets(repo, info, targets, `import '${specifier}'`);
}

import { getSourceLanguage } from '../../model/facts.js';
import type { Resolution } from '../../model/resolve.js';
import { isNodeBuiltin } from './builtins.js';
import { type BuildOutputRule, findBuildOutputRules, toBuiltSource } from './build-output.js';
import { findCompiledSource } from './compiled-source.js';
import type { LinkKeys } from '../../model/env.js';
import { deriveLinkKeys, type LinkKeyContext } from './link-keys.js';
import { isJsonObject, parseJsonObject } from './json.js';
import { getConditions, resolvePackageEntry, resolvePackageImport, type ImportMode } from './package-entry.js';
import { createGoResolver } from './go.js';
import { getAncestorDirs, getDirName, isRelativeSpecifier, joinRepoPath } from './paths.js';
import { createPythonResolver } from './python.js';
import { probeFile, probeIndex, type ProbePass, type RepoFiles } from './probe.js';
import { createConfigLoader, matchPathPattern, splitPackageSpecifier, type ConfigProblem, type ResolutionSettings } from './tsconfig.js';
import { findWorkspacePackages, getWorkspaceGlobs, parsePnpmWorkspacePackages, toPackageInfo, type PackageInfo } from './workspaces.js';

export interface ResolverInput {
  /** Every repository file, POSIX and repo-relative. */
  files: ReadonlySet<string>;
  /** Repo path → raw JSONC of every tsconfig*.json / jsconfig.json. */
  tsconfigs: ReadonlyMap<string, string>;
  /** Repo path → raw text of every package.json. */
  packageJsons: ReadonlyMap<string, string>;
  /** Other configs that `extends` may name (e.g. `node_modules/@tsconfig/node20/tsconfig.json`, `configs/base.json`). */
  externalConfigs?: ReadonlyMap<string, string>;
  /** Raw text of the root pnpm-workspace.yaml, when there is one. */
  pnpmWorkspace?: string;
  /** Extra workspace globs (already parsed from elsewhere). */
  workspaceGlobs?: readonly string[];
  /** Repo path → text of every go.mod (Go imports inside the repository's modules). */
  goModules?: ReadonlyMap<string, string>;
  /** Repo path → text of every conftest.py: the folders they put on `sys.path` are Python import roots. */
  conftests?: ReadonlyMap<string, string>;
  /** Repo path → text of every rollup config: the bundles it writes map to their entries (build-output.ts). */
  bundlerConfigs?: ReadonlyMap<string, string>;
}

export interface Resolver {
  /**
   * `mode` picks the `import` or `require` condition of `exports`/`imports` maps; without it the
   * importing file's extension decides (.cjs/.cts require, .mjs/.mts import), else both apply.
   */
  resolve(fromFile: string, specifier: string, mode?: 'import' | 'require'): Resolution;
  /**
   * Config paths that `extends` could mean but the input did not contain (in the repository but not named
   * tsconfig*.json, or under node_modules): read those that exist, pass them as `externalConfigs` and
   * create the resolver again.
   */
  getMissingConfigs(): string[];
  getConfigProblems(): ConfigProblem[];
  /** Workspace package name → folder. */
  getWorkspacePackages(): Map<string, string>;
  /** What a file's text must hold for one of its imports to resolve to `path` (link-keys.ts). */
  getLinkKeys(path: string): LinkKeys;
}

const PASSES: readonly ProbePass[] = ['typescript', 'javascript'];
const VALID_PACKAGE_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/i;

function probeFileOrDirectory(
  repo: RepoFiles,
  packages: ReadonlyMap<string, PackageInfo>,
  candidate: string,
  pass: ProbePass,
): string | undefined {
  const file = probeFile(repo, candidate, pass);
  if (file !== undefined) return file;
  if (!repo.dirs.has(candidate)) return undefined;
  const info = packages.get(candidate === '' ? 'package.json' : `${candidate}/package.json`);
  if (info !== undefined) {
    for (const field of ['types', 'typings', 'main']) {
      const value = info.manifest[field];
      if (typeof value !== 'string') continue;
      const path = joinRepoPath(candidate, value);
      if (path === undefined) continue;
      const found = probeFile(repo, path, pass) ?? probeIndex(repo, path, pass);
      if (found !== undefined) return found;
    }
  }
  return probeIndex(repo, candidate, pass);
}

const DECLARATION = /\.d\.[cm]?ts$/;

/** The entry paths a package folder's manifest names (`main`, then `types`), repository-relative. */
function listEntryPaths(packages: ReadonlyMap<string, PackageInfo>, folder: string): string[] {
  const info = packages.get(folder === '' ? 'package.json' : `${folder}/package.json`);
  if (info === undefined) return [];
  return ['main', 'types', 'typings'].flatMap((field) => {
    const value = info.manifest[field];
    return typeof value === 'string' ? (joinRepoPath(folder, value) ?? []) : [];
  });
}

/**
 * The file Node runs for a relative `candidate` whose TypeScript resolution is a declaration: the file itself with a
 * JavaScript extension, else the folder's package `main`, else its index; undefined when only declarations are there.
 */
function probeRuntime(repo: RepoFiles, packages: ReadonlyMap<string, PackageInfo>, candidate: string): string | undefined {
  const isRuntime = (path: string | undefined): path is string => path !== undefined && !DECLARATION.test(path);
  const file = probeFile(repo, candidate, 'javascript');
  if (isRuntime(file)) return file;
  if (!repo.dirs.has(candidate)) return undefined;
  const main = packages.get(candidate === '' ? 'package.json' : `${candidate}/package.json`)?.manifest.main;
  const mainPath = typeof main === 'string' ? joinRepoPath(candidate, main) : undefined;
  if (mainPath !== undefined) {
    const found = probeFile(repo, mainPath, 'javascript') ?? probeIndex(repo, mainPath, 'javascript');
    if (isRuntime(found)) return found;
  }
  const index = probeIndex(repo, candidate, 'javascript');
  return isRuntime(index) ? index : undefined;
}

function getModeFromExtension(path: string): ImportMode {
  if (/\.(?:cjs|cts)$/.test(path)) return 'require';
  if (/\.(?:mjs|mts)$/.test(path)) return 'import';
  return undefined;
}

function collectDirs(files: ReadonlySet<string>): Set<string> {
  const dirs = new Set<string>(['']);
  for (const file of files) {
    let dir = getDirName(file);
    while (dir !== '' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = getDirName(dir);
    }
  }
  return dirs;
}

/** The format suffix of a bundle's name (`.esm` of `marked.esm.js`, `.umd.min` of `lib.umd.min.js`). */
const BUNDLE_FORMAT = /(?:\.(?:esm|cjs|umd|min|module|browser|node|es|iife|global|production|development))+(?=\.[cm]?js$)/;

/**
 * A pure module resolver over a known file set, following TypeScript's bundler/node16 rules: relative
 * paths with extension probing, tsconfig `paths`/`baseUrl`/`extends`, workspaces with `exports`,
 * self-references, `#imports`, builtins and externals. Results are cached per (directory, specifier).
 */
export function createResolver(input: ResolverInput): Resolver {
  const repo: RepoFiles = { files: input.files, dirs: collectDirs(input.files) };
  const packages = new Map<string, PackageInfo>();
  const configProblems: ConfigProblem[] = [];
  for (const [path, text] of input.packageJsons) {
    const parsed = parseJsonObject(text);
    if (parsed.value === undefined) {
      configProblems.push({ path, message: parsed.error ?? 'not a JSON object' });
      continue;
    }
    packages.set(path, toPackageInfo(path, parsed.value));
  }
  const globs = [
    ...getWorkspaceGlobs(packages.get('package.json')?.manifest),
    ...(input.pnpmWorkspace === undefined ? [] : parsePnpmWorkspacePackages(input.pnpmWorkspace)),
    ...(input.workspaceGlobs ?? []),
  ];
  const workspaces = findWorkspacePackages([...packages.values()], globs);
  const loader = createConfigLoader({
    tsconfigs: input.tsconfigs,
    externalConfigs: input.externalConfigs ?? new Map(),
    workspacePackages: workspaces,
  });
  const aliasPrefixes = new Set<string>();
  for (const path of [...input.tsconfigs.keys()].sort()) {
    for (const pattern of loader.getSettings(path).paths ?? []) aliasPrefixes.add(pattern.prefix);
  }
  for (const info of packages.values()) {
    if (!isJsonObject(info.manifest.imports)) continue;
    for (const key of Object.keys(info.manifest.imports)) aliasPrefixes.add(key.split('*')[0] ?? key);
  }
  let keyContext: LinkKeyContext | undefined;
  let buildOutputRules: BuildOutputRule[] | undefined;
  /** The repository's build-output rules, found on first need: most trees import no build output. */
  const getBuildOutputRules = (): BuildOutputRule[] => {
    buildOutputRules ??= findBuildOutputRules(repo, packages.values(), input.tsconfigs, input.bundlerConfigs);
    return buildOutputRules;
  };

  const settingsByDir = new Map<string, ResolutionSettings | undefined>();
  const scopeByDir = new Map<string, PackageInfo | undefined>();
  const cache = new Map<string, Resolution>();

  const getSettings = (dir: string): ResolutionSettings | undefined => {
    if (settingsByDir.has(dir)) return settingsByDir.get(dir);
    let found: ResolutionSettings | undefined;
    for (const ancestor of getAncestorDirs(dir)) {
      const prefix = ancestor === '' ? '' : `${ancestor}/`;
      const path = [`${prefix}tsconfig.json`, `${prefix}jsconfig.json`].find((candidate) => input.tsconfigs.has(candidate));
      if (path !== undefined) {
        found = loader.getSettings(path);
        break;
      }
    }
    settingsByDir.set(dir, found);
    return found;
  };

  const getPackageScope = (dir: string): PackageInfo | undefined => {
    if (scopeByDir.has(dir)) return scopeByDir.get(dir);
    let found: PackageInfo | undefined;
    for (const ancestor of getAncestorDirs(dir)) {
      found = packages.get(ancestor === '' ? 'package.json' : `${ancestor}/package.json`);
      if (found !== undefined) break;
    }
    scopeByDir.set(dir, found);
    return found;
  };

  /**
   * The package that owns a nameless scope and is named `name`: `test/package.json` holding only `"type": "module"` sits
   * inside the package `msw`, whose tests import `msw`. Node's self-reference stops at the nameless scope; the test
   * runner's alias or the workspace link that makes such an import work in the repository points at the package.
   */
  const findNamelessScopeOwner = (scope: PackageInfo | undefined, name: string): PackageInfo | undefined => {
    if (scope === undefined || scope.name !== undefined || scope.folder === '') return undefined;
    const owner = getPackageScope(getDirName(scope.folder));
    return owner?.name === name ? owner : findNamelessScopeOwner(owner, name);
  };

  const resolveLocal = (candidate: string): string | undefined => {
    for (const pass of PASSES) {
      const found = probeFileOrDirectory(repo, packages, candidate, pass);
      if (found !== undefined) return found;
    }
    return undefined;
  };

  /** `paths`, then `baseUrl` (skipped for `#` names), once per probe pass as TypeScript does. */
  const resolveWithCompilerOptions = (dir: string, specifier: string): { resolution: Resolution } | { aliasMiss?: Resolution } => {
    const settings = getSettings(dir);
    const matched = settings?.paths === undefined ? undefined : matchPathPattern(settings.paths, specifier);
    const baseUrl = specifier.startsWith('#') ? undefined : settings?.baseUrl;
    const tried: string[] = [];
    for (const pass of PASSES) {
      if (matched !== undefined && settings?.pathsBase !== undefined) {
        for (const substitution of matched.pattern.substitutions) {
          const replaced = substitution.replace('*', matched.star);
          const candidate = joinRepoPath(replaced.startsWith('/') ? '' : settings.pathsBase, replaced);
          if (candidate === undefined) continue;
          if (pass === 'typescript') tried.push(candidate);
          const found = probeFileOrDirectory(repo, packages, candidate, pass);
          if (found !== undefined) return { resolution: { specifier, kind: 'paths', target: found } };
        }
      }
      if (baseUrl !== undefined) {
        const candidate = joinRepoPath(baseUrl, specifier);
        const found = candidate === undefined ? undefined : probeFileOrDirectory(repo, packages, candidate, pass);
        if (found !== undefined) return { resolution: { specifier, kind: 'baseUrl', target: found } };
      }
    }
    if (matched === undefined || matched.pattern.pattern === '*') return {};
    const reason = `paths alias '${matched.pattern.pattern}' matched but no file found (tried ${tried.join(', ')})`;
    return { aliasMiss: { specifier, kind: 'unresolved', reason } };
  };

  const resolveBare = (dir: string, specifier: string, mode: ImportMode): Resolution => {
    const compiled = resolveWithCompilerOptions(dir, specifier);
    if ('resolution' in compiled) return compiled.resolution;
    const conditions = getConditions(getSettings(dir)?.customConditions ?? [], mode);
    if (isNodeBuiltin(specifier)) return { specifier, kind: 'builtin' };
    const split = splitPackageSpecifier(specifier);
    if (split === undefined || !VALID_PACKAGE_NAME.test(split.name)) {
      return { specifier, kind: 'unresolved', reason: `'${specifier}' is neither a path nor a valid package name` };
    }
    const scope = getPackageScope(dir);
    const self =
      scope !== undefined && scope.name === split.name && scope.manifest.exports !== undefined
        ? scope
        : findNamelessScopeOwner(scope, split.name);
    if (self !== undefined) {
      const entry = resolvePackageEntry(repo, self, split.subpath, conditions);
      return 'target' in entry
        ? { specifier, kind: 'package-self', target: entry.target }
        : { specifier, kind: 'unresolved', reason: entry.reason };
    }
    const workspace = workspaces.get(split.name);
    if (workspace !== undefined) {
      const entry = resolvePackageEntry(repo, workspace, split.subpath, conditions);
      const kind = scope?.folder === workspace.folder ? 'package-self' : 'workspace';
      return 'target' in entry ? { specifier, kind, target: entry.target } : { specifier, kind: 'unresolved', reason: entry.reason };
    }
    if (compiled.aliasMiss !== undefined) return compiled.aliasMiss;
    return { specifier, kind: 'external', packageName: split.name };
  };

  const resolveUncached = (dir: string, specifier: string, mode: ImportMode): Resolution => {
    if (specifier === '') return { specifier, kind: 'unresolved', reason: 'empty specifier' };
    if (specifier.startsWith('node:')) return { specifier, kind: 'builtin' };
    if (isRelativeSpecifier(specifier) || specifier.startsWith('/')) {
      const candidate = specifier.startsWith('/') ? joinRepoPath('', specifier) : joinRepoPath(dir, specifier);
      if (candidate === undefined) return { specifier, kind: 'unresolved', reason: `'${specifier}' points outside the repository` };
      const found = resolveLocal(candidate);
      if (found === undefined) {
        const rules = getBuildOutputRules();
        // The path itself in build output (`../dist/a.js`), or a package folder whose entry is (`..` from a package's
        // test/, its `main` ./dist/index.js built from lib/ by tsc).
        for (const path of [candidate, ...listEntryPaths(packages, candidate)]) {
          const built = toBuiltSource(rules, path);
          // A bundle named for its format (marked's `lib/marked.esm.js`, built from `src/marked.ts`) lands on the entry
          // without the format's suffix.
          const source =
            built === undefined ? undefined : (resolveLocal(built.path) ?? resolveLocal(built.path.replace(BUNDLE_FORMAT, '')));
          if (built !== undefined && source !== undefined)
            return { specifier, kind: 'relative', target: source, builtFrom: built.rule.rule };
        }
        return { specifier, kind: 'unresolved', reason: `no file for ${candidate === '' ? '.' : candidate}` };
      }
      // Compiled output beside its TypeScript source (a package that ships both) is reached through the source's own
      // imports already: only hand-written JavaScript behind hand-written declarations needs the runtime edge.
      const probed = DECLARATION.test(found) ? probeRuntime(repo, packages, candidate) : undefined;
      const runtime = probed !== undefined && findCompiledSource(probed, (path) => repo.files.has(path)) === undefined ? probed : undefined;
      return runtime === undefined
        ? { specifier, kind: 'relative', target: found }
        : { specifier, kind: 'relative', target: found, runtimeTarget: runtime };
    }
    if (specifier.startsWith('#')) {
      const compiled = resolveWithCompilerOptions(dir, specifier);
      if ('resolution' in compiled) return compiled.resolution;
      const scope = getPackageScope(dir);
      if (scope === undefined || !isJsonObject(scope.manifest.imports)) {
        if (compiled.aliasMiss !== undefined) return compiled.aliasMiss;
        if (scope === undefined) return { specifier, kind: 'unresolved', reason: 'no package.json above the importing file' };
      }
      const entry = resolvePackageImport(repo, scope, specifier, getConditions(getSettings(dir)?.customConditions ?? [], mode));
      if ('specifier' in entry) {
        const inner = resolveBare(scope.folder, entry.specifier, mode);
        return { ...inner, specifier };
      }
      return 'target' in entry
        ? { specifier, kind: 'package-self', target: entry.target }
        : { specifier, kind: 'unresolved', reason: entry.reason };
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(specifier) && !specifier.startsWith('@')) {
      const npm = /^npm:((?:@[^/@]+\/)?[^/@]+)/.exec(specifier);
      return npm?.[1] !== undefined
        ? { specifier, kind: 'external', packageName: npm[1] }
        : { specifier, kind: 'unresolved', reason: `URL-style specifier '${specifier}' is not resolved` };
    }
    return resolveBare(dir, specifier, mode);
  };

  let resolvePython: ((fromFile: string, specifier: string) => Resolution) | undefined;
  let resolveGo: ((fromFile: string, specifier: string) => Resolution) | undefined;
  /** Python and Go imports, each language's own rules (python.ts, go.ts), cached per importing folder (file for `.`). */
  const resolveOtherLanguage = (language: 'python' | 'go', fromFile: string, specifier: string): Resolution => {
    const key = `${language}\0${language === 'go' && specifier === '.' ? fromFile : getDirName(fromFile)}\0${specifier}`;
    const cached = cache.get(key);
    if (cached !== undefined) return { ...cached };
    let resolution: Resolution;
    if (language === 'python') {
      resolvePython ??= createPythonResolver(repo, input.conftests ?? new Map());
      resolution = resolvePython(fromFile, specifier);
    } else {
      resolveGo ??= createGoResolver({ files: input.files, goModules: input.goModules ?? new Map() });
      resolution = resolveGo(fromFile, specifier);
    }
    cache.set(key, resolution);
    return { ...resolution };
  };

  return {
    resolve(fromFile, specifier, mode) {
      const language = getSourceLanguage(fromFile);
      if (language === 'python' || language === 'go') return resolveOtherLanguage(language, fromFile, specifier);
      const dir = getDirName(fromFile);
      const effectiveMode = mode ?? getModeFromExtension(fromFile);
      const key = `${dir}\0${effectiveMode ?? ''}\0${specifier}`;
      const cached = cache.get(key);
      if (cached !== undefined) return { ...cached };
      const resolution = resolveUncached(dir, specifier, effectiveMode);
      cache.set(key, resolution);
      return { ...resolution };
    },
    getMissingConfigs: () => [...loader.missing].sort(),
    getConfigProblems: () => [...configProblems, ...loader.problems],
    getWorkspacePackages: () => new Map([...workspaces].map(([name, info]) => [name, info.folder])),
    getLinkKeys(path) {
      keyContext ??= {
        packages: [...packages.values()],
        aliasPrefixes: [...aliasPrefixes],
        buildOutputs: getBuildOutputRules().map((rule) => ({
          output: rule.output,
          source: rule.source,
          ...(rule.file ? { file: true } : {}),
        })),
      };
      return deriveLinkKeys(path, keyContext);
    },
  };
}

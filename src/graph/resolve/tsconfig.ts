import { getAncestorDirs, getDirName, isRelativeSpecifier, joinRepoPath } from './paths.js';
import { getString, getStringArray, isJsonObject, parseJsonObject, type JsonObject } from './json.js';
import type { PackageInfo } from './workspaces.js';

export interface PathPattern {
  pattern: string;
  prefix: string;
  suffix: string;
  hasStar: boolean;
  substitutions: string[];
}

/** The compiler options that matter to resolution, after `extends` merging; directories are repo-relative. */
export interface ResolutionSettings {
  configPath: string;
  baseUrl?: string;
  paths?: PathPattern[];
  /** Where `paths` substitutions are rooted: `baseUrl` when set, else the folder of the config declaring `paths`. */
  pathsBase?: string;
  customConditions: string[];
}

export interface ConfigProblem {
  path: string;
  message: string;
}

/** A directory as declared: fixed, or relative to the leaf config through TypeScript 5.5's `${configDir}`. */
type DeclaredDir = { dir: string } | { fromLeaf: string };

interface MergedOptions {
  baseUrl?: DeclaredDir;
  paths?: { value: JsonObject; base: string };
  customConditions?: string[];
}

const CONFIG_DIR = '${configDir}';

export interface ConfigSources {
  tsconfigs: ReadonlyMap<string, string>;
  externalConfigs: ReadonlyMap<string, string>;
  workspacePackages: ReadonlyMap<string, PackageInfo>;
}

export function splitPackageSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  const parts = specifier.split('/');
  const scoped = specifier.startsWith('@');
  if (scoped && parts.length < 2) return undefined;
  const name = scoped ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '');
  const rest = parts.slice(scoped ? 2 : 1).join('/');
  return { name, subpath: rest === '' ? '.' : `./${rest}` };
}

function toPathPatterns(paths: JsonObject): PathPattern[] {
  const patterns: PathPattern[] = [];
  for (const [pattern, value] of Object.entries(paths)) {
    const star = pattern.indexOf('*');
    if (star !== pattern.lastIndexOf('*')) continue;
    patterns.push({
      pattern,
      prefix: star === -1 ? pattern : pattern.slice(0, star),
      suffix: star === -1 ? '' : pattern.slice(star + 1),
      hasStar: star !== -1,
      substitutions: getStringArray(value),
    });
  }
  return patterns;
}

/** TypeScript's `matchPatternOrExact`: an exact key first, else the `*` pattern with the longest prefix. */
export function matchPathPattern(patterns: readonly PathPattern[], specifier: string): { pattern: PathPattern; star: string } | undefined {
  let best: PathPattern | undefined;
  for (const pattern of patterns) {
    if (!pattern.hasStar) {
      if (pattern.pattern === specifier) return { pattern, star: '' };
      continue;
    }
    const fits =
      specifier.length >= pattern.prefix.length + pattern.suffix.length &&
      specifier.startsWith(pattern.prefix) &&
      specifier.endsWith(pattern.suffix);
    if (fits && (best === undefined || pattern.prefix.length > best.prefix.length)) best = pattern;
  }
  if (best === undefined) return undefined;
  return { pattern: best, star: specifier.slice(best.prefix.length, specifier.length - best.suffix.length) };
}

/** Loads tsconfig/jsconfig files with their `extends` chains, recording configs it needed but was not given. */
export function createConfigLoader(sources: ConfigSources): {
  getSettings(configPath: string): ResolutionSettings;
  missing: Set<string>;
  problems: ConfigProblem[];
} {
  const merged = new Map<string, MergedOptions>();
  const settings = new Map<string, ResolutionSettings>();
  const missing = new Set<string>();
  const problems: ConfigProblem[] = [];
  const reported = new Set<string>();

  const readConfig = (path: string): string | undefined => sources.tsconfigs.get(path) ?? sources.externalConfigs.get(path);

  const report = (path: string, message: string): void => {
    const key = `${path}\0${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ path, message });
  };

  const findExtended = (fromConfig: string, extended: string): string | undefined => {
    const configDir = getDirName(fromConfig);
    if (isRelativeSpecifier(extended) || extended.startsWith('/')) {
      const joined = extended.startsWith('/') ? undefined : joinRepoPath(configDir, extended);
      if (joined === undefined) {
        report(fromConfig, `extends '${extended}' points outside the repository`);
        return undefined;
      }
      const candidates = extended.endsWith('.json') ? [joined] : [joined, `${joined}.json`];
      const found = candidates.find((candidate) => readConfig(candidate) !== undefined);
      if (found === undefined) {
        for (const candidate of candidates) missing.add(candidate);
        report(fromConfig, `extends '${extended}' not found (tried ${candidates.join(', ')})`);
      }
      return found;
    }
    const split = splitPackageSpecifier(extended);
    const workspace = split === undefined ? undefined : sources.workspacePackages.get(split.name);
    const candidates: string[] = [];
    const addPackageCandidates = (packageRoot: string, subpath: string, manifest: JsonObject | undefined): void => {
      if (subpath === '.') {
        const field = manifest === undefined ? undefined : getString(manifest, 'tsconfig');
        if (field !== undefined) {
          const path = joinRepoPath(packageRoot, field);
          if (path !== undefined) candidates.push(path);
        }
        candidates.push(`${packageRoot}/tsconfig.json`);
        return;
      }
      const path = joinRepoPath(packageRoot, subpath);
      if (path === undefined) return;
      candidates.push(path);
      if (!path.endsWith('.json')) candidates.push(`${path}.json`, `${path}/tsconfig.json`);
    };
    if (workspace !== undefined && split !== undefined) {
      addPackageCandidates(workspace.folder, split.subpath, workspace.manifest);
    }
    const external: string[] = [...candidates];
    if (split !== undefined && workspace === undefined) {
      for (const dir of getAncestorDirs(configDir)) {
        const root = dir === '' ? `node_modules/${split.name}` : `${dir}/node_modules/${split.name}`;
        const manifestText = sources.externalConfigs.get(`${root}/package.json`);
        const manifest = manifestText === undefined ? undefined : parseJsonObject(manifestText).value;
        const before = candidates.length;
        addPackageCandidates(root, split.subpath, manifest);
        external.push(...candidates.slice(before));
      }
    }
    const found = candidates.find((candidate) => readConfig(candidate) !== undefined);
    if (found === undefined) {
      for (const candidate of external) missing.add(candidate);
      report(fromConfig, `extends '${extended}' not available (the package's config was not provided)`);
    }
    return found;
  };

  const mergeConfig = (path: string, stack: readonly string[]): MergedOptions => {
    const cached = merged.get(path);
    if (cached !== undefined) return cached;
    const text = readConfig(path);
    const result: MergedOptions = {};
    if (text === undefined) return result;
    const parsed = parseJsonObject(text);
    if (parsed.error !== undefined) report(path, parsed.error);
    const config = parsed.value ?? {};
    const extendsValue = config.extends;
    const bases = typeof extendsValue === 'string' ? [extendsValue] : getStringArray(extendsValue);
    for (const base of bases) {
      const basePath = findExtended(path, base);
      if (basePath === undefined) continue;
      if (stack.includes(basePath)) {
        report(path, `extends cycle through ${basePath}`);
        continue;
      }
      Object.assign(result, mergeConfig(basePath, [...stack, basePath]));
    }
    const options = isJsonObject(config.compilerOptions) ? config.compilerOptions : {};
    const configDir = getDirName(path);
    const baseUrl = getString(options, 'baseUrl');
    if (baseUrl?.startsWith(CONFIG_DIR)) {
      result.baseUrl = { fromLeaf: `.${baseUrl.slice(CONFIG_DIR.length)}` };
    } else if (baseUrl !== undefined) {
      const resolved = joinRepoPath(configDir, baseUrl);
      if (resolved === undefined) report(path, `baseUrl '${baseUrl}' points outside the repository`);
      else result.baseUrl = { dir: resolved };
    }
    if (isJsonObject(options.paths)) result.paths = { value: options.paths, base: configDir };
    if (Array.isArray(options.customConditions)) result.customConditions = getStringArray(options.customConditions);
    merged.set(path, result);
    return result;
  };

  const getSettings = (configPath: string): ResolutionSettings => {
    const cached = settings.get(configPath);
    if (cached !== undefined) return cached;
    const options = mergeConfig(configPath, [configPath]);
    const leafDir = getDirName(configPath);
    const value: ResolutionSettings = { configPath, customConditions: options.customConditions ?? [] };
    const baseUrl =
      options.baseUrl === undefined
        ? undefined
        : 'dir' in options.baseUrl
          ? options.baseUrl.dir
          : joinRepoPath(leafDir, options.baseUrl.fromLeaf);
    if (baseUrl !== undefined) value.baseUrl = baseUrl;
    if (options.paths !== undefined) {
      value.paths = toPathPatterns(options.paths.value).map((pattern) => ({
        ...pattern,
        substitutions: pattern.substitutions.map((substitution) =>
          substitution.startsWith(CONFIG_DIR)
            ? `${leafDir === '' ? '' : '/'}${leafDir}${substitution.slice(CONFIG_DIR.length)}`
            : substitution,
        ),
      }));
      value.pathsBase = baseUrl ?? options.paths.base;
    }
    settings.set(configPath, value);
    return value;
  };

  return { getSettings, missing, problems };
}

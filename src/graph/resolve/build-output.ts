import { compareText } from '../../text/compare-text.js';
import { isJsonObject, type JsonObject, parseJsonObject } from './json.js';
import { getDirName, joinRepoPath } from './paths.js';
import type { RepoFiles } from './probe.js';
import type { PackageInfo } from './workspaces.js';

/**
 * A folder the repository builds into but does not hold (`lib/`, produced by babel or tsc and ignored by git), mapped
 * to the folder it is built from, with the rule that says so: an import of `../lib/a` lands on `src/a.js`.
 */
export interface BuildOutputRule {
  output: string;
  source: string;
  /** Where the repository says so, in words (`package.json scripts.build: babel src --out-dir lib`). */
  rule: string;
  /**
   * The folders a tsconfig's `include` names (`lib/` of `lib/**\/*.ts`): only sources inside them are built into
   * `output`. Unset when the compiler takes everything under `source`.
   */
  within?: string[];
  /** A bundle: `output` is one file built from the entry file `source` (rollup's `output.file` from its `input`). */
  file?: true;
}

/** babel's flags that take a value: the word after them is no source folder. */
const BABEL_VALUE_FLAGS = new Set([
  '--out-dir',
  '-d',
  '--out-file',
  '-o',
  '--extensions',
  '-x',
  '--config-file',
  '--ignore',
  '--only',
  '--env-name',
  '--root-mode',
  '--presets',
  '--plugins',
  '--source-root',
  '--out-file-extension',
  '--relative',
]);

function normalizeFolder(base: string, folder: string): string | undefined {
  const trimmed = folder.replace(/^['"]|['"]$/g, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.' || /[*?{]/.test(trimmed)) return undefined;
  return joinRepoPath(base, trimmed.startsWith('./') ? trimmed : `./${trimmed}`);
}

function isOwnFolder(folder: string): boolean {
  return /^['"]?\.\/?['"]?$/.test(folder);
}

/** `babel <source> --out-dir <output>` (or `-d`, `--out-dir=`) in each script of a package. */
function findBabelRules(info: PackageInfo): BuildOutputRule[] {
  const scripts = isJsonObject(info.manifest.scripts) ? info.manifest.scripts : {};
  const rules: BuildOutputRule[] = [];
  for (const [name, script] of Object.entries(scripts)) {
    if (typeof script !== 'string') continue;
    for (const command of script.split(/&&|\|\||[;|]/)) {
      const words = command.trim().split(/\s+/);
      const start = words.findIndex((word) => /(?:^|\/)babel$/.test(word));
      if (start === -1) continue;
      let source: string | undefined;
      let output: string | undefined;
      for (let index = start + 1; index < words.length; index += 1) {
        const word = words[index] ?? '';
        const inline = /^--out-dir=(.+)$/.exec(word);
        if (inline?.[1] !== undefined) output = inline[1];
        else if (word === '--out-dir' || word === '-d') output = words[index + 1];
        if (word.startsWith('-')) {
          if (BABEL_VALUE_FLAGS.has(word)) index += 1;
          continue;
        }
        source ??= word;
      }
      const from = source === undefined ? undefined : normalizeFolder(info.folder, source);
      // `babel src -d .` (validator.js) builds into the package's own folder: `../index` from test/ is src/index.js.
      const to = output === undefined ? undefined : isOwnFolder(output) ? info.folder : normalizeFolder(info.folder, output);
      if (from !== undefined && to !== undefined)
        rules.push({ output: to, source: from, rule: `${manifestPath(info)} scripts.${name}: ${command.trim()}` });
    }
  }
  return rules;
}

function manifestPath(info: PackageInfo): string {
  return info.folder === '' ? 'package.json' : `${info.folder}/package.json`;
}

/**
 * The folders a tsconfig's `include` names before its first pattern (`lib` of `./lib/**\/*.ts`, `src` of `src`);
 * undefined when any include takes files anywhere (`**\/*.ts`) or names a file.
 */
function findIncludedFolders(base: string, includes: readonly string[]): string[] | undefined {
  if (includes.length === 0) return undefined;
  const folders: string[] = [];
  for (const item of includes) {
    const parts = item.replace(/^\.\//, '').split('/');
    const firstPattern = parts.findIndex((part) => /[*?{[]/.test(part));
    const literal = firstPattern === -1 ? parts : parts.slice(0, firstPattern);
    if (literal.length === 0 || (firstPattern === -1 && /\.[a-z]+$/i.test(parts.at(-1) ?? ''))) return undefined;
    const folder = normalizeFolder(base, literal.join('/'));
    if (folder === undefined) return undefined;
    folders.push(folder);
  }
  return folders;
}

/**
 * The `include` and `rootDir` a tsconfig takes, from itself or else from the configs it `extends` by a relative path in
 * the same folder tree (minimatch's tsconfig-esm.json sets only `outDir` and extends tsconfig-base.json, which
 * includes `src/**\/*.ts`), a few levels at most; each found with the folder it is relative to.
 */
function findSourceSettings(
  path: string,
  config: JsonObject,
  tsconfigs: ReadonlyMap<string, string>,
): { includes: string[]; rootDir: string | undefined; base: string } {
  let current = config;
  let currentPath = path;
  for (let depth = 0; depth < MAX_EXTENDS; depth++) {
    const options = isJsonObject(current.compilerOptions) ? current.compilerOptions : {};
    const includes = Array.isArray(current.include) ? current.include.filter((item) => typeof item === 'string') : [];
    const rootDir = typeof options.rootDir === 'string' ? options.rootDir : undefined;
    if (includes.length > 0 || rootDir !== undefined) return { includes, rootDir, base: getDirName(currentPath) };
    const parent = typeof current.extends === 'string' && current.extends.startsWith('.') ? current.extends : undefined;
    const parentPath =
      parent === undefined ? undefined : joinRepoPath(getDirName(currentPath), parent.endsWith('.json') ? parent : `${parent}.json`);
    const text = parentPath === undefined ? undefined : tsconfigs.get(parentPath);
    const parsed = text === undefined ? undefined : parseJsonObject(text).value;
    if (parentPath === undefined || parsed === undefined) break;
    current = parsed;
    currentPath = parentPath;
  }
  return { includes: [], rootDir: undefined, base: getDirName(path) };
}

const MAX_EXTENDS = 4;

/** A tsconfig's `outDir` with its `rootDir` (or its one `include` folder), its own or those of the configs it extends. */
function findTsconfigRule(path: string, text: string, tsconfigs: ReadonlyMap<string, string>): BuildOutputRule | undefined {
  const config: JsonObject = parseJsonObject(text).value ?? {};
  const options = isJsonObject(config.compilerOptions) ? config.compilerOptions : {};
  const outDir = typeof options.outDir === 'string' ? options.outDir : undefined;
  if (outDir === undefined) return undefined;
  const settings = findSourceSettings(path, config, tsconfigs);
  const includes = settings.includes;
  const included = new Set(includes.map((item) => item.replace(/^\.\//, '').split('/')[0] ?? ''));
  const rootDir = settings.rootDir ?? (included.size === 1 ? [...included][0] : undefined);
  const base = getDirName(path);
  const sourceBase = settings.base;
  const output = normalizeFolder(base, outDir);
  // `rootDir: "."`: the tsconfig's own folder is the source (yargs builds lib/ and the rest into build/).
  const isOwnFolder = rootDir !== undefined && /^\.\/?$/.test(rootDir.trim());
  const source = rootDir === undefined ? undefined : isOwnFolder ? sourceBase : normalizeFolder(sourceBase, rootDir);
  if (output === undefined || source === undefined || output === source) return undefined;
  const within = findIncludedFolders(sourceBase, includes);
  return {
    output,
    source,
    ...(within === undefined ? {} : { within }),
    rule: `${path} compilerOptions: outDir ${outDir}, ${settings.rootDir !== undefined ? 'rootDir' : 'include'} ${rootDir}${isOwnFolder ? ' (its own folder)' : ''}`,
  };
}

/**
 * tshy (a package's `tshy` settings): it builds `src/` into `dist/esm` and `dist/commonjs`, and into a folder of each
 * dialect its `esmDialects` and `commonjsDialects` add (`dist/browser`). minimatch's tests import `../dist/esm/index.js`.
 */
function findTshyRules(info: PackageInfo): BuildOutputRule[] {
  const settings = info.manifest.tshy;
  if (!isJsonObject(settings)) return [];
  const dialects = ['esm', 'commonjs'];
  for (const key of ['esmDialects', 'commonjsDialects']) {
    const extra = settings[key];
    if (Array.isArray(extra)) for (const name of extra) if (typeof name === 'string' && /^[\w-]+$/.test(name)) dialects.push(name);
  }
  const source = normalizeFolder(info.folder, 'src');
  if (source === undefined) return [];
  return dialects.flatMap((dialect) => {
    const output = normalizeFolder(info.folder, `dist/${dialect}`);
    return output === undefined ? [] : [{ output, source, rule: `${manifestPath(info)} tshy: builds src/ into dist/${dialect}/` }];
  });
}

/** `main` (or a string `exports`) pointing into a first-level folder the package does not hold, beside its `src/`. */
function findEntryRule(info: PackageInfo, repo: RepoFiles): BuildOutputRule | undefined {
  for (const field of ['main', 'module', 'exports']) {
    const value = info.manifest[field];
    if (typeof value !== 'string') continue;
    const first = value.replace(/^\.\//, '').split('/')[0];
    if (first === undefined || first === value.replace(/^\.\//, '') || first === 'src') continue;
    const output = normalizeFolder(info.folder, first);
    const source = normalizeFolder(info.folder, 'src');
    if (output === undefined || source === undefined || !repo.dirs.has(source)) continue;
    return {
      output,
      source,
      rule: `${manifestPath(info)} ${field} ${value} points into ${first}/, which the repository does not hold, beside src/`,
    };
  }
  return undefined;
}

/** `input: './lib/cjs.ts'` and `file: './build/index.cjs'` in a rollup config, quoted either way. */
const ROLLUP_INPUT = /\binput\s*:\s*(['"])([^'"\n]+)\1/g;
const ROLLUP_FILE = /\bfile\s*:\s*(['"])([^'"\n]+)\1/g;

/**
 * The bundles a rollup config writes (`output.file`), each built from its one entry (`input`), read from the config's
 * text: yargs's tests require `../build/index.cjs`, which `rollup.config.cjs` bundles from `./lib/cjs.ts`. A config with
 * several entries, or an entry the repository does not hold, says no one file.
 */
function findBundleRules(path: string, text: string, repo: RepoFiles): BuildOutputRule[] {
  const inputs = [...new Set([...text.matchAll(ROLLUP_INPUT)].map((match) => match[2] ?? ''))];
  const base = getDirName(path);
  const input = inputs.length === 1 ? joinRepoPath(base, inputs[0] ?? '') : undefined;
  if (input === undefined || !repo.files.has(input)) return [];
  return [...new Set([...text.matchAll(ROLLUP_FILE)].map((match) => match[2] ?? ''))].flatMap((file) => {
    const output = joinRepoPath(base, file);
    return output === undefined || output === input
      ? []
      : [{ output, source: input, file: true as const, rule: `${path}: bundles ${inputs[0]} into ${file}` }];
  });
}

/**
 * The build-output folders of a repository that it does not hold, each with its source folder: from babel's
 * `--out-dir` in package.json scripts, tshy's settings, tsconfig `outDir`/`rootDir`, then package.json `main` into a missing folder
 * beside `src/`; the first rule for a folder wins. Bundles a rollup config writes map file to file.
 */
export function findBuildOutputRules(
  repo: RepoFiles,
  packages: Iterable<PackageInfo>,
  tsconfigs: ReadonlyMap<string, string>,
  bundlerConfigs: ReadonlyMap<string, string> = new Map(),
): BuildOutputRule[] {
  const sortedPackages = [...packages].sort((left, right) => compareText(left.folder, right.folder));
  const candidates = [
    ...sortedPackages.flatMap(findBabelRules),
    ...sortedPackages.flatMap(findTshyRules),
    ...[...tsconfigs]
      .filter(([path]) => !path.includes('node_modules/'))
      .sort(([left], [right]) => compareText(left, right))
      .flatMap(([path, text]) => findTsconfigRule(path, text, tsconfigs) ?? []),
    ...sortedPackages.flatMap((info) => findEntryRule(info, repo) ?? []),
    ...[...bundlerConfigs]
      .filter(([path]) => !path.includes('node_modules/'))
      .sort(([left], [right]) => compareText(left, right))
      .flatMap(([path, text]) => findBundleRules(path, text, repo)),
  ];
  const rules = new Map<string, BuildOutputRule>();
  const packageFolders = new Set(sortedPackages.map((info) => info.folder));
  for (const rule of candidates) {
    // A bundle maps only when the repository lacks it: a committed one is itself the file an import lands on.
    if (rule.file === true) {
      if (!repo.files.has(rule.output) && !rules.has(rule.output)) rules.set(rule.output, rule);
      continue;
    }
    // A package's own folder always exists; built into, it maps only the files it lacks.
    const absent = !repo.dirs.has(rule.output) || (packageFolders.has(rule.output) && rule.output !== rule.source);
    if (absent && (rule.source === '' || repo.dirs.has(rule.source)) && !rules.has(rule.output)) rules.set(rule.output, rule);
  }
  // The longest output first, so a nested output folder wins over its parent.
  return [...rules.values()].sort((left, right) => right.output.length - left.output.length);
}

/** The source path an absent build-output `candidate` is built from, with its rule; undefined when no rule covers it. */
export function toBuiltSource(rules: readonly BuildOutputRule[], candidate: string): { path: string; rule: BuildOutputRule } | undefined {
  for (const rule of rules) {
    if (rule.file === true) {
      if (candidate === rule.output) return { path: rule.source, rule };
      continue;
    }
    if (rule.output !== '' && candidate !== rule.output && !candidate.startsWith(`${rule.output}/`)) continue;
    const rest = rule.output === '' ? `/${candidate}` : candidate.slice(rule.output.length);
    const path = rule.source === '' ? rest.replace(/^\//, '') : `${rule.source}${rest}`;
    if (rule.within !== undefined && !rule.within.some((folder) => path.startsWith(`${folder}/`))) continue;
    return { path, rule };
  }
  return undefined;
}

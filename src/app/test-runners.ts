import { isJsonObject, type JsonObject, parseJsonObject } from '../graph/resolve/json.js';
import { isTestNamedPath } from '../graph/roles.js';
import { compareText } from '../text/compare-text.js';
import { compileGlobs } from '../text/glob.js';

/**
 * Which runner a repository's own configuration gives a test file, read statically (no config is executed): karma's
 * `files` and mocha's spec globs select files; vitest's `typecheck` runs type tests. A file no configuration selects
 * is left to the runner its imports or dependencies name (test-run.ts).
 */
export interface RunnerSelectors {
  karma: KarmaSuite[];
  mocha: MochaSpecs[];
  /** Package folders whose vitest config (or a script) turns type checking on. */
  vitestTypecheck: Set<string>;
  /** Configurations read in vain: the runners of the tests under them are then chosen by convention. */
  unread: UnreadRunnerConfig[];
  /** Files a runner loads before each of its test files (setup files, helpers): what they import, every such test reaches. */
  setup: RunnerSetup[];
  /** Configs a package script names (`vitest --config=./test/node/vitest.config.ts`): they run the tests under them. */
  scripted: ScriptedConfig[];
  /**
   * Per package folder, the flags its script gives mocha that change how a file loads (`--require @babel/register`,
   * `--ui tdd`, `--file test/setup.js`, a node loader): a command naming single files needs them too.
   */
  mochaFlags?: Map<string, string[]>;
  /** Per package folder, the load flags its script gives `node --test` (`-r esbuild-register`), in order, each before its value. */
  nodeTestFlags?: Map<string, string[]>;
  /** lab and uvu: per runner, then per package folder, the load flags its script gives it (`uvu -r ts-node/register`). */
  runnerFlags?: Map<'lab' | 'uvu', Map<string, string[]>>;
}

/**
 * Flags, each with its value, that change how lab or uvu loads a file: lab's assertion library and transforms (not its
 * coverage threshold, which a run of a few files would miss), uvu's preloaded modules.
 */
const RUNNER_LOAD_FLAGS: readonly (readonly ['lab' | 'uvu', RegExp, ReadonlySet<string>])[] = [
  ['lab', /(?:^|\/)lab$/, new Set(['-a', '--assert', '-T', '--transform'])],
  ['uvu', /(?:^|\/)uvu$/, new Set(['-r', '--require'])],
];

/** A runner config named by a package script, in a folder below the package's: it runs the test files under its folder. */
export interface ScriptedConfig {
  runner: 'vitest' | 'jest' | 'playwright';
  /** The folder the script runs from: its package's. */
  cwd: string;
  /** The config path, repository-relative. */
  config: string;
  /** The config's folder: the test files under it are its. */
  folder: string;
}

export interface RunnerSetup {
  /** The configuration that names them, repository-relative. */
  config: string;
  /** Whether a repository path is one of its setup files. */
  isSetupFile: (path: string) => boolean;
  /** Whether a test file is one it loads them for. */
  runsFor: (path: string) => boolean;
}

export interface UnreadRunnerConfig {
  path: string;
  /** Why nothing could be read from it: invalid JSON, or a list that only running the config would give. */
  reason: string;
}

export interface KarmaSuite {
  /** The folder karma runs from: the config's. */
  folder: string;
  /** The config path, repository-relative. */
  config: string;
  /** Whether its package declares `karma`: then its `*.spec.*` files are karma's when no `files` glob can be read. */
  declared: boolean;
  select: (path: string) => boolean;
  hasPatterns: boolean;
}

interface MochaSpecs {
  folder: string;
  select: (path: string) => boolean;
}

/** The file names whose text `buildRunnerSelectors` reads. */
const KARMA_CONFIG = /(?:^|\/)karma\.conf(?:ig)?\.[cm]?[jt]s$/;
const MOCHA_CONFIG = /(?:^|\/)\.mocharc(?:\.(?:js|cjs|mjs|json|jsonc|yml|yaml))?$/;
const VITEST_CONFIG = /(?:^|\/)vite(?:st)?\.(?:config|workspace)(?:\.[\w-]+)?\.[cm]?[jt]s$/;
const PACKAGE_JSON = /(?:^|\/)package\.json$/;
const JASMINE_CONFIG = /(?:^|\/)jasmine\.json$/;
const JEST_CONFIG = /(?:^|\/)jest\.config\.(?:[cm]?[jt]s|json)$/;

export function isRunnerConfig(path: string): boolean {
  return (
    !path.includes('node_modules/') &&
    [KARMA_CONFIG, MOCHA_CONFIG, VITEST_CONFIG, PACKAGE_JSON, JASMINE_CONFIG, JEST_CONFIG].some((pattern) => pattern.test(path))
  );
}

const STRING_LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`$\\]*)`/g;

function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/** `pattern` (relative to `folder`, `./` allowed) as a repository glob; undefined when it leaves the folder or is absolute. */
function toRepoGlob(folder: string, pattern: string): string | undefined {
  let relative = pattern.trim();
  while (relative.startsWith('./')) relative = relative.slice(2);
  if (relative === '' || relative.startsWith('/') || relative.startsWith('../') || relative.startsWith('!')) return undefined;
  return folder === '' ? relative : `${folder}/${relative}`;
}

function readStrings(text: string): string[] {
  return [...text.matchAll(STRING_LITERAL)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

/** The text of the bracketed array that follows `key:` (nested brackets and braces kept), or undefined. */
function readArrayAfter(text: string, key: RegExp): string | undefined {
  const match = key.exec(text);
  if (match === null) return undefined;
  let depth = 0;
  for (let index = match.index + match[0].length - 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '[' || char === '{') depth += 1;
    else if (char === ']' || char === '}') depth -= 1;
    if (depth === 0) return text.slice(match.index + match[0].length, index);
  }
  return undefined;
}

/**
 * The inline projects of a vitest or jest config (vitest's `test.projects` or older `test.workspace`, jest's
 * `projects`), each as the text of its object, and the config's text without them. Each project loads its own setup
 * files for its own tests only: outline's server project starts the database and loads every plugin for
 * `server/**` and `plugins/**`, and its shared project loads a console mock for `shared/**`, so a shared test reaches
 * nothing the server's setup imports. A project named by a path (`'packages/*'`) has a config of its own, read as such.
 */
function readInlineProjects(text: string): { entries: string[]; rest: string } | undefined {
  const key = /\b(?:projects|workspace)["']?\s*:\s*\[/;
  const match = key.exec(text);
  const body = readArrayAfter(text, key);
  if (match === null || body === undefined) return undefined;
  const entries: string[] = [];
  let depth = 0;
  let start = -1;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '{' || char === '[') {
      if (depth === 0 && char === '{') start = index;
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0 && start >= 0) {
        entries.push(body.slice(start, index + 1));
        start = -1;
      }
    }
  }
  if (entries.length === 0) return undefined;
  const end = match.index + match[0].length + body.length + 1;
  return { entries, rest: text.slice(0, match.index) + text.slice(end) };
}

/**
 * The test files one inline project runs: the globs of its `include` (vitest) or `testMatch` (jest) when they are
 * written out, under its `root` or `rootDir` when that is a literal; every test file under that folder when it names its
 * files some other way; its runner's defaults when it names none.
 */
function selectProjectTests(
  folder: string,
  entry: string,
  includeKey: string,
  otherKeys: readonly string[],
  defaults: readonly string[],
): (path: string) => boolean {
  const root = /["']?\b(?:root|rootDir)["']?\s*:\s*(['"`])([^'"`\n]*)\1/
    .exec(entry)?.[2]
    ?.replace(/^<rootDir>\/?/, './')
    .replace(/^\.$/, './');
  const base = root === undefined || root === '' ? folder : (toRepoGlob(folder, root) ?? folder);
  const included = readTextList(entry, includeKey).map((glob) => glob.replace(/^<rootDir>\//, ''));
  if (included.length > 0) return compileGlobs(included.flatMap((glob) => toRepoGlob(base, glob) ?? []));
  if ([includeKey, ...otherKeys].some((name) => new RegExp(`["']?\\b${name}["']?\\s*:`).test(entry))) return under(base);
  return compileGlobs(defaults.flatMap((glob) => toRepoGlob(base, glob) ?? []));
}

/** The folder karma reads its `files` patterns from: the config's, or its `basePath` under it. */
function findKarmaRoot(configFolder: string, text: string): string {
  const basePath = /\bbasePath\s*:\s*(['"`])([^'"`]*)\1/.exec(text)?.[2];
  const base = basePath === undefined ? configFolder : toRepoGlob(configFolder, basePath === '' ? '.' : basePath);
  return base === undefined || base === '.' || base.endsWith('/.') ? configFolder : base;
}

function buildKarmaSuite(path: string, text: string, declared: boolean): KarmaSuite {
  const configFolder = folderOf(path);
  const root = findKarmaRoot(configFolder, text);
  const listed = readArrayAfter(text, /\bfiles\s*:\s*\[/);
  const patterns = (listed === undefined ? [] : readStrings(listed))
    .filter((pattern) => /\.[cm]?[jt]sx?$|\*$/.test(pattern))
    .flatMap((pattern) => toRepoGlob(root, pattern) ?? []);
  return { folder: configFolder, config: path, declared, select: compileGlobs(patterns), hasPatterns: patterns.length > 0 };
}

/**
 * The files karma's `files` list names one by one (`test/specs/__helpers.js`, no glob), loaded before the specs its
 * globs list: setup files of those specs (axios's helpers set `window.axios` from `index.js`).
 */
function readKarmaSetup(suite: KarmaSuite, text: string): RunnerSetup | undefined {
  const listed = readArrayAfter(text, /\bfiles\s*:\s*\[/);
  const literal = (listed === undefined ? [] : readStrings(listed)).filter(
    (pattern) => /\.[cm]?[jt]sx?$/.test(pattern) && !/[*?{[]/.test(pattern),
  );
  const root = findKarmaRoot(suite.folder, text);
  const files = literal.flatMap((pattern) => toRepoGlob(root, pattern) ?? []);
  return files.length === 0 ? undefined : { config: suite.config, isSetupFile: compileGlobs(files), runsFor: suite.select };
}

/** A config value that is a string or an array of strings, as written. */
function readStringList(value: unknown): string[] {
  return typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** The strings of `key: 'a'` or `key: ['a', 'b']` in a config's text (a JS or YAML value read without running it). */
function readTextList(text: string, key: string): string[] {
  const value = new RegExp(`["']?\\b${key}["']?\\s*:\\s*(\\[[^\\]]*\\]|'[^'\\n]*'|"[^"\\n]*"|\`[^\`$]*\`)`).exec(text)?.[1];
  return value === undefined ? [] : readStrings(value);
}

/** Paths of repository files a runner loads (`./test/setup.ts`, `<rootDir>/jest.setup.js`), not packages (`ts-node/register`). */
function toSetupGlobs(folder: string, entries: readonly string[]): string[] {
  return entries
    .map((entry) => entry.replace(/^<rootDir>\//, './'))
    .filter((entry) => entry.startsWith('./') || /^[\w.-]+\/.*\.[cm]?[jt]sx?$|^[\w.-]+\.[cm]?[jt]sx?$/.test(entry))
    .flatMap((entry) => toRepoGlob(folder, entry) ?? []);
}

/** vitest's default `include` and jest's default `testMatch`: what each runs when its config does not say. */
const VITEST_DEFAULT_INCLUDE = ['**/*.{test,spec}.?(c|m)[jt]s?(x)'];
const JEST_DEFAULT_TEST_MATCH = ['**/__tests__/**/*.[jt]s?(x)', '**/?(*.)+(spec|test).[jt]s?(x)'];

/**
 * The test files a vitest or jest config under `folder` runs: its runner's default globs when the config names no
 * test files of its own (`keys`), every test file under the folder when it does (they are not read, so none is missed).
 * A script or a generated file beside the tests (trpc's `test/scripts/codegen.run.ts`) is then no test the runner loads
 * its setup files for.
 */
function selectRunnerTests(folder: string, text: string, keys: readonly string[], defaults: readonly string[]): (path: string) => boolean {
  if (keys.some((key) => new RegExp(`["']?\\b${key}["']?\\s*:`).test(text))) return under(folder);
  return compileGlobs(defaults.flatMap((glob) => toRepoGlob(folder, glob) ?? []));
}

/** Every test file under `folder`. */
const under =
  (folder: string) =>
  (path: string): boolean =>
    folder === '' || path.startsWith(`${folder}/`);

/**
 * jasmine's helpers: `spec/support/jasmine.json` is read from the folder jasmine runs in, and its `helpers` and
 * `spec_files` globs are relative to its `spec_dir` (default `spec`).
 */
function readJasmineSetup(path: string, config: JsonObject): RunnerSetup | undefined {
  const folder = path.endsWith('spec/support/jasmine.json') ? folderOf(folderOf(folderOf(path))) : folderOf(path);
  const specDir = typeof config.spec_dir === 'string' ? config.spec_dir : 'spec';
  const root = toRepoGlob(folder, specDir === '' ? '.' : specDir) ?? folder;
  const base = root === '.' || root.endsWith('/.') ? folder : root;
  const helpers = toSetupGlobs(
    base,
    readStringList(config.helpers).map((helper) => `./${helper}`),
  );
  if (helpers.length === 0) return undefined;
  const specs = readStringList(config.spec_files).flatMap((spec) => toRepoGlob(base, spec) ?? []);
  return {
    config: path,
    isSetupFile: compileGlobs(helpers),
    runsFor: specs.length > 0 ? compileGlobs(specs) : under(base),
  };
}

/** `spec` of a JSON .mocharc: a string or an array of strings. */
function readMochaJsonSpec(config: JsonObject): string[] {
  const spec = config.spec;
  return typeof spec === 'string' ? [spec] : Array.isArray(spec) ? spec.filter((item) => typeof item === 'string') : [];
}

/** `spec` of a .mocharc (JSON, YAML or JS: a string, an array, or a YAML list), as written. */
function readMochaSpec(text: string): string[] {
  const inline = /["']?\bspec["']?\s*:\s*(\[[^\]]*\]|'[^']*'|"[^"]*"|`[^`]*`)/.exec(text);
  if (inline?.[1] !== undefined) return readStrings(inline[1]);
  const yaml = /^spec:[ \t]*(\S[^\n#]*)?\n((?:[ \t]*-[ \t]*\S[^\n]*\n?)*)/m.exec(text);
  if (yaml === null) return [];
  if (yaml[1] !== undefined && yaml[1].trim() !== '') return [yaml[1].trim().replace(/^['"]|['"]$/g, '')];
  return (yaml[2] ?? '')
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*-\s*/, '')
        .trim()
        .replace(/^['"]|['"]$/g, ''),
    )
    .filter((line) => line !== '');
}

/** Mocha's flags that take a value: the word after them is no spec. */
const MOCHA_VALUE_FLAGS = new Set([
  '--config',
  '--extension',
  '--file',
  '--grep',
  '-g',
  '--ignore',
  '--package',
  '--reporter',
  '-R',
  '--reporter-option',
  '-O',
  '--require',
  '-r',
  '--slow',
  '-s',
  '--timeout',
  '-t',
  '--ui',
  '-u',
  '--fgrep',
  '-f',
  '--jobs',
  '-j',
]);

/** The spec words of every `mocha …` command in the package's scripts (up to the next `&&`, `;` or `|`). */
/**
 * A spec as a glob: a folder (`test/`, `test/acceptance`) is the files with mocha's default extensions directly in it,
 * or under it with `--recursive` (express runs `mocha … test/ test/acceptance/`).
 */
function toMochaGlob(spec: string, recursive: boolean): string {
  if (/[*?{[]/.test(spec) || /\.[cm]?[jt]sx?$/.test(spec)) return spec;
  return `${spec.replace(/\/+$/, '')}/${recursive ? '**/' : ''}*.{js,cjs,mjs}`;
}

/** The words after a program `program` names in each command of the package's scripts (up to the next `&&`, `;` or `|`), quotes kept. */
function listProgramArguments(scripts: JsonObject, program: RegExp): string[][] {
  const found: string[][] = [];
  for (const script of Object.values(scripts)) {
    if (typeof script !== 'string') continue;
    for (const command of script.split(/&&|\|\||[;|]/)) {
      const words = command.trim().split(/\s+/);
      const start = words.findIndex((word) => program.test(word));
      if (start !== -1) found.push(words.slice(start + 1));
    }
  }
  return found;
}

/** The words after `mocha` in each command of the package's scripts. */
function listMochaArguments(scripts: JsonObject): string[][] {
  return listProgramArguments(scripts, /(?:^|\/)_?mocha$/);
}

/** The words after `node` in each command of the package's scripts that runs `node … --test`. */
function listNodeTestArguments(scripts: JsonObject): string[][] {
  return listProgramArguments(scripts, /(?:^|\/)node$/).filter((words) => words.includes('--test'));
}

/** Mocha flags, with the value they take, that change how a test file loads and runs its cases. */
const MOCHA_LOAD_FLAGS = new Set(['--require', '-r', '--file', '--ui', '-u', '--loader', '--experimental-loader', '--import']);
/** Node's flags, with the value they take, that load code before a test file (a TypeScript hook such as esbuild-register). */
const NODE_LOAD_FLAGS = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader']);

/**
 * The load flags of a runner's command in the package's scripts: the `test` script's, else the first script's that
 * runs it. validator.js runs `mocha --require @babel/register --recursive`, MQTT.js `node -r esbuild-register --test
 * test/node/*.ts`: without the flag the tests do not load.
 */
function readScriptLoadFlags(scripts: JsonObject, list: (scripts: JsonObject) => string[][], load: ReadonlySet<string>): string[] {
  const test = typeof scripts.test === 'string' ? list({ test: scripts.test }) : [];
  return readLoadFlags(test[0] ?? list(scripts)[0] ?? [], load);
}

/** The flags of `words` that `load` names, each followed by its value (`--require x`, `--require=x`). */
function readLoadFlags(words: readonly string[], load: ReadonlySet<string>): string[] {
  const flags: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = (words[index] ?? '').replace(/^['"]|['"]$/g, '');
    const [flag = '', inline] = word.split(/=(.*)/s);
    if (!load.has(flag)) continue;
    const value = inline ?? (words[index + 1] ?? '').replace(/^['"]|['"]$/g, '');
    if (inline === undefined) index += 1;
    if (value !== '' && !value.startsWith('-')) flags.push(flag, value);
  }
  return flags;
}

/** The spec words of each `mocha …` command of the package's scripts, a list per command (empty: mocha's default). */
function readMochaScriptSpecs(scripts: JsonObject): string[][] {
  return listMochaArguments(scripts).map((words) => {
    const specs: string[] = [];
    for (let index = 0; index < words.length; index += 1) {
      const word = (words[index] ?? '').replace(/^['"]|['"]$/g, '');
      if (word.startsWith('-')) {
        if (MOCHA_VALUE_FLAGS.has(word)) index += 1;
        continue;
      }
      // A bare name is a spec as well (nock: `mocha --recursive tests`); a flag's value mocha's list lacks names no file.
      if (/^[\w.@*{}[\]-][\w./@*{},[\]-]*$/.test(word)) specs.push(word);
    }
    return specs;
  });
}

/** mocha's own spec when neither the command nor a config names one: `./test/*.{js,cjs,mjs}` (`**` with recursive). */
const MOCHA_DEFAULT_SPEC = 'test';

/**
 * A package's mocha settings in its own folder's .mocharc: whether it says `recursive: true`, whether it names a spec,
 * and whether it is code (`.mocharc.js`), whose spec may be computed where this reading cannot see it.
 */
function readMochaConfigOf(texts: ReadonlyMap<string, string>, folder: string): { recursive: boolean; spec: boolean; code: boolean } {
  const found = { recursive: false, spec: false, code: false };
  for (const [path, text] of texts) {
    if (!MOCHA_CONFIG.test(path) || folderOf(path) !== folder) continue;
    const json = /\.jsonc?$/.test(path) ? (parseJsonObject(text).value ?? {}) : undefined;
    found.recursive ||= json === undefined ? /\brecursive["']?\s*:\s*true\b/.test(text) : json.recursive === true;
    found.spec ||= (json === undefined ? readMochaSpec(text) : readMochaJsonSpec(json)).length > 0;
    found.code ||= /\.[cm]?js$/.test(path);
  }
  return found;
}

/**
 * The mocha configs package scripts name (`mocha --config test/mocha-all-config-test.js`, knex), as repository paths,
 * each with the folder of the package whose script names it: mocha reads its specs from there, where the script runs.
 * `texts` holds the package.json files (among others).
 */
export function listScriptedMochaConfigs(texts: ReadonlyMap<string, string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, text] of texts) {
    if (!PACKAGE_JSON.test(path)) continue;
    let scripts: JsonObject;
    try {
      scripts = asRecord(asRecord(JSON.parse(text) as unknown).scripts);
    } catch {
      continue;
    }
    for (const words of listMochaArguments(scripts)) {
      words.forEach((word, index) => {
        const written = word === '--config' ? words[index + 1] : /^--config=(.+)$/.exec(word)?.[1];
        const config = written === undefined ? undefined : toRepoGlob(folderOf(path), written.replace(/^['"]|['"]$/g, ''));
        if (config !== undefined && !/[*?{]/.test(config) && !found.has(config)) found.set(config, folderOf(path));
      });
    }
  }
  return found;
}

function asRecord(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

function declares(manifest: JsonObject, name: string): boolean {
  return ['dependencies', 'devDependencies', 'peerDependencies'].some((field) => asRecord(manifest[field])[name] !== undefined);
}

/** The package folder a path belongs to: the nearest folder above it with a package.json among `folders`. */
function findOwner(path: string, folders: ReadonlySet<string>): string {
  let folder = folderOf(path);
  for (;;) {
    if (folders.has(folder) || folder === '') return folder;
    folder = folderOf(folder);
  }
}

/** The runner selectors of a repository from the texts of its runner configs and package.json files (`isRunnerConfig`). */
export function buildRunnerSelectors(
  texts: ReadonlyMap<string, string>,
  /** Whether the repository holds a file: a config a script names and the repository lacks selects nothing. */
  holds: (path: string) => boolean = () => true,
): RunnerSelectors {
  const selectors: RunnerSelectors = { karma: [], mocha: [], vitestTypecheck: new Set(), unread: [], setup: [], scripted: [] };
  const addSetup = (config: string, folder: string, entries: readonly string[], runsFor = under(folder)): void => {
    const globs = toSetupGlobs(folder, entries);
    if (globs.length > 0) selectors.setup.push({ config, isSetupFile: compileGlobs(globs), runsFor });
  };
  const readJson = (path: string, text: string): JsonObject => {
    const { value, error } = parseJsonObject(text);
    if (value === undefined) selectors.unread.push({ path, reason: `it is not a JSON object (${error ?? 'not an object'})` });
    else if (error !== undefined)
      selectors.unread.push({ path, reason: `it is not valid JSON (${error}); what could be read of it was used` });
    return value ?? {};
  };
  const manifests = new Map<string, JsonObject>();
  for (const [path, text] of texts) if (PACKAGE_JSON.test(path)) manifests.set(folderOf(path), readJson(path, text));
  const folders = new Set(manifests.keys());
  const scriptedMocha = listScriptedMochaConfigs(texts);
  const mochaSpecs = new Map<string, string[]>();
  const addMocha = (folder: string, specs: readonly string[], recursive = false): void => {
    const globs = specs.map((spec) => toMochaGlob(spec, recursive)).flatMap((spec) => toRepoGlob(folder, spec) ?? []);
    mochaSpecs.set(folder, [...(mochaSpecs.get(folder) ?? []), ...globs]);
  };
  for (const [path, text] of [...texts].sort(([left], [right]) => compareText(left, right))) {
    const owner = findOwner(path, folders);
    const manifest = manifests.get(owner) ?? {};
    if (KARMA_CONFIG.test(path)) {
      const suite = buildKarmaSuite(path, text, declares(manifest, 'karma'));
      selectors.karma.push(suite);
      const setup = readKarmaSetup(suite, text);
      if (setup !== undefined) selectors.setup.push(setup);
      if (!suite.hasPatterns)
        selectors.unread.push({ path, reason: 'its `files` list holds no test file pattern checker can read without running the config' });
    } else if (MOCHA_CONFIG.test(path) || scriptedMocha.has(path)) {
      const json = /\.jsonc?$/.test(path) ? readJson(path, text) : undefined;
      addMocha(
        scriptedMocha.get(path) ?? folderOf(path),
        json === undefined ? readMochaSpec(text) : readMochaJsonSpec(json),
        json === undefined ? /\brecursive["']?\s*:\s*true\b/.test(text) : json.recursive === true,
      );
      const loads = ['require', 'file'].flatMap((key) => (json === undefined ? readTextList(text, key) : readStringList(json[key])));
      addSetup(path, scriptedMocha.get(path) ?? folderOf(path), loads);
    } else if (VITEST_CONFIG.test(path)) {
      if (/\btypecheck\s*:\s*(?:true\b|\{[^}]*\benabled\s*:\s*true\b)/.test(text)) selectors.vitestTypecheck.add(owner);
      const projects = readInlineProjects(text);
      for (const entry of projects?.entries ?? [])
        addSetup(
          path,
          folderOf(path),
          [...readTextList(entry, 'setupFiles'), ...readTextList(entry, 'globalSetup')],
          selectProjectTests(folderOf(path), entry, 'include', ['dir'], VITEST_DEFAULT_INCLUDE),
        );
      const own = projects?.rest ?? text;
      addSetup(
        path,
        folderOf(path),
        [...readTextList(own, 'setupFiles'), ...readTextList(own, 'globalSetup')],
        selectRunnerTests(folderOf(path), text, ['include', 'dir', 'root'], VITEST_DEFAULT_INCLUDE),
      );
    } else if (JEST_CONFIG.test(path)) {
      const json = path.endsWith('.json') ? readJson(path, text) : undefined;
      const keys = ['setupFiles', 'setupFilesAfterEnv', 'globalSetup'];
      const projects = readInlineProjects(text);
      for (const entry of projects?.entries ?? [])
        addSetup(
          path,
          folderOf(path),
          keys.flatMap((key) => readTextList(entry, key)),
          selectProjectTests(folderOf(path), entry, 'testMatch', ['testRegex', 'roots'], JEST_DEFAULT_TEST_MATCH),
        );
      const own = projects?.rest ?? text;
      addSetup(
        path,
        folderOf(path),
        keys.flatMap((key) => (json === undefined ? readTextList(own, key) : readStringList(json[key]))),
        selectRunnerTests(folderOf(path), text, ['testMatch', 'testRegex', 'roots', 'rootDir'], JEST_DEFAULT_TEST_MATCH),
      );
    } else if (JASMINE_CONFIG.test(path)) {
      const setup = readJasmineSetup(path, readJson(path, text));
      if (setup !== undefined) selectors.setup.push(setup);
    } else if (PACKAGE_JSON.test(path)) {
      const folder = folderOf(path);
      const jest = asRecord(manifest.jest);
      addSetup(
        path,
        folder,
        ['setupFiles', 'setupFilesAfterEnv', 'globalSetup'].flatMap((key) => readStringList(jest[key])),
        selectRunnerTests(folder, JSON.stringify(jest), ['testMatch', 'testRegex', 'roots', 'rootDir'], JEST_DEFAULT_TEST_MATCH),
      );
      addSetup(
        path,
        folder,
        ['require', 'file'].flatMap((key) => readStringList(asRecord(manifest.mocha)[key])),
      );
      const scripts = asRecord(manifest.scripts);
      for (const scripted of readScriptedConfigs(folder, scripts)) {
        if (holds(scripted.config)) selectors.scripted.push(scripted);
        else
          selectors.unread.push({
            path,
            reason: `a script runs ${scripted.runner} with ${scripted.config}, which the repository does not hold; the tests under ${scripted.folder}/ run by convention`,
          });
      }
      addMocha(folder, readMochaJsonSpec(asRecord(manifest.mocha)), asRecord(manifest.mocha).recursive === true);
      const flags = readScriptLoadFlags(scripts, listMochaArguments, MOCHA_LOAD_FLAGS);
      if (flags.length > 0) {
        selectors.mochaFlags ??= new Map();
        selectors.mochaFlags.set(folder, flags);
      }
      const nodeFlags = readScriptLoadFlags(scripts, listNodeTestArguments, NODE_LOAD_FLAGS);
      if (nodeFlags.length > 0) {
        selectors.nodeTestFlags ??= new Map();
        selectors.nodeTestFlags.set(folder, nodeFlags);
      }
      for (const [runner, program, load] of RUNNER_LOAD_FLAGS) {
        const found = readScriptLoadFlags(scripts, (all) => listProgramArguments(all, program), load);
        if (found.length === 0) continue;
        selectors.runnerFlags ??= new Map();
        const byFolder = selectors.runnerFlags.get(runner) ?? new Map<string, string[]>();
        byFolder.set(folder, found);
        selectors.runnerFlags.set(runner, byFolder);
      }
      // `--require test/setup.js`, `--file test/hooks.js`: loaded before every spec, as a .mocharc's `require` is.
      addSetup(
        path,
        folder,
        flags.filter((_, index) => ['--require', '-r', '--file'].includes(flags[index - 1] ?? '')),
      );
      // A folder a script names is read recursively when the script says so or the package's mocha config does
      // (winston: `mocha test/unit` with `recursive: true` in .mocharc.yml); a bare `mocha` runs mocha's default spec
      // unless a config names one (or may: a .mocharc.js computes it).
      const config = readMochaConfigOf(texts, folder);
      const commands = readMochaScriptSpecs(scripts);
      const bare =
        commands.some((specs) => specs.length === 0) &&
        !config.spec &&
        !config.code &&
        readMochaJsonSpec(asRecord(manifest.mocha)).length === 0;
      addMocha(
        folder,
        [...commands.flat(), ...(bare ? [MOCHA_DEFAULT_SPEC] : [])],
        config.recursive ||
          asRecord(manifest.mocha).recursive === true ||
          Object.values(scripts).some((script) => typeof script === 'string' && /\bmocha\b[^&;|]*--recursive\b/.test(script)),
      );
      if (Object.values(scripts).some((script) => typeof script === 'string' && /\bvitest\b[^&;|]*--typecheck\b/.test(script)))
        selectors.vitestTypecheck.add(folder);
    }
  }
  for (const [folder, specs] of mochaSpecs) if (specs.length > 0) selectors.mocha.push({ folder, select: compileGlobs(specs) });
  selectors.unread.sort((left, right) => compareText(left.path, right.path));
  return selectors;
}

const SCRIPTED_RUNNERS: ReadonlyArray<{ runner: ScriptedConfig['runner']; command: RegExp }> = [
  { runner: 'vitest', command: /(?:^|\/)vitest$/ },
  { runner: 'jest', command: /(?:^|\/)jest$/ },
  { runner: 'playwright', command: /(?:^|\/)playwright$/ },
];

/**
 * The configs the scripts of the package in `folder` name with `--config`/`-c` (`vitest --config=./test/node/vitest.config.ts`,
 * `playwright test -c ./test/browser/playwright.config.ts`), when they sit in a folder below the package's: a config
 * beside the package.json is the one the runner finds by itself.
 */
function readScriptedConfigs(folder: string, scripts: JsonObject): ScriptedConfig[] {
  const found: ScriptedConfig[] = [];
  for (const script of Object.values(scripts)) {
    if (typeof script !== 'string') continue;
    for (const command of script.split(/&&|\|\||[;|]/)) {
      const words = command
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/^['"]|['"]$/g, ''));
      const start = words.findIndex((word) => SCRIPTED_RUNNERS.some((item) => item.command.test(word)));
      const runner = SCRIPTED_RUNNERS.find((item) => item.command.test(words[start] ?? ''))?.runner;
      if (runner === undefined) continue;
      let written: string | undefined;
      for (let index = start + 1; index < words.length; index += 1) {
        const word = words[index] ?? '';
        const inline = /^--config=(.+)$/.exec(word);
        if (inline?.[1] !== undefined) written = inline[1];
        else if (word === '--config' || word === '-c') written = words[index + 1];
      }
      const config = written === undefined ? undefined : toRepoGlob(folder, written.startsWith('./') ? written : `./${written}`);
      if (config === undefined || /[*?{]/.test(config)) continue;
      const configFolder = folderOf(config);
      if (configFolder === folder) continue;
      if (!found.some((item) => item.config === config)) found.push({ runner, cwd: folder, config, folder: configFolder });
    }
  }
  return found;
}

/** The config a package script runs `path` with: the deepest scripted config whose folder holds it. */
function selectScriptedConfig(selectors: RunnerSelectors, path: string): ScriptedConfig | undefined {
  let best: ScriptedConfig | undefined;
  for (const item of selectors.scripted)
    if (path.startsWith(`${item.folder}/`) && (best === undefined || item.folder.length > best.folder.length)) best = item;
  return best;
}

export type ConfigSelection =
  | { runner: 'karma' | ScriptedConfig['runner']; cwd: string; config: string }
  | { runner: 'mocha'; cwd: string; config?: undefined };

const KARMA_SPEC = /\.spec\.[cm]?[jt]sx?$/;

/**
 * The runner whose configuration selects `path`: a karma config whose `files` list it, else mocha's spec globs, else
 * a karma config whose package declares karma, when the file is a `*.spec.*` under the config's folder and no `files`
 * glob of it could be read, else a config a package script names for the folder that holds it.
 */
export function selectConfiguredRunner(selectors: RunnerSelectors, path: string): ConfigSelection | undefined {
  const inside = (folder: string): boolean => folder === '' || path.startsWith(`${folder}/`);
  const listed = selectors.karma.find((suite) => inside(suite.folder) && suite.select(path));
  if (listed !== undefined) return { runner: 'karma', cwd: listed.folder, config: listed.config };
  const mocha = selectors.mocha.find((specs) => inside(specs.folder) && specs.select(path));
  if (mocha !== undefined) return { runner: 'mocha', cwd: mocha.folder };
  const guessed = selectors.karma.find((suite) => inside(suite.folder) && suite.declared && !suite.hasPatterns && KARMA_SPEC.test(path));
  if (guessed !== undefined) return { runner: 'karma', cwd: guessed.folder, config: guessed.config };
  // vitest, jest and playwright run test-named files unless their config says otherwise, which is not read: a page
  // script beside the tests (msw's `*.mocks.ts`) is none of theirs.
  const scripted = isTestNamedPath(path) ? selectScriptedConfig(selectors, path) : undefined;
  return scripted === undefined ? undefined : { runner: scripted.runner, cwd: scripted.cwd, config: scripted.config };
}

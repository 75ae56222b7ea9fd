import type { FileRole } from '../model/scan.js';
import type { Language } from '../model/graph.js';

const MANIFEST_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lockb',
  'bun.lock',
  'deno.json',
  'deno.lock',
  'go.mod',
  'go.sum',
  'go.work',
  'pyproject.toml',
  'setup.cfg',
  'requirements.txt',
  'poetry.lock',
  'pipfile',
  'pipfile.lock',
  'uv.lock',
]);

const CONFIG_NAMES = new Set([
  'tsconfig.json',
  'jsconfig.json',
  '.babelrc',
  '.editorconfig',
  '.gitignore',
  '.gitattributes',
  '.npmrc',
  '.nvmrc',
  '.prettierrc',
  '.eslintrc',
  '.env.example',
  'codeowners',
  'dockerfile',
  'docker-compose.yml',
  'docker-compose.yaml',
  'makefile',
]);

const CONFIG_PATTERN =
  /^(?:tsconfig\..+\.json|\.eslintrc\..+|eslint\.config\..+|\.prettierrc\..+|prettier\.config\..+|(?:vite|vitest|jest|webpack|rollup|babel|next|nuxt|svelte|astro|tailwind|postcss|playwright|cypress|karma|tsup|esbuild|turbo|nx|lerna|commitlint|lint-staged|stylelint|biome|knip|\.dependency-cruiser)\.config\..+|\.dependency-cruiser\..+|babel\.config\..+|biome\.jsonc?|turbo\.json|nx\.json|lerna\.json|vercel\.json|netlify\.toml|\.swcrc)$/i;

const DOC_EXTENSIONS = /\.(?:md|mdx|markdown|rst|adoc|txt)$/i;
/** `*.test.*`, `*.spec.*`, type tests (`*.test-d.ts` for tsd, `*.tst.ts` for TSTyche), `test.js`, `tests.ts`. */
const TEST_FILE = /\.(?:(?:test|spec)(?:-d)?|tst)\.[cm]?[jt]sx?$|(?:^|[._-])(?:test|spec)s?\.[cm]?[jt]sx?$/i;
/**
 * Test folders, and folders named for test helpers (objection's `testUtils/`, `test-utils/`, `test_helpers/`, `testSupport/`):
 * what their files hold runs only under the tests, which reach the code through them.
 */
const TEST_FOLDER = /(?:^|\/)(?:__tests__|__mocks__|test|tests|e2e|__specs__|[tT]est[-_]?(?:[uU]tils?|[hH]elpers?|[sS]upport))\//;
const TYPE_TEST_FILE = /\.(?:(?:test|spec)-d|tst)\.[cm]?tsx?$/;

/** Whether a file is named as a test (`a.test.ts`, `a.spec.js`, `test_a.ts`), whatever folder it is in. */
export function isTestNamedPath(path: string): boolean {
  return TEST_FILE.test(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * Whether a file's name alone makes it a test for its language's runner: a test-named JavaScript or TypeScript file
 * (`isTestNamedPath`), pytest's `test_*.py` and `*_test.py`, Go's `*_test.go`. A Go package's test files are compiled
 * together, so each one sees the others' declarations; none of them is thereby a helper.
 */
export function isRunnerNamedTest(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return TEST_FILE.test(base) || GO_TEST_FILE.test(base) || PYTHON_TEST_NAME.test(base);
}

/**
 * The conventional sibling test of a source file: `<dir>/<name>.test.<ext>` (`.ts` for non-script files), Python's
 * `<dir>/test_<name>.py` (what pytest collects), Go's `<dir>/<name>_test.go` (the package's own test file).
 */
export function toSiblingTestPath(path: string): string {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  if (base.endsWith('.py')) return `${dir}test_${base}`;
  if (base.endsWith('.go')) return `${dir}${base.slice(0, -'.go'.length)}_test.go`;
  const declaration = /^(.+)\.d\.(ts|mts|cts)$/.exec(base);
  if (declaration !== null) return `${dir}${declaration[1] ?? base}.test.${declaration[2] ?? 'ts'}`;
  const script = /^(.+)\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.exec(base);
  if (script !== null) return `${dir}${script[1] ?? base}.test.${script[2] ?? 'ts'}`;
  const dot = base.lastIndexOf('.');
  return `${dir}${dot > 0 ? base.slice(0, dot) : base}.test.ts`;
}

/** A benchmark kept among the tests (`tests/test_url_benchmarks.py`, `benchmarks/`, `parse.bench.ts`): it measures speed. */
export function isBenchmarkPath(path: string): boolean {
  return /(?:^|[/._-])bench(?:mark)?s?(?:[/._-]|$)/i.test(path);
}

/** A type test (`*.test-d.ts` for tsd or vitest's typecheck, `*.tst.ts` for TSTyche): it checks types and runs no code. */
export function isTypeTestPath(path: string): boolean {
  return TYPE_TEST_FILE.test(path);
}
/** pytest's default discovery (`test_*.py`, `*_test.py`) and its fixture files; Go's `_test.go`. */
const PYTHON_TEST_FILE = /^(?:test_.*|.*_test|conftest)\.py$/;
const GO_TEST_FILE = /_test\.go$/;
/** pytest's test modules without its fixture files. */
const PYTHON_TEST_NAME = /^(?:test_.*|.*_test)\.py$/;
const CONFIG_FOLDER = /^(?:\.github|\.circleci|\.husky|\.vscode|\.devcontainer)\//;

function getBaseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * A config file by its name (`tsconfig.json`, `vite.config.ts`, `.babelrc`, `.env.test`) or its folder (`.github/`):
 * what a tool reads. A JSON, YAML or TOML file is a config by its extension alone otherwise (`src/lang/en.json`).
 */
export function isNamedConfig(path: string): boolean {
  const base = getBaseName(path);
  const lower = base.toLowerCase();
  return CONFIG_NAMES.has(lower) || CONFIG_PATTERN.test(base) || lower.startsWith('.env') || CONFIG_FOLDER.test(path);
}

/**
 * The role of a repository file from its path alone: tests (`*.test.*`, `*.spec.*`, `*.test-d.ts`, `__tests__/`, `test/`,
 * `tests/` folders; Python's `test_*.py`, `*_test.py`, `conftest.py`; Go's `_test.go`), manifests (package.json,
 * go.mod, pyproject.toml, lockfiles), config files, docs (Markdown and other prose), source.
 */
export function classifyRole(path: string): FileRole {
  const base = getBaseName(path);
  const lower = base.toLowerCase();
  if (MANIFEST_NAMES.has(lower)) return 'manifest';
  const isScript = /\.[cm]?[jt]sx?$/i.test(base);
  const isPython = base.endsWith('.py');
  const isCode = isScript || isPython || base.endsWith('.go');
  if (isScript && (TEST_FILE.test(base) || TEST_FOLDER.test(path))) return 'test';
  if (isPython && (PYTHON_TEST_FILE.test(base) || TEST_FOLDER.test(path))) return 'test';
  if (GO_TEST_FILE.test(base)) return 'test';
  if (CONFIG_NAMES.has(lower) || CONFIG_PATTERN.test(base) || lower.startsWith('.env')) return 'config';
  if (DOC_EXTENSIONS.test(base)) return 'doc';
  if (isCode) return 'source';
  if (CONFIG_FOLDER.test(path) || /\.(?:ya?ml|toml|ini|jsonc?)$/i.test(base)) return 'config';
  return 'other';
}

export function getLanguage(path: string): Language {
  const match = /\.([^./]+)$/.exec(path);
  const extension = match?.[1]?.toLowerCase() ?? '';
  switch (extension) {
    case 'ts':
    case 'mts':
    case 'cts':
      return 'ts';
    case 'tsx':
      return 'tsx';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'js';
    case 'jsx':
      return 'jsx';
    case 'py':
      return 'python';
    case 'go':
      return 'go';
    case 'json':
    case 'jsonc':
      return 'json';
    case 'yml':
    case 'yaml':
      return 'yaml';
    case 'md':
    case 'mdx':
    case 'markdown':
      return 'markdown';
    default:
      return 'other';
  }
}

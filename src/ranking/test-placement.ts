import { classifyRole, toSiblingTestPath } from '../graph/roles.js';
import { compareText } from '../text/compare-text.js';
import { getTestedStem, isNamedTestOf } from './test-relevance.js';

/**
 * Where a repository keeps the test of a source file, learned from the pairs it already has: dayjs tests
 * `src/locale/ru.js` in `test/locale/ru.test.js` (its jest `roots` is `test/`: a `src/locale/it.test.js` would never
 * run), Flask tests `src/flask/app.py` in `tests/test_app.py`, msw keeps `__tests__` folders. A pair is a test named
 * for a source file (isNamedTestOf); its rule says where the test's folder is and how its name wraps the source's.
 */
interface PlacementRule {
  /**
   * `relative`: the test's folder is the source's, plus `testPrefix` when it is a folder under it (`__tests__`).
   * `mirror`: a tree beside the sources: the source folder's leading `sourcePrefix` becomes `testPrefix`
   * (`src` → `test`), the rest of the folders are kept.
   */
  kind: 'relative' | 'mirror';
  sourcePrefix: string;
  testPrefix: string;
  /** The test's file name around the source's stem: `{stem}.test.js` is `''` and `.test.js`; `test_{stem}.py`. */
  before: string;
  after: string;
  /** The pair's source extension: a test name that ends with it takes the new source's instead. */
  sourceExtension: string;
}

/** A source file as its test would name it: the folder whose tests it shares and its stem (an index file is its folder). */
interface SourceKey {
  folder: string;
  stem: string;
  extension: string;
}

/** One pair's rule, and the source folder it was learned in. */
interface LearnedRule {
  rule: PlacementRule;
  folder: string;
}

const CODE = /\.(?:[cm]?[jt]sx?|py)$/;

function toSourceKey(path: string): SourceKey | undefined {
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? '' : path.slice(0, slash);
  const base = path.slice(slash + 1);
  const dot = base.indexOf('.');
  if (dot <= 0) return undefined;
  const stem = base.slice(0, dot);
  const extension = base.slice(base.lastIndexOf('.') + 1);
  if (stem.toLowerCase() === 'index' && folder !== '') {
    const up = folder.lastIndexOf('/');
    return { folder: up < 0 ? '' : folder.slice(0, up), stem: folder.slice(up + 1), extension };
  }
  return { folder, stem, extension };
}

/** The stem a test's name repeats: a private Python module's underscores are left out (`_make.py` → `test_make.py`). */
function toTestedStem(source: SourceKey): string {
  return source.extension === 'py' ? source.stem.replace(/^_+/, '') : source.stem;
}

function splitFolder(folder: string): string[] {
  return folder === '' ? [] : folder.split('/');
}

function joinFolder(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

/** The rule one pair follows. */
function toRule(testPath: string, source: SourceKey): PlacementRule | undefined {
  const slash = testPath.lastIndexOf('/');
  const testFolder = slash < 0 ? '' : testPath.slice(0, slash);
  const base = testPath.slice(slash + 1);
  const stem = toTestedStem(source);
  const at = base.toLowerCase().indexOf(stem.toLowerCase());
  if (at < 0) return undefined;
  const name = { before: base.slice(0, at), after: base.slice(at + stem.length), sourceExtension: source.extension };
  if (testFolder === source.folder) return { kind: 'relative', sourcePrefix: '', testPrefix: '', ...name };
  // A source at the root, or a top folder's index file (thelounge's server/index.ts, tested by test/server.ts), tested in
  // a folder says the tests live in a tree of their own, not in a folder under each source's: a mirror of the whole
  // repository (read as a folder under each, its defaults/config.js got `defaults/test/config.js`).
  if (source.folder === '') return { kind: 'mirror', sourcePrefix: '', testPrefix: testFolder, ...name };
  if (testFolder.startsWith(`${source.folder}/`))
    return {
      kind: 'relative',
      sourcePrefix: '',
      testPrefix: testFolder.slice(source.folder === '' ? 0 : source.folder.length + 1),
      ...name,
    };
  // A tree beside the sources: the folders both end with are the mirrored part (`locale` of `src/locale` and
  // `test/locale`); what comes before them is the mapping.
  const sourceSegments = splitFolder(source.folder);
  const testSegments = splitFolder(testFolder);
  let shared = 0;
  while (
    shared < sourceSegments.length &&
    shared < testSegments.length &&
    sourceSegments[sourceSegments.length - 1 - shared] === testSegments[testSegments.length - 1 - shared]
  )
    shared += 1;
  return {
    kind: 'mirror',
    sourcePrefix: sourceSegments.slice(0, sourceSegments.length - shared).join('/'),
    testPrefix: testSegments.slice(0, testSegments.length - shared).join('/'),
    ...name,
  };
}

function isUnder(folder: string, prefix: string): boolean {
  return prefix === '' || folder === prefix || folder.startsWith(`${prefix}/`);
}

/** How many leading folders two folders share. */
function countSharedFolders(left: string, right: string): number {
  const a = splitFolder(left);
  const b = splitFolder(right);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  return shared;
}

function toRuleKey(rule: PlacementRule): string {
  return [rule.kind, rule.sourcePrefix, rule.testPrefix, rule.before, rule.after, rule.sourceExtension].join('\u0000');
}

function learnRules(paths: readonly string[]): LearnedRule[] {
  const sourcesByStem = new Map<string, { path: string; key: SourceKey }[]>();
  const tests: string[] = [];
  for (const path of paths) {
    if (!CODE.test(path)) continue;
    const role = classifyRole(path);
    // A test package's `__init__.py` or a `conftest.py` marks a folder or holds fixtures; it tests no module of its name
    // (healthchecks' hc/integrations/email/tests/__init__.py taught `tests/__transport.py` for transport.py).
    if (role === 'test' && !/(?:^|\/)(?:__init__|conftest)\.py$/.test(path)) tests.push(path);
    else if (role === 'source') {
      const key = toSourceKey(path);
      if (key === undefined) continue;
      const stem = toTestedStem(key).toLowerCase();
      const known = sourcesByStem.get(stem);
      if (known === undefined) sourcesByStem.set(stem, [{ path, key }]);
      else known.push({ path, key });
    }
  }
  const learned: LearnedRule[] = [];
  for (const test of tests) {
    for (const source of sourcesByStem.get(getTestedStem(test)) ?? []) {
      if (!isNamedTestOf(test, source.path)) continue;
      const rule = toRule(test, source.key);
      if (rule !== undefined) learned.push({ rule, folder: source.key.folder });
    }
  }
  return learned;
}

function applyRule(rule: PlacementRule, key: SourceKey): string {
  const folder =
    rule.kind === 'relative'
      ? joinFolder(key.folder, rule.testPrefix)
      : joinFolder(rule.testPrefix, key.folder.slice(rule.sourcePrefix.length).replace(/^\//, ''));
  const after =
    rule.after.endsWith(`.${rule.sourceExtension}`) && rule.sourceExtension !== key.extension
      ? `${rule.after.slice(0, -rule.sourceExtension.length)}${key.extension}`
      : rule.after;
  return joinFolder(folder, `${rule.before}${toTestedStem(key)}${after}`);
}

/**
 * For a source file that no test reaches, the path a new test of it should take, as the repository's own pairs place
 * theirs: the rules of the pairs whose sources sit nearest (the most leading folders shared with the file; a mirror
 * rule only where its source prefix holds the file), the one most of them follow (then by text). Without a pair, or
 * for Go (whose tests live in their package's folder), the sibling `<name>.test.<ext>` (toSiblingTestPath).
 */
export function createTestPlacer(paths: readonly string[]): (source: string) => string {
  let learned: LearnedRule[] | undefined;
  // The rule depends on the folder and the language only: a release range of thousands of files asks a few hundred.
  const chosen = new Map<string, PlacementRule | undefined>();
  const choose = (folder: string, python: boolean): PlacementRule | undefined => {
    learned ??= learnRules(paths);
    let nearest = -1;
    const votes = new Map<string, { rule: PlacementRule; count: number }>();
    for (const { rule, folder: learnedIn } of learned) {
      if ((rule.sourceExtension === 'py') !== python) continue;
      if (rule.kind === 'mirror' && !isUnder(folder, rule.sourcePrefix)) continue;
      const shared = countSharedFolders(learnedIn, folder);
      if (shared < nearest) continue;
      if (shared > nearest) {
        nearest = shared;
        votes.clear();
      }
      const id = toRuleKey(rule);
      const known = votes.get(id);
      if (known === undefined) votes.set(id, { rule, count: 1 });
      else known.count += 1;
    }
    return [...votes.values()].sort(
      (left, right) => right.count - left.count || compareText(toRuleKey(left.rule), toRuleKey(right.rule)),
    )[0]?.rule;
  };
  let folders: Set<string> | undefined;
  let pytestFolder: string | null | undefined;
  // No pair names a module (tablib's tests/test_tablib.py tests the package through its formats registry): the
  // folder that holds most of the repository's pytest modules, else beside the module; `_ods.py` → `test_ods.py`.
  const placeUnpairedPython = (key: SourceKey): string => {
    pytestFolder ??= findPytestFolder(paths) ?? null;
    return joinFolder(pytestFolder ?? key.folder, `test_${toTestedStem(key)}.py`);
  };
  return (source) => {
    const key = toSourceKey(source);
    if (source.endsWith('.go') || !CODE.test(source) || key === undefined) return toSiblingTestPath(source);
    const python = key.extension === 'py';
    const id = `${python ? 'py' : 'js'}\u0000${key.folder}`;
    if (!chosen.has(id)) chosen.set(id, choose(key.folder, python));
    const rule = chosen.get(id);
    const placed = rule === undefined ? (python ? placeUnpairedPython(key) : toSiblingTestPath(source)) : applyRule(rule, key);
    if (!python) return placed;
    // A pytest module beside a package of the same name cannot be imported (typer keeps the tests of typer/cli.py in
    // tests/test_cli/, so a tests/test_cli.py would clash with it): the new test goes into that package.
    folders ??= listFolders(paths);
    const stem = placed.replace(/\.py$/, '');
    return folders.has(stem) ? `${stem}/${placed.slice(placed.lastIndexOf('/') + 1)}` : placed;
  };
}

/** The folder that holds the most pytest modules (`test_*.py`, `*_test.py`), the first by path on a tie. */
function findPytestFolder(paths: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const base = path.slice(slash + 1);
    if (!/^test_.+\.py$|^.+_test\.py$/.test(base) || classifyRole(path) !== 'test') continue;
    const folder = slash < 0 ? '' : path.slice(0, slash);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([left, a], [right, b]) => b - a || compareText(left, right))[0]?.[0];
}

/** Every folder that holds one of `paths`, at any depth. */
function listFolders(paths: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
  }
  return folders;
}

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { extractFileWords } from '../../src/graph/parse/file-words.js';
import type { FocusSelector, FocusStep, LinkKeys } from '../../src/model/env.js';
import { boundScriptComplexity } from '../../src/graph/history/hotspots.js';
import { emptyFacts } from '../../src/model/facts.js';
import { FACTS_CACHE_FILE, FACTS_DETAIL_FILE, FACTS_JOURNAL_FILE, PARSER_VERSION } from '../../src/io/parse-cache.js';
import { isParseLikely, parseRepositoryFiles, readTextFile, type ParseRepositoryOptions } from '../../src/io/parse-files.js';
import { createParsePool, type ParsePool } from '../../src/io/parse-pool.js';
import { scanRepository } from '../../src/io/scan.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { ageFiles } from '../helpers/age-files.js';

const sources = {
  'src/users.ts': "import { db } from './db.js';\nexport function listUsers() { return db.all('users'); }\n",
  'src/db.ts': 'export const db = { all: (table: string) => [table] };\n',
  'src/view.tsx': 'export const View = () => <div>users</div>;\n',
  'lib/legacy.cjs': "const db = require('../src/db.js');\nmodule.exports = db;\n",
  'test/users.test.ts': "import { test } from 'node:test';\ntest('lists users', () => {});\n",
};
const cacheFile = join('.checker', 'local', 'cache', FACTS_CACHE_FILE);
const journalFile = join('.checker', 'local', 'cache', FACTS_JOURNAL_FILE);
const detailFile = join('.checker', 'local', 'cache', FACTS_DETAIL_FILE);

/** The cache file's entries with its journal applied (when the journal names the file's id): what the next run loads. */
test('the functions are a part of their own: read without the trailing lists, and written back as they were', async (t) => {
  const repo = createSourceRepo(t);
  repo.write({ 'src/score.ts': 'export function score(a: number) {\n  if (a > 1 && a < 9) return a;\n  return 0;\n}\n' });
  const cold = await run(repo);
  const parsed = cold.facts.get('src/score.ts')?.facts;
  assert.ok(parsed !== undefined && parsed.functions.length === 1 && parsed.callables.length > 0);
  const entry = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'latin1')).entries['src/score.ts'];
  const [start, leading, trailing, words, functions] = entry.detail;
  const detailPath = join(repo.dir, detailFile);
  const detail = readFileSync(detailPath);
  assert.equal(
    detail.toString('latin1', start + leading + trailing + words, start + leading + trailing + words + functions),
    JSON.stringify({ functions: parsed.functions }),
  );
  // Blanked trailing lists (the same length: the file still matches its cache file) read as empty; the functions do not.
  detail.fill(0x20, start + leading, start + leading + trailing);
  writeFileSync(detailPath, detail);
  const warm = await run(repo);
  const facts = warm.facts.get('src/score.ts')?.facts;
  assert.ok(facts !== undefined);
  assert.deepEqual(facts.functions, parsed.functions);
  assert.deepEqual(facts.callables, []);
  assert.deepEqual(Object.keys(facts), Object.keys(parsed));
});

function readCacheEntries(dir: string): Record<string, unknown> {
  const base = JSON.parse(readFileSync(join(dir, cacheFile), 'utf8'));
  const entries: Record<string, unknown> = { ...base.entries };
  if (existsSync(join(dir, journalFile))) {
    const journal = JSON.parse(readFileSync(join(dir, journalFile), 'utf8'));
    if (journal.baseId === base.baseId) {
      for (const [path, entry] of Object.entries(journal.entries)) {
        if (entry === null) delete entries[path];
        else entries[path] = entry;
      }
    }
  }
  return Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Everything the cache keeps on disk: file, detail file and journal. */
function readCacheText(dir: string): string {
  return [cacheFile, detailFile, journalFile]
    .filter((file) => existsSync(join(dir, file)))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

let pool: ParsePool;
before(() => {
  pool = createParsePool({ size: 2 });
});
after(() => pool.close());

function createSourceRepo(t: { after(fn: () => void): void }): TestRepo {
  const repo = createRepo({ ...sources, 'README.md': '# Users\n', 'openapi.yaml': 'openapi: 3.0.0\n' });
  t.after(() => repo.cleanup());
  return repo;
}

/** The facts of a file read from disk and parsed in full: its words with them. */
function readFacts(path: string, text: string) {
  return { ...extractFacts(path, text, { assertionHelpers: [] }), words: extractFileWords(text) };
}

async function run(repo: TestRepo, extra: Partial<ParseRepositoryOptions> = {}) {
  const scan = await scanRepository(repo.dir, { useCache: extra.useCache !== false });
  return parseRepositoryFiles(repo.dir, scan.files, { assertionHelpers: [], pool, ...extra });
}

test('first run parses every code file and nothing else; the cache stays out of git status', async (t) => {
  const repo = createSourceRepo(t);

  const result = await run(repo);

  assert.deepEqual(result.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual([...result.facts.keys()].sort(), Object.keys(sources).sort());
  for (const [path, text] of Object.entries(sources)) {
    assert.deepEqual(result.facts.get(path)?.facts, readFacts(path, text));
  }
  assert.equal(result.facts.get('src/db.ts')?.hash, sha1(sources['src/db.ts']));
  assert.deepEqual(result.skipped, []);
  assert.deepEqual(result.diagnostics, []);
  assert.equal(readFileSync(join(repo.dir, '.checker/local/.gitignore'), 'utf8'), '*\n');
  assert.equal(repo.git('status', '--porcelain'), '');
});

/** A focus that answers `steps` in turn (the last one again once they run out), keeping what each step was shown. */
function createFocus(
  firstKeys: LinkKeys | undefined,
  steps: FocusStep[],
): { focus: FocusSelector; asked: { linkOnly: string[]; unlinked: string[]; facts: string[] }[] } {
  const asked: { linkOnly: string[]; unlinked: string[]; facts: string[] }[] = [];
  const focus: FocusSelector = {
    firstKeys: () => firstKeys,
    step: async (read) => {
      asked.push({ linkOnly: [...read.linkOnly].sort(), unlinked: [...read.unlinked].sort(), facts: [...read.facts.keys()].sort() });
      return steps[Math.min(asked.length, steps.length) - 1] ?? { parse: [] };
    },
  };
  return { focus, asked };
}

/** A selector that asks for nothing, and how often it was asked. */
function createQuietFocus(): { selector: FocusSelector; steps: () => number } {
  let steps = 0;
  const selector: FocusSelector = {
    firstKeys: () => undefined,
    step: async () => {
      steps += 1;
      return { parse: [] };
    },
  };
  return { selector, steps: () => steps };
}

test('focused, with no cache, before the keys are known: files are read and hashed, none scanned; the chosen ones parsed', async (t) => {
  const repo = createSourceRepo(t);
  const { focus, asked } = createFocus(undefined, [{ parse: ['src/users.ts', 'README.md'] }]);

  const first = await run(repo, { focus });

  // The test file's cases are read only when it reaches a change: it is read like the others. With no keys, no file is
  // scanned. The file asked for is first scanned for its links (what it imports may be asked for too), then, once no
  // file is left to scan or test, parsed in full; the selector is asked once more and asks for nothing new.
  const all = Object.keys(sources).sort();
  const others = all.filter((path) => path !== 'src/users.ts');
  assert.deepEqual(asked, [
    { linkOnly: all, unlinked: all, facts: all },
    { linkOnly: all, unlinked: others, facts: all },
    { linkOnly: others, unlinked: others, facts: all },
  ]);
  assert.deepEqual([...first.linkOnly].sort(), ['lib/legacy.cjs', 'src/db.ts', 'src/view.tsx', 'test/users.test.ts']);
  assert.deepEqual(first.stats, { cached: 0, parsed: 1, read: 5, crashed: 0 });
  for (const [path, text] of Object.entries(sources)) {
    const full = readFacts(path, text);
    // A file read and not parsed keeps its lines and a bound of its complexity, counted from its text (hotspots.ts).
    const unparsed = { ...emptyFacts(full.lines), complexityBound: boundScriptComplexity(text) };
    assert.deepEqual(first.facts.get(path)?.facts, first.linkOnly.has(path) ? unparsed : full, path);
    assert.equal(first.facts.get(path)?.hash, sha1(text));
  }
  assert.deepEqual(Object.keys(readCacheEntries(repo.dir)), ['src/users.ts']);

  // With a cache to start from, every changed or new file is parsed in full and `focus` is not asked.
  const second = await run(repo, { focus });
  assert.equal(asked.length, 3);
  assert.deepEqual(second.stats, { cached: 1, parsed: 4, read: 4, crashed: 0 });
  assert.deepEqual([...second.linkOnly], []);
});

test('focused with keys: a file holding none is not scanned until a step names a key it holds; its lines are kept', async (t) => {
  const repo = createSourceRepo(t);
  const { focus, asked } = createFocus({ words: ['/db'], dots: false }, [
    { keys: { words: ['/db', "'node"], dots: false }, parse: [] },
    { keys: { words: ['/db', "'node", '/nowhere'], dots: false }, parse: ['src/users.ts'] },
  ]);

  const result = await run(repo, { focus });

  // The test file holds the second step's key; users.ts, asked for with the third key, is parsed alongside that key's
  // round (a few needed files already scanned go with the scans).
  assert.deepEqual(
    asked.map((read) => read.unlinked),
    [
      ['src/db.ts', 'src/view.tsx', 'test/users.test.ts'],
      ['src/db.ts', 'src/view.tsx'],
      ['src/db.ts', 'src/view.tsx'],
    ],
  );
  assert.deepEqual([...result.linkOnly].sort(), ['lib/legacy.cjs', 'src/db.ts', 'src/view.tsx', 'test/users.test.ts']);
  assert.deepEqual(result.stats, { cached: 0, parsed: 1, read: 5, crashed: 0 });
  // db.ts names no path at all (no quote, no slash): it holds no key whatever the keys.
  const unparsed = (path: 'src/view.tsx' | 'src/db.ts') => ({
    hash: sha1(sources[path]),
    facts: { ...emptyFacts(1), complexityBound: boundScriptComplexity(sources[path]) },
  });
  assert.deepEqual(result.facts.get('src/view.tsx'), unparsed('src/view.tsx'));
  assert.deepEqual(result.facts.get('src/db.ts'), unparsed('src/db.ts'));
  // A scanned file's links are the full walk's, every other list empty.
  for (const path of ['test/users.test.ts', 'lib/legacy.cjs']) {
    const text = sources[path as keyof typeof sources];
    const full = extractFacts(path, text, { assertionHelpers: [] });
    const lists = { tests: [], callables: [], constants: [], functions: [], signals: [] };
    const expected = { ...full, ...lists, complexityBound: boundScriptComplexity(text), typeSpans: undefined };
    delete expected.typeSpans;
    // The scanner reads links, not types: a file it answers for has no runtime hash (changed files are parsed in full).
    delete expected.runtimeHash;
    assert.deepEqual(result.facts.get(path)?.facts, expected, path);
  }
  // The files read for their links are kept as link entries; those never scanned are not kept at all.
  const entries = readCacheEntries(repo.dir) as Record<string, { links?: true }>;
  assert.deepEqual(Object.keys(entries), ['lib/legacy.cjs', 'src/users.ts', 'test/users.test.ts']);
  assert.deepEqual(
    Object.values(entries).map((entry) => entry.links),
    [true, undefined, true],
  );
});

test('a focused run after a focused cold one takes its link entries as they are, scans the files never scanned, parses the edited', async (t) => {
  const repo = createSourceRepo(t);
  ageFiles(repo);
  const { focus } = createFocus({ words: ['/db'], dots: false }, [{ keys: { words: ['/db'], dots: false }, parse: ['src/users.ts'] }]);
  await run(repo, { focus });
  const lib = "const db = require('../src/db.js');\nmodule.exports = { db };\n";
  repo.write({ 'lib/legacy.cjs': lib });
  ageFiles(repo, ['lib/legacy.cjs']);
  const { selector: later, steps } = createQuietFocus();

  const next = await run(repo, { focus: later });

  // users.ts in full from the cache; db.ts, view.tsx and the test (none held the key `/db`: never scanned) read for
  // their links; legacy.cjs, edited since its link entry, parsed in full. The selector is not asked: the build reads
  // in full what the change needs (build-graph.ts' readFocusInFull).
  assert.equal(steps(), 0);
  assert.deepEqual(next.stats, { cached: 1, parsed: 1, read: 4, crashed: 0 });
  assert.deepEqual([...next.linkOnly].sort(), ['src/db.ts', 'src/view.tsx', 'test/users.test.ts']);
  assert.deepEqual([...next.unlinked], []);
  assert.deepEqual(next.facts.get('lib/legacy.cjs')?.facts, readFacts('lib/legacy.cjs', lib));
  assert.deepEqual(
    next.facts.get('src/db.ts')?.facts.exports.map((fact) => fact.name),
    ['db'],
  );
  // The link entry legacy.cjs had is what the kept graph was made of: the earlier facts of the file parsed again.
  assert.deepEqual(next.previous.get('lib/legacy.cjs')?.facts.tests, []);
  const entries = readCacheEntries(repo.dir) as Record<string, { links?: true }>;
  assert.deepEqual(
    Object.entries(entries).map(([path, entry]) => [path, entry.links]),
    [
      ['lib/legacy.cjs', undefined],
      ['src/db.ts', true],
      ['src/users.ts', undefined],
      ['src/view.tsx', true],
      ['test/users.test.ts', true],
    ],
  );

  // A run that is not focused takes no link entry: it parses those files in full, and caches them so.
  const full = await run(repo);
  assert.deepEqual(full.stats, { cached: 2, parsed: 3, read: 3, crashed: 0 });
  assert.deepEqual([...full.linkOnly], []);
  assert.deepEqual(full.facts.get('test/users.test.ts')?.facts, readFacts('test/users.test.ts', sources['test/users.test.ts']));
});

test('a focused run over a cache that holds few of the files (an `ai` with nothing changed) reads the rest for their links', async (t) => {
  // 300 modules no earlier run read: past 256 files with no entry, they are read for their links, as after a focused
  // cold run, and the files the cache holds are taken from it. Before, every one was parsed in full (workspace: 6.3 s).
  const modules = Object.fromEntries(
    Array.from({ length: 300 }, (_, index) => [`src/m${index}.ts`, `import { db } from './db.js';\nexport const m${index} = db;\n`]),
  );
  const repo = createRepo({ ...sources, ...modules });
  t.after(() => repo.cleanup());
  ageFiles(repo);
  const scan = await scanRepository(repo.dir);
  const few = scan.files.filter((file) => file.path in sources);
  await parseRepositoryFiles(repo.dir, few, { assertionHelpers: [], pool, pruneCache: false });
  const { selector: later, steps } = createQuietFocus();
  const next = await run(repo, { focus: later });
  assert.equal(steps(), 0);
  assert.deepEqual(next.stats, { cached: 5, parsed: 0, read: 300, crashed: 0 });
  assert.equal(next.linkOnly.size, 300);
  assert.deepEqual(
    next.facts.get('src/m7.ts')?.facts.exports.map((fact) => fact.name),
    ['m7'],
  );
  // With fewer files unread than that, they are parsed in full as before.
  repo.remove('src/m0.ts');
  rmSync(join(repo.dir, cacheFile));
  rmSync(join(repo.dir, detailFile), { force: true });
  rmSync(join(repo.dir, journalFile), { force: true });
  const most = (await scanRepository(repo.dir)).files.filter((file) => !/^src\/m\d\d?\.ts$/.test(file.path));
  await parseRepositoryFiles(repo.dir, most, { assertionHelpers: [], pool, pruneCache: false });
  const parsed = await run(repo, { focus: later });
  assert.deepEqual([parsed.stats.parsed, parsed.linkOnly.size], [99, 0]);
});

test('a build with no change reads modules for their links and words, tests in full; a test’s link entry is parsed', async (t) => {
  const repo = createSourceRepo(t);
  ageFiles(repo);
  const isTest = (path: string): boolean => path.startsWith('test/');
  // A focused cold run leaves the test a link entry: its titles were never read.
  const { focus } = createFocus({ words: ['/db', "'node"], dots: false }, [{ keys: { words: ['/db', "'node"], dots: false }, parse: [] }]);
  await run(repo, { focus });
  assert.equal((readCacheEntries(repo.dir) as Record<string, { links?: true }>)['test/users.test.ts']?.links, true);

  const first = await run(repo, { moduleLinks: { isTest } });

  // legacy.cjs and users.ts, link entries without words, and db.ts and view.tsx, never scanned, are read for their
  // links and words; the test's link entry is parsed in full.
  assert.deepEqual(first.stats, { cached: 0, parsed: 1, read: 5, crashed: 0 });
  assert.deepEqual([...first.linkOnly].sort(), ['lib/legacy.cjs', 'src/db.ts', 'src/users.ts', 'src/view.tsx']);
  assert.deepEqual(first.facts.get('test/users.test.ts')?.facts, readFacts('test/users.test.ts', sources['test/users.test.ts']));
  assert.deepEqual(first.facts.get('src/db.ts')?.facts.words, extractFileWords(sources['src/db.ts']));
  const again = await run(repo, { moduleLinks: { isTest } });
  assert.deepEqual(again.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
  assert.deepEqual(again.facts.get('src/db.ts')?.facts.words, extractFileWords(sources['src/db.ts']));
});

test('a run ranks a file by the words the cache will hold of it: redacted in the run that parses it too', async (t) => {
  const repo = createSourceRepo(t);
  // The words are a sorted bag: `password` before `placeholder` reads to the redaction as a key and its value.
  const text = "export const label = 'Enter your password';\nexport const hint = 'placeholder placeholder';\n";
  repo.write({ 'src/form.ts': text });
  ageFiles(repo);
  const first = await run(repo);
  const second = await run(repo);
  assert.equal(second.stats.parsed, 0);
  const words = first.facts.get('src/form.ts')?.facts.words;
  assert.ok(words !== undefined && words.strings !== extractFileWords(text).strings, 'the redacted words');
  assert.deepEqual(words, second.facts.get('src/form.ts')?.facts.words);
  // Nothing else of its facts was redacted: they are the cache's as they are, and the parent does not redact them again.
  assert.equal(first.unclean.has('src/form.ts'), false);
  assert.deepEqual(second.facts.get('src/form.ts')?.facts, first.facts.get('src/form.ts')?.facts);
});

test('an untouched repository is served from the cache without reading a file', async (t) => {
  const repo = createSourceRepo(t);
  const first = await run(repo);

  const second = await run(repo);

  assert.deepEqual(second.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
  assert.deepEqual(second.facts, first.facts);
});

test('changing one file re-parses exactly that file; a same-content touch re-reads but does not re-parse', async (t) => {
  const repo = createSourceRepo(t);
  // Dated before the cache writes: a file written in the tick the cache was is read again (the racy-git rule), which a
  // loaded machine hits.
  ageFiles(repo);
  await run(repo);
  repo.write({ 'src/db.ts': 'export const db = { all: (table: string) => [table, table] };\nexport const version = 2;\n' });
  ageFiles(repo, ['src/db.ts']);

  const changed = await run(repo);

  assert.deepEqual(changed.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(
    changed.facts.get('src/db.ts')?.facts.exports.map((fact) => fact.name),
    ['db', 'version'],
  );

  const earlier = new Date(Date.now() - 60_000);
  utimesSync(join(repo.dir, 'src/users.ts'), earlier, earlier);
  const touched = await run(repo);
  assert.deepEqual(touched.stats, { cached: 4, parsed: 0, read: 1, crashed: 0 });

  const settled = await run(repo);
  assert.deepEqual(settled.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
});

test('the children read the files: no text crosses IPC, and a touched file is hashed there against the facts held', async (t) => {
  const repo = createSourceRepo(t);
  const calls: { kind: 'parse' | 'read'; jobs: unknown[] }[] = [];
  const watched: ParsePool = {
    get size() {
      return pool.size;
    },
    parse: (jobs, options, onParsed) => {
      calls.push({ kind: 'parse', jobs });
      return pool.parse(jobs, options, onParsed);
    },
    read: (source, jobs, options, onParsed) => {
      calls.push({ kind: 'read', jobs });
      return pool.read(source, jobs, options, onParsed);
    },
    warm: (count) => pool.warm(count),
    release: () => pool.release(),
    processIds: () => pool.processIds(),
    close: async () => undefined,
  };
  const first = await run(repo, { pool: watched });
  assert.deepEqual(
    calls.map((call) => [
      call.kind,
      call.jobs.map((job) =>
        Object.keys(job as object)
          .sort()
          .join(','),
      ),
    ]),
    [['read', ['path,size', 'path,size', 'path,size', 'path,size', 'path,size']]],
  );
  const hashOf = (path: string): string =>
    createHash('sha1')
      .update(readFileSync(join(repo.dir, path)))
      .digest('hex');
  assert.equal(first.facts.get('src/db.ts')?.hash, hashOf('src/db.ts'));

  calls.length = 0;
  const earlier = new Date(Date.now() - 60_000);
  utimesSync(join(repo.dir, 'src/users.ts'), earlier, earlier);
  repo.write({ 'src/db.ts': 'export const db = 2;\n' });
  const second = await run(repo, { pool: watched });
  assert.deepEqual(calls, [
    {
      kind: 'read',
      jobs: [
        { path: 'src/db.ts', size: 21, knownHash: first.facts.get('src/db.ts')?.hash },
        { path: 'src/users.ts', size: sources['src/users.ts'].length, knownHash: hashOf('src/users.ts') },
      ],
    },
  ]);
  assert.deepEqual(second.stats, { cached: 3, parsed: 1, read: 2, crashed: 0 });
  assert.equal(second.facts.get('src/db.ts')?.hash, hashOf('src/db.ts'));
  assert.deepEqual(second.facts.get('src/users.ts'), first.facts.get('src/users.ts'));
});

test('a corrupt cache is discarded with an info diagnostic and rebuilt', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  writeFileSync(join(repo.dir, cacheFile), '{"parserVersion": 1, "entries": {"src/db.ts": ');

  const result = await run(repo);

  assert.deepEqual(result.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual(result.diagnostics, [
    {
      code: 'cache/discarded',
      severity: 'info',
      message: `The facts cache in .checker/local/cache/${FACTS_CACHE_FILE} was discarded because it is not valid JSON; files are parsed again.`,
      location: { file: `.checker/local/cache/${FACTS_CACHE_FILE}` },
    },
  ]);
  assert.deepEqual((await run(repo)).stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
});

test('every list of the facts loads from the detail file on first use, equal to the parse', async (t) => {
  const repo = createSourceRepo(t);
  repo.write({
    'src/routes.ts':
      "import { db } from './db.js';\nconst BASE = '/api';\nexport function list(limit: number) {\n  if (limit > 10 && db) return db.all(`${BASE}/x`);\n  return [];\n}\n",
  });
  const cold = await run(repo);
  const text = readFileSync(join(repo.dir, cacheFile), 'utf8');
  const onDisk = JSON.parse(text).entries['src/routes.ts'].facts;
  assert.deepEqual(Object.keys(onDisk), ['typeSpans', 'runtimeHash', 'lines']);
  assert.ok(!text.includes('db.all'), 'a callable ref is in the cache file');
  assert.ok(!text.includes('./db.js'), 'an import is in the cache file');

  const warm = await run(repo);
  assert.deepEqual(warm.stats, { cached: 6, parsed: 0, read: 0, crashed: 0 });
  const facts = warm.facts.get('src/routes.ts')?.facts;
  assert.ok(facts !== undefined);
  // Each list is a getter over its part of the detail file, in the place the parse gives it.
  assert.deepEqual(Object.keys(facts), Object.keys(cold.facts.get('src/routes.ts')?.facts ?? {}));
  for (const list of ['imports', 'exports', 'routes', 'callables', 'signals']) {
    assert.equal(typeof Object.getOwnPropertyDescriptor(facts, list)?.get, 'function', list);
  }
  assert.deepEqual(
    facts.callables.map((callable) => [callable.name, callable.refs]),
    [
      ['BASE', ['BASE']],
      ['list', ['BASE', 'db', 'db.all', 'limit', 'list']],
    ],
  );
  // Parsed once: the same lists on every read, and a list set stays set beside the others.
  assert.equal(facts.callables, facts.callables);
  assert.deepEqual(
    facts.imports.map((fact) => fact.specifier),
    ['./db.js'],
  );
  assert.equal(facts.imports, facts.imports);
  // Equal to the parse as a value too: nothing of the lazy reading is enumerable.
  assert.deepStrictEqual(facts, cold.facts.get('src/routes.ts')?.facts);
  // Same fields, same order, same values as the parse: JSON of every file's facts is identical.
  for (const [path, parsed] of cold.facts) assert.equal(JSON.stringify(warm.facts.get(path)), JSON.stringify(parsed), path);
  const constants = facts.constants;
  facts.signals = [];
  assert.deepEqual(facts.signals, []);
  assert.equal(facts.constants, constants);
});

test('a detail file that is not the one the cache file names discards the cache; the files are parsed again', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  const detailPath = join(repo.dir, detailFile);
  const original = readFileSync(detailPath);
  const outside = makeTempDir('checker-detail-');
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  const damage: [string, () => void][] = [
    [
      'edited',
      () => writeFileSync(detailPath, Buffer.from(original.toString('latin1').replace('"refs":[', '"refs":["forged",'), 'latin1')),
    ],
    ['truncated', () => writeFileSync(detailPath, original.subarray(0, original.length - 1))],
    ['missing', () => rmSync(detailPath)],
    [
      'symlinked',
      () => {
        writeFileSync(join(outside, 'detail.json'), original);
        rmSync(detailPath);
        symlinkSync(join(outside, 'detail.json'), detailPath);
      },
    ],
  ];
  for (const [what, apply] of damage) {
    apply();
    const result = await run(repo);
    assert.deepEqual(result.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 }, what);
    assert.deepEqual(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        [
          'cache/discarded',
          `The facts cache in .checker/local/cache/${FACTS_CACHE_FILE} was discarded because its ${FACTS_DETAIL_FILE} is missing, damaged or from another write; files are parsed again.`,
        ],
      ],
      what,
    );
    assert.ok(!JSON.stringify([...result.facts.values()]).includes('forged'), what);
    assert.equal(lstatSync(detailPath).isSymbolicLink(), false, what);
    assert.deepEqual((await run(repo)).stats, { cached: 5, parsed: 0, read: 0, crashed: 0 }, what);
  }
});

test('a whole-file write after a load copies detail never read as it was, and the next load reads it back', async (t) => {
  const repo = createSourceRepo(t);
  const cold = await run(repo);
  // One malformed entry makes the next save write the whole cache file again, while the other entries stay unread.
  const document = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));
  document.entries['src/view.tsx'].hash = 7;
  writeFileSync(join(repo.dir, cacheFile), JSON.stringify(document));
  const before = readFileSync(join(repo.dir, detailFile), 'latin1');

  const rewritten = await run(repo);
  assert.deepEqual(rewritten.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  const users = rewritten.facts.get('src/users.ts')?.facts;
  assert.ok(users !== undefined);
  assert.notEqual(JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8')).baseId, document.baseId);
  // The same bytes for every entry; only the id the write ends it with is new.
  const after = readFileSync(join(repo.dir, detailFile), 'latin1');
  assert.equal(after.slice(0, after.lastIndexOf('\n')), before.slice(0, before.lastIndexOf('\n')));
  assert.notEqual(after, before);

  const again = await run(repo);
  assert.deepEqual(again.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
  for (const [path, parsed] of cold.facts) assert.equal(JSON.stringify(again.facts.get(path)), JSON.stringify(parsed), path);
});

test('a cache file of an older build, every field inline, is used and rewritten once with its detail file', async (t) => {
  const repo = createSourceRepo(t);
  const cold = await run(repo);
  const document = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));
  for (const [path, entry] of Object.entries<{ facts?: unknown; detail?: unknown }>(document.entries)) {
    entry.facts = JSON.parse(JSON.stringify(cold.facts.get(path)?.facts));
    delete entry.detail;
  }
  delete document.detail;
  writeFileSync(join(repo.dir, cacheFile), JSON.stringify(document));
  rmSync(join(repo.dir, detailFile));

  const upgraded = await run(repo);
  assert.deepEqual(upgraded.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
  assert.deepEqual(upgraded.diagnostics, []);
  for (const [path, parsed] of cold.facts) assert.equal(JSON.stringify(upgraded.facts.get(path)), JSON.stringify(parsed), path);
  assert.equal(typeof JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8')).detail?.id, 'string');
  assert.ok(existsSync(join(repo.dir, detailFile)));

  const next = await run(repo);
  assert.deepEqual(next.stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });
  const users = next.facts.get('src/users.ts')?.facts;
  assert.ok(users !== undefined);
  assert.equal(typeof Object.getOwnPropertyDescriptor(users, 'functions')?.get, 'function');
});

test('a cache from another parser version or with malformed entries is not trusted', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  const document = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));
  document.entries['src/db.ts'].facts = { lines: 'many' };
  writeFileSync(join(repo.dir, cacheFile), JSON.stringify(document));

  const malformed = await run(repo);
  assert.deepEqual(malformed.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(
    malformed.diagnostics.map((diagnostic) => diagnostic.code),
    ['cache/discarded'],
  );

  writeFileSync(join(repo.dir, cacheFile), JSON.stringify({ ...document, parserVersion: PARSER_VERSION + 1 }));
  const foreign = await run(repo);
  assert.deepEqual(foreign.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual(
    foreign.diagnostics.map((diagnostic) => diagnostic.code),
    ['cache/discarded'],
  );
});

test('different parse options do not reuse facts extracted with other options', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);

  const result = await run(repo, { assertionHelpers: ['expectValid'] });

  assert.deepEqual(result.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual(result.diagnostics, []);
});

test('an edit is written to the journal, not the cache file, and the next run reads it from there', async (t) => {
  const repo = createSourceRepo(t);
  // Dated well before the cache writes: a file written in the same clock tick as the cache (a loaded machine) is
  // rightly read again, which is not what this case is about.
  ageFiles(repo);
  await run(repo);
  const base = readFileSync(join(repo.dir, cacheFile));
  repo.write({ 'src/db.ts': 'export const db = {};\nexport const version = 3;\n' });
  ageFiles(repo, ['src/db.ts']);
  repo.remove('lib/legacy.cjs');

  const edited = await run(repo);
  assert.deepEqual(edited.stats, { cached: 3, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(readFileSync(join(repo.dir, cacheFile)), base, 'the cache file was rewritten');
  const journal = JSON.parse(readFileSync(join(repo.dir, journalFile), 'utf8'));
  assert.equal(journal.baseId, JSON.parse(base.toString('utf8')).baseId);
  assert.deepEqual(Object.keys(journal.entries), ['lib/legacy.cjs', 'src/db.ts']);
  assert.equal(journal.entries['lib/legacy.cjs'], null);

  const next = await run(repo);
  assert.deepEqual(next.stats, { cached: 4, parsed: 0, read: 0, crashed: 0 });
  assert.deepEqual(next.facts, edited.facts);
  assert.deepEqual(
    next.facts.get('src/db.ts')?.facts.exports.map((fact) => fact.name),
    ['db', 'version'],
  );
});

test('a journal of another cache file, or a damaged one, is ignored: its files are read again', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  repo.write({ 'src/db.ts': 'export const db = {};\nexport const version = 3;\n' });
  const edited = await run(repo);
  const journal = readFileSync(join(repo.dir, journalFile), 'utf8');

  const base = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));
  writeFileSync(join(repo.dir, cacheFile), JSON.stringify({ ...base, baseId: 'another' }));
  const foreign = await run(repo);
  assert.deepEqual(foreign.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(foreign.facts, edited.facts);

  writeFileSync(join(repo.dir, cacheFile), JSON.stringify(base));
  writeFileSync(join(repo.dir, journalFile), journal.slice(0, 40));
  const damaged = await run(repo);
  assert.deepEqual(damaged.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(damaged.facts, edited.facts);
  assert.deepEqual((await run(repo)).stats, { cached: 5, parsed: 0, read: 0, crashed: 0 });

  // A journal that is a symlink (here to a well-formed journal outside, planting facts) is not read, and a save
  // replaces the link instead of writing through it.
  writeFileSync(join(repo.dir, cacheFile), JSON.stringify(base));
  const outside = join(makeTempDir('checker-journal-'), 'journal.json');
  const planted = JSON.parse(journal);
  planted.entries['src/db.ts'].facts.exports = [];
  writeFileSync(outside, JSON.stringify(planted));
  rmSync(join(repo.dir, journalFile), { force: true });
  symlinkSync(outside, join(repo.dir, journalFile));
  const linked = await run(repo);
  assert.deepEqual(linked.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(linked.facts, edited.facts);
  assert.deepEqual(JSON.parse(readFileSync(outside, 'utf8')), planted);
  assert.equal(lstatSync(join(repo.dir, journalFile)).isSymbolicLink(), false);
});

test('a journalled entry whose file was written in the tick the journal was is read again (racy-git rule)', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  repo.write({ 'src/db.ts': 'export const db = {};\nexport const version = 3;\n' });
  await run(repo);
  // The journal written in the same tick as an edit that kept the size: only its time can tell.
  const dbPath = join(repo.dir, 'src/db.ts');
  const written = statSync(dbPath).mtime;
  writeFileSync(dbPath, 'export const db = {};\nexport const weight = 3;\n');
  utimesSync(dbPath, written, written);
  utimesSync(join(repo.dir, journalFile), written, written);

  const result = await run(repo);
  assert.deepEqual(result.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(
    result.facts.get('src/db.ts')?.facts.exports.map((fact) => fact.name),
    ['db', 'weight'],
  );
});

test('the cache and detail files are ASCII (other characters escaped) and give back the same facts, emoji and accents included', async (t) => {
  const repo = createSourceRepo(t);
  repo.write({ 'test/intl.test.ts': "import { test } from 'node:test';\ntest('café 😀 naïve', () => {});\nexport const ſ = '\\ud800';\n" });
  const first = await run(repo);
  for (const file of [cacheFile, detailFile]) {
    assert.ok(
      readFileSync(join(repo.dir, file)).every((byte) => byte < 0x80),
      `a byte outside ASCII in ${file}`,
    );
  }
  assert.match(readFileSync(join(repo.dir, detailFile), 'latin1'), /caf\\u00e9 \\ud83d\\ude00 na\\u00efve/);
  const second = await run(repo);
  assert.equal(second.stats.cached, 6);
  assert.deepEqual(second.facts, first.facts);
  assert.deepEqual(
    second.facts.get('test/intl.test.ts')?.facts.tests.map((item) => item.titlePath.join(' › ')),
    ['café 😀 naïve'],
  );
});

test('past 128 journalled entries the cache file is written again and the journal removed', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  const many: Record<string, string> = {};
  for (let index = 0; index < 130; index += 1) many[`gen/m${index}.ts`] = `export const m${index} = ${index};\n`;
  repo.write(many);
  const base = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));

  const result = await run(repo);
  assert.equal(result.stats.parsed, 130);
  assert.equal(existsSync(join(repo.dir, journalFile)), false);
  const rewritten = JSON.parse(readFileSync(join(repo.dir, cacheFile), 'utf8'));
  assert.notEqual(rewritten.baseId, base.baseId);
  assert.equal(Object.keys(rewritten.entries).length, 135);
  assert.deepEqual((await run(repo)).stats, { cached: 135, parsed: 0, read: 0, crashed: 0 });
});

test('a symlinked .checker/local is never written through, and the run still parses', async (t) => {
  const repo = createSourceRepo(t);
  const outside = makeTempDir('checker-outside-');
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  mkdirSync(join(repo.dir, '.checker'));
  symlinkSync(outside, join(repo.dir, '.checker', 'local'));

  const first = await run(repo);
  const second = await run(repo);

  assert.deepEqual(first.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual(second.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.deepEqual(second.diagnostics, [
    {
      code: 'cache/unsafe-path',
      severity: 'warn',
      message: '.checker/local is a symlink or not a directory, so the facts cache is neither read nor written.',
      hint: 'Remove .checker/local (checker recreates .checker/local as a plain folder).',
      location: { file: '.checker/local' },
    },
  ]);
  assert.deepEqual(readdirSync(outside), []);
});

test('useCache: false neither reads nor creates .checker', async (t) => {
  const repo = createSourceRepo(t);

  const result = await run(repo, { useCache: false });

  assert.deepEqual(result.stats, { cached: 0, parsed: 5, read: 5, crashed: 0 });
  assert.equal(existsSync(join(repo.dir, '.checker')), false);
});

test('deleted files leave the cache; a syntax error is reported as a parse/syntax diagnostic', async (t) => {
  const repo = createSourceRepo(t);
  await run(repo);
  repo.remove('lib/legacy.cjs');
  repo.write({ 'src/broken.ts': 'export const = ;\n' });

  const result = await run(repo);

  assert.deepEqual(result.stats, { cached: 4, parsed: 1, read: 1, crashed: 0 });
  assert.deepEqual(Object.keys(readCacheEntries(repo.dir)), [
    'src/broken.ts',
    'src/db.ts',
    'src/users.ts',
    'src/view.tsx',
    'test/users.test.ts',
  ]);
  assert.deepEqual(
    result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.location?.file]),
    [['parse/syntax', 'src/broken.ts']],
  );
});

test('readTextFile reads a non-code file and refuses paths that leave the repository', async (t) => {
  const repo = createSourceRepo(t);
  repo.symlink('/etc', 'etc-link');

  assert.deepEqual(await readTextFile(repo.dir, 'README.md'), { ok: true, text: '# Users\n', hash: sha1('# Users\n') });
  assert.deepEqual(await readTextFile(repo.dir, '../outside.txt'), {
    ok: false,
    skip: { path: '../outside.txt', reason: 'symlink-outside', detail: 'the path leaves the repository' },
  });
  assert.deepEqual(await readTextFile(repo.dir, 'etc-link/hostname'), {
    ok: false,
    skip: { path: 'etc-link/hostname', reason: 'symlink-outside', detail: 'a directory on the path links outside the repository' },
  });
});

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

test('no secret in code reaches the cache file, whether its entry was parsed in this run or an earlier one', async (t) => {
  const github = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
  const aws = 'AKIAIOSFODNN7EXAMPLE';
  const repo = createSourceRepo(t);
  repo.write({
    'test/token.test.ts': `import { test } from 'node:test';\nexport const PATH = '/hooks/${github}';\ntest('accepts ${github}', () => {});\n`,
  });
  await run(repo);
  const first = readCacheText(repo.dir);
  assert.ok(!first.includes(github), 'the first save wrote the token');
  assert.match(first, /accepts \[REDACTED:github-token\]/);
  // The constant is among the fields kept in the detail file.
  assert.match(readFileSync(join(repo.dir, detailFile), 'utf8'), /\/hooks\/\[REDACTED:github-token\]/);

  // The second run keeps the token file's entry from disk and parses only the new file.
  repo.write({ 'test/key.test.ts': `import { test } from 'node:test';\ntest('signs with ${aws}', () => {});\n` });
  const second = await run(repo);
  assert.equal(second.stats.parsed, 1);
  const text = readCacheText(repo.dir);
  assert.ok(!text.includes(github) && !text.includes(aws), 'a save wrote a secret');
  assert.match(text, /accepts \[REDACTED:github-token\]/);
  assert.match(text, /signs with \[REDACTED:aws-access-key\]/);
});

test('a parse child is started before the cache loads only when a code file was written at or after the cache', async (t) => {
  const repo = createSourceRepo(t);
  const scanned = async () => (await scanRepository(repo.dir)).files.filter((file) => file.path.endsWith('.ts'));
  // No cache yet: everything will be parsed.
  assert.equal(isParseLikely(repo.dir, await scanned(), true), true);
  await run(repo);
  const cacheTime = statSync(join(repo.dir, cacheFile)).mtimeMs;
  const past = new Date(cacheTime - 60_000);
  for (const path of Object.keys(sources)) utimesSync(join(repo.dir, path), past, past);
  assert.equal(isParseLikely(repo.dir, await scanned(), true), false);
  // Without the cache every file is read, whatever the times.
  assert.equal(isParseLikely(repo.dir, await scanned(), false), true);
  assert.equal(isParseLikely(repo.dir, [], true), false);
  repo.write({ 'src/db.ts': 'export const db = { all: (table: string) => [table] };\n' });
  const future = new Date(cacheTime + 60_000);
  utimesSync(join(repo.dir, 'src/db.ts'), future, future);
  assert.equal(isParseLikely(repo.dir, await scanned(), true), true);
});

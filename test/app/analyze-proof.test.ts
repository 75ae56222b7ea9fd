import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AuditTestsReport } from '../../src/model/reports.js';
import {
  analyzeFixture,
  createChangeFixture,
  runJsonReport,
  toLcov,
  writeCoverage,
  type ChangeFixture,
} from '../helpers/analysis-fixtures.js';
import { createRepo } from '../helpers/git-repo.js';

const source = (name: string, step: number): string =>
  `export function ${name}(x: number): number {\n  const y = x + ${step};\n  return y;\n}\n`;
const vitest = (name: string, mock = false): string =>
  `import { describe, it, expect${mock ? ', vi' : ''} } from 'vitest';\nimport { ${name} } from './${name}';\n${mock ? `vi.mock('./${name}');\n` : ''}describe('${name}', () => {\n  it('adds', () => {\n    expect(${name}(1)).toBe(2);\n  });\n});\n`;

/**
 * Five source files, one per proof state, each changing line 2:
 * proven (its test runs it and coverage hits line 2), missed (its test exists, line 2 has 0 hits),
 * nocov (its test exists, coverage does not mention it), mocked (its only test vi.mocks it),
 * lonely (no test).
 */
const BASE = {
  '.gitignore': 'coverage/\nnode_modules/\n',
  'package.json': JSON.stringify({ name: 'proof', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
  'src/proven.ts': source('proven', 1),
  'src/proven.test.ts': vitest('proven'),
  'src/missed.ts': source('missed', 1),
  'src/missed.test.ts': vitest('missed'),
  'src/nocov.ts': source('nocov', 1),
  'src/nocov.test.ts': vitest('nocov'),
  'src/mocked.ts': source('mocked', 1),
  'src/mocked.test.ts': vitest('mocked', true),
  'src/lonely.ts': source('lonely', 1),
};
const CHANGE = Object.fromEntries(['proven', 'missed', 'nocov', 'mocked', 'lonely'].map((name) => [`src/${name}.ts`, source(name, 2)]));

const EXPECTED_STATES = [
  ['src/lonely.ts', 'unproven'],
  ['src/missed.ts', 'runtime-unproven'],
  ['src/mocked.ts', 'mocked-boundary'],
  ['src/nocov.ts', 'static-only'],
  ['src/proven.ts', 'runtime-proven'],
];

describe('checker audit-tests --format json: each proof state from a real lcov file', () => {
  let fixture: ChangeFixture;
  let report: AuditTestsReport;
  before(async () => {
    fixture = createChangeFixture(BASE, CHANGE);
    writeCoverage(fixture.repo, {
      'coverage/lcov.info': toLcov({
        'src/proven.ts': { 1: 1, 2: 1, 3: 1 },
        'src/missed.ts': { 1: 1, 2: 0, 3: 0 },
        'src/mocked.ts': { 1: 1, 2: 0, 3: 0 },
      }),
    });
    report = (await runJsonReport<AuditTestsReport>(fixture, ['audit-tests'], 'audit-tests-report')).report;
  });
  after(() => fixture.repo.cleanup());

  test('exact state per changed file', () => {
    assert.deepEqual(
      report.changedPathProof.map((proof) => [proof.path, proof.state]),
      EXPECTED_STATES,
    );
  });

  test('covered and uncovered changed lines and reaching tests', () => {
    assert.deepEqual(
      report.changedPathProof.map((proof) => ({
        path: proof.path,
        tests: proof.reachingTests,
        covered: proof.coveredChangedLines,
        uncovered: proof.uncoveredChangedLines,
      })),
      [
        { path: 'src/lonely.ts', tests: [], covered: [], uncovered: [] },
        { path: 'src/missed.ts', tests: ['src/missed.test.ts'], covered: [], uncovered: [2] },
        { path: 'src/mocked.ts', tests: ['src/mocked.test.ts'], covered: [], uncovered: [2] },
        { path: 'src/nocov.ts', tests: ['src/nocov.test.ts'], covered: [], uncovered: [] },
        { path: 'src/proven.ts', tests: ['src/proven.test.ts'], covered: [2], uncovered: [] },
      ],
    );
  });

  test('repair tasks: none for the proven file, one naming the file for every other state', () => {
    const tasks = Object.fromEntries(report.changedPathProof.map((proof) => [proof.path, proof.repairTask]));
    assert.deepEqual(tasks, {
      'src/lonely.ts':
        'Add a test in src/lonely.test.ts that imports src/lonely.ts and calls lonely on line 2, then run the suite with coverage so checker can see these lines execute.',
      'src/missed.ts':
        'Extend src/missed.test.ts (it imports missed) with a case that calls missed so that line 2 of src/missed.ts executes; coverage shows the reaching tests never run it.',
      'src/mocked.ts':
        'Add a test in src/mocked.test.ts that imports the real src/mocked.ts (not a mock) and calls mocked on line 2; src/mocked.test.ts mocks it, so it never runs the changed code.',
      'src/nocov.ts':
        'Run the suite with coverage so checker can see whether line 2 of src/nocov.ts executes; if not, extend src/nocov.test.ts (it imports nocov) with a case that calls nocov.',
      'src/proven.ts': '',
    });
  });

  test('test evidence: the fresh lcov source and the per-state summary', () => {
    assert.equal(report.testEvidence.found, true);
    assert.equal(report.testEvidence.freshness, 'fresh');
    assert.deepEqual(
      report.testEvidence.sources.map((item) => [item.kind, item.path, item.files, item.fresh]),
      [['lcov', 'coverage/lcov.info', 3, true]],
    );
    assert.deepEqual(
      report.limitations.filter((item) => item.code.startsWith('coverage/')),
      [],
    );
  });

  test('missing tests and the test files to run', () => {
    assert.deepEqual(
      report.missingTests.map((item) => item.id),
      ['export:src/lonely.ts#lonely'],
    );
    assert.deepEqual(
      report.recommendedChecks.testFiles.map((file) => [file.path, file.reaches]),
      [
        ['src/missed.test.ts', ['src/missed.ts']],
        ['src/mocked.test.ts', ['src/mocked.ts']],
        ['src/nocov.test.ts', ['src/nocov.ts']],
        ['src/proven.test.ts', ['src/proven.ts']],
      ],
    );
  });
});

describe('istanbul coverage-final.json proves the changed lines', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, CHANGE);
  });
  after(() => fixture.repo.cleanup());

  test('statementMap/s hits give runtime-proven and runtime-unproven', async () => {
    const statements = (hits: number[]) => ({
      statementMap: Object.fromEntries(
        hits.map((_hit, index) => [String(index), { start: { line: index + 2, column: 2 }, end: { line: index + 2, column: 20 } }]),
      ),
      s: Object.fromEntries(hits.map((hit, index) => [String(index), hit])),
      fnMap: {},
      f: {},
      branchMap: {},
      b: {},
    });
    writeCoverage(fixture.repo, {
      'coverage/coverage-final.json': JSON.stringify({
        [`${fixture.repo.dir}/src/proven.ts`]: { path: `${fixture.repo.dir}/src/proven.ts`, ...statements([3, 3]) },
        [`${fixture.repo.dir}/src/missed.ts`]: { path: `${fixture.repo.dir}/src/missed.ts`, ...statements([0, 0]) },
      }),
    });
    const report = (await runJsonReport<AuditTestsReport>(fixture, ['audit-tests'], 'audit-tests-report')).report;
    assert.deepEqual(
      report.changedPathProof.map((proof) => [proof.path, proof.state]),
      EXPECTED_STATES,
    );
    assert.deepEqual(
      report.testEvidence.sources.map((item) => [item.kind, item.path, item.files, item.fresh]),
      [['istanbul', 'coverage/coverage-final.json', 2, true]],
    );
  });
});

describe('a coverage file tracked by git is refused', () => {
  let fixture: ChangeFixture;
  before(() => {
    const lcov = toLcov({ 'src/proven.ts': { 1: 1, 2: 1, 3: 1 } });
    fixture = createChangeFixture({ ...BASE, '.gitignore': 'node_modules/\n', 'coverage/lcov.info': lcov }, CHANGE);
    writeCoverage(fixture.repo, { 'coverage/lcov.info': lcov });
  });
  after(() => fixture.repo.cleanup());

  test('it becomes a coverage/tracked limitation and the covered file falls back to static-only', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.limitations.filter((item) => item.code.startsWith('coverage/')).map((item) => [item.code, item.location?.file]),
      [['coverage/tracked', 'coverage/lcov.info']],
    );
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.state]),
      [
        ['src/lonely.ts', 'unproven'],
        ['src/missed.ts', 'static-only'],
        ['src/mocked.ts', 'mocked-boundary'],
        ['src/nocov.ts', 'static-only'],
        ['src/proven.ts', 'static-only'],
      ],
    );
    assert.equal(analysis.testEvidence.found, false);
  });
});

describe('the proof-state counts are those of the changed-path proof table', () => {
  let fixture: ChangeFixture;
  before(() => {
    // A runtime source, a changed test, a type-only file, a doc and a lockfile: only the source owes proof.
    fixture = createChangeFixture(
      {
        ...BASE,
        'src/types.ts': 'export interface Sum {\n  total: number;\n}\n',
        'README.md': '# proof\n',
        'package-lock.json': '{"lockfileVersion": 3}\n',
      },
      {
        'src/lonely.ts': source('lonely', 2),
        'src/proven.test.ts': `${vitest('proven')}// one more line\n`,
        'src/types.ts': 'export interface Sum {\n  total: number;\n  count: number;\n}\n',
        'README.md': '# proof\n\nMore words.\n',
        'package-lock.json': '{"lockfileVersion": 3, "name": "proof"}\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('one file owes proof, and the summary counts one', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.state]),
      [['src/lonely.ts', 'unproven']],
    );
    assert.deepEqual(analysis.summary.proofStates, { unproven: 1 });
  });
});

describe('the test a repair task extends: a suite written through a helper, not a page script', () => {
  // h3's shape: test/static.test.ts declares its cases through `describeMatrix` from test/_setup.ts, so no case of its
  // own is read; msw's: test/browser/page.mocks.ts is a page script a browser test loads by path, with no case at all.
  test('the test-named suite that imports the changed symbol is extended; the page script never is', async () => {
    const serve = (step: number): string => `export function serveStatic(path: string): string {\n  return path.slice(${step});\n}\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'h3', type: 'module', devDependencies: { vitest: '^3.0.0' } }),
        'src/static.ts': serve(1),
        'src/index.ts': "export { serveStatic } from './static';\n",
        'test/_setup.ts':
          "import { describe, it } from 'vitest';\nexport function describeMatrix(title: string, fn: (t: { it: typeof it }) => void): void {\n  describe(title, () => fn({ it }));\n}\n",
        'test/static.test.ts':
          "import { expect } from 'vitest';\nimport { serveStatic } from '../src';\nimport { describeMatrix } from './_setup';\ndescribeMatrix('serveStatic', ({ it }) => {\n  it('strips the slash', () => expect(serveStatic('/a')).toBe('a'));\n});\n",
        'test/browser/page.mocks.ts': "import { serveStatic } from '../../src';\nconsole.log(serveStatic('/page'));\n",
      },
      { 'src/static.ts': serve(2) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const proof = analysis.changedPathProof.find((item) => item.path === 'src/static.ts');
      assert.match(proof?.repairTask ?? '', /extend test\/static\.test\.ts \(it imports serveStatic\)/);
    } finally {
      fixture.repo.cleanup();
    }
  });

  test('a helper other tests import is never the one to extend, though it imports the changed symbol (h3 _setup.ts)', async () => {
    const app = (flag: boolean): string => `export function createApp(): { debug: boolean } {\n  return { debug: ${flag} };\n}\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'h3', type: 'module', devDependencies: { vitest: '^3.0.0' } }),
        'src/app.ts': app(false),
        'test/_setup.ts':
          "import { describe, it } from 'vitest';\nimport { createApp } from '../src/app';\nexport function describeMatrix(title: string, fn: (app: ReturnType<typeof createApp>) => void): void {\n  describe(title, () => {\n    it('runs', () => fn(createApp()));\n  });\n}\n",
        'test/debug.test.ts':
          "import { expect } from 'vitest';\nimport { describeMatrix } from './_setup';\ndescribeMatrix('debug', (app) => {\n  expect(app.debug).toBe(false);\n});\n",
      },
      { 'src/app.ts': app(true) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const proof = analysis.changedPathProof.find((item) => item.path === 'src/app.ts');
      assert.match(proof?.repairTask ?? '', /extend test\/debug\.test\.ts with a case/);
    } finally {
      fixture.repo.cleanup();
    }
  });

  test('a suite file an aggregating entry requires is a test to extend; the entry and a spawned fixture are not (socket.io)', async () => {
    // socket.io's shape: mocha runs test/index.ts alone, one `describe` that requires every suite file; each suite
    // imports the package by its folder (`..`, whose main tsc builds from lib/); a fixture a test spawns imports it too.
    const server = (limit: number): string => `export class Server {\n  limit = ${limit};\n}\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'io',
          main: './dist/index.js',
          scripts: { test: 'mocha --import=tsx test/index.ts' },
          devDependencies: { mocha: '^10.0.0' },
        }),
        'tsconfig.json': JSON.stringify({ compilerOptions: { outDir: './dist' }, include: ['./lib/**/*'] }),
        'lib/index.ts': server(10),
        'test/index.ts': 'describe("io", () => {\n  require("./messaging");\n});\n',
        'test/messaging.ts':
          "import { Server } from '..';\nimport expect from 'expect.js';\ndescribe('messaging', () => {\n  it('has a limit', () => {\n    expect(new Server().limit).to.be(10);\n  });\n});\n",
        'test/fixtures/server-close.ts': "const { Server } = require('../..');\nnew Server();\n",
      },
      { 'lib/index.ts': server(20) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const proof = analysis.changedPathProof.find((item) => item.path === 'lib/index.ts');
      assert.ok(proof?.reachingTests.includes('test/messaging.ts'), JSON.stringify(proof?.reachingTests));
      assert.match(proof?.repairTask ?? '', /extend test\/messaging\.ts \(it imports Server\)/);
    } finally {
      fixture.repo.cleanup();
    }
  });
});

/**
 * Check 98 (tomlkit): container.py had no test named for it; test_items.py said its words, and
 * test_toml_document.py had changed with it in 17 of its 23 commits (the fixes edited that one). Check 99 (gorilla's
 * websocket): conn_test.go is named for conn.go, and client_server_test.go said more of the changed names.
 */
const DOCUMENT_TEST =
  "import { it, expect } from 'vitest';\nimport { Container } from '../src/container';\nit('renders a document', () => {\n  expect(new Container()).toBeTruthy();\n});\n";

describe('the test a proof extends: a test that changed with the file in the history, the named test among importers', () => {
  test('a co-change partner outweighs a few words said; a test named for the file goes before one naming more', async () => {
    const container = (step: number): string =>
      `export class Container {\n  add(value: number): number {\n    return value + ${step};\n  }\n}\nexport const size = ${step};\n`;
    const repo = createRepo({
      'package.json': JSON.stringify({ name: 'toml', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
      'src/container.ts': container(0),
      'src/other.ts': 'export const other = 0;\n',
      'test/items.test.ts':
        "import { it, expect } from 'vitest';\nimport { Container } from '../src/container';\nit('Container add adds items', () => {\n  expect(new Container().add(1)).toBe(1);\n});\n",
      'test/document.test.ts': DOCUMENT_TEST,
      'src/conn.ts': 'export const open = (n: number) => n;\nexport const read = (n: number) => n;\n',
      'test/conn.test.ts':
        "import { it, expect } from 'vitest';\nimport { open } from '../src/conn';\nit('opens', () => {\n  expect(open(1)).toBe(1);\n});\n",
      'test/client-server.test.ts':
        "import { it, expect } from 'vitest';\nimport { open, read } from '../src/conn';\nit('round trip', () => {\n  expect(read(open(1))).toBe(1);\n});\n",
    });
    try {
      for (let round = 1; round <= 5; round++) {
        repo.write({
          'src/container.ts': container(round * 10),
          'test/document.test.ts': `${DOCUMENT_TEST}// round ${round}\n`,
        });
        repo.commit(`container round ${round}`);
        repo.write({ 'src/other.ts': `export const other = ${round};\n` });
        repo.commit(`other round ${round}`);
      }
      const base = repo.git('rev-parse', 'HEAD');
      repo.write({
        'src/container.ts': container(99),
        'src/conn.ts': 'export const open = (n: number) => n + 1;\nexport const read = (n: number) => n - 1;\n',
      });
      const head = repo.commit('change');
      const analysis = await analyzeFixture({ repo, base, head });
      const extended = (path: string) =>
        /extend ([^ ]+)/.exec(analysis.changedPathProof.find((entry) => entry.path === path)?.repairTask ?? '')?.[1];
      assert.equal(extended('src/container.ts'), 'test/document.test.ts');
      assert.equal(extended('src/conn.ts'), 'test/conn.test.ts');
    } finally {
      repo.cleanup();
    }
  });
});

describe('a new test goes where the repository keeps its tests (dayjs: jest runs only test/)', () => {
  let fixture: ChangeFixture;
  const locale = (word: string): string =>
    `const locale = {\n  name: 'x',\n  relativeTime: { h: '${word}' },\n};\nexport default locale;\n`;
  const request = (method: string): string =>
    `export default class Request {\n  constructor(init) {\n    this.method = init.method || '${method}';\n  }\n}\n`;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'dates', jest: { roots: ['test'] }, devDependencies: { jest: '^29.0.0' } }),
        'src/locale/ru.js': locale('час'),
        'src/locale/it.js': locale('una ora'),
        'test/locale/ru.test.js':
          "import ru from '../../src/locale/ru';\n\nit('names the hour', () => {\n  expect(ru.relativeTime.h).toBe('час');\n});\n",
        'src/request.js': request('GET'),
      },
      { 'src/locale/it.js': locale('un ora'), 'src/request.js': request('HEAD') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the unproven locale is asked for test/locale/it.test.js, which uses its default export; a class is constructed', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.state, proof.repairTask]),
      [
        [
          'src/locale/it.js',
          'unproven',
          'Add a test in test/locale/it.test.js that imports src/locale/it.js and uses the default export on line 3, then run the suite with coverage so checker can see these lines execute.',
        ],
        [
          'src/request.js',
          'unproven',
          'Add a test in test/request.test.js that imports src/request.js and constructs the default export on line 3, then run the suite with coverage so checker can see these lines execute.',
        ],
      ],
    );
  });
});

// ky ce8588d830 (the third independent check): a block comment whose lines do not start with `*` was asked to execute
// as changed code ("lines 3, 8-9, 11-13"), and its `fetch()` sent the proof to test/fetch.ts.
describe('a block comment is no changed code, whatever its lines start with', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'abort', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        'src/abort.ts': "export function abortError(reason?: string) {\n  return new Error(reason ?? 'aborted');\n}\n",
      },
      {
        'src/abort.ts': [
          'export function abortError(reason?: string) {',
          '  /*',
          '  NOTE: the fetch() promise rejects with an AbortError, as specified in MDN docs.',
          '  */',
          "  const error = new Error(reason ?? 'aborted');",
          "  error.name = 'AbortError';",
          '  return error;',
          '}',
          '',
        ].join('\n'),
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the repair task names the code lines only', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.repairTask]),
      [
        [
          'src/abort.ts',
          'Add a test in src/abort.test.ts that imports src/abort.ts and calls abortError on lines 5-7, then run the suite with coverage so checker can see these lines execute.',
        ],
      ],
    );
  });
});

/**
 * Check 268 (unjs/unstorage): test/drivers/s3.test.ts, the S3 driver's named test, runs only with credentials
 * (`describe.skipIf(!accessKeyId)`); test/drivers/s3-list.test.ts stubs fetch and always runs. The proof named the
 * first, which CI skips. When the only reaching test runs under a condition, it is still the one named.
 */
describe('a reaching test that runs only under a condition is extended last (check 268: unstorage)', () => {
  const driver = (prefix: string): string =>
    `export default function s3Driver(options: { bucket: string }) {\n  return { url: () => '${prefix}' + options.bucket };\n}\n`;
  const conditional =
    "import { describe, it, expect } from 'vitest';\nimport s3Driver from '../../src/drivers/s3';\nconst key = process.env.S3_KEY;\ndescribe.skipIf(!key)('drivers: s3', () => {\n  it('lists', () => {\n    expect(s3Driver({ bucket: 'b' }).url()).toBe('https://b');\n  });\n});\n";
  const always =
    "import { describe, it, expect } from 'vitest';\nimport s3Driver from '../../src/drivers/s3';\ndescribe('drivers: s3 (list)', () => {\n  it('builds the url', () => {\n    expect(s3Driver({ bucket: 'b' }).url()).toBe('https://b');\n  });\n});\n";
  const base = {
    'package.json': JSON.stringify({ name: 'storage', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
    'src/drivers/s3.ts': driver('https://'),
    'test/drivers/s3.test.ts': conditional,
  };
  const proofOf = async (files: Record<string, string>): Promise<string | undefined> => {
    const fixture = createChangeFixture(files, { 'src/drivers/s3.ts': driver('http://') });
    try {
      const report = (await runJsonReport<AuditTestsReport>(fixture, ['audit-tests'], 'audit-tests-report')).report;
      return report.changedPathProof.find((proof) => proof.path === 'src/drivers/s3.ts')?.repairTask;
    } finally {
      fixture.repo.cleanup();
    }
  };

  test('the test that always runs is extended; the conditional one only when no other reaches', async () => {
    assert.match(
      (await proofOf({ ...base, 'test/drivers/s3-list.test.ts': always })) ?? '',
      /extend test\/drivers\/s3-list\.test\.ts \(it imports default\)/,
    );
    assert.match((await proofOf(base)) ?? '', /extend test\/drivers\/s3\.test\.ts \(it imports default\)/);
  });
});

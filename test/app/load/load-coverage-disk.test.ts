import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, symlinkSync, truncateSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeV8LineHits, findFirstCodeOffsets } from '../../../src/runtime-coverage/v8.js';
import { loadCoverage, MAX_COVERAGE_BYTES, type LoadCoverageOptions } from '../../../src/app/load/load-coverage.js';
import { createNodeEnv } from '../../../src/io/node-env.js';
import type { CoverageEvidence } from '../../../src/model/coverage.js';
import { makeTempDir, writeTree } from '../../helpers/git-repo.js';

const readCoverage = (root: string, options?: LoadCoverageOptions): Promise<CoverageEvidence> => loadCoverage(createNodeEnv(root), options);

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function makeRepo(files: Record<string, string>): string {
  const dir = makeTempDir('checker-coverage-');
  temps.push(dir);
  writeTree(dir, files);
  return dir;
}

function setTime(dir: string, rel: string, iso: string): void {
  const date = new Date(iso);
  utimesSync(join(dir, rel), date, date);
}

const DISCOUNT_SOURCE = [
  'export function applyDiscount(price, percent) {',
  '  if (percent > 100) {',
  "    throw new Error('too much');",
  '  }',
  '  return price - (price * percent) / 100;',
  '}',
  '',
].join('\n');

const CART_SOURCE = ['export function total(items) {', '  return items.reduce((sum, item) => sum + item.price, 0);', '}', '', ''].join(
  '\n',
);

function lcovRecord(sf: string, lines: [number, number][], fn = 'main'): string {
  const hit = lines.filter(([, hits]) => hits > 0).length;
  return [
    'TN:',
    `SF:${sf}`,
    `FN:1,${fn}`,
    `FNDA:1,${fn}`,
    'FNF:1',
    'FNH:1',
    ...lines.map(([line, hits]) => `DA:${line},${hits}`),
    `LF:${lines.length}`,
    `LH:${hit}`,
    'BRDA:2,0,0,1',
    'BRDA:2,0,1,-',
    'BRF:2',
    'BRH:1',
    'end_of_record',
    '',
  ].join('\n');
}

describe('readCoverage: lcov', () => {
  test('reads relative and absolute SF paths and ignores node_modules and files of other folders on this machine', async () => {
    const elsewhere = makeRepo({ 'outside.js': 'export const outside = 1;\n' });
    const dir = makeRepo({ 'src/pricing/discount.js': DISCOUNT_SOURCE, 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'coverage/lcov.info': [
        lcovRecord(
          'src/pricing/discount.js',
          [
            [1, 3],
            [2, 3],
            [3, 0],
            [5, 3],
          ],
          'applyDiscount',
        ),
        lcovRecord(
          `${dir}/src/cart.js`,
          [
            [1, 1],
            [2, 0],
          ],
          'total',
        ),
        lcovRecord(`${dir}/node_modules/lib/index.js`, [[1, 1]]),
        lcovRecord(`${elsewhere}/outside.js`, [[1, 1]]),
      ].join(''),
    });
    setTime(dir, 'coverage/lcov.info', '2026-02-01T10:00:00.000Z');

    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence, {
      sources: [{ kind: 'lcov', path: 'coverage/lcov.info', generatedAt: '2026-02-01T10:00:00.000Z', files: 2 }],
      files: {
        'src/cart.js': { lines: { 1: 1, 2: 0 }, source: 'lcov', sources: ['coverage/lcov.info'] },
        'src/pricing/discount.js': { lines: { 1: 3, 2: 3, 3: 0, 5: 3 }, source: 'lcov', sources: ['coverage/lcov.info'] },
      },
      diagnostics: [],
    });
  });

  test('finds lcov.info at the root and one level below coverage/, with CRLF line ends, and sums repeated records', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'lcov.info': lcovRecord('./src/cart.js', [[1, 2]]).replace(/\n/g, '\r\n'),
      'coverage/web/lcov.info':
        lcovRecord('src/cart.js', [
          [1, 1],
          [2, 1],
        ]) + lcovRecord('src/cart.js', [[2, 4]]),
      'coverage/web/deeper/lcov.info': lcovRecord('src/cart.js', [[1, 100]]),
    });
    setTime(dir, 'lcov.info', '2026-02-01T10:00:00.000Z');
    setTime(dir, 'coverage/web/lcov.info', '2026-02-01T11:00:00.000Z');

    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.sources, [
      { kind: 'lcov', path: 'lcov.info', generatedAt: '2026-02-01T10:00:00.000Z', files: 1 },
      { kind: 'lcov', path: 'coverage/web/lcov.info', generatedAt: '2026-02-01T11:00:00.000Z', files: 1 },
    ]);
    assert.deepEqual(evidence.files, {
      'src/cart.js': { lines: { 1: 3, 2: 5 }, source: 'lcov', sources: ['lcov.info', 'coverage/web/lcov.info'] },
    });
    assert.deepEqual(evidence.diagnostics, []);
  });

  test('maps paths written on another machine by suffix and reports how many were mapped', async () => {
    const dir = makeRepo({ 'src/pricing/discount.js': DISCOUNT_SOURCE, 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'lcov.info': [
        lcovRecord('/home/ci-runner-none/work/shop/src/pricing/discount.js', [[1, 1]]),
        lcovRecord('/home/ci-runner-none/work/shop/src/cart.js', [[2, 5]]),
        lcovRecord('/home/ci-runner-none/work/shop/src/removed.js', [[1, 1]]),
        lcovRecord('C:\\ci\\shop\\src\\cart.js', [[1, 7]]),
      ].join(''),
    });
    setTime(dir, 'lcov.info', '2026-02-01T10:00:00.000Z');

    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.sources, [
      { kind: 'lcov', path: 'lcov.info', generatedAt: '2026-02-01T10:00:00.000Z', files: 2, remappedFiles: 3, unmatchedFiles: 1 },
    ]);
    assert.deepEqual(evidence.files, {
      'src/cart.js': { lines: { 1: 7, 2: 5 }, source: 'lcov', sources: ['lcov.info'] },
      'src/pricing/discount.js': { lines: { 1: 1 }, source: 'lcov', sources: ['lcov.info'] },
    });
    assert.deepEqual(evidence.diagnostics, [
      {
        code: 'coverage/foreign-root',
        severity: 'warn',
        message:
          'lcov.info was written under another root (/home/ci-runner-none/work/shop, C:/ci/shop): 3 file paths mapped to repository files by suffix, 1 could not be mapped',
        hint: 'regenerate coverage in this checkout for exact paths',
        location: { file: 'lcov.info' },
      },
    ]);
  });

  test('malformed lines become coverage/malformed diagnostics naming file and line, and the valid data is kept', async () => {
    const dir = makeRepo({ 'src/pricing/discount.js': DISCOUNT_SOURCE, 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'coverage/lcov.info': [
        'TN:',
        'DA:1,1',
        'SF:src/cart.js',
        'DA:1,1',
        'DA:x,2',
        'garbage here',
        'DA:2,3',
        'end_of_record',
        'end_of_record',
        'SF:src/pricing/discount.js',
        'DA:4,1',
      ].join('\n'),
    });
    const evidence = await readCoverage(dir);
    const hint = 'regenerate the coverage report; this part of it was ignored';
    const at = (line: number, message: string) => ({
      code: 'coverage/malformed',
      severity: 'warn',
      message: `coverage/lcov.info line ${line}: ${message}`,
      hint,
      location: { file: 'coverage/lcov.info', line },
    });
    assert.deepEqual(evidence.diagnostics, [
      at(2, 'DA line outside an SF record'),
      at(5, 'invalid DA entry "DA:x,2"'),
      at(6, 'unrecognised lcov line "garbage here"'),
      at(9, 'end_of_record without an SF record'),
      at(10, 'record is missing end_of_record at the end of the file; its data was kept'),
    ]);
    assert.deepEqual(evidence.files, {
      'src/cart.js': { lines: { 1: 1, 2: 3 }, source: 'lcov', sources: ['coverage/lcov.info'] },
      'src/pricing/discount.js': { lines: { 4: 1 }, source: 'lcov', sources: ['coverage/lcov.info'] },
    });
  });

  test('a binary file yields at most 20 line diagnostics plus a count of the rest', async () => {
    const dir = makeRepo({});
    writeTree(dir, { 'lcov.info': Array.from({ length: 30 }, (_, index) => `junk ${index}`).join('\n') });
    const evidence = await readCoverage(dir);
    assert.equal(evidence.diagnostics.length, 21);
    assert.deepEqual(evidence.diagnostics[20], {
      code: 'coverage/malformed',
      severity: 'warn',
      message: 'lcov.info: 10 more malformed lines not listed',
      hint: 'regenerate the coverage report; this part of it was ignored',
      location: { file: 'lcov.info' },
    });
    assert.deepEqual(evidence.files, {});
    assert.equal(evidence.sources.length, 1);
  });

  test('a 3 MB tracefile crossing stream chunk boundaries is read completely', async () => {
    const dir = makeRepo({});
    const records: string[] = [];
    const files: Record<string, string> = {};
    for (let file = 0; file < 300; file += 1) {
      files[`src/module-${file}.js`] = '';
      const lines: string[] = [];
      for (let line = 1; line <= 1000; line += 1) lines.push(`DA:${line},${(file + line) % 3}`);
      records.push(`TN:\nSF:src/module-${file}.js\n${lines.join('\n')}\nLF:1000\nLH:667\nend_of_record\n`);
    }
    writeTree(dir, { ...files, 'coverage/lcov.info': records.join('') });
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.diagnostics, []);
    assert.equal(Object.keys(evidence.files).length, 300);
    let total = 0;
    let instrumented = 0;
    for (const file of Object.values(evidence.files)) {
      for (const hits of Object.values(file.lines)) {
        total += hits;
        instrumented += 1;
      }
    }
    assert.equal(instrumented, 300_000);
    let expected = 0;
    for (let file = 0; file < 300; file += 1) for (let line = 1; line <= 1000; line += 1) expected += (file + line) % 3;
    assert.equal(total, expected);
    assert.deepEqual(evidence.files['src/module-7.js']?.lines[999], (7 + 999) % 3);
  });
});

const ISTANBUL_SCHEMA = '1a1c01bbd47fc00a2c39e90264f33305004495a9';

function istanbulEntry(absolute: string): Record<string, unknown> {
  const loc = (line: number, column: number, endLine: number, endColumn: number) => ({
    start: { line, column },
    end: { line: endLine, column: endColumn },
  });
  return {
    path: absolute,
    statementMap: {
      '0': loc(1, 0, 3, 1),
      '1': loc(2, 2, 2, 20),
      '2': loc(2, 22, 2, 58),
      '3': loc(4, 2, 6, 3),
    },
    fnMap: {
      '0': { name: 'total', decl: loc(1, 16, 1, 21), loc: loc(1, 29, 3, 1), line: 1 },
    },
    branchMap: {
      '0': { loc: loc(2, 2, 2, 58), type: 'binary-expr', locations: [loc(2, 2, 2, 20), loc(2, 22, 2, 58)], line: 2 },
    },
    s: { '0': 1, '1': 0, '2': 4, '3': 2 },
    f: { '0': 1 },
    b: { '0': [1, 0] },
    _coverageSchema: ISTANBUL_SCHEMA,
    hash: 'f6a3cbb2d6f1ca26a9b2b0d4d1c1d7e8f9a0b1c2',
  };
}

describe('readCoverage: istanbul', () => {
  test('derives line hits from statements (highest count of a statement starting on the line)', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'coverage/coverage-final.json': JSON.stringify({ [join(dir, 'src/cart.js')]: istanbulEntry(join(dir, 'src/cart.js')) }),
    });
    setTime(dir, 'coverage/coverage-final.json', '2026-02-02T09:30:00.000Z');
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence, {
      sources: [{ kind: 'istanbul', path: 'coverage/coverage-final.json', generatedAt: '2026-02-02T09:30:00.000Z', files: 1 }],
      files: { 'src/cart.js': { lines: { 1: 1, 2: 4, 4: 2 }, source: 'istanbul', sources: ['coverage/coverage-final.json'] } },
      diagnostics: [],
    });
  });

  test('keys written on another machine are mapped by suffix', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    const foreign = '/builds/ci-none/shop/src/cart.js';
    writeTree(dir, { 'coverage/coverage-final.json': JSON.stringify({ [foreign]: istanbulEntry(foreign) }) });
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.files, {
      'src/cart.js': { lines: { 1: 1, 2: 4, 4: 2 }, source: 'istanbul', sources: ['coverage/coverage-final.json'] },
    });
    assert.equal(evidence.sources[0]?.remappedFiles, 1);
    assert.equal(evidence.sources[0]?.unmatchedFiles, 0);
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.message]),
      [
        [
          'coverage/foreign-root',
          'info',
          'coverage/coverage-final.json was written under another root (/builds/ci-none/shop): 1 file path mapped to repository files by suffix, 0 could not be mapped',
        ],
      ],
    );
  });

  test('invalid JSON and invalid entries are diagnostics, never fatal', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    writeTree(dir, { 'coverage/coverage-final.json': '{\n  "/a.js": {\n    "s": \n}\n' });
    const broken = await readCoverage(dir);
    assert.deepEqual(broken, {
      sources: [],
      files: {},
      diagnostics: [
        {
          code: 'coverage/malformed',
          severity: 'warn',
          message: 'coverage/coverage-final.json line 4: not valid JSON (ValueExpected)',
          hint: 'regenerate the coverage report; this part of it was ignored',
          location: { file: 'coverage/coverage-final.json', line: 4 },
        },
      ],
    });

    const entry = istanbulEntry(join(dir, 'src/cart.js'));
    writeTree(dir, {
      'coverage/coverage-final.json': JSON.stringify({
        [join(dir, 'src/cart.js')]: { ...entry, s: { '0': 1, '1': 0, '2': 4, '3': 2, '9': 1 } },
        [join(dir, 'src/other.js')]: { path: join(dir, 'src/other.js') },
      }),
    });
    const partial = await readCoverage(dir);
    assert.deepEqual(
      partial.diagnostics.map((diagnostic) => diagnostic.message),
      [
        `coverage/coverage-final.json: entry ${JSON.stringify(join(dir, 'src/cart.js'))} statement "9" is invalid`,
        `coverage/coverage-final.json: entry ${JSON.stringify(join(dir, 'src/other.js'))} has no statementMap/s objects`,
      ],
    );
    assert.deepEqual(partial.files['src/cart.js']?.lines, { 1: 1, 2: 4, 4: 2 });
  });
});

describe('readCoverage: merging', () => {
  test('lcov and istanbul data for one file are summed and both sources listed', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'coverage/lcov.info': lcovRecord('src/cart.js', [
        [1, 1],
        [2, 0],
      ]),
      'coverage/coverage-final.json': JSON.stringify({ [join(dir, 'src/cart.js')]: istanbulEntry(join(dir, 'src/cart.js')) }),
    });
    setTime(dir, 'coverage/lcov.info', '2026-02-03T00:00:00.000Z');
    setTime(dir, 'coverage/coverage-final.json', '2026-02-03T00:00:01.000Z');
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence, {
      sources: [
        { kind: 'lcov', path: 'coverage/lcov.info', generatedAt: '2026-02-03T00:00:00.000Z', files: 1 },
        { kind: 'istanbul', path: 'coverage/coverage-final.json', generatedAt: '2026-02-03T00:00:01.000Z', files: 1 },
      ],
      files: {
        'src/cart.js': { lines: { 1: 2, 2: 4, 4: 2 }, source: 'lcov', sources: ['coverage/lcov.info', 'coverage/coverage-final.json'] },
      },
      diagnostics: [],
    });
  });
});

const LIB_SOURCE = [
  '// a comment',
  'export function used(a) {',
  '  if (a > 1) {',
  "    return 'big';",
  '  }',
  "  return 'small';",
  '}',
  '',
  'export function unused(b) {',
  '  return b * 2;',
  '}',
  '',
].join('\n');

describe('readCoverage: V8', () => {
  test('reads coverage/tmp files written by a real node process (NODE_V8_COVERAGE) and sums runs', async () => {
    const dir = makeRepo({
      'package.json': '{"type":"module"}\n',
      'src/lib.js': LIB_SOURCE,
      'src/main.js': "import { used } from './lib.js';\nused(0);\n",
    });
    for (let run = 0; run < 2; run += 1) {
      execFileSync(process.execPath, ['src/main.js'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: join(dir, 'coverage/tmp') },
      });
    }
    const written = readdirSync(join(dir, 'coverage/tmp')).sort();
    assert.equal(written.length, 2);
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.diagnostics, []);
    assert.deepEqual(
      evidence.sources.map((source) => [source.kind, source.path, source.files]),
      written.map((name) => ['v8', `coverage/tmp/${name}`, 2]),
    );
    const sources = written.map((name) => `coverage/tmp/${name}`);
    assert.deepEqual(evidence.files, {
      'src/lib.js': { lines: { 2: 2, 3: 2, 4: 0, 5: 0, 6: 2, 7: 2, 9: 2, 10: 0, 11: 0 }, source: 'v8', sources },
      'src/main.js': { lines: { 1: 2, 2: 2 }, source: 'v8', sources },
    });
  });

  test('TypeScript run through tsx: counts land on the .ts lines through the cached source map; type lines are not instrumented', async () => {
    const source = [
      'export interface Options {',
      '  strict: boolean;',
      '}',
      'export function divide(a: number, b: number, options?: Options): number {',
      '  if (b === 0) {',
      "    if (options?.strict) throw new Error('zero');",
      '    return 0;',
      '  }',
      '  return a / b;',
      '}',
      'export function unused(): string {',
      "  return 'never';",
      '}',
      '',
    ].join('\n');
    const dir = makeRepo({
      'package.json': '{"type":"module"}\n',
      'src/divide.ts': source,
      'src/main.ts': "import { divide } from './divide.ts';\nconst half: number = divide(4, 2);\nconsole.log(half);\n",
    });
    execFileSync(process.execPath, ['--import', import.meta.resolve('tsx/esm'), 'src/main.ts'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: join(dir, 'coverage/tmp') },
    });
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.diagnostics, []);
    // tsx's loader thread writes a file of its own that holds none of the repository's code.
    const sources = evidence.sources.filter((item) => item.files > 0).map((item) => item.path);
    assert.equal(sources.length, 1);
    // Lines 1-3 (the interface) have no code; 6-8 are the b === 0 branch that never ran; 11-13 a function never called.
    assert.deepEqual(evidence.files['src/divide.ts'], {
      lines: { 4: 1, 5: 1, 6: 0, 7: 0, 8: 0, 9: 1, 10: 1, 11: 0, 12: 0, 13: 0 },
      source: 'v8',
      sources,
    });
    assert.deepEqual(evidence.files['src/main.ts'], { lines: { 1: 1, 2: 1, 3: 1 }, source: 'v8', sources });

    writeTree(dir, { 'src/divide.ts': source.replace('return a / b;', 'return a / b + 0;') });
    const edited = await readCoverage(dir);
    assert.equal(edited.files['src/divide.ts'], undefined);
    assert.deepEqual(
      edited.diagnostics.map((diagnostic) => diagnostic.code),
      ['coverage/source-mismatch'],
    );
  });

  test('maps hand-written offsets in a folder given by options.paths; ignores outside, node_modules, transpiled and mismatched entries', async () => {
    const calc = [
      '/* header',
      '   comment */',
      'export function add(a, b) {',
      '  return a + b;',
      '}',
      'export function sub(a, b) { return a - b; }',
      '',
    ].join('\n');
    const dir = makeRepo({
      'src/calc.js': calc,
      'src/typed.ts': 'export const typed: number = 1;\n',
      'src/edited.js': 'export const edited = 1;\n',
    });
    const addStart = calc.indexOf('function add');
    const addEnd = calc.indexOf('}\nexport function sub') + 1;
    const subStart = calc.indexOf('function sub');
    const url = (rel: string) => pathToFileURL(join(dir, rel)).href;
    writeTree(dir, {
      'v8-out/coverage-100-1-0.json': JSON.stringify({
        result: [
          {
            scriptId: '1',
            url: url('src/calc.js'),
            functions: [
              { functionName: '', ranges: [{ startOffset: 0, endOffset: calc.length, count: 1 }], isBlockCoverage: true },
              { functionName: 'add', ranges: [{ startOffset: addStart, endOffset: addEnd, count: 2 }], isBlockCoverage: true },
              { functionName: 'sub', ranges: [{ startOffset: subStart, endOffset: calc.length - 1, count: 0 }], isBlockCoverage: false },
            ],
          },
          { scriptId: '2', url: 'node:internal/main/run_main_module', functions: [] },
          { scriptId: '3', url: url('node_modules/dep/index.js'), functions: [] },
          { scriptId: '4', url: 'file:///usr/lib/other/outside.js', functions: [] },
          {
            scriptId: '5',
            url: url('src/typed.ts'),
            functions: [{ functionName: '', ranges: [{ startOffset: 0, endOffset: 20, count: 1 }] }],
          },
          {
            scriptId: '6',
            url: url('src/edited.js'),
            functions: [{ functionName: '', ranges: [{ startOffset: 0, endOffset: 400, count: 1 }] }],
          },
        ],
        timestamp: 1234.5,
        'source-map-cache': { [url('src/typed.ts')]: { lineLengths: [20], data: 'not a source map' } },
      }),
      'v8-out/notes.txt': 'not coverage',
    });
    setTime(dir, 'v8-out/coverage-100-1-0.json', '2026-02-04T00:00:00.000Z');
    const evidence = await readCoverage(dir, { paths: ['v8-out/', '../elsewhere'] });
    assert.deepEqual(evidence.files, {
      'src/calc.js': { lines: { 3: 1, 4: 2, 5: 2, 6: 1 }, source: 'v8', sources: ['v8-out/coverage-100-1-0.json'] },
    });
    assert.deepEqual(evidence.sources, [
      { kind: 'v8', path: 'v8-out/coverage-100-1-0.json', generatedAt: '2026-02-04T00:00:00.000Z', files: 1 },
    ]);
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        ['coverage/outside-repo', 'coverage folder "../elsewhere" is outside the repository'],
        [
          'coverage/v8-transpiled',
          'v8-out/coverage-100-1-0.json: V8 offsets for src/typed.ts refer to transpiled code and its cached source map cannot be read; this entry was ignored',
        ],
        [
          'coverage/source-mismatch',
          'v8-out/coverage-100-1-0.json: V8 offsets for src/edited.js do not match the file on disk (changed since the run, or transpiled without a source map); this entry was ignored',
        ],
      ],
    );
  });

  test('a V8 file without a result array or with broken ranges is malformed', async () => {
    const dir = makeRepo({ 'src/calc.js': 'export const a = 1;\n' });
    writeTree(dir, {
      'coverage/tmp/coverage-1-1-0.json': '{"timestamp": 1}',
      'coverage/tmp/coverage-2-1-0.json': JSON.stringify({
        result: [
          { url: pathToFileURL(join(dir, 'src/calc.js')).href, functions: [{ ranges: [{ startOffset: 5, endOffset: 1, count: 1 }] }] },
          { functions: [] },
        ],
      }),
    });
    const evidence = await readCoverage(dir);
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.location]),
      [
        [
          'coverage/malformed',
          'coverage/tmp/coverage-1-1-0.json: expected V8 coverage {"result": [...]}',
          { file: 'coverage/tmp/coverage-1-1-0.json' },
        ],
        [
          'coverage/malformed',
          'coverage/tmp/coverage-2-1-0.json: result[0] (src/calc.js) has invalid functions/ranges',
          { file: 'coverage/tmp/coverage-2-1-0.json' },
        ],
        ['coverage/malformed', 'coverage/tmp/coverage-2-1-0.json: result[1] has no url', { file: 'coverage/tmp/coverage-2-1-0.json' }],
      ],
    );
    assert.deepEqual(evidence.files, {});
    assert.deepEqual(
      evidence.sources.map((source) => [source.path, source.files]),
      [['coverage/tmp/coverage-2-1-0.json', 0]],
    );
  });

  test('first code offsets skip blank lines and comments but count strings and templates as code', () => {
    const source = [
      '',
      '  // line comment',
      '/* block',
      '  still */ code();',
      'const s = `multi',
      '// inside template',
      '`;',
      "const q = '/*';",
      'after();',
    ].join('\n');
    const offsets = findFirstCodeOffsets(source);
    const lineStarts: number[] = [];
    let start = 0;
    for (const line of source.split('\n')) {
      lineStarts.push(start);
      start += line.length + 1;
    }
    const columns = offsets.map((offset, index) => (offset < 0 ? -1 : offset - (lineStarts[index] ?? 0)));
    assert.deepEqual(columns, [-1, -1, -1, 11, 0, 0, 0, 0, 0]);
  });

  test('the innermost range decides; lines outside every range are not instrumented', () => {
    const source = 'a();\nif (x) {\n  b();\n}\nc();\n';
    const ifBlock = source.indexOf('{');
    const hits = computeV8LineHits(source, [
      { start: 0, end: source.length, count: 3 },
      { start: ifBlock, end: source.indexOf('}') + 1, count: 0 },
    ]);
    assert.deepEqual(hits === undefined ? undefined : Object.fromEntries(hits), { 1: 3, 2: 3, 3: 0, 4: 0, 5: 3 });
    assert.deepEqual(Object.fromEntries(computeV8LineHits(source, [{ start: 5, end: 12, count: 1 }]) ?? []), { 2: 1 });
  });
});

describe('readCoverage: hostile and absent inputs', () => {
  test('no coverage at all gives empty evidence', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    assert.deepEqual(await readCoverage(dir), { sources: [], files: {}, diagnostics: [] });
  });

  test('symlinks that lead outside the repository are not followed', async () => {
    const outside = makeRepo({ 'lcov.info': lcovRecord('src/cart.js', [[1, 1]]) });
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    mkdirSync(join(dir, 'coverage'));
    symlinkSync(join(outside, 'lcov.info'), join(dir, 'coverage/lcov.info'));
    symlinkSync(join(outside, 'lcov.info'), join(dir, 'lcov.info'));
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.files, {});
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        ['coverage/outside-repo', 'lcov.info is a symlink that leads outside the repository; it was not read'],
        ['coverage/outside-repo', 'coverage/lcov.info is a symlink that leads outside the repository; it was not read'],
      ],
    );

    const linkedDir = makeRepo({ 'src/cart.js': CART_SOURCE });
    symlinkSync(outside, join(linkedDir, 'coverage'));
    const viaDirectory = await readCoverage(linkedDir);
    assert.deepEqual(viaDirectory.files, {});
    assert.deepEqual(
      viaDirectory.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.location?.file]),
      [
        ['coverage/outside-repo', 'coverage'],
        ['coverage/outside-repo', 'coverage/lcov.info'],
      ],
    );
  });

  test('a symlink inside the repository is followed', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE, 'reports/lcov.info': lcovRecord('src/cart.js', [[1, 9]]) });
    mkdirSync(join(dir, 'coverage'));
    symlinkSync(join(dir, 'reports/lcov.info'), join(dir, 'coverage/lcov.info'));
    const evidence = await readCoverage(dir);
    assert.deepEqual(evidence.files, { 'src/cart.js': { lines: { 1: 9 }, source: 'lcov', sources: ['coverage/lcov.info'] } });
  });

  test('files over the size cap, non-files and committed reports are refused with a diagnostic', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE, 'coverage/coverage-final.json': '{}' });
    writeTree(dir, { 'lcov.info': '' });
    truncateSync(join(dir, 'lcov.info'), MAX_COVERAGE_BYTES + 1);
    mkdirSync(join(dir, 'coverage/lcov.info'));
    const evidence = await readCoverage(dir, { trackedPaths: new Set(['coverage/coverage-final.json']) });
    assert.deepEqual(evidence.sources, []);
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        ['coverage/too-large', `lcov.info is ${MAX_COVERAGE_BYTES + 1} bytes, over the ${MAX_COVERAGE_BYTES}-byte limit; it was not read`],
        [
          'coverage/tracked',
          'coverage/coverage-final.json is committed to the repository, so it describes another run; it was not used as evidence',
        ],
      ],
    );
  });

  test('hostile SF paths cannot escape or pollute the result object', async () => {
    const dir = makeRepo({ 'src/cart.js': CART_SOURCE });
    writeTree(dir, {
      'lcov.info': [
        lcovRecord('../../etc/passwd', [[1, 1]]),
        lcovRecord('__proto__', [[1, 1]]),
        lcovRecord('src/../src/cart.js', [[1, 1]]),
      ].join(''),
    });
    const evidence = await readCoverage(dir);
    assert.deepEqual(Object.keys(evidence.files), ['__proto__', 'src/cart.js']);
    assert.equal(Object.getPrototypeOf(evidence.files), Object.prototype);
    assert.deepEqual(evidence.files['src/cart.js']?.lines, { 1: 1 });
  });
});

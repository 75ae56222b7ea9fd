import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildKnowledgeGraph } from '../../src/graph/build.js';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { emptyFacts, type FileFacts, type ImportFact } from '../../src/model/facts.js';
import { type GraphInput, INLINE_LINK_NAME } from '../../src/model/graph.js';
import type { ChangedPathProof } from '../../src/model/coverage.js';
import type { FactSubject } from '../../src/model/rules.js';
import { scoreMergeRisk } from '../../src/ranking/score.js';
import { rankEdgeCases } from '../../src/ranking/rank-edge-cases.js';
import {
  evaluateAnalysis,
  toEdgeCases,
  toMissingTests,
  toPatternMatches,
  toRiskContributors,
  toToolRecommendations,
  toWeakTests,
} from '../../src/rules/evaluate-analysis.js';
import {
  buildAnalysisSubjects,
  deriveChangedLineSubjects,
  deriveComplexityDelta,
  deriveSignalSubjects,
  type AnalysisFactsInput,
  type ChangedFileInput,
} from '../../src/rules/facts.js';
import { createPathClassifier, mergeClassifiers } from '../../src/rules/classifiers.js';
import { getRouteParams } from '../../src/rules/facts-routes.js';
import { classifyTextChange, getCommentSyntax } from '../../src/rules/facts-text.js';
import { compilePack, findFactProblems } from '../../src/rules/pack.js';

function makeFacts(partial: Partial<FileFacts>): FileFacts {
  return { ...emptyFacts(10), ...partial };
}

function named(specifier: string, names: string[]): ImportFact {
  return {
    specifier,
    kind: 'static',
    typeOnly: false,
    line: 1,
    names: names.map((name) => ({ imported: name, local: name, typeOnly: false })),
  };
}

const MONEY_BASE =
  'export function roundCents(x: number) {\n  if (x < 0) return 0;\n  return Math.round(x);\n}\n\nexport const formatPrice = (x: number) => x.toFixed(2);\n';
const MONEY_HEAD =
  'export function roundCents(x: number) {\n  if (x < 0) return 0;\n  return Math.round(x * 100) / 100; console.log(x);\n}\n\nexport const formatPrice = (x: number) => x.toFixed(2);\n';

const moneyFacts = makeFacts({
  exports: [
    { name: 'roundCents', kind: 'function', span: { start: 1, end: 4 }, typeOnly: false },
    { name: 'formatPrice', kind: 'variable', span: { start: 6, end: 6 }, typeOnly: false },
  ],
  signals: [
    { kind: 'money', line: 3, detail: 'Math.round' },
    { kind: 'money', line: 6, detail: 'toFixed' },
  ],
  functions: [{ name: 'roundCents', span: { start: 1, end: 4 }, complexity: 4, isAsync: false, params: 1 }],
});

function buildInput(): GraphInput {
  return {
    files: [
      { path: 'src/money.ts', size: 100, hash: 'h1', facts: moneyFacts },
      {
        path: 'src/routes/orders.ts',
        size: 100,
        hash: 'h2',
        facts: makeFacts({
          imports: [named('../money.js', ['roundCents'])],
          routes: [
            {
              method: 'POST',
              path: '/orders/:id',
              framework: 'express',
              kind: 'api',
              line: 3,
              middleware: ['requireAuth'],
              router: 'router',
              middlewareEntries: [{ name: 'requireAuth', inline: false, span: { start: 3, end: 3 }, refs: ['requireAuth'] }],
            },
          ],
          callables: [{ name: 'requireAuth', span: { start: 5, end: 8 }, refs: [], statuses: [401] }],
        }),
      },
      {
        path: 'src/money.test.ts',
        size: 100,
        hash: 'h3',
        facts: makeFacts({
          imports: [named('vitest', ['it', 'vi']), named('./money.js', ['roundCents'])],
          mocks: [{ specifier: './money.js', framework: 'vitest', line: 2 }],
          tests: [
            {
              kind: 'suite',
              titlePath: ['money'],
              span: { start: 3, end: 9 },
              modifiers: ['skip'],
              assertions: 0,
              trivialAssertions: 0,
              snapshotAssertions: 0,
              unawaitedAssertions: 0,
              swallowedErrors: 0,
              isAsync: false,
            },
            {
              kind: 'test',
              titlePath: ['money', 'rounds'],
              span: { start: 4, end: 6 },
              modifiers: [],
              assertions: 0,
              trivialAssertions: 0,
              snapshotAssertions: 0,
              unawaitedAssertions: 0,
              swallowedErrors: 0,
              isAsync: false,
            },
          ],
        }),
      },
      { path: 'src/util.ts', size: 10, hash: 'h4', facts: makeFacts({}) },
      { path: 'README.md', size: 10, hash: 'h5' },
      { path: 'package.json', size: 10, hash: 'h6' },
      { path: 'package-lock.json', size: 10, hash: 'h7' },
      { path: 'tsconfig.json', size: 10, hash: 'h8' },
    ],
    resolutions: new Map([
      ['src/routes/orders.ts', [{ specifier: '../money.js', kind: 'relative', target: 'src/money.ts' }]],
      [
        'src/money.test.ts',
        [
          { specifier: 'vitest', kind: 'external', packageName: 'vitest' },
          { specifier: './money.js', kind: 'relative', target: 'src/money.ts' },
          { specifier: './money.js', kind: 'relative', target: 'src/money.ts' },
        ],
      ],
    ]),
    openApiRoutes: [],
    codeowners: { path: 'CODEOWNERS', text: '* @team\nsrc/money.ts @a @b @c\n' },
    decisions: [],
    memory: [
      {
        path: '.checker/memory/money.md',
        id: 'cents',
        kind: 'invariant',
        text: 'amounts are integer cents',
        paths: ['src/money.ts'],
        terms: [],
      },
      {
        path: '.checker/memory/money.md',
        id: 'rounding-bug',
        kind: 'regression',
        text: 'rounding broke refunds',
        paths: ['src/money.ts'],
        terms: [],
      },
    ],
    skills: [],
    checks: [],
    packages: [{ name: 'shop', folder: '', dependencies: ['express', 'vitest'] }],
  };
}

const moneyChange: ChangedFileInput = {
  path: 'src/money.ts',
  status: 'modified',
  additions: 1,
  deletions: 1,
  hunks: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }],
  binary: false,
  baseText: MONEY_BASE,
  headText: MONEY_HEAD,
  changedExports: [{ path: 'src/money.ts', name: 'roundCents', change: 'modified', span: { start: 1, end: 4 } }],
  headFunctions: [{ name: 'roundCents', span: { start: 1, end: 4 }, complexity: 4, isAsync: false, params: 1 }],
  baseFunctions: [{ name: 'roundCents', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 1 }],
  headSignals: moneyFacts.signals,
};

const readmeChange: ChangedFileInput = {
  path: 'README.md',
  status: 'modified',
  additions: 3,
  deletions: 1,
  hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 3 }],
  binary: false,
  baseText: '# Shop\n',
  headText: '# Shop\n\nTODO: password = "abcdefghijk"\n',
  changedExports: [],
};

const utilComment: ChangedFileInput = {
  path: 'src/util.ts',
  status: 'modified',
  additions: 1,
  deletions: 0,
  hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
  binary: false,
  baseText: 'export const a = 1;\n',
  headText: '// the answer, before the question\nexport const a = 1;\n',
  changedExports: [],
  // As the analysis passes it: the kind says a comment or layout changed, the facts say which.
  changeKind: 'comment-or-format',
};

const proof: ChangedPathProof = {
  path: 'src/money.ts',
  state: 'mocked-boundary',
  reachingTests: ['src/money.test.ts'],
  reachingTestCount: 1,
  coveredChangedLines: [],
  uncoveredChangedLines: [3],
  instrumentedChangedLines: 0,
  reason: 'the only test mocks it',
  repairTask: 'Add a test in src/money.test.ts that imports the real src/money.ts.',
};

const pathClasses = createPathClassifier(mergeClassifiers(await loadBuiltinPacks()));

function buildFactsInput(changedFiles: ChangedFileInput[]): AnalysisFactsInput {
  const kg = buildKnowledgeGraph(buildInput());
  return {
    kg,
    pathClasses,
    changedFiles,
    impacted: [{ path: 'src/routes/orders.ts', distance: 1, via: ['src/money.ts'], typeOnly: false }],
    impactedRoutes: [
      {
        id: 'route:POST /orders/:id',
        method: 'POST',
        path: '/orders/:id',
        kind: 'api',
        framework: 'express',
        file: 'src/routes/orders.ts',
        line: 3,
        reason: 'x',
        chain: ['src/money.ts', 'src/routes/orders.ts'],
        direct: false,
        reach: 'handler',
        steps: [
          'handler POST /orders/:id (src/routes/orders.ts:3)',
          'middleware priceCheck (src/routes/orders.ts:2)',
          'changed toCents (src/money.ts:1)',
        ],
      },
    ],
    reachingTestsByPath: new Map([
      ['src/money.ts', [{ testFile: 'src/money.test.ts', distance: 1, via: ['src/money.ts'], mocksChangedModule: true }]],
    ]),
    proofByPath: new Map([['src/money.ts', proof]]),
    history: [
      { oid: 'c1', authorEmail: 'a@x', timestamp: 100, paths: ['src/money.ts', 'src/money.test.ts'] },
      { oid: 'c2', authorEmail: 'B@x', timestamp: 200, paths: ['src/money.ts'] },
      { oid: 'c3', authorEmail: 'b@x', timestamp: 300, paths: ['src/money.ts', 'README.md'] },
    ],
  };
}

function findSubject(subjects: FactSubject[], kind: string, id: string): FactSubject {
  const found = subjects.find((subject) => subject.subject === kind && subject.id === id);
  assert.ok(found !== undefined, `${kind} ${id}`);
  return found;
}

/** The ids of the changed-signal subjects the analysis keeps for these changed files. */
function changedSignalIds(...files: ChangedFileInput[]): string[] {
  return buildAnalysisSubjects(buildFactsInput(files))
    .filter((subject) => subject.subject === 'changed-signal')
    .map((subject) => subject.id);
}

describe('signals the change only moved (issue 41: koa, got, zod)', () => {
  // koa rewrote an if-chain of returns into one assignment: `body?.body` was on a removed line, and the `Promise.all`
  // line is one the rewritten hunk removed and added back word for word; `options?.timeout` is new. (A call whose
  // arguments changed stays: src/money.ts's `Math.round` above.)
  const base = [
    'export async function respond(body, res) {',
    "  if (body instanceof Response) return from(body?.body || '').pipe(res);",
    '  await Promise.all([stream, res]);',
    '}',
    '',
  ].join('\n');
  const head = [
    'export async function respond(body, res, options) {',
    "  const stream = body instanceof Response ? from(body?.body || '') : null;",
    '  await Promise.all([stream, res]);',
    '  return options?.timeout;',
    '}',
    '',
  ].join('\n');
  const change: ChangedFileInput = {
    path: 'src/respond.ts',
    status: 'modified',
    additions: 4,
    deletions: 3,
    hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 }],
    binary: false,
    baseText: base,
    headText: head,
    changedExports: [],
    headFunctions: [{ name: 'respond', span: { start: 1, end: 5 }, complexity: 2, isAsync: true, params: 3 }],
    headSignals: [
      { kind: 'optional-access', line: 2, detail: '?.' },
      { kind: 'promise-concurrency', line: 3, detail: 'Promise.all' },
      { kind: 'optional-access', line: 4, detail: '?.' },
    ],
  };

  it('keeps only the signal the change added', () => {
    assert.deepEqual(changedSignalIds(change), ['signal:src/respond.ts:4:optional-access']);
  });

  // TanStack Query: `cache.get(hash)?.promise` was given a name, `query`, and read as `query?.promise`; `query?.state`
  // is a field the old code never read.
  it('a field read optionally from a call, read optionally from the name the call was given, is a move', () => {
    const named: ChangedFileInput = {
      ...change,
      baseText: ['function run(cache, hash) {', '  return cache.get(hash)?.promise;', '}', ''].join('\n'),
      headText: [
        'function run(cache, hash) {',
        '  const query = cache.get(hash);',
        '  const state = query?.state;',
        '  return query?.promise;',
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'run', span: { start: 1, end: 5 }, complexity: 2, isAsync: false, params: 2 }],
      headSignals: [
        { kind: 'optional-access', line: 3, detail: '?.' },
        { kind: 'optional-access', line: 4, detail: '?.' },
      ],
    };
    assert.deepEqual(changedSignalIds(named), ['signal:src/respond.ts:3:optional-access']);
  });

  // hono 569b4191a2 gave a regex a `g` flag: `m[0].match(/\//)?.length ?? 0` → `m[0].match(/\//g)?.length ?? 0`. The
  // call's result was read as optionally before; a `?.` the old line did not have, or another callee, is new.
  it("a called result's field read optionally, as a removed line read it, is a move; another callee or one more `?.` is not", () => {
    const line = (text: string): ChangedFileInput => ({
      ...change,
      baseText: ['function count(m) {', '  return m[0].match(/\\//)?.length ?? 0;', '}', ''].join('\n'),
      headText: ['function count(m) {', `  const componentCount = ${text};`, '}', ''].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      headFunctions: [{ name: 'count', span: { start: 1, end: 3 }, complexity: 1, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'optional-access', line: 2, detail: '?.' }],
    });
    assert.deepEqual(changedSignalIds(line('m[0].match(/\\//g)?.length ?? 0')), []);
    assert.deepEqual(changedSignalIds(line('m[0].search(/\\//g)?.length ?? 0')), ['signal:src/respond.ts:2:optional-access']);
    assert.deepEqual(changedSignalIds(line('m[0]?.match(/\\//g)?.length ?? 0')), ['signal:src/respond.ts:2:optional-access']);
  });

  // hono 224d2f5cbf: `unsubscribeRef.current?.()` of `const unsubscribeRef = useRef(null)`: the ref is empty until the
  // component's own effect fills it; no input leaves it out. A `?.` on anything else of the line is still asked.
  it("an optional read of a component's own ref asks no missing field; of a prop's `current`, it does", () => {
    const ref = (text: string): ChangedFileInput => ({
      ...change,
      baseText: ['function useStore(subscribe, props) {', '  const unsubscribeRef = useRef(null);', '}', ''].join('\n'),
      headText: ['function useStore(subscribe, props) {', '  const unsubscribeRef = useRef(null);', `  ${text};`, '}', ''].join('\n'),
      hunks: [{ oldStart: 3, oldLines: 0, newStart: 3, newLines: 1 }],
      headFunctions: [{ name: 'useStore', span: { start: 1, end: 4 }, complexity: 1, isAsync: false, params: 2 }],
      headSignals: [{ kind: 'optional-access', line: 3, detail: '?.' }],
    });
    assert.deepEqual(changedSignalIds(ref('unsubscribeRef.current?.()')), []);
    assert.deepEqual(changedSignalIds(ref('props.current?.()')), ['signal:src/respond.ts:3:optional-access']);
    assert.deepEqual(changedSignalIds(ref('unsubscribeRef.current?.(props.user?.id)')), ['signal:src/respond.ts:3:optional-access']);
  });

  // Check 75 (aio-libs/yarl 1dc46ab): with_suffix stopped returning `self.with_name(name)` and took its lines; its
  // `if len(parts) == 1:` was asked as an empty list, though with_name had made that test all along.
  it('a signal on a line taken from a function the change stopped calling was moved, not added', () => {
    const withName = [
      'class URL:',
      '    def with_name(self, name):',
      '        parts = list(self.raw_parts)',
      '        if len(parts) == 1:',
      '            parts.append(name)',
      '        return parts',
      '',
    ];
    const inlined: ChangedFileInput = {
      ...change,
      path: 'yarl/_url.py',
      baseText: [...withName, '    def with_suffix(self, suffix):', '        return self.with_name(self.name + suffix)', ''].join('\n'),
      headText: [
        ...withName,
        '    def with_suffix(self, suffix):',
        '        name = self.name + suffix',
        '        parts = list(self.raw_parts)',
        '        if len(parts) == 1:',
        '            parts.append(name)',
        '        return parts[-1:]',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 9, oldLines: 1, newStart: 9, newLines: 5 }],
      headFunctions: [],
      headSignals: [
        { kind: 'collection', line: 11, detail: 'len(parts) == 1' },
        { kind: 'collection', line: 13, detail: 'parts[-1:]' },
      ],
    };
    assert.deepEqual(changedSignalIds(inlined), ['signal:yarl/_url.py:13:collection']);
  });

  // Check 39 (yargs): the crash fix moved `this?.aliases?.[key].find(…)` into a new `if` and made it `[key]?.find`; the
  // accesses the line spells were all on the removed line, the third `?.` was not.
  it('a moved line that gained a `?.` is no move', () => {
    const moved: ChangedFileInput = {
      ...change,
      baseText: [
        'function complete(key) {',
        '  if (!zsh) return key;',
        '  const alias = this?.aliases?.[key].find(isNamed);',
        '}',
        '',
      ].join('\n'),
      headText: ['function complete(key) {', '  if (zsh) {', '    const alias = this?.aliases?.[key]?.find(isNamed);', '  }', '}', ''].join(
        '\n',
      ),
      hunks: [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'complete', span: { start: 1, end: 5 }, complexity: 2, isAsync: false, params: 1 }],
      headSignals: [
        { kind: 'optional-access', line: 3, detail: '?.' },
        { kind: 'optional-access', line: 3, detail: '?.' },
        { kind: 'optional-access', line: 3, detail: '?.' },
      ],
    };
    assert.deepEqual(changedSignalIds(moved), ['signal:src/respond.ts:3:optional-access']);
    // Moved as it was, it asks nothing.
    const kept = { ...moved, headText: (moved.headText ?? '').replace('[key]?.find', '[key].find') };
    assert.deepEqual(changedSignalIds(kept), []);
  });

  // Check 39 (yargs): `argvKeys[0]` below `if (argvKeys.length === 0) return argv;` was asked for an empty list.
  it('a first element read below an early exit on the empty list is no empty-list case; below a test that goes on, it is', () => {
    const lines = [
      'function coerce(argvKeys, argv) {',
      '  if (argvKeys.length === 0) return argv;',
      '  return argvKeys[0];',
      '}',
      'function last(items) {',
      '  if (!items.length) {',
      '    throw new Error("none");',
      '  }',
      '  return items[items.length - 1];',
      '}',
      'function first(rows) {',
      '  if (rows.length === 0) log(rows);',
      '  return rows[0];',
      '}',
      'function pick(list, each) {',
      '  each(() => {',
      '    if (!list.length) return;',
      '  });',
      '  return list[0];',
      '}',
      '',
    ];
    const guarded: ChangedFileInput = {
      ...change,
      baseText:
        'function coerce(argvKeys, argv) {\n}\nfunction last(items) {\n}\nfunction first(rows) {\n}\nfunction pick(list, each) {\n}\n',
      headText: lines.join('\n'),
      hunks: [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 2 },
        { oldStart: 3, oldLines: 0, newStart: 6, newLines: 4 },
        { oldStart: 5, oldLines: 0, newStart: 12, newLines: 2 },
        { oldStart: 6, oldLines: 0, newStart: 16, newLines: 4 },
      ],
      headFunctions: [
        { name: 'coerce', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 2 },
        { name: 'last', span: { start: 5, end: 10 }, complexity: 2, isAsync: false, params: 1 },
        { name: 'first', span: { start: 11, end: 14 }, complexity: 2, isAsync: false, params: 1 },
        { name: 'pick', span: { start: 15, end: 20 }, complexity: 2, isAsync: false, params: 2 },
      ],
      headSignals: [
        { kind: 'collection', line: 3, detail: 'argvKeys[0]' },
        { kind: 'collection', line: 9, detail: 'items[length - 1]' },
        { kind: 'collection', line: 13, detail: 'rows[0]' },
        { kind: 'collection', line: 19, detail: 'list[0]' },
      ],
    };
    // pick's exit returns from the callback alone: an empty list still reaches `list[0]`.
    assert.deepEqual(changedSignalIds(guarded), ['signal:src/respond.ts:13:collection', 'signal:src/respond.ts:19:collection']);
  });

  // Check 91 (cast): `matches[1]` inside `if matches != nil {` after `matches := re.FindStringSubmatch(s)`.
  it('an element read inside a test that the list holds it is no empty-list case', () => {
    const lines = [
      'func trim(s string) string {',
      '\tmatches := stringNumberRe.FindStringSubmatch(s)',
      '\tif matches != nil {',
      '\t\ts = matches[1]',
      '\t}',
      '\tif len(rows) > 1 {',
      '\t\ts = rows[1]',
      '\t}',
      '',
      '',
      '\tif parts != nil {',
      '\t\ts = parts[0]',
      '\t}',
      '\treturn s',
      '}',
      '',
    ];
    const guarded: ChangedFileInput = {
      ...change,
      path: 'number.go',
      baseText: 'func trim(s string) string {\n\treturn s\n}\n',
      headText: lines.join('\n'),
      hunks: [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 12 }],
      headFunctions: [{ name: 'trim', span: { start: 1, end: 15 }, complexity: 4, isAsync: false, params: 1 }],
      headSignals: [
        { kind: 'collection', line: 4, detail: 'matches[1]' },
        { kind: 'collection', line: 7, detail: 'rows[1]' },
        { kind: 'collection', line: 12, detail: 'parts[0]' },
      ],
    };
    // A non-nil slice may still be empty: only a regular expression's submatches hold every group once it matched.
    assert.deepEqual(changedSignalIds(guarded), ['signal:number.go:12:collection']);
    const python: ChangedFileInput = {
      ...change,
      path: 'app/names.py',
      baseText: 'def first(parts):\n    pass\n',
      headText: ['def first(parts):', '    if parts:', '        return parts[0]', '    return None', ''].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'first', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'collection', line: 3, detail: 'parts[0]' }],
    };
    assert.deepEqual(changedSignalIds(python), []);
    // hono 3feb3551d4: `buffer.length === 1 ? raw(buffer[0], …) : …`, a ternary whose test holds the read; a test that
    // does not (`=== 0`, or the read of another list) leaves the case.
    const ternary = (text: string): ChangedFileInput => ({
      ...change,
      path: 'src/render.ts',
      baseText: 'export function render(buffer) {\n  return buffer;\n}\n',
      headText: ['export function render(buffer) {', `  return ${text};`, '}', ''].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      headFunctions: [{ name: 'render', span: { start: 1, end: 3 }, complexity: 2, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'collection', line: 2, detail: 'buffer[0]' }],
    });
    assert.deepEqual(changedSignalIds(ternary('buffer.length === 1 ? raw(buffer[0]) : join(buffer)')), []);
    assert.deepEqual(changedSignalIds(ternary('buffer.length ? buffer[0] : null')), []);
    const split = ternary('buffer.length === 1\n    ? raw(buffer[0])\n    : join(buffer)');
    const branch = {
      ...split,
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headSignals: [{ kind: 'collection' as const, line: 3, detail: 'buffer[0]' }],
    };
    assert.deepEqual(changedSignalIds(branch), [], 'its branch on a line of its own');
    assert.deepEqual(changedSignalIds(ternary('buffer.length === 0 ? buffer[0] : null')), ['signal:src/render.ts:2:collection']);
    assert.deepEqual(changedSignalIds(ternary('rows.length === 1 ? buffer[0] : null')), ['signal:src/render.ts:2:collection']);
  });

  // Check 161 (gorilla/mux mx3): `host = host[:i]` below `if i := strings.Index(host, ":"); i != -1 {` was asked with
  // "an empty list reaches host[:i]".
  it('a Go slice of a string at an index found in it is no empty-list case; at a number, or of a list, it still is', () => {
    const lines = [
      'func setMatch(req *http.Request, rows []string, name string) {',
      '\thost := getHost(req)',
      '\tif i := strings.Index(host, ":"); i != -1 {',
      '\t\thost = host[:i]',
      '\t}',
      '\tname = name[1:]',
      '\tif j := strings.Index(name, "/"); j >= 0 {',
      '\t\trows = rows[j+1:]',
      '\t\tname = name[j+1:]',
      '\t}',
      '\tuse(host, name, rows)',
      '}',
      '',
    ];
    const sliced: ChangedFileInput = {
      ...change,
      path: 'regexp.go',
      baseText: 'func setMatch(req *http.Request, rows []string, name string) {\n}\n',
      headText: lines.join('\n'),
      hunks: [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 10 }],
      headFunctions: [{ name: 'setMatch', span: { start: 1, end: 12 }, complexity: 3, isAsync: false, params: 3 }],
      headSignals: [
        { kind: 'collection', line: 4, detail: 'host[:i]' },
        { kind: 'collection', line: 6, detail: 'name[1:]' },
        { kind: 'collection', line: 8, detail: 'rows[j+1:]' },
        { kind: 'collection', line: 9, detail: 'name[j+1:]' },
      ],
    };
    // `rows` is sliced at an index found in `name`.
    assert.deepEqual(changedSignalIds(sliced), ['signal:regexp.go:6:collection', 'signal:regexp.go:8:collection']);
  });

  // Held-out check (google/uuid, fix a2b2b32): `uuid[7] = byte(s)` below `_ = uuid[15] // bounds check`.
  it('a Go read at an index a bounds-check hint above already reached is no empty-list case; one past it still is', () => {
    const lines = [
      'func makeV7(uuid []byte, rest []byte) {',
      '\t_ = uuid[15] // bounds check',
      '\tuuid[7] = byte(s)',
      '\trest[0] = 1',
      '\tuuid[16] = 0',
      '}',
      '',
    ];
    const hinted: ChangedFileInput = {
      ...change,
      path: 'version7.go',
      baseText: 'func makeV7(uuid []byte, rest []byte) {\n\t_ = uuid[15] // bounds check\n}\n',
      headText: lines.join('\n'),
      hunks: [{ oldStart: 3, oldLines: 0, newStart: 3, newLines: 3 }],
      headFunctions: [{ name: 'makeV7', span: { start: 1, end: 6 }, complexity: 1, isAsync: false, params: 2 }],
      headSignals: [
        { kind: 'collection', line: 3, detail: 'uuid[7]' },
        { kind: 'collection', line: 4, detail: 'rest[0]' },
        { kind: 'collection', line: 5, detail: 'uuid[16]' },
      ],
    };
    assert.deepEqual(changedSignalIds(hinted), ['signal:version7.go:4:collection', 'signal:version7.go:5:collection']);
  });

  // Check 111 (Masterminds/semver): `m[4]` below `if m == nil { return nil, ErrInvalidSemVer }` after
  // `m := versionRegex.FindStringSubmatch(v)`; JavaScript's `if (!m) return` after `re.exec(s)`.
  it('a group read below an early exit on no match is no empty-list case', () => {
    const lines = [
      'func parse(v string) string {',
      '\tm := versionRegex.FindStringSubmatch(v)',
      '\tif m == nil {',
      '\t\treturn ""',
      '\t}',
      '\tparts := strings.Split(v, ".")',
      '\tif parts == nil {',
      '\t\treturn ""',
      '\t}',
      '\treturn m[4] + parts[2]',
      '}',
      '',
    ];
    const go: ChangedFileInput = {
      ...change,
      path: 'version.go',
      baseText: 'func parse(v string) string {\n\treturn v\n}\n',
      headText: lines.join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 9 }],
      headFunctions: [{ name: 'parse', span: { start: 1, end: 11 }, complexity: 3, isAsync: false, params: 1 }],
      headSignals: [
        { kind: 'collection', line: 10, detail: 'm[4]' },
        { kind: 'collection', line: 10, detail: 'parts[2]' },
      ],
    };
    // A non-nil slice of another call may still be short: only a match holds every group.
    assert.deepEqual(changedSignalIds(go), ['signal:version.go:10:collection']);
    const javascript: ChangedFileInput = {
      ...change,
      baseText: 'function start(cls) {\n}\n',
      headText: ['function start(cls) {', '  const m = /start:(\\S+)/.exec(cls);', '  if (!m) return 0;', '  return m[1];', '}', ''].join(
        '\n',
      ),
      hunks: [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'start', span: { start: 1, end: 5 }, complexity: 2, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'collection', line: 4, detail: 'm[1]' }],
    };
    assert.deepEqual(changedSignalIds(javascript), []);
  });

  // Check 109 (falcon): `int(match.group(1))` of `re.compile(r'received (\d\d\d\d)')` was asked to parse "12abc";
  // etherpad's `Number.parseInt(start[1])` of `/start:(\S+)/` rightly is.
  it('a number parsed from a group of digits alone is no parse that meets text', () => {
    const python: ChangedFileInput = {
      ...change,
      path: 'falcon/asgi/ws.py',
      baseText:
        "import re\n_CAUSE = re.compile(r'received (\\d\\d\\d\\d)')\n_NAME = re.compile(r'(?P<who>\\w+) (\\d+)')\ndef f(text):\n    return None\n",
      headText: [
        'import re',
        "_CAUSE = re.compile(r'received (\\d\\d\\d\\d)')",
        "_NAME = re.compile(r'(?P<who>\\w+) (\\d+)')",
        'def f(text):',
        '    match = _CAUSE.match(text)',
        '    code = int(match.group(1))',
        '    named = _NAME.search(text)',
        '    return code + int(named.group(1)) + int(named.group(2))',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 4 }],
      headFunctions: [{ name: 'f', span: { start: 4, end: 8 }, complexity: 1, isAsync: false, params: 1 }],
      headSignals: [
        { kind: 'parse-number', line: 6, detail: 'int(match.group(1))' },
        { kind: 'parse-number', line: 8, detail: 'int(named.group(1))' },
      ],
    };
    // The named group `who` is group 1 and holds a word: asked.
    assert.deepEqual(changedSignalIds(python), ['signal:falcon/asgi/ws.py:8:parse-number']);
    const javascript: ChangedFileInput = {
      ...change,
      path: 'src/static/js/domline.js',
      baseText: 'function f(cls) {\n  return 0;\n}\n',
      headText: [
        'function f(cls) {',
        '  const start = /(?:^| )start:(\\S+)/.exec(cls);',
        '  const size = /size:([0-9]{1,3})/.exec(cls);',
        '  return Number.parseInt(start[1]) + parseInt(size[1], 10);',
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'f', span: { start: 1, end: 5 }, complexity: 1, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'parse-number', line: 4, detail: 'Number.parseInt' }],
    };
    assert.deepEqual(changedSignalIds(javascript), ['signal:src/static/js/domline.js:4:parse-number']);
  });

  // Check 110 (zerolog): `ll = ll[:3]` inside `if len(ll) > 3 {`; `dst = dst[:n-1]` inside `if n >= 4 && … {` after
  // `n := len(dst)`.
  it('a Go slice inside a test that the list is long enough is no empty-list case', () => {
    const lines = [
      'func strip(ll string, dst []byte, k int) string {',
      '\tif len(ll) > 3 {',
      '\t\tll = ll[:3]',
      '\t}',
      '\tn := len(dst)',
      "\tif n >= 4 && dst[n-4] == 'e' {",
      '\t\tdst = dst[:n-1]',
      '\t}',
      '\tif len(ll) > 1 {',
      '\t\tll = ll[:3]',
      '\t}',
      '\tif len(ll) > 3 {',
      '\t\tll = ll[:k]',
      '\t}',
      '\treturn ll',
      '}',
      '',
    ];
    const go: ChangedFileInput = {
      ...change,
      path: 'console.go',
      baseText: 'func strip(ll string, dst []byte, k int) string {\n\treturn ll\n}\n',
      headText: lines.join('\n'),
      hunks: [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 13 }],
      headFunctions: [{ name: 'strip', span: { start: 1, end: 16 }, complexity: 5, isAsync: false, params: 3 }],
      headSignals: [
        { kind: 'collection', line: 3, detail: 'll[:3]' },
        { kind: 'collection', line: 7, detail: 'dst[:n-1]' },
        { kind: 'collection', line: 10, detail: 'll[:3]' },
        { kind: 'collection', line: 13, detail: 'll[:k]' },
      ],
    };
    // Two characters do not hold three, and a bound the test does not know stays asked.
    assert.deepEqual(changedSignalIds(go), ['signal:console.go:10:collection', 'signal:console.go:13:collection']);
  });

  // Check 77 (testify): `return splitted[len(splitted)-1]` below `if len(splitted) == 0 {` / `return trimmed`.
  it('a Go or Python last element read below an early exit on the empty list is no empty-list case', () => {
    const lines = [
      'func funcName(n string) string {',
      '\tsplitted := strings.Split(n, ".")',
      '\tif len(splitted) == 0 {',
      '\t\treturn n',
      '\t}',
      '\treturn splitted[len(splitted)-1]',
      '}',
      'func first(rows []string) string {',
      '\tif len(rows) == 0 {',
      '\t\tlog(rows)',
      '\t}',
      '\treturn rows[0]',
      '}',
      '',
    ];
    const guarded: ChangedFileInput = {
      ...change,
      path: 'mock/mock.go',
      baseText: 'func funcName(n string) string {\n}\nfunc first(rows []string) string {\n}\n',
      headText: lines.join('\n'),
      hunks: [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 5 },
        { oldStart: 3, oldLines: 0, newStart: 9, newLines: 4 },
      ],
      headFunctions: [
        { name: 'funcName', span: { start: 1, end: 7 }, complexity: 2, isAsync: false, params: 1 },
        { name: 'first', span: { start: 8, end: 13 }, complexity: 2, isAsync: false, params: 1 },
      ],
      headSignals: [
        { kind: 'collection', line: 6, detail: 'splitted[len(splitted)-1]' },
        { kind: 'collection', line: 12, detail: 'rows[0]' },
      ],
    };
    assert.deepEqual(changedSignalIds(guarded), ['signal:mock/mock.go:12:collection']);
    const python: ChangedFileInput = {
      ...change,
      path: 'app/names.py',
      baseText: 'def last(parts):\n    pass\n',
      headText: ['def last(parts):', '    if not parts:', '        return None', '    return parts[-1]', ''].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'last', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 1 }],
      headSignals: [{ kind: 'collection', line: 4, detail: 'parts[-1]' }],
    };
    assert.deepEqual(changedSignalIds(python), []);
    // Check 140 (dateutil): `assert len(missing) == len(key) == 1` above `key = key[0]`; an assertion of another list
    // guards nothing.
    const asserted = (assertion: string): ChangedFileInput => ({
      ...change,
      path: 'app/ymd.py',
      baseText: 'def resolve(key):\n    pass\n',
      headText: ['def resolve(key, missing):', `    ${assertion}`, '    key = key[0]', '    return key', ''].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      headFunctions: [{ name: 'resolve', span: { start: 1, end: 4 }, complexity: 1, isAsync: false, params: 2 }],
      headSignals: [{ kind: 'collection', line: 3, detail: 'key[0]' }],
    });
    assert.deepEqual(changedSignalIds(asserted('assert len(missing) == len(key) == 1')), []);
    assert.deepEqual(changedSignalIds(asserted('assert key, "no key"')), []);
    assert.deepEqual(changedSignalIds(asserted('assert len(missing) == 1')), ['signal:app/ymd.py:3:collection']);
  });

  // Check 32 (mikro-orm): `Utils.asArray(group[0][1]?.orderBy).map(o => wrap(o))` lost its `.map(…)`; the optional read
  // and the index read were there before, and were asked as a missing field and an empty list.
  it('an optional read after index reads, and an index read, kept on a rewritten line are moves', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['const orderBy = Utils.asArray(group[0][1]?.orderBy).map((o) => wrap(o));', 'const first = rows[0]?.id;', ''].join('\n'),
      headText: ['const orderBy = Utils.asArray(group[0][1]?.orderBy);', 'const first = items[0]?.key;', ''].join('\n'),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'optional-access', line: 1, detail: '?.' },
        { kind: 'collection', line: 1, detail: 'group[0]' },
        { kind: 'optional-access', line: 2, detail: '?.' },
        { kind: 'collection', line: 2, detail: 'items[0]' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:collection', 'signal:src/respond.ts:2:optional-access']);
  });

  // Check 136 (cheerio): `baseURL: history ? history[history.length - 1] : url` became `const baseURI = history ?
  // history[history.length - 1] : urlObject`; the last element was read before, and was asked as an empty list.
  it('a last element a removed line read is a move; one of another list is not', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['  baseURL: history ? history[history.length - 1] : url,', 'const tail = rows[0];', ''].join('\n'),
      headText: ['const baseURI = history ? history[history.length - 1] : urlObject;', 'const tail = rows[rows.length - 1];', ''].join(
        '\n',
      ),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'collection', line: 1, detail: 'history[length - 1]' },
        { kind: 'collection', line: 2, detail: 'rows[length - 1]' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:collection']);
  });

  it('a call kept with its arguments on a rewritten line is a move; one given other arguments is not (zod)', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['if (proms.length) return Promise.all(proms).then(() => payload);', 'return Promise.all([a]);', ''].join('\n'),
      headText: ['if (proms.length) return Promise.all(proms).then(() => finish(payload));', 'return Promise.all([a, b]);', ''].join('\n'),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'promise-concurrency', line: 1, detail: 'Promise.all' },
        { kind: 'promise-concurrency', line: 2, detail: 'Promise.all' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:promise-concurrency']);
  });

  // Check 185 (node-fetch): `return JSON.parse(buffer.toString())` → `return JSON.parse(text)` was asked as new JSON
  // parsing; malformed text failed there before. A parse where no removed line parsed stays asked.
  it('JSON parsed where a removed line parsed JSON is not a new parse; a parse on a line that did not is', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['const buffer = await consumeBody(this);', 'return JSON.parse(buffer.toString());', 'const n = 1;', ''].join('\n'),
      headText: ['const text = await this.text();', 'return JSON.parse(text);', 'const meta = JSON.parse(raw);', ''].join('\n'),
      hunks: [
        { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 },
        { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
      ],
      headSignals: [
        { kind: 'parse-json', line: 2, detail: 'JSON.parse' },
        { kind: 'parse-json', line: 3, detail: 'JSON.parse' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:3:parse-json']);
  });

  // Check 205 (luxon 9a08074373): `dtfCache[zone] = new Intl.DateTimeFormat(…)` → `dtf = new Intl.DateTimeFormat(…)`, its
  // cache made a Map, was asked a DST case: the date call was there before. A date call no removed line made stays.
  it('a date call a removed line of the hunk made is no new date code; one no removed line made is', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['if (!dtfCache[zone]) {', '  dtfCache[zone] = new Intl.DateTimeFormat("en-US", {', 'const n = 1;', ''].join('\n'),
      headText: ['if (dtf === undefined) {', '  dtf = new Intl.DateTimeFormat("en-US", {', 'const day = new Date(ts);', ''].join('\n'),
      hunks: [
        { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 },
        { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
      ],
      headSignals: [
        { kind: 'date-time', line: 2, detail: 'new Intl.DateTimeFormat' },
        { kind: 'date-time', line: 3, detail: 'new Date' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:3:date-time']);
  });

  // Check 66 (NodeBB): `keyId.shift().slice(7, -1)` → `keyId.at(-1).slice(7, -1)` was asked as an empty list reaching
  // `.slice`; the slice was there before, with the same arguments.
  it('a method called with the same arguments as before, on another receiver, is a move; other arguments are not', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ["req.uid = keyId.shift().slice(7, -1).replace(/#.*$/, '');", 'const tail = parts.slice(1);', ''].join('\n'),
      headText: ["req.uid = keyId.at(-1).slice(7, -1).replace(/#.*$/, '');", 'const tail = parts.slice(2);', ''].join('\n'),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'collection', line: 1, detail: '.slice' },
        { kind: 'collection', line: 2, detail: '.slice' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:collection']);
  });

  // hono's etag digest (the independent check): `chunk = value.subarray(offset)` → `chunk = value.slice(offset)` was asked
  // an empty list reaching `value.slice`; the view became a copy of the same elements.
  it('a slice that takes what a removed subarray took is a move; a slice of other bounds is not', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['chunk = value.subarray(offset)', 'rest = value.subarray(offset)', ''].join('\n'),
      headText: ['chunk = value.slice(offset)', 'rest = value.slice(offset + 1)', ''].join('\n'),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'collection', line: 1, detail: 'value.slice' },
        { kind: 'collection', line: 2, detail: 'value.slice' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:collection']);
  });

  it('a construction kept with its arguments is a move; one given other arguments is not (dayjs)', () => {
    const rewritten: ChangedFileInput = {
      ...change,
      baseText: ['return new Date(y, M, d, h, m, s, ms)', 'return new Date(y, M, d)', ''].join('\n'),
      headText: ['newDate = new Date(y, M, d, h, m, s, ms)', 'return new Date(y, M, d, h)', ''].join('\n'),
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
      headSignals: [
        { kind: 'date-time', line: 1, detail: 'new Date' },
        { kind: 'date-time', line: 2, detail: 'new Date' },
      ],
    };
    assert.deepEqual(changedSignalIds(rewritten), ['signal:src/respond.ts:2:date-time']);
  });

  it('a first or last element compared with one character is a character of a string, and so is its slice (pino)', () => {
    const head = [
      'function stripQuotes(value) {',
      '  const first = value[0];',
      '  const last = value[value.length - 1];',
      `  if ((first === '"' && last === '"') || (first === "'" && last === "'")) return value.slice(1, -1);`,
      '  return value;',
      '}',
      'function pick(list) {',
      '  const head = list[0];',
      "  if (list[list.length - 1] === 'ab') return head;",
      '  return list.slice(1).concat(head);',
      '}',
      '',
    ].join('\n');
    const input: ChangedFileInput = {
      ...change,
      baseText: 'function stripQuotes(value) {\n  return value;\n}\nfunction pick(list) {\n  return list;\n}\n',
      headText: head,
      hunks: [
        { oldStart: 2, oldLines: 0, newStart: 2, newLines: 3 },
        { oldStart: 5, oldLines: 1, newStart: 8, newLines: 3 },
      ],
      headFunctions: [
        { name: 'stripQuotes', span: { start: 1, end: 6 }, complexity: 3, isAsync: false, params: 1 },
        { name: 'pick', span: { start: 7, end: 11 }, complexity: 2, isAsync: false, params: 1 },
      ],
      headSignals: [
        { kind: 'collection', line: 2, detail: 'value[0]' },
        { kind: 'collection', line: 3, detail: 'value[length - 1]' },
        { kind: 'collection', line: 8, detail: 'list[0]' },
        { kind: 'collection', line: 9, detail: 'list[length - 1]' },
        { kind: 'collection', line: 4, detail: 'value.slice' },
        { kind: 'collection', line: 10, detail: 'list.slice' },
      ],
    };
    // `list[0]` is kept in `head`, never compared with a character; `'ab'` is two.
    assert.deepEqual(changedSignalIds(input), [
      'signal:src/respond.ts:8:collection',
      'signal:src/respond.ts:9:collection',
      'signal:src/respond.ts:10:collection',
    ]);
  });

  it('a default or an await the change only wrapped is a move; a new default or another awaited operation is not', () => {
    const input: ChangedFileInput = {
      ...change,
      baseText: [
        'export async function limit(ctx, docs) {',
        '  const fullPath = `${ctx.mountPath ?? ""}${ctx.path}`;',
        '  await Document.update({ parentDocumentId: null }, { where: { id: docs } });',
        '  return fullPath;',
        '}',
        '',
      ].join('\n'),
      headText: [
        'export async function limit(ctx, docs) {',
        '  const fullPath = normalizePath(',
        '    `${ctx.mountPath ?? ""}${ctx.path}`',
        '  );',
        '  const prefix = ctx.prefix ?? "/";',
        '  await Document.unscoped().update({ parentDocumentId: null }, { where: { id: docs } });',
        '  await Event.create({ name: "detach" });',
        '  return prefix + fullPath;',
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 3, newStart: 2, newLines: 7 }],
      headFunctions: [{ name: 'limit', span: { start: 1, end: 9 }, complexity: 1, isAsync: true, params: 2 }],
      headSignals: [
        { kind: 'optional-access', line: 3, detail: '??' },
        { kind: 'optional-access', line: 5, detail: '??' },
        { kind: 'async-failure', line: 6, detail: 'await outside try' },
        { kind: 'async-failure', line: 7, detail: 'await outside try' },
      ],
    };
    assert.deepEqual(changedSignalIds(input), ['signal:src/respond.ts:5:optional-access', 'signal:src/respond.ts:7:async-failure']);
  });

  it('a returned promise now awaited is a move: it rejected to the caller before too (logto)', () => {
    const input: ChangedFileInput = {
      ...change,
      baseText: [
        'export async function setDefault(id) {',
        '  return pool.transaction(async (connection) => {',
        '    await connection.query(reset);',
        '  });',
        '}',
        '',
      ].join('\n'),
      headText: [
        'export async function setDefault(id) {',
        '  const { previous } = await pool.transaction(async (connection) => {',
        '    await connection.query(reset);',
        '  });',
        '  await cache.invalidate(previous);',
        '}',
        '',
      ].join('\n'),
      hunks: [
        { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
        { oldStart: 5, oldLines: 0, newStart: 5, newLines: 1 },
      ],
      headFunctions: [{ name: 'setDefault', span: { start: 1, end: 6 }, complexity: 1, isAsync: true, params: 1 }],
      headSignals: [
        { kind: 'async-failure', line: 2, detail: 'await outside try' },
        { kind: 'async-failure', line: 5, detail: 'await outside try' },
      ],
    };
    assert.deepEqual(changedSignalIds(input), ['signal:src/respond.ts:5:async-failure']);
  });

  // Check 144 (fastify-cors 365a08e): `.then(…)` and `.then(…).catch(next)` joined onto one line: the same handler.
  it('a .catch a removed line made with the same handler is a move; another handler is not', () => {
    const input = (handler: string): ChangedFileInput => ({
      ...change,
      baseText: [
        'export function handle(ret, next) {',
        '  ret.then((options) => normalize(options))',
        '    .then((options) => apply(options, next)).catch(next)',
        '}',
        '',
      ].join('\n'),
      headText: [
        'export function handle(ret, next) {',
        `  ret.then((options) => apply(normalize(options), next)).catch(${handler})`,
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 1 }],
      headFunctions: [{ name: 'handle', span: { start: 1, end: 3 }, complexity: 1, isAsync: false, params: 2 }],
      headSignals: [{ kind: 'async-failure', line: 2, detail: '.catch' }],
    });
    assert.deepEqual(changedSignalIds(input('next')), []);
    assert.deepEqual(changedSignalIds(input('report')), ['signal:src/respond.ts:2:async-failure']);
  });

  // Fourth independent check (ky 30450d89f8): the signal of `.catch(reject)` sits on `promise`, the line its chain
  // starts; read alone, that line holds no handler, and the moved catch was asked as an asynchronous failure.
  it('a .catch a removed line made, its chain now broken over lines, is a move; another handler is not', () => {
    const input = (handler: string): ChangedFileInput => ({
      ...change,
      baseText: ['export function settle(promise, resolve, reject) {', '  promise.then(resolve).catch(reject);', '}', ''].join('\n'),
      headText: [
        'export function settle(promise, resolve, reject) {',
        '  promise',
        '    .then(resolve)',
        `    .catch(${handler})`,
        '    .then(cleanup);',
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 4 }],
      headFunctions: [{ name: 'settle', span: { start: 1, end: 6 }, complexity: 1, isAsync: false, params: 3 }],
      headSignals: [{ kind: 'async-failure', line: 2, detail: '.catch' }],
    });
    assert.deepEqual(changedSignalIds(input('reject')), []);
    assert.deepEqual(changedSignalIds(input('report')), ['signal:src/respond.ts:2:async-failure']);
  });

  it('a call given type arguments, and an optional call, moved to another line are moves (logto)', () => {
    const input: ChangedFileInput = {
      ...change,
      baseText: [
        'export async function setDefault(connection, id, cacheKey) {',
        '  const returning = await connection.maybeOne<Resource>(sql`select`);',
        '  void trySafe(cache.delete(cacheKey?.(id) ?? defaultKey));',
        '}',
        '',
      ].join('\n'),
      headText: [
        'export async function setDefault(connection, id, cacheKey) {',
        '  const resource = await connection.maybeOne<Resource>(sql`select`);',
        '  const key = cacheKey?.(id) ?? defaultKey;',
        '  await connection.one<Resource>(sql`update`);',
        '  const label = format?.(key);',
        '}',
        '',
      ].join('\n'),
      hunks: [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 4 }],
      headFunctions: [{ name: 'setDefault', span: { start: 1, end: 6 }, complexity: 1, isAsync: true, params: 3 }],
      headSignals: [
        { kind: 'async-failure', line: 2, detail: 'await outside try' },
        { kind: 'optional-access', line: 3, detail: '?.' },
        { kind: 'async-failure', line: 4, detail: 'await outside try' },
        { kind: 'optional-access', line: 5, detail: '?.' },
      ],
    };
    // Another awaited operation (`one`) and another optional call (`format?.(`) are new.
    assert.deepEqual(changedSignalIds(input), ['signal:src/respond.ts:4:async-failure', 'signal:src/respond.ts:5:optional-access']);
  });

  /** The changed-signal ids of a file the change adds whole (`head`, ending in a newline), given its functions and signals. */
  const addedFileIds = (
    head: string,
    headFunctions: ChangedFileInput['headFunctions'],
    headSignals: ChangedFileInput['headSignals'],
  ): string[] =>
    changedSignalIds({
      ...change,
      baseText: '',
      headText: head,
      hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: head.split('\n').length - 1 }],
      headFunctions,
      headSignals,
    });

  /** The changed-signal ids of one function's file: its base and head texts, hunks, span and signals. */
  const changedIdsOf = (
    base: string[],
    head: string[],
    hunks: ChangedFileInput['hunks'],
    span: { name: string; start: number; end: number },
    headSignals: ChangedFileInput['headSignals'],
  ): string[] =>
    changedSignalIds({
      ...change,
      baseText: base.join('\n'),
      headText: head.join('\n'),
      hunks,
      headFunctions: [{ name: span.name, span: { start: span.start, end: span.end }, complexity: 2, isAsync: false, params: 2 }],
      headSignals,
    });

  it('an optional read by index moved word for word is no new case; a new one is (ky)', () => {
    const moved = '    const deleted = (options.searchParams as any)?.[deletedSymbol];';
    const base = ['function apply(options, url) {', '  if (url) {', '    url.clear();', moved, '  }', '}', ''];
    const head = ['function apply(options, url) {', moved, '  const added = (options.extra as any)?.[addedSymbol];'];
    const ids = changedIdsOf(
      base,
      [...head, '  if (url) {', '    url.clear();', '  }', '}', ''],
      [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 2 },
        { oldStart: 4, oldLines: 1, newStart: 6, newLines: 0 },
      ],
      { name: 'apply', start: 1, end: 7 },
      [
        { kind: 'optional-access', line: 2, detail: '?.' },
        { kind: 'optional-access', line: 3, detail: '?.' },
      ],
    );
    assert.deepEqual(ids, ['signal:src/respond.ts:3:optional-access']);
  });

  it('a comparison a removed line made is a move: an empty-list case for it is not new (outline)', () => {
    const ids = changedIdsOf(
      ['function visible(doc) {', '  return doc.isPublic ||', '    doc.memberships.length > 0;', '}', ''],
      [
        'function visible(doc) {',
        '  if (doc.memberships.length > 0) return true;',
        '  return doc.isPublic || doc.groups.length > 0;',
        '}',
        '',
      ],
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 2 }],
      { name: 'visible', start: 1, end: 4 },
      [
        { kind: 'collection', line: 2, detail: 'doc.memberships.length > 0' },
        { kind: 'collection', line: 3, detail: 'doc.groups.length > 0' },
      ],
    );
    assert.deepEqual(ids, ['signal:src/respond.ts:3:collection']);
  });

  it('a length compared behind a guard, on a line rewritten elsewhere, is no new empty-list case (hoppscotch)', () => {
    const key = (service: string) => `const key = (c) => \`\${${service}.canon(c.domain)}:\${c.path && c.path.length > 0 ? c.path : "/"}\``;
    const ids = changedIdsOf(
      [key('cookieJarService'), ''],
      [key('getCookieJarService()'), 'const other = (d) => d.path && d.path.length > 0;', ''],
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
      { name: 'key', start: 1, end: 1 },
      [
        { kind: 'collection', line: 1, detail: 'c.path.length > 0' },
        { kind: 'collection', line: 2, detail: 'd.path.length > 0' },
      ],
    );
    assert.deepEqual(ids, ['signal:src/respond.ts:2:collection']);
  });

  it('a guarded read rewritten as an optional chain is a move; a new guarded read is not (hono)', () => {
    const ids = changedIdsOf(
      [
        'function ws(opts, url) {',
        '  const u = opts.args[0] && opts.args[0].param ? fill(url, opts.args[0].param) : url;',
        '  return u;',
        '}',
        '',
      ],
      [
        'function ws(opts, url) {',
        '  const u = opts.args[0]?.param ? fill(url, opts.args[0].param) : url;',
        '  return u + (opts.args[0]?.query ?? "");',
        '}',
        '',
      ],
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 2 }],
      { name: 'ws', start: 1, end: 4 },
      [
        { kind: 'optional-access', line: 2, detail: '?.' },
        { kind: 'collection', line: 2, detail: 'opts.args[0]' },
        { kind: 'optional-access', line: 3, detail: '?.' },
      ],
    );
    assert.deepEqual(ids, ['signal:src/respond.ts:3:optional-access']);
  });

  it('the first place of a tuple the function also reads at its second is no list that could be empty (hono)', () => {
    const head = [
      'function build(trie, routes) {',
      '  const data = trie.paths[path];',
      '  out[data[0]] = routes.map((r) => params[data[1][r]]);',
      '  return first(routes[0]);',
      '}',
      '',
    ];
    const ids = changedIdsOf(
      ['function build(trie, routes) {', '  return null;', '}', ''],
      head,
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      { name: 'build', start: 1, end: 5 },
      [
        { kind: 'collection', line: 3, detail: 'data[0]' },
        { kind: 'collection', line: 4, detail: 'routes[0]' },
      ],
    );
    assert.deepEqual(ids, ['signal:src/respond.ts:4:collection']);
  });

  it("a string's length is no list's: a name typed string, kept from a string method or given to a replacer asks no empty-list case", () => {
    const head = [
      'function normalizePath(path: string): string {',
      '  const lowercased = path.toLowerCase();',
      '  return lowercased.length > 1 && lowercased.endsWith("/") ? lowercased.slice(0, -1) : lowercased;',
      '}',
      'function first(items) {',
      '  const list = items.filter(Boolean);',
      '  return list.length > 0 ? list[0] : undefined;',
      '}',
      "function label(name: string) { return name.length === 0 ? 'none' : name; }",
      'function escape(query) {',
      '  return query.replace(/"[^"]*"|[\\s\\S]/g, (segment) =>',
      '    segment.length > 1 ? segment.trim() : segment',
      '  );',
      '}',
      'function count(groups) {',
      '  return groups.map((part) => part.length > 1);',
      '}',
      'function search(searchPath, rows) {',
      '  for (const directory of searchPath.split(delimiter)) {',
      '    if (directory.length > 1) use(directory);',
      '  }',
      '  for (const row of rows) if (row.length > 0) use(row);',
      '}',
      'function anchor(re, open, close) {',
      "  re = '^' + open + re + close + '$';",
      "  return re.slice(1, -1) + (re.length > 1 ? '' : '?');",
      '}',
      '',
    ].join('\n');
    const functions: ChangedFileInput['headFunctions'] = [
      { name: 'normalizePath', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 1 },
      { name: 'first', span: { start: 5, end: 8 }, complexity: 2, isAsync: false, params: 1 },
      { name: 'label', span: { start: 9, end: 9 }, complexity: 2, isAsync: false, params: 1 },
      { name: 'escape', span: { start: 10, end: 14 }, complexity: 1, isAsync: false, params: 1 },
      { name: 'count', span: { start: 15, end: 17 }, complexity: 1, isAsync: false, params: 1 },
      { name: 'search', span: { start: 18, end: 23 }, complexity: 3, isAsync: false, params: 2 },
      { name: 'anchor', span: { start: 24, end: 27 }, complexity: 2, isAsync: false, params: 3 },
    ];
    const signals: ChangedFileInput['headSignals'] = [
      { kind: 'collection', line: 3, detail: 'lowercased.length > 1' },
      { kind: 'collection', line: 3, detail: 'lowercased.slice' },
      { kind: 'collection', line: 7, detail: 'list.length > 0' },
      { kind: 'collection', line: 9, detail: 'name.length === 0' },
      { kind: 'collection', line: 12, detail: 'segment.length > 1' },
      { kind: 'collection', line: 16, detail: 'part.length > 1' },
      { kind: 'collection', line: 20, detail: 'directory.length > 1' },
      { kind: 'collection', line: 22, detail: 'row.length > 0' },
      { kind: 'collection', line: 26, detail: 're.slice' },
      { kind: 'collection', line: 26, detail: 're.length > 1' },
    ];
    // The match a `.replace` callback gets is a string (outline's escapeTsQuery); a `.map` callback's element is not.
    // A piece of a `.split()` walked by `for…of` is a string (execa's PATH directories); a row of a list may be a list.
    // A name given a string again is one (minimatch's `re = '^' + open + re + close + '$'`, check 113).
    assert.deepEqual(addedFileIds(head, functions, signals), [
      'signal:src/respond.ts:7:collection',
      'signal:src/respond.ts:16:collection',
      'signal:src/respond.ts:22:collection',
    ]);
  });

  // Check 133 (markdown-it): `state.pending.slice(0, ws)` below `state.pending.charCodeAt(ws - 1)` was asked for an empty
  // list; `state.pending` is the text waiting to be emitted. A list sliced beside a method strings and lists share is.
  it('a member chain a string method is called on holds a string: its slice and length ask no empty-list case', () => {
    const head = [
      'function newline(state) {',
      '  let ws = state.pending.length - 1;',
      '  while (ws >= 1 && state.pending.charCodeAt(ws - 1) === 0x20) ws--;',
      '  state.pending = state.pending.slice(0, ws);',
      '}',
      'function tail(state) {',
      '  if (state.tokens.indexOf(marker) > 0) use(state.tokens.slice(1));',
      '  return state.tokens.length > 0;',
      '}',
      '',
    ].join('\n');
    const functions: ChangedFileInput['headFunctions'] = [
      { name: 'newline', span: { start: 1, end: 5 }, complexity: 3, isAsync: false, params: 1 },
      { name: 'tail', span: { start: 6, end: 9 }, complexity: 2, isAsync: false, params: 1 },
    ];
    const signals: ChangedFileInput['headSignals'] = [
      { kind: 'collection', line: 4, detail: 'state.pending.slice' },
      { kind: 'collection', line: 7, detail: 'state.tokens.slice' },
      { kind: 'collection', line: 8, detail: 'state.tokens.length > 0' },
    ];
    assert.deepEqual(addedFileIds(head, functions, signals), ['signal:src/respond.ts:7:collection', 'signal:src/respond.ts:8:collection']);
  });

  // Check 147 (postcss c30586d): `params[0]` of `let params = node.params ? str.rawValue(node, 'params') : ''` was asked
  // for an empty list; it is the first character of a string.
  it("a first character of a name kept from a ternary that falls back to '' asks no empty-list case; a list's still does", () => {
    const head = [
      'function atruleStart(str, node) {',
      "  let params = node.params ? str.rawValue(node, 'params') : ''",
      '  if (params && !END.test(params[0])) return params',
      '}',
      'function first(node) {',
      '  let nodes = node.nodes ? node.nodes : []',
      '  return nodes[0]',
      '}',
      '',
    ].join('\n');
    const functions: ChangedFileInput['headFunctions'] = [
      { name: 'atruleStart', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 2 },
      { name: 'first', span: { start: 5, end: 8 }, complexity: 1, isAsync: false, params: 1 },
    ];
    const signals: ChangedFileInput['headSignals'] = [
      { kind: 'collection', line: 3, detail: 'params[0]' },
      { kind: 'collection', line: 7, detail: 'nodes[0]' },
    ];
    assert.deepEqual(addedFileIds(head, functions, signals), ['signal:src/respond.ts:7:collection']);
  });

  it('a length tested against 0 or 1 by an if is the empty list handled: the if asks it, no empty-list case (msw)', () => {
    const head = [
      'async function runCleanups(cleanups) {',
      '  if (!cleanups || cleanups.length == 0) {',
      '    return;',
      '  }',
      '  const first = cleanups.length > 1 ? cleanups[0] : undefined;',
      '  await first?.();',
      '  if (',
      '    this.iterator &&',
      '    this.cleanups.length > 0',
      '  ) return;',
      '}',
      '',
    ].join('\n');
    const functions: ChangedFileInput['headFunctions'] = [
      { name: 'runCleanups', span: { start: 1, end: 11 }, complexity: 4, isAsync: true, params: 1 },
    ];
    const signals: ChangedFileInput['headSignals'] = [
      { kind: 'collection', line: 2, detail: 'cleanups.length == 0' },
      { kind: 'collection', line: 5, detail: 'cleanups.length > 1' },
      { kind: 'collection', line: 9, detail: 'this.cleanups.length > 0' },
    ];
    // The ternary's length test is no `if`: the list it reads from may still be empty where the code did not say.
    assert.deepEqual(addedFileIds(head, functions, signals), ['signal:src/respond.ts:5:collection']);
  });

  it('an optional read whose holder an unchanged line of the function already guards is no new case (zod)', () => {
    const head = [
      'export function emit(shape, keys) {',
      '  for (const key of keys) {',
      '    const schema = shape[key];',
      '    const isOptionalIn = schema?._zod?.optin === "optional";',
      '    const isOptionalOut = schema?._zod?.optout === "optional";',
      '    const label = key?.description;',
      '  }',
      '}',
      'const other = item?._zod?.optout;',
      '',
    ].join('\n');
    const added: ChangedFileInput = {
      ...change,
      baseText: head
        .split('\n')
        .filter((_, index) => index !== 3 && index !== 5)
        .join('\n'),
      headText: head,
      hunks: [
        { oldStart: 3, oldLines: 0, newStart: 4, newLines: 1 },
        { oldStart: 4, oldLines: 0, newStart: 6, newLines: 1 },
      ],
      headFunctions: [{ name: 'emit', span: { start: 1, end: 8 }, complexity: 2, isAsync: false, params: 2 }],
      headSignals: [
        { kind: 'optional-access', line: 4, detail: '?.' },
        { kind: 'optional-access', line: 6, detail: '?.' },
      ],
    };
    const ids = (input: ChangedFileInput): string[] => changedSignalIds(input);
    // `key?.` is guarded nowhere else: that read asks still.
    assert.deepEqual(ids(added), ['signal:src/respond.ts:6:optional-access']);
    // The guard only another function makes (line 9, module level) is no precedent.
    const elsewhere = head.replace('    const isOptionalOut = schema?._zod?.optout === "optional";', '    const isOptionalOut = false;');
    assert.deepEqual(ids({ ...added, headText: elsewhere }), [
      'signal:src/respond.ts:4:optional-access',
      'signal:src/respond.ts:6:optional-access',
    ]);
  });
});

describe('buildAnalysisSubjects', () => {
  const subjects = buildAnalysisSubjects(buildFactsInput([moneyChange, readmeChange, utilComment]));

  it('fills every catalogue fact of every subject', () => {
    const problems = subjects.flatMap((subject) =>
      findFactProblems(subject.subject, subject.facts).map((problem) => `${subject.id}: ${problem}`),
    );
    assert.deepEqual(problems, []);
  });

  it('yields the exact subject list', () => {
    assert.deepEqual(
      subjects.filter((subject) => subject.subject !== 'edge-kind').map((subject) => `${subject.subject} ${subject.id}`),
      [
        'changed-file file:README.md',
        'changed-file file:src/money.ts',
        'changed-file file:src/util.ts',
        'change change',
        'changed-export export:src/money.ts#roundCents',
        'test-case test:src/money.test.ts#money > rounds',
        'test-file file:src/money.test.ts',
        'route route:POST /orders/:id',
        'repository repository',
        'changed-line line:src/money.ts:3',
        'changed-semantic semantic:src/money.ts:3:arithmetic',
        'changed-signal signal:src/money.ts:3:money',
      ],
    );
    assert.equal(subjects.filter((subject) => subject.subject === 'edge-kind').length, 14);
  });

  // TanStack Query: `: T extends { queryFnData: infer TQueryFnData; error?: infer TError }` in a type alias of a runtime
  // file asked "an input for which … is true".
  it('a decision on a type-only line (a conditional type) is no changed-semantic subject; the same line as code is', () => {
    const base = 'export type Of<T> = T extends string\n  ? A\n  : B;\nexport const f = (x) => x;\n';
    const head = 'export type Of<T> = T extends string\n  ? A\n  : T extends { data: infer D } ? D : B;\nexport const f = (x) => x;\n';
    const { headFunctions: _functions, baseFunctions: _base, headSignals: _signals, ...money } = moneyChange;
    const typed: ChangedFileInput = {
      ...money,
      path: 'src/types.ts',
      baseText: base,
      headText: head,
      changedExports: [],
      headTypeSpans: [{ start: 1, end: 3 }],
    };
    const semantic = (input: ChangedFileInput) =>
      buildAnalysisSubjects(buildFactsInput([input]))
        .filter((subject) => subject.subject === 'changed-semantic')
        .map((subject) => subject.id);
    assert.deepEqual(semantic(typed), []);
    const { headTypeSpans: _spans, ...untyped } = typed;
    assert.deepEqual(semantic(untyped), ['semantic:src/types.ts:3:condition']);
  });

  it('derives the changed-file facts of a source change', () => {
    assert.deepEqual(findSubject(subjects, 'changed-file', 'file:src/money.ts').facts, {
      path: 'src/money.ts',
      previousPath: 'src/money.ts',
      status: 'modified',
      changedHunks: 'line 3',
      changeKind: 'runtime',
      role: 'source',
      language: 'ts',
      extension: '.ts',
      additions: 1,
      deletions: 1,
      hunkCount: 1,
      isBinary: false,
      changedExportCount: 1,
      fanIn: 2,
      reachedFiles: 2,
      reachedRoutes: 1,
      reachedRoutesLabel: '1 route',
      reachingTests: 1,
      reachingTestsLabel: '1 test file',
      isAuthPath: false,
      isPaymentPath: true,
      isMigration: false,
      isConfig: false,
      isManifest: false,
      manifestChanges: [],
      manifestChangeCount: 0,
      isTest: false,
      isDocOnly: false,
      isGenerated: false,
      commentOnly: false,
      proofState: 'mocked-boundary',
      owners: ['@a', '@b', '@c'],
      ownerCount: 3,
      churn: 3,
      authorCount: 2,
      complexityDelta: 2,
      signals: ['money'],
      changedLines: 2,
      formattingOnly: false,
      lowSignal: false,
      lowSignalReason: '',
      invariantsTouched: 1,
      regressionsTouched: 1,
      testsUpdated: false,
      testsStale: true,
      proofReason: 'the only test mocks it',
      proofTask: 'Add a test in src/money.test.ts that imports the real src/money.ts.',
      // No mined history window was given: the history facts are empty.
      missedPartners: [],
      missedPartnerCount: 0,
      missedPartnerEvidence: '',
      fixCount: 0,
      fixScore: 0,
      fixRatio: 0,
      fixCommits: [],
      fixEvidence: '',
      isHotspot: false,
      hotspotScore: 0,
      hotspotEvidence: '',
    });
  });

  it('marks docs and comment-only changes low-signal', () => {
    const readme = findSubject(subjects, 'changed-file', 'file:README.md').facts;
    assert.deepEqual(
      [readme.isDocOnly, readme.lowSignal, readme.commentOnly, readme.lowSignalReason],
      [true, true, false, 'documentation'],
    );
    const util = findSubject(subjects, 'changed-file', 'file:src/util.ts').facts;
    assert.deepEqual(
      [util.isDocOnly, util.commentOnly, util.formattingOnly, util.lowSignal, util.lowSignalReason],
      [false, true, false, true, 'comments or formatting'],
    );
  });

  it('derives export, test-case, route, change and repository facts', () => {
    assert.deepEqual(findSubject(subjects, 'changed-export', 'export:src/money.ts#roundCents').facts, {
      path: 'src/money.ts',
      name: 'roundCents',
      exportKind: 'function',
      change: 'modified',
      typeOnly: false,
      isDefault: false,
      importerCount: 2,
      reachedFiles: 2,
      reachedRoutes: 1,
      reachingTests: 1,
      lineCount: 4,
      complexityDelta: 2,
      proofState: 'mocked-boundary',
      signals: ['money'],
    });
    const testCase = findSubject(subjects, 'test-case', 'test:src/money.test.ts#money > rounds').facts;
    assert.deepEqual(
      [testCase.modifiers, testCase.mocksUnitUnderTest, testCase.coversChangedFile, testCase.mockCount],
      [['skip'], true, true, 1],
    );
    const route = findSubject(subjects, 'route', 'route:POST /orders/:id').facts;
    assert.deepEqual(route, {
      method: 'POST',
      path: '/orders/:id',
      framework: 'express',
      kind: 'api',
      file: 'src/routes/orders.ts',
      middleware: ['requireAuth'],
      hasAuthMiddleware: true,
      authMiddleware: ['requireAuth'],
      authEvidence: 'responds 401 in requireAuth (src/routes/orders.ts)',
      hasNameOnlyAuth: false,
      nameOnlyAuth: [],
      hasRateLimit: false,
      hasValidation: false,
      isMutation: true,
      params: ['id'],
      paramCount: 1,
      request: 'a POST request',
      changed: true,
      reachingTests: 0,
      handlerWrites: false,
      handlerWrite: '',
      handlerCreates: false,
      handlerCreate: '',
      readsBody: false,
      bodyRead: '',
      // Reached through middleware priceCheck, which is not its guard: the chain changed, its handler and guard did not.
      chainChanged: true,
      handlerChanged: false,
      registrationChanged: false,
      guardChanged: false,
      // priceCheck is the middleware of this route alone: a test of the route is still what proves it.
      viaSharedMiddleware: false,
      viaSharedCode: false,
    });
    assert.deepEqual(findSubject(subjects, 'change', 'change').facts, {
      fileCount: 3,
      signalFileCount: 1,
      changedLines: 2,
      owners: ['@a', '@b', '@c'],
      ownerCount: 3,
      areaCount: 1,
      impactedFiles: 1,
      impactedRoutes: 1,
      lowSignal: false,
    });
    const repository = findSubject(subjects, 'repository', 'repository').facts;
    assert.deepEqual(
      [
        repository.testRunner,
        repository.packageManager,
        repository.hasTypeScript,
        repository.hasLockfile,
        repository.dependencies,
        repository.frameworks,
        repository.parserSignalCount,
      ],
      ['vitest', 'npm', true, true, ['express', 'vitest'], ['express'], 2],
    );
  });
});

describe('how a change reaches a route (route-edge-cases 3.2.0)', () => {
  const withSteps = (steps: string[]) => {
    const input = buildFactsInput([moneyChange]);
    const [route] = input.impactedRoutes;
    assert.ok(route);
    input.impactedRoutes = [{ ...route, steps }];
    return findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts;
  };
  const head = 'handler POST /orders/:id (src/routes/orders.ts:3)';

  it('through its guard: the guard changed, the handler did not', () => {
    const facts = withSteps([head, 'middleware requireAuth (src/routes/orders.ts:5)', 'changed toCents (src/money.ts:1)']);
    assert.deepEqual([facts.chainChanged, facts.handlerChanged, facts.guardChanged, facts.viaSharedMiddleware], [true, false, true, false]);
  });

  it('through a changed line of its handler: the handler changed', () => {
    const facts = withSteps([head, 'changed line 3 of the handler (src/routes/orders.ts)']);
    assert.deepEqual([facts.chainChanged, facts.handlerChanged, facts.guardChanged, facts.viaSharedMiddleware], [true, true, false, false]);
  });

  it('through a middleware another reached route runs too: shared', () => {
    const input = buildFactsInput([moneyChange]);
    const [route] = input.impactedRoutes;
    assert.ok(route);
    const steps = [head, 'middleware priceCheck (src/routes/orders.ts:2)', 'changed toCents (src/money.ts:1)'];
    input.impactedRoutes = [route, { ...route, id: 'route:DELETE /orders/:id', method: 'DELETE', steps }];
    const facts = findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts;
    assert.deepEqual([facts.handlerChanged, facts.viaSharedMiddleware], [false, true]);
  });

  it('an e2e test that sends the request reaches the export the route reaches, though it imports nothing of it', () => {
    const graph = buildInput();
    graph.files.push({
      path: 'test/orders.e2e.test.ts',
      size: 100,
      hash: 'h9',
      facts: makeFacts({
        tests: [
          {
            kind: 'test',
            titlePath: ['orders'],
            span: { start: 1, end: 3 },
            modifiers: [],
            assertions: 1,
            trivialAssertions: 0,
            snapshotAssertions: 0,
            unawaitedAssertions: 0,
            swallowedErrors: 0,
            isAsync: true,
          },
        ],
        httpCalls: [{ method: 'POST', path: '/orders/1', client: 'supertest', line: 2 }],
      }),
    });
    const exportFacts = (steps: string[]) => {
      const input = { ...buildFactsInput([moneyChange]), kg: buildKnowledgeGraph(graph) };
      const [route] = input.impactedRoutes;
      assert.ok(route);
      input.impactedRoutes = [{ ...route, steps }];
      return findSubject(buildAnalysisSubjects(input), 'changed-export', 'export:src/money.ts#roundCents').facts;
    };
    // money.test.ts imports it; the e2e test sends POST /orders/1, whose handler calls roundCents.
    assert.equal(exportFacts([head, 'calls roundCents (src/routes/orders.ts:3)', 'changed roundCents (src/money.ts:1)']).reachingTests, 2);
    // A route the change reaches through another callable says nothing of this export.
    assert.equal(exportFacts([head, 'changed toCents (src/money.ts:9)']).reachingTests, 1);
  });

  it('a test that runs a file using the export (a setup file, a spawned program) reaches the export; one that runs another does not', () => {
    const exportFacts = (via: string[]) => {
      const input = buildFactsInput([moneyChange]);
      const own = input.reachingTestsByPath.get('src/money.ts') ?? [];
      input.reachingTestsByPath = new Map([
        ['src/money.ts', [...own, { testFile: 'spec/orders.spec.js', distance: 2, via, mocksChangedModule: false }]],
      ]);
      return findSubject(buildAnalysisSubjects(input), 'changed-export', 'export:src/money.ts#roundCents').facts;
    };
    // src/routes/orders.ts imports roundCents: a spec its runner loads it for runs roundCents.
    assert.equal(exportFacts(['src/money.ts', 'src/routes/orders.ts']).reachingTests, 2);
    assert.equal(exportFacts(['src/money.ts', 'src/util.ts']).reachingTests, 1);
  });

  it('a default export of a binding also exported by name is used by what uses the name (parse-server)', () => {
    const aliased: ChangedFileInput = {
      ...moneyChange,
      changedExports: [
        ...moneyChange.changedExports,
        { path: 'src/money.ts', name: 'default', change: 'modified', span: { start: 1, end: 4 } },
      ],
    };
    const subjects = buildAnalysisSubjects(buildFactsInput([aliased]));
    const named = findSubject(subjects, 'changed-export', 'export:src/money.ts#roundCents').facts;
    const byDefault = findSubject(subjects, 'changed-export', 'export:src/money.ts#default').facts;
    assert.deepEqual([byDefault.importerCount, byDefault.reachingTests], [named.importerCount, named.reachingTests]);
    assert.equal(byDefault.reachingTests, 1);
  });

  it('through code its guard calls further down than a helper: the guard did not change (outline: auth → … → BaseStorage)', () => {
    const deep = withSteps([
      head,
      'middleware requireAuth (src/routes/orders.ts:5)',
      'calls loadUser (src/auth.ts)',
      'calls avatarOf (src/users.ts)',
      'changed toCents (src/money.ts:1)',
    ]);
    assert.deepEqual([deep.chainChanged, deep.guardChanged], [false, false]);
    // A helper the guard calls directly is the guard's own code (an auth helper); `calls requireAuth` is the guard's own
    // function (a factory's), not a step further down.
    const near = withSteps([
      head,
      'middleware requireAuth (src/routes/orders.ts:5)',
      'calls requireAuth (src/auth.ts)',
      'calls loadUser (src/auth.ts)',
      'changed toCents (src/money.ts:1)',
    ]);
    assert.deepEqual([near.chainChanged, near.guardChanged], [true, true]);
  });

  it("a helper the guard calls that most reached routes' handlers reach too is shared code, not the guard (outline's parseDomain)", () => {
    const input = buildFactsInput([moneyChange]);
    const [route] = input.impactedRoutes;
    assert.ok(route);
    const guarded = [
      head,
      'middleware requireAuth (src/routes/orders.ts:5)',
      'calls requireAuth (src/auth.ts)',
      'changed toCents (src/money.ts:1)',
    ];
    const deep = [head, 'calls priceOf (src/routes/orders.ts:9)', 'changed toCents (src/money.ts:1)'];
    const others = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        ...route,
        id: `route:GET /prices/${index}`,
        method: 'GET',
        path: `/prices/${index}`,
        steps: deep,
      }));
    const guardChanged = (count: number) => {
      input.impactedRoutes = [{ ...route, steps: guarded }, ...others(count)];
      return findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts.guardChanged;
    };
    assert.equal(guardChanged(3), true);
    assert.equal(guardChanged(4), false);
    // The guard itself changed: its own case, however many routes reach it.
    input.impactedRoutes = [
      { ...route, steps: [head, 'middleware requireAuth (src/routes/orders.ts:5)', 'changed requireAuth (src/auth.ts:1)'] },
      ...others(4),
    ];
    assert.equal(findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts.guardChanged, true);
  });

  it('a function an inline handler calls is not the handler itself', () => {
    const input = buildFactsInput([moneyChange]);
    const [route] = input.impactedRoutes;
    assert.ok(route);
    input.impactedRoutes = [{ ...route, steps: [head, 'changed toCents (src/money.ts:1)'] }];
    const node = input.kg.graph.getNodeAttributes('route:POST /orders/:id');
    assert.equal(node.kind, 'route');
    const link = (name: string) => ({
      role: 'handler' as const,
      name,
      file: 'src/routes/orders.ts',
      span: { start: 3, end: 9 },
      targets: ['src/money.ts#toCents'],
      dynamic: false,
    });
    const registration = { file: 'src/routes/orders.ts', line: 3, span: { start: 3, end: 9 }, mounts: [] };
    const handlerChanged = (name: string) => {
      if (node.kind === 'route') node.registrations = [{ ...registration, chain: [link(name)] }];
      return findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts.handlerChanged;
    };
    // `router.post('/orders/:id', toCents)`: the changed function is the handler.
    assert.equal(handlerChanged('toCents'), true);
    // `router.post('/orders/:id', async (req) => { … toCents(…) … })`: code the handler calls.
    assert.equal(handlerChanged(INLINE_LINK_NAME), false);
  });

  it('through a function the handlers of more than three reached routes call: shared code', () => {
    const sharedBy = (count: number) => {
      const input = buildFactsInput([moneyChange]);
      const [route] = input.impactedRoutes;
      assert.ok(route);
      const steps = [head, 'calls priceOf (src/routes/orders.ts:9)', 'changed toCents (src/money.ts:1)'];
      input.impactedRoutes = Array.from({ length: count }, (_, index) =>
        index === 0 ? { ...route, steps } : { ...route, id: `route:GET /prices/${index}`, method: 'GET', path: `/prices/${index}`, steps },
      );
      return findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts.viaSharedCode;
    };
    assert.equal(sharedBy(3), false);
    assert.equal(sharedBy(4), true);
    // A route reached through a middleware of its own, three calls further down, reaches the same helper.
    const input = buildFactsInput([moneyChange]);
    const [route] = input.impactedRoutes;
    assert.ok(route);
    const deep = [head, 'calls priceOf (src/routes/orders.ts:9)', 'changed toCents (src/money.ts:1)'];
    const guarded = [
      head,
      'middleware audit (src/routes/orders.ts:2)',
      'calls logOrder (src/log.ts)',
      'calls priceOf (src/price.ts)',
      'changed toCents (src/money.ts:1)',
    ];
    input.impactedRoutes = [
      { ...route, steps: guarded },
      ...[1, 2, 3].map((index) => ({ ...route, id: `route:GET /prices/${index}`, method: 'GET', path: `/prices/${index}`, steps: deep })),
    ];
    const facts = findSubject(buildAnalysisSubjects(input), 'route', 'route:POST /orders/:id').facts;
    assert.deepEqual([facts.viaSharedMiddleware, facts.viaSharedCode], [false, true]);
  });

  it('only through code the handler calls: none of them', () => {
    const facts = withSteps([head, 'calls priceOf (src/routes/orders.ts:9)', 'changed toCents (src/money.ts:1)']);
    assert.deepEqual(
      [facts.chainChanged, facts.handlerChanged, facts.guardChanged, facts.viaSharedMiddleware, facts.viaSharedCode],
      [false, false, false, false, false],
    );
  });
});

describe('analysis through the built-in packs', () => {
  it('turns the fixture change into exact findings, scores and shapes', async () => {
    const packs = (await loadBuiltinPacks()).map((loaded) => compilePack(loaded.pack));
    const subjects = buildAnalysisSubjects(buildFactsInput([moneyChange, readmeChange, utilComment]));
    const findings = await evaluateAnalysis(packs, subjects);
    const risk = scoreMergeRisk(toRiskContributors(findings));
    assert.deepEqual(
      risk.breakdown.map((contributor) => [contributor.contributor, contributor.weight]),
      [
        ['risk/payment-path', 8],
        ['risk/invariants-touched', 6],
        ['risk/missing-proof', 6],
        ['risk/regressions-touched', 6],
        ['risk/route-touched', 5],
        ['risk/owners-spread', 3],
        ['risk/change-owners-spread', 4],
        ['risk/low-signal-change', 0],
      ].sort((a, b) => Number(b[1]) - Number(a[1]) || String(a[0]).localeCompare(String(b[0]))),
    );
    assert.deepEqual(risk.breakdown.find((entry) => entry.contributor === 'risk/low-signal-change')?.evidenceIds, [
      'file:README.md',
      'file:src/util.ts',
    ]);
    assert.deepEqual({ score: risk.score, level: risk.level }, { score: 78, level: 'critical' });
    assert.deepEqual(
      toWeakTests(findings, subjects).map((test) => [test.id, test.kinds, test.reachesChange]),
      [['test:src/money.test.ts#money > rounds', ['weak-test/skipped'], true]],
    );
    assert.deepEqual(
      toMissingTests(findings, subjects).map((missing) => [missing.id, missing.subject, missing.name]),
      [['route:POST /orders/:id', 'route', 'POST /orders/:id']],
    );
    assert.deepEqual(
      toPatternMatches(findings, subjects).map((match) => [match.path, match.line, match.provenance]),
      [['src/money.ts', 3, 'patterns@1.0.0#pattern/console-log']],
    );
    const ranked = rankEdgeCases(toEdgeCases(findings, subjects));
    assert.deepEqual(
      ranked.top.map((edge) => [edge.provenance, edge.score]),
      [
        // Math.round(x) → Math.round(x * 100) / 100: the changed rounding ranks above every generic case.
        ['semantic-edge-cases@1.41.0#edge-case/changed-arithmetic', 12],
        // No route case: the change reaches the route through middleware priceCheck, neither its handler nor its
        // guard, so how it reads its parameters, its body and its credentials did not change.
        ['edge-cases@1.9.0#edge-case/money-rounding', 7.5],
        // Equal scores keep the finding-id order (the id hash decides; see getFindingId).
        ['edge-cases@1.9.0#edge-case/money-negative-currency', 4.5],
      ],
    );
    assert.deepEqual(ranked.overflow, []);
    assert.deepEqual(
      toToolRecommendations(findings).map((tool) => tool.tool),
      ['@vitest/coverage-v8', 'ESLint'],
    );
  });

  it('scores a docs-only change and a comment-only change low, explained by risk/low-signal-change', async () => {
    const packs = (await loadBuiltinPacks()).map((loaded) => compilePack(loaded.pack));
    for (const change of [readmeChange, utilComment]) {
      const subjects = buildAnalysisSubjects({ ...buildFactsInput([change]), impacted: [], impactedRoutes: [] });
      const risk = scoreMergeRisk(toRiskContributors(await evaluateAnalysis(packs, subjects)));
      assert.deepEqual(
        { score: risk.score, level: risk.level, contributors: risk.breakdown.map((entry) => entry.contributor) },
        { score: 0, level: 'low', contributors: ['risk/low-signal-change'] },
        change.path,
      );
    }
  });
});

describe('fact helpers', () => {
  it('tells formatting-only from comment-only from real changes', () => {
    const c = getCommentSyntax('ts', 'a.ts');
    assert.deepEqual(classifyTextChange('const a = 1;\n', 'const  a=1;\n\n', c), { formattingOnly: true, commentOnly: false });
    assert.deepEqual(classifyTextChange('const a = 1;\n', '/* why */\nconst a = 1; // note\n', c), {
      formattingOnly: false,
      commentOnly: true,
    });
    assert.deepEqual(classifyTextChange('const a = "x y";\n', 'const a = "xy";\n', c), { formattingOnly: false, commentOnly: false });
    assert.deepEqual(classifyTextChange('const a = 1;\n', 'const a = 2; // note\n', c), { formattingOnly: false, commentOnly: false });
    assert.deepEqual(classifyTextChange('const u = "http://x";\n', 'const u = "http://y";\n', c), {
      formattingOnly: false,
      commentOnly: false,
    });
    assert.deepEqual(classifyTextChange('const r = /a\\/\\/b/;\n', 'const r = /a\\/\\/c/;\n', c), {
      formattingOnly: false,
      commentOnly: false,
    });
    assert.deepEqual(classifyTextChange('return a\nb\n', 'return a b\n', c), { formattingOnly: true, commentOnly: false });
    assert.deepEqual(classifyTextChange('key: 1\n', 'key: 1 # why\n', getCommentSyntax('yaml', 'a.yml')), {
      formattingOnly: false,
      commentOnly: true,
    });
    assert.deepEqual(classifyTextChange(undefined, 'x', c), { formattingOnly: false, commentOnly: false });
  });

  it('computes complexity growth over the functions the change touches', () => {
    assert.equal(deriveComplexityDelta(moneyChange), 2);
    assert.equal(deriveComplexityDelta({ ...moneyChange, hunks: [{ oldStart: 9, oldLines: 1, newStart: 9, newLines: 1 }] }), 0);
    assert.equal(deriveComplexityDelta({ ...moneyChange, status: 'added' }), 4);
    assert.equal(deriveComplexityDelta({ ...moneyChange, status: 'deleted' }), -2);
  });

  it('builds changed-line and signal subjects', () => {
    assert.deepEqual(deriveChangedLineSubjects('src/a.ts', 'one\n\nthree\n', [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 3 }]), [
      {
        subject: 'changed-line',
        id: 'line:src/a.ts:1',
        facts: { path: 'src/a.ts', line: 1, text: 'one', fileRole: 'source', language: 'ts', extension: '.ts' },
      },
      {
        subject: 'changed-line',
        id: 'line:src/a.ts:3',
        facts: { path: 'src/a.ts', line: 3, text: 'three', fileRole: 'source', language: 'ts', extension: '.ts' },
      },
    ]);
    const signals = deriveSignalSubjects(
      {
        path: 'src/a.ts',
        role: 'source',
        signals: [{ kind: 'parse-json', line: 5, detail: 'JSON.parse' }],
        functions: [{ name: 'load', span: { start: 4, end: 6 }, complexity: 1, isAsync: true, params: 0 }],
        routeMethods: ['POST', 'GET'],
      },
      [5],
    );
    assert.deepEqual(signals, [
      {
        subject: 'changed-signal',
        id: 'signal:src/a.ts:5:parse-json',
        facts: {
          path: 'src/a.ts',
          line: 5,
          signalKind: 'parse-json',
          detail: 'JSON.parse',
          inChangedLines: true,
          fileRole: 'source',
          functionName: 'load',
          isAsyncFunction: true,
          routeMethods: ['GET', 'POST'],
          isRouteFile: true,
          authCheck: '',
          envChecked: false,
          dateFormatter: false,
          writesBefore: false,
          functionWrites: false,
        },
      },
    ]);
    // A write earlier in the function leaves work half-done when the await after it rejects; one in another function
    // (line 2) or after the await (line 9) does not, though the latter still makes the function one that writes.
    const awaitAt7 = { kind: 'async-failure', line: 7, detail: 'await outside try' } as const;
    const writeFacts = (writes: { line: number; detail: string }[]) =>
      deriveSignalSubjects(
        {
          path: 'src/a.ts',
          role: 'source',
          signals: [awaitAt7],
          allSignals: [awaitAt7, ...writes.map((write) => ({ kind: 'write' as const, ...write }))],
          functions: [{ name: 'place', span: { start: 4, end: 10 }, complexity: 1, isAsync: true, params: 0 }],
        },
        [7],
      ).map((subject) => [subject.facts.writesBefore, subject.facts.functionWrites]);
    assert.deepEqual(
      writeFacts([
        { line: 2, detail: 'db.insert' },
        { line: 9, detail: 'order.save' },
      ]),
      [[false, true]],
    );
    assert.deepEqual(writeFacts([{ line: 5, detail: 'order.save' }]), [[true, true]]);
    assert.deepEqual(getRouteParams('/a/:id/{slug}/[...rest]'), ['id', 'slug', 'rest']);
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findCoChangePartners, findMissedPartners } from '../../src/graph/history/co-change.js';
import { classifyFixCommit } from '../../src/graph/history/commits.js';
import {
  boundScriptComplexity,
  isHotspot,
  listHotspotCandidates,
  planComplexityReads,
  rankHotspots,
} from '../../src/graph/history/hotspots.js';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { keepJudgedInsights } from '../../src/graph/history/insights.js';
import type { MinedCommit } from '../../src/model/history.js';
import { historyInsights } from '../helpers/history-insights.js';

describe('classifyFixCommit', () => {
  const cases: [string, 'fix' | 'revert' | undefined][] = [
    ['fix: round totals', 'fix'],
    ['fix(cart)!: drop the old rounding', 'fix'],
    ['Fixes a crash on empty carts', 'fix'],
    ['hotfix: release 1.2.1', 'fix'],
    ['bugfix: null header', 'fix'],
    ['Bug fix for the login form', 'fix'],
    ['cart: handle empty carts\n\nCloses #12', 'fix'],
    ['Resolve org/repo#7 by checking the header', 'fix'],
    ['router: guard params (fixes PROJ-481)', 'fix'],
    ['Revert "feat: discount"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.', 'revert'],
    ['revert: the discount', 'revert'],
    ['undo discount\n\nThis reverts commit 0123456.', 'revert'],
    ['feat: add a prefix option', undefined],
    ['docs: fix typo', undefined],
    ['fixed typo in history.md (#7191)', undefined],
    ['fix(docs): clarify the guidelines', undefined],
    ['Fix README links', undefined],
    ['fix(ci): pin the node version', undefined],
    ['prefix the fixture names', undefined],
    ['Closes the connection after a timeout', undefined],
  ];
  for (const [message, expected] of cases) {
    test(`${JSON.stringify(message.split('\n')[0])} → ${String(expected)}`, () => {
      assert.equal(classifyFixCommit(message), expected);
    });
  }
});

const commit = (oid: string, paths: string[], message = 'change'): MinedCommit => ({
  oid: oid.padEnd(40, '0'),
  timestamp: 0,
  authorEmail: 'a@example.test',
  message,
  paths,
});

describe('co-change partners', () => {
  const commits = [
    commit('a1', ['api.ts', 'api.test.ts', 'shared.ts']),
    commit('a2', ['api.ts', 'api.test.ts', 'shared.ts']),
    commit('a3', ['api.ts', 'api.test.ts', 'shared.ts']),
    commit('a4', ['api.ts', 'api.test.ts', 'shared.ts']),
    commit('a5', ['api.ts', 'shared.ts']),
    commit('b1', ['ui.ts', 'shared.ts']),
    commit('b2', ['ui.ts', 'shared.ts']),
    commit('b3', ['ui.ts', 'shared.ts']),
  ];

  test('support, confidence and lift; a file in every commit has no lift and is no partner', () => {
    const partners = findCoChangePartners({ commits }, ['api.ts']).get('api.ts') ?? [];
    assert.deepEqual(
      partners.map(({ partner, support, pathCommits, confidence, lift }) => ({ partner, support, pathCommits, confidence, lift })),
      [{ partner: 'api.test.ts', support: 4, pathCommits: 5, confidence: 0.8, lift: 1.6 }],
    );
    assert.deepEqual(
      partners[0]?.commits.map((entry) => entry.oid),
      ['a100000000', 'a200000000', 'a300000000', 'a400000000'],
    );
  });

  test('cosmetic sweeps (lint, format, typo, style) do not couple the files they touch', () => {
    const sweeps = [
      commit('s1', ['api.ts', 'ui.ts'], 'chore: enforce lint rules'),
      commit('s2', ['api.ts', 'ui.ts'], 'test: fix typos in descriptions'),
      commit('s3', ['api.ts', 'ui.ts'], 'style: reformat'),
      commit('s4', ['api.ts', 'ui.ts'], 'Run prettier'),
      commit('x1', ['other.ts']),
      commit('x2', ['other.ts']),
      commit('x3', ['other.ts']),
    ];
    assert.equal(findCoChangePartners({ commits: sweeps }, ['api.ts']).size, 0);
    const coupled = sweeps.map((entry) => (entry.message === 'change' ? entry : { ...entry, message: 'feat: change both' }));
    assert.deepEqual(
      findCoChangePartners({ commits: coupled }, ['api.ts'])
        .get('api.ts')
        ?.map((entry) => entry.partner),
      ['ui.ts'],
    );
  });

  test('a commit of more than eight files couples none of them', () => {
    const wide = (oid: string): MinedCommit =>
      commit(oid, ['api.ts', 'ui.ts', ...Array.from({ length: 7 }, (_, index) => `feature/part${index}.ts`)], 'feat: a wide feature');
    const narrow = (oid: string): MinedCommit => commit(oid, ['api.ts', 'ui.ts', 'feature/part0.ts'], 'fix: both sides');
    const others = ['x1', 'x2', 'x3', 'x4'].map((oid) => commit(oid, ['other.ts']));
    // Four nine-file features and one two-file change: no coupling.
    assert.equal(findCoChangePartners({ commits: [...['w1', 'w2', 'w3', 'w4'].map(wide), narrow('n1'), ...others] }, ['api.ts']).size, 0);
    // Four commits of three files do couple them.
    assert.deepEqual(
      findCoChangePartners({ commits: [...['n1', 'n2', 'n3', 'n4'].map(narrow), ...others] }, ['api.ts'])
        .get('api.ts')
        ?.map((entry) => entry.partner),
      ['feature/part0.ts', 'ui.ts'],
    );
  });

  test('below four shared commits or 70% confidence nothing is reported', () => {
    assert.equal(findCoChangePartners({ commits }, ['ui.ts']).size, 0);
    assert.equal(findCoChangePartners({ commits: commits.slice(0, 2) }, ['api.ts']).size, 0);
  });

  test('a missed partner is one the change did not touch and that still exists', () => {
    assert.deepEqual(
      findMissedPartners({ commits }, ['api.ts'], () => true).map((entry) => entry.partner),
      ['api.test.ts'],
    );
    assert.deepEqual(
      findMissedPartners({ commits }, ['api.ts', 'api.test.ts'], () => true),
      [],
    );
    assert.deepEqual(
      findMissedPartners({ commits }, ['api.ts'], (path) => path !== 'api.test.ts'),
      [],
    );
  });
});

describe('hotspots', () => {
  test('churn × complexity, ranked; only the top tenth with a score of 20 or more and 3 or more commits is a hotspot', () => {
    const commits = [
      ...Array.from({ length: 5 }, (_, index) => commit(`c${index}`, ['big.ts'])),
      commit('d1', ['small.ts', 'big.ts', 'types.ts']),
      commit('d2', ['config.json', 'gone.ts']),
    ];
    // The field: the code files at HEAD; types.ts has no function and still counts, config.json and gone.ts do not.
    const isRanked = (path: string): boolean => ['big.ts', 'small.ts', 'types.ts'].includes(path);
    const ranked = rankHotspots({ commits }, isRanked, (path) => ({ 'big.ts': 9, 'small.ts': 30, 'types.ts': 0 })[path]);
    assert.deepEqual(ranked, [
      { path: 'big.ts', churn: 6, complexity: 9, score: 54, rank: 1, rankedFiles: 3 },
      { path: 'small.ts', churn: 1, complexity: 30, score: 30, rank: 2, rankedFiles: 3 },
    ]);
    assert.deepEqual(
      ranked.map((entry) => isHotspot(entry)),
      [true, false],
    );
    assert.equal(isHotspot({ path: 'x.ts', churn: 2, complexity: 5, score: 10, rank: 1, rankedFiles: 1 }), false);
    // A complex file committed twice (an import and one edit) is not churning.
    assert.equal(isHotspot({ path: 'y.ts', churn: 2, complexity: 40, score: 80, rank: 1, rankedFiles: 1 }), false);
    assert.equal(isHotspot({ path: 'y.ts', churn: 3, complexity: 40, score: 120, rank: 1, rankedFiles: 1 }), true);
  });

  test("only the files whose bound could reach the lowest candidate score are read, and the rank is the full ranking's", () => {
    const commits = [
      ...Array.from({ length: 4 }, (_, index) => commit(`h${index}`, ['hub.ts', 'busy.ts'])),
      commit('o1', ['rare.ts', 'tie.ts', 'py.py']),
      commit('o2', ['tie.ts', 'small.ts']),
      commit('o3', ['tie.ts']),
    ];
    const exact: Record<string, number> = { 'hub.ts': 10, 'busy.ts': 12, 'rare.ts': 30, 'tie.ts': 13, 'small.ts': 1, 'py.py': 41 };
    const bounds: Record<string, number> = { 'busy.ts': 15, 'rare.ts': 35, 'tie.ts': 14, 'small.ts': 5, 'py.py': Number.POSITIVE_INFINITY };
    const isRanked = (path: string): boolean => path in exact;
    const known = new Set(['hub.ts']);
    const complexity = (path: string): number | undefined => (known.has(path) ? exact[path] : undefined);
    const candidates = listHotspotCandidates({ commits }, ['hub.ts', 'rare.ts', 'config.json'], isRanked);
    assert.deepEqual(candidates, ['hub.ts']);
    // hub.ts scores 4 × 10 = 40: busy.ts (4 × 15), tie.ts (3 × 14) and py.py (no bound) could reach it; rare.ts
    // (1 × 35) and small.ts (1 × 5) cannot.
    const bound = (path: string): number => bounds[path] ?? 0;
    const wanted = planComplexityReads({ commits }, candidates, { isRanked, complexity, bound });
    assert.deepEqual(wanted.sort(), ['busy.ts', 'py.py', 'tie.ts']);
    for (const path of wanted) known.add(path);
    const read = rankHotspots({ commits }, isRanked, complexity).find((entry) => entry.path === 'hub.ts');
    const full = rankHotspots({ commits }, isRanked, (path) => exact[path]).find((entry) => entry.path === 'hub.ts');
    // busy.ts (48) and py.py (41) outrank it, tie.ts (39) does not: rank 3 of the 6 code files, read in full or not.
    assert.deepEqual(read, { path: 'hub.ts', churn: 4, complexity: 10, score: 40, rank: 3, rankedFiles: 6 });
    assert.deepEqual(read, full);
    // No candidate scores 20: nothing is read.
    const low = (path: string): number | undefined => (path === 'small.ts' ? 1 : undefined);
    assert.deepEqual(planComplexityReads({ commits }, ['small.ts'], { isRanked, complexity: low, bound: () => 1e9 }), []);
  });

  test("the bound counts every function and decision the parser counts, on this repository's own sources", () => {
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.tsx?$/.test(path))
      .sort()
      .filter((_path, index) => index % 7 === 0);
    assert.ok(sources.length > 50, `${sources.length} sources`);
    const snippets: [string, string][] = [
      [
        'overloads.ts',
        'export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: any) { return a ?? 1; }\nabstract class A { abstract m(): void; n() { return this?.m(); } }\n',
      ],
      [
        'switch.js',
        'const g = (x) => { switch (x) { case 1: return x && 2; case 2: return x || 3; default: return x ? 4 : 5 } };\nlet h; h ??= () => { try { h(); } catch { for (;;) while (h) do {} while (h); } };\n',
      ],
      [
        'view.tsx',
        'export const V = ({ a }) => <div>{a && <b onClick={() => a?.b}>{a.c ? 1 : 2}</b>}</div>;\nconst o = { m() { if (1) {} }, get p() { return 1; }, q: function () {} };\n',
      ],
      ['class.ts', 'class C { #p = () => 1; constructor(private x = 1) {} static s() {} set v(x) { if (x) this.x = x; } }\n'],
    ];
    const texts: [string, string][] = [
      ...snippets,
      ...sources.map((path): [string, string] => [path, readFileSync(join('src', path), 'utf8')]),
    ];
    for (const [path, text] of texts) {
      const facts = extractFacts(path, text, { assertionHelpers: [] });
      const complexity = facts.functions.reduce((total, fn) => total + fn.complexity, 0);
      assert.ok(boundScriptComplexity(text) >= complexity, `${path}: bound ${boundScriptComplexity(text)} < complexity ${complexity}`);
      if (snippets.some(([name]) => name === path)) assert.ok(complexity > 0, `${path} has functions`);
    }
  });
});

describe('keepJudgedInsights', () => {
  test('drops the partners of a changed doc and the fix records of anything but source; keeps a doc partner of code', () => {
    const cited = [{ oid: 'a'.repeat(40), subject: 'x' }];
    const partner = (path: string, other: string) => ({
      path,
      partner: other,
      support: 5,
      pathCommits: 6,
      confidence: 0.83,
      lift: 2,
      commits: cited,
    });
    const fixes = (path: string) => ({ path, fixes: 3, commits: 6, fixScore: 3, fixRatio: 50, fixCommits: [] });
    const kept = keepJudgedInsights(
      historyInsights(
        [partner('History.md', 'package.json'), partner('lib/request.js', 'History.md')],
        [fixes('History.md'), fixes('lib/request.js'), fixes('test/req.js')],
      ),
    );
    assert.deepEqual(
      kept.missedPartners.map((item) => [item.path, item.partner]),
      [['lib/request.js', 'History.md']],
    );
    assert.deepEqual(
      kept.fixProne.map((item) => item.path),
      ['lib/request.js'],
    );
  });
});

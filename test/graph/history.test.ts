import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findCoChangePartners, findMissedPartners } from '../../src/graph/history/co-change.js';
import { classifyFixCommit } from '../../src/graph/history/commits.js';
import { isHotspot, rankHotspots } from '../../src/graph/history/hotspots.js';
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
      commit('d1', ['small.ts', 'big.ts']),
      commit('d2', ['config.json']),
    ];
    const ranked = rankHotspots({ commits }, (path) => ({ 'big.ts': 9, 'small.ts': 30 })[path]);
    assert.deepEqual(ranked, [
      { path: 'big.ts', churn: 6, complexity: 9, score: 54, rank: 1, rankedFiles: 2 },
      { path: 'small.ts', churn: 1, complexity: 30, score: 30, rank: 2, rankedFiles: 2 },
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoChangePartner, FixProneFile } from '../../src/model/history.js';
import { renderHistoryInsights } from '../../src/report/history-markdown.js';
import { historyInsights } from '../helpers/history-insights.js';

const commits = [
  { oid: 'a'.repeat(40), subject: 'one' },
  { oid: 'b'.repeat(40), subject: 'two' },
];
const partner = (path: string, other: string, cited = commits): CoChangePartner => ({
  path,
  partner: other,
  support: 7,
  pathCommits: 7,
  confidence: 1,
  lift: 40,
  commits: cited,
});
const fixes = (path: string, count: number): FixProneFile => ({
  path,
  fixes: count,
  commits: 8,
  fixScore: count,
  fixRatio: Math.round((100 * count) / 8),
  fixCommits: [{ oid: 'c'.repeat(40), subject: 'fix: the cart', kind: 'fix' }],
});

const insights = historyInsights;

describe('the History section in Markdown', () => {
  it('one row for the partners of a file that share a folder and their commits; others keep their own row', () => {
    const goldens = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'].map((name) => partner('docs/bundle.md', `test/golden/${name}`));
    const markdown = renderHistoryInsights(
      insights([...goldens, partner('docs/bundle.md', 'test/golden/f.md', commits.slice(0, 1)), partner('src/a.ts', 'src/b.ts')], []),
    );
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| changed') && !line.startsWith('| ---'));
    assert.deepEqual(rows, [
      '| docs/bundle.md | test/golden/ (5 files: a.md, b.md, c.md, … 2 more) | 7 of 7 | 100% | 40 | aaaaaaa, bbbbbbb |',
      // Same folder, other commits: its own row.
      '| docs/bundle.md | test/golden/f.md | 7 of 7 | 100% | 40 | aaaaaaa |',
      '| src/a.ts | src/b.ts | 7 of 7 | 100% | 40 | aaaaaaa, bbbbbbb |',
    ]);
  });

  it('lists files with two or more fixes; a single fix is left to the JSON', () => {
    const markdown = renderHistoryInsights(insights([], [fixes('src/cart.ts', 3), fixes('docs/a.md', 1)]));
    assert.match(markdown, /\*\*Changed files with a record of fixes\*\*/);
    assert.match(markdown, /^\| src\/cart\.ts \| 3 of 8 \(38%\) \|/m);
    assert.doesNotMatch(markdown, /docs\/a\.md/);
    assert.doesNotMatch(renderHistoryInsights(insights([], [fixes('docs/a.md', 1)])), /record of fixes/);
  });
});

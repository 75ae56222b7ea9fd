import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffTextLines, type LineDiff } from '../../src/io/git-hunks.js';

/** Checks that the hunks are an edit script from `oldText` to `newText`: ordered, and every line outside them kept. */
function assertEditScript(oldText: string, newText: string, diff: LineDiff, label: string): void {
  const oldLines = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  const newLines = newText === '' ? [] : newText.replace(/\n$/, '').split('\n');
  let oldAt = 0;
  let newAt = 0;
  const end = { oldStart: oldLines.length + 1, oldLines: 0, newStart: newLines.length + 1, newLines: 0 };
  for (const hunk of [...diff.hunks, end]) {
    // A side with 0 lines names the line before the hunk; otherwise the hunk's first line.
    const oldBefore = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const newBefore = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
    const stop = Math.min(oldBefore, oldLines.length);
    assert.ok(oldBefore >= oldAt && newBefore >= newAt, `${label}: hunks out of order`);
    assert.equal(stop - oldAt, Math.min(newBefore, newLines.length) - newAt, `${label}: kept runs of different lengths`);
    for (; oldAt < stop; oldAt += 1, newAt += 1)
      assert.equal(oldLines[oldAt], newLines[newAt], `${label}: line ${oldAt + 1} kept but changed`);
    if (hunk !== end) assert.ok(hunk.oldLines + hunk.newLines > 0, `${label}: empty hunk`);
    oldAt = oldBefore + hunk.oldLines;
    newAt = newBefore + hunk.newLines;
  }
  assert.equal(
    diff.additions,
    diff.hunks.reduce((sum, hunk) => sum + hunk.newLines, 0),
  );
  assert.equal(
    diff.deletions,
    diff.hunks.reduce((sum, hunk) => sum + hunk.oldLines, 0),
  );
}

/** The fewest added plus deleted lines that turn one list into the other (twice the lines not in a longest common subsequence). */
function countMinimalEdits(a: string[], b: string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const next = [0];
    for (let index = 0; index < b.length; index += 1) {
      next.push(line === b[index] ? (row[index] ?? 0) + 1 : Math.max(row[index + 1] ?? 0, next[index] ?? 0));
    }
    row = next;
  }
  return a.length + b.length - 2 * (row[b.length] ?? 0);
}

function createRandom(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * below);
  };
}

const text = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');

describe('diffTextLines', () => {
  it('gives a minimal edit script when the edits are few (the Myers diff)', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = createRandom(seed);
      // A small alphabet, so lines repeat and the common subsequence is not obvious.
      const base = Array.from({ length: random(80) }, () => `line ${random(12)}`);
      const head = base.flatMap((line) => (random(6) === 0 ? [] : random(6) === 0 ? [line, `line ${random(12)}`] : [line]));
      const diff = diffTextLines(text(base), text(head));
      assertEditScript(text(base), text(head), diff, `seed ${seed}`);
      assert.equal(diff.additions + diff.deletions, countMinimalEdits(base, head), `seed ${seed}`);
    }
  });

  it('splits a rewrite with more edits than the Myers diff takes at the lines both sides keep once', () => {
    // 6,000 distinct lines, every other one replaced: 6,000 edits, past the Myers limit (and past the 5,000 the diff took
    // before, when the whole file became one hunk). Each kept line occurs once on each side, so every replaced line is
    // its own hunk.
    const base = Array.from({ length: 6000 }, (_, index) => `const value${index} = ${index};`);
    const head = base.map((line, index) => (index % 2 === 1 ? `${line} // changed` : line));
    const diff = diffTextLines(text(base), text(head));
    assertEditScript(text(base), text(head), diff, 'rewrite');
    assert.equal(diff.hunks.length, 3000);
    assert.deepEqual(diff.hunks[0], { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 });
    assert.deepEqual(diff.hunks[2999], { oldStart: 6000, oldLines: 1, newStart: 6000, newLines: 1 });
    assert.equal(diff.additions + diff.deletions, 6000);
  });

  it('keeps every edit script valid on large random rewrites, with and without anchors', () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const random = createRandom(seed * 7919);
      const alphabet = seed % 3 === 0 ? 20 : 100_000;
      const base = Array.from({ length: 1500 + random(1500) }, () => `line ${random(alphabet)}`);
      const head = base.flatMap((line) => (random(3) === 0 ? [`line ${random(alphabet)}`] : random(8) === 0 ? [] : [line]));
      assertEditScript(text(base), text(head), diffTextLines(text(base), text(head)), `seed ${seed}`);
    }
  });

  it('makes one hunk of a rewrite that shares no line it could anchor on', () => {
    const base = Array.from({ length: 1500 }, (_, index) => (index % 2 === 0 ? 'a' : 'b'));
    const head = Array.from({ length: 1500 }, (_, index) => (index % 2 === 0 ? 'c' : 'd'));
    assert.deepEqual(diffTextLines(text(base), text(head)), {
      hunks: [{ oldStart: 1, oldLines: 1500, newStart: 1, newLines: 1500 }],
      additions: 1500,
      deletions: 1500,
    });
  });

  it('places an added or removed block where git does: ending on a blank line, else as low as it slides', () => {
    // A method added after another (outline's Team.isTeamUrl): read from the top, the added block would start with the
    // `  }` that closes the method above, which the change never touched.
    const base = ['class Team {', '  get url() {', '    return u;', '  }', '', '  /**', '   * Rotates.', '   */', '  rotate() {}', '}'];
    const method = ['  /**', '   * Whether.', '   */', '  isTeamUrl(url) {', '    return url === u;', '  }', ''];
    const head = [...base.slice(0, 5), ...method, ...base.slice(5)];
    const added = diffTextLines(text(base), text(head));
    assertEditScript(text(base), text(head), added, 'method added');
    assert.deepEqual(added.hunks, [{ oldStart: 5, oldLines: 0, newStart: 6, newLines: 7 }]);
    const removed = diffTextLines(text(head), text(base));
    assert.deepEqual(removed.hunks, [{ oldStart: 6, oldLines: 7, newStart: 5, newLines: 0 }]);
    // With no blank line to end on, as low as it slides: the new `if` block, not the old block's `  }`.
    const body = ['function f() {', '  if (a) {', '    x();', '  }', '  return 1;', '}'];
    const withIf = [...body.slice(0, 4), '  if (b) {', '    y();', '  }', ...body.slice(4)];
    assert.deepEqual(diffTextLines(text(body), text(withIf)).hunks, [{ oldStart: 4, oldLines: 0, newStart: 5, newLines: 3 }]);
  });

  it('numbers pure insertions and deletions like git diff -U0, and counts a missing final newline as a change', () => {
    assert.deepEqual(diffTextLines('a\nb\n', 'a\nx\nb\n').hunks, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }]);
    assert.deepEqual(diffTextLines('a\nb\n', 'b\n').hunks, [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }]);
    assert.deepEqual(diffTextLines('a\nb\n', 'a\nb').hunks, [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }]);
    assert.deepEqual(diffTextLines('', ''), { hunks: [], additions: 0, deletions: 0 });
  });
});

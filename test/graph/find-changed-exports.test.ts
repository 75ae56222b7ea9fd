import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangedFile, Hunk } from '../../src/model/change.js';
import type { ExportFact } from '../../src/model/facts.js';
import { findChangedExports } from '../../src/graph/queries/find-changed-exports.js';

function exportAt(name: string, start: number, end: number): ExportFact {
  return { name, kind: 'function', span: { start, end }, typeOnly: false };
}

function changedFile(status: ChangedFile['status'], hunks: Hunk[], path = 'src/billing.ts'): ChangedFile {
  return { path, status, hunks, additions: 0, deletions: 0, binary: false };
}

describe('findChangedExports', () => {
  test('a hunk inside a head span modifies that export only; added and removed names are reported', () => {
    const base = [exportAt('charge', 1, 3), exportAt('refund', 5, 7), exportAt('legacyTotal', 9, 10)];
    const head = [exportAt('charge', 1, 3), exportAt('refund', 5, 8), exportAt('computeTax', 10, 12)];
    const hunks = [
      { oldStart: 6, oldLines: 1, newStart: 6, newLines: 2 },
      { oldStart: 9, oldLines: 2, newStart: 10, newLines: 3 },
    ];
    assert.deepEqual(findChangedExports(changedFile('modified', hunks), base, head), [
      { path: 'src/billing.ts', name: 'refund', change: 'modified', span: { start: 5, end: 8 } },
      { path: 'src/billing.ts', name: 'computeTax', change: 'added', span: { start: 10, end: 12 } },
      { path: 'src/billing.ts', name: 'legacyTotal', change: 'removed', span: { start: 9, end: 10 } },
    ]);
  });

  test('a change only on the base side of a span (lines removed from it) modifies the export', () => {
    const base = [exportAt('charge', 1, 6)];
    const head = [exportAt('charge', 1, 4)];
    const hunks = [{ oldStart: 3, oldLines: 2, newStart: 2, newLines: 0 }];
    assert.deepEqual(findChangedExports(changedFile('modified', hunks), base, head), [
      { path: 'src/billing.ts', name: 'charge', change: 'modified', span: { start: 1, end: 4 } },
    ]);
  });

  test('a pure deletion between two head lines of a span modifies it even when the base span missed it', () => {
    const base = [exportAt('charge', 1, 2)];
    const head = [exportAt('charge', 1, 4)];
    const hunks = [{ oldStart: 3, oldLines: 1, newStart: 2, newLines: 0 }];
    assert.deepEqual(findChangedExports(changedFile('modified', hunks), base, head), [
      { path: 'src/billing.ts', name: 'charge', change: 'modified', span: { start: 1, end: 4 } },
    ]);
  });

  test('a pure deletion at the boundary between two exports modifies neither', () => {
    const base = [exportAt('charge', 1, 3), exportAt('refund', 6, 8)];
    const head = [exportAt('charge', 1, 3), exportAt('refund', 4, 6)];
    const hunks = [{ oldStart: 4, oldLines: 2, newStart: 3, newLines: 0 }];
    assert.deepEqual(findChangedExports(changedFile('modified', hunks), base, head), []);
  });

  test('a pure insertion between two base lines of a span modifies it; one right after it does not', () => {
    const base = [exportAt('charge', 1, 3), exportAt('refund', 5, 6)];
    const inside = [{ oldStart: 5, oldLines: 0, newStart: 6, newLines: 1 }];
    assert.deepEqual(findChangedExports(changedFile('modified', inside), base, [exportAt('charge', 1, 3), exportAt('refund', 5, 5)]), [
      { path: 'src/billing.ts', name: 'refund', change: 'modified', span: { start: 5, end: 5 } },
    ]);
    const after = [{ oldStart: 3, oldLines: 0, newStart: 4, newLines: 1 }];
    assert.deepEqual(findChangedExports(changedFile('modified', after), base, [exportAt('charge', 1, 3), exportAt('refund', 6, 7)]), []);
  });

  test('every head export of an added file is added; every base export of a deleted file is removed', () => {
    const exports = [exportAt('refund', 5, 6), exportAt('charge', 1, 3)];
    const addedHunks = [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 6 }];
    assert.deepEqual(findChangedExports(changedFile('added', addedHunks), exports, exports), [
      { path: 'src/billing.ts', name: 'charge', change: 'added', span: { start: 1, end: 3 } },
      { path: 'src/billing.ts', name: 'refund', change: 'added', span: { start: 5, end: 6 } },
    ]);
    const deletedHunks = [{ oldStart: 1, oldLines: 6, newStart: 0, newLines: 0 }];
    assert.deepEqual(findChangedExports(changedFile('deleted', deletedHunks), exports, exports), [
      { path: 'src/billing.ts', name: 'charge', change: 'removed', span: { start: 1, end: 3 } },
      { path: 'src/billing.ts', name: 'refund', change: 'removed', span: { start: 5, end: 6 } },
    ]);
  });

  test('a pure rename reports only names that appeared or disappeared, under the new path', () => {
    const file = { ...changedFile('renamed', [], 'src/payments.ts'), previousPath: 'src/billing.ts' };
    assert.deepEqual(findChangedExports(file, [exportAt('charge', 1, 3)], [exportAt('charge', 1, 3)]), []);
    assert.deepEqual(findChangedExports(file, [exportAt('charge', 1, 3)], [exportAt('pay', 1, 3)]), [
      { path: 'src/payments.ts', name: 'pay', change: 'added', span: { start: 1, end: 3 } },
      { path: 'src/payments.ts', name: 'charge', change: 'removed', span: { start: 1, end: 3 } },
    ]);
  });

  test('declarations sharing a name (overloads) form one export spanning all of them', () => {
    const base = [exportAt('parse', 1, 1), exportAt('parse', 2, 2), exportAt('parse', 3, 6)];
    const head = [exportAt('parse', 1, 1), exportAt('parse', 2, 2), exportAt('parse', 3, 6)];
    const hunks = [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }];
    assert.deepEqual(findChangedExports(changedFile('modified', hunks), base, head), [
      { path: 'src/billing.ts', name: 'parse', change: 'modified', span: { start: 1, end: 6 } },
    ]);
  });

  test('a modified file without hunks (binary) modifies nothing', () => {
    const file = { ...changedFile('modified', []), binary: true };
    assert.deepEqual(findChangedExports(file, [exportAt('charge', 1, 3)], [exportAt('charge', 1, 3)]), []);
  });
});

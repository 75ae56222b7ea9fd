import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeBuildOutputImports, summariseBuildOutputNotes } from '../../src/app/build-output-notes.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';
import type { Resolution } from '../../src/model/resolve.js';

const built = (target: string, rule: string): Resolution => ({ specifier: `../lib/${target}`, kind: 'relative', target, builtFrom: rule });

test('per-file build-output notes fold into one per rule where the first stood, file names read from their location', () => {
  // A hostile file name that says the note's own words, and a rule that does too.
  const odd = 'tests/a, b (in x) was mapped to its source: y.spec.js';
  const rule = 'package.json scripts.build: babel src -d lib: mapped to their sources: z';
  const notes = describeBuildOutputImports(
    new Map([
      ['tests/c.spec.js', [built('src/c.js', rule), built('src/d.js', rule)]],
      [odd, [built('src/a.js', rule)]],
      ['tests/e.spec.js', [built('src/e.js', 'tsconfig outDir')]],
    ]),
  );
  assert.equal(notes.length, 3);
  const other: Diagnostic = { code: 'scan/too-large', severity: 'warn', message: 'x was not analysed' };
  const folded = summariseBuildOutputNotes([other, ...notes]);
  assert.deepEqual(
    folded.map((item) => item.message),
    [
      'x was not analysed',
      `3 imports of build output the repository does not hold (in ${odd}, tests/c.spec.js) were mapped to their sources: ${rule}.`,
      '1 import of build output the repository does not hold (in tests/e.spec.js) was mapped to its source: tsconfig outDir.',
    ],
  );
  // Folding again changes nothing: a folded note is not read as a file's.
  assert.deepEqual(summariseBuildOutputNotes(folded), folded);
});

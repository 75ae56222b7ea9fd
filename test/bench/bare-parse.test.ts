import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { measureBareParse } from '../../bench/measure.js';
import { makeTempDir } from '../helpers/git-repo.js';

test('the bare parse leaves out the JS/TS files over the scan limit, as the scan does, and counts them', async () => {
  const dir = makeTempDir();
  try {
    const small = join(dir, 'small.ts');
    const large = join(dir, 'large.ts');
    const notes = join(dir, 'notes.md');
    writeFileSync(small, 'export const a = 1;\n');
    writeFileSync(large, `export const b = '${'x'.repeat(2000)}';\n`);
    writeFileSync(notes, '# not code\n');
    const bare = await measureBareParse([small, large, notes], { processes: 1, workDir: join(dir, 'work'), maxFileBytes: 1024 });
    assert.deepEqual([bare.files, bare.tooLarge, bare.errors], [1, 1, 0]);
    const all = await measureBareParse([small, large, notes], { processes: 1, workDir: join(dir, 'work'), maxFileBytes: 4096 });
    assert.deepEqual([all.files, all.tooLarge], [2, 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

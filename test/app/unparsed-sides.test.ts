import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

describe('a changed file over analysis.maxFileBytes', () => {
  // A 1,024-byte limit: bundle.js grows past it on the head side only; small.ts stays under it on both.
  const filler = (count: number): string =>
    Array.from({ length: count }, (_, index) => `export const filler${index} = ${index};\n`).join('');
  const repo = createRepo({
    '.checker/config.yml': 'analysis:\n  maxFileBytes: 1024\n',
    'src/bundle.js': `export const kept = 1;\n${filler(2)}`,
    'src/small.ts': 'export const before = 1;\n',
    'src/bundle.js.map': '{"version":3}\n',
  });
  repo.write({
    // A source map over the limit is not code: nothing of it is parsed anyway, so it is not named.
    'src/bundle.js.map': `{"version":3,"mappings":"${'A'.repeat(2000)}"}\n`,
    'src/bundle.js': `export const kept = 2;\nexport const added = 3;\n${filler(60)}`,
    'src/small.ts': 'export const before = 1;\nexport const after = 2;\n',
  });
  repo.commit('grow the bundle');
  after(() => repo.cleanup());

  it('is diffed but neither side is parsed, and a limitation names it; smaller files are compared as before', async () => {
    const env = createTestEnv(repo.dir, { useCache: false });
    try {
      const analysis = await analyzeChange(env, { base: 'HEAD~1', head: 'HEAD' });
      const bundle = analysis.changedFiles.find((file) => file.path === 'src/bundle.js');
      assert.ok(bundle !== undefined && bundle.additions > 50, 'the bundle is still diffed');
      // Parsed from its small base side alone, every head export would read as added; neither side is parsed.
      assert.deepEqual(bundle.changedExports, []);
      assert.deepEqual(
        analysis.changedFiles.find((file) => file.path === 'src/small.ts')?.changedExports.map((item) => [item.name, item.change]),
        [['after', 'added']],
      );
      const notes = analysis.limitations.filter((item) => item.code === 'analysis/unparsed-sides');
      assert.equal(notes.length, 1);
      assert.match(
        notes[0]?.message ?? '',
        /^1 changed file is larger than analysis\.maxFileBytes \(1024 bytes\) on at least one side.*\(src\/bundle\.js\)\.$/,
      );
    } finally {
      await env.close();
    }
  });
});

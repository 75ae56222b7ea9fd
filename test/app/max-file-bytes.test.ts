import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

describe('analysis.maxFileBytes is the limit of the parse as well as of the scan', () => {
  // About 1.3 MB of short lines: over the default 1 MiB, hand-written in shape (not minified).
  const big = Array.from({ length: 56_000 }, (_, index) => `export const value${index} = ${index};`).join('\n');
  const files = { 'src/big.ts': `${big}\n`, 'src/use.ts': "import { value7 } from './big.js';\nexport const seven = value7;\n" };
  const raised = createRepo({ ...files, '.checker/config.yml': 'analysis:\n  maxFileBytes: 4194304\n' });
  const plain = createRepo(files);
  after(() => {
    raised.cleanup();
    plain.cleanup();
  });

  it('a file over 1 MiB under a raised limit is parsed, cold and after an edit; under the default it is skipped', async () => {
    const env = createTestEnv(raised.dir);
    try {
      const cold = await buildRepositoryGraph(env);
      assert.deepEqual(cold.parsed.skipped, []);
      // A parse failure (a timeout on a loaded machine was one: its child's start-up counted) says which, not "0 exports".
      assert.equal(cold.parsed.facts.get('src/big.ts')?.facts.failure, undefined);
      assert.equal(cold.parsed.facts.get('src/big.ts')?.facts.exports.length, 56_000);
      raised.write({ 'src/big.ts': `${big}\nexport const extra = 1;\n` });
      const edited = await buildRepositoryGraph(env);
      assert.deepEqual(edited.parsed.skipped, []);
      assert.equal(edited.parsed.facts.get('src/big.ts')?.facts.failure, undefined);
      assert.equal(edited.parsed.facts.get('src/big.ts')?.facts.exports.length, 56_001);
    } finally {
      await env.close();
    }

    const defaults = createTestEnv(plain.dir);
    try {
      const built = await buildRepositoryGraph(defaults);
      assert.equal(built.parsed.facts.has('src/big.ts'), false);
      assert.deepEqual(
        built.scan.skipped.map((skip) => [skip.path, skip.reason]),
        [['src/big.ts', 'too-large']],
      );
    } finally {
      await defaults.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runAgentBundle } from '../../src/app/run-agent-bundle.js';
import { createTestEnv } from '../helpers/test-env.js';
import { createRepo } from '../helpers/git-repo.js';

describe('a range with no changes', () => {
  const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
  after(() => repo.cleanup());

  it('says so in the limitations and in the prompt instead of handing off an empty task', async () => {
    const env = createTestEnv(repo.dir, { useCache: false });
    try {
      const bundle = await runAgentBundle(env, { profile: 'generic' });
      assert.deepEqual(bundle.evidence.changedFiles, []);
      assert.deepEqual(bundle.tasks, []);
      assert.deepEqual(
        bundle.limitations.map((item) => item.code),
        ['analysis/no-changes'],
      );
      assert.match(bundle.prompt, /Nothing changed between `HEAD` and `WORKTREE`, so there is nothing to make safe yet/);
    } finally {
      await env.close();
    }
  });
});

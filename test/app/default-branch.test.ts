import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { createTestEnv } from '../helpers/test-env.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import { createRepo } from '../helpers/git-repo.js';

describe('default base and analysis.defaultBranch', () => {
  const repo = createRepo({ 'src/base.ts': 'export const base = 1;\n' });
  repo.git('checkout', '-q', '-b', 'develop');
  repo.write({ 'src/develop-only.ts': 'export const developOnly = 2;\n' });
  repo.commit('develop work');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({ 'src/feature.ts': 'export const feature = 3;\n' });
  repo.commit('feature work');
  after(() => repo.cleanup());

  const changedPaths = async (): Promise<string[]> => {
    const env = createTestEnv(repo.dir, { useCache: false });
    try {
      return (await analyzeChange(env)).changedFiles.map((file) => file.path);
    } finally {
      await env.close();
    }
  };

  it('uses the merge-base with main when nothing is configured', async () => {
    repo.remove('.checker');
    assert.deepEqual(await changedPaths(), ['src/develop-only.ts', 'src/feature.ts']);
  });

  it('uses the configured default branch', async () => {
    repo.write({ '.checker/config.yml': 'analysis:\n  defaultBranch: develop\n' });
    assert.deepEqual(await changedPaths(), ['.checker/config.yml', 'src/feature.ts']);
  });

  it('refuses a configured branch that does not exist, naming the key', async () => {
    repo.write({ '.checker/config.yml': 'analysis:\n  defaultBranch: trunk\n' });
    await assert.rejects(
      changedPaths(),
      (error: unknown) =>
        error instanceof CheckerError &&
        error.code === 'config/default-branch-not-found' &&
        error.message.includes('analysis.defaultBranch'),
    );
  });
});

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';
import { runCli } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/**
 * The change's history (the decay window and the mined window) is read while the graph is built: by the analysis
 * memo once the parse children have started (the built CLI, no facts cache), by analyzeChange once it has the change
 * otherwise. A history that cannot be read is a limitation either way, named once each, where the analysis reads it.
 */
test('an unreadable history is named in the limitations, read early or in place', async (t) => {
  const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': "import { a } from './a';\nexport const b = a;\n" });
  t.after(() => repo.cleanup());
  repo.write({ 'src/a.ts': 'export const a = 2;\n' });
  repo.commit('change a');
  repo.write({ 'src/b.ts': "import { a } from './a';\nexport const b = a + 1;\n" });
  // The first commit's root tree is gone: the change (HEAD against the working tree) reads, the history walk cannot.
  const tree = repo.git('rev-parse', 'HEAD~1^{tree}').trim();
  rmSync(join(repo.dir, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
  const historyLimits = (limitations: Diagnostic[]): string[] =>
    limitations.filter((item) => item.code === 'git/history-unavailable').map((item) => item.message.split(':')[0] ?? '');
  const expected = ['History for decay analysis could not be read', 'History for co-change, fix-prone and hotspot facts could not be read'];

  const env = createTestEnv(repo.dir);
  t.after(() => env.close());
  const inPlace = await analyzeChange(env, {});
  assert.deepEqual(historyLimits(inPlace.limitations), expected);
  assert.deepEqual(
    inPlace.changedFiles.map((file) => file.path),
    ['src/b.ts'],
  );

  rmSync(join(repo.dir, '.checker'), { recursive: true, force: true });
  const cli = runCli(['ai', '--cwd', repo.dir, '--format', 'json']);
  assert.equal(cli.code, 0, cli.stderr);
  const bundle = JSON.parse(cli.stdout) as { limitations: Diagnostic[] };
  assert.deepEqual(historyLimits(bundle.limitations), expected);
});

import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadMinedHistory } from '../../../src/app/load/history.js';
import { loadConfig } from '../../../src/app/load/load-config.js';
import type { Diagnostic } from '../../../src/model/diagnostic.js';
import { createNodeEnv } from '../../../src/io/node-env.js';
import { commitAt, gitAt } from '../../helpers/dated-git.js';
import { createRepo, type TestRepo } from '../../helpers/git-repo.js';

const repos: TestRepo[] = [];
after(() => {
  for (const repo of repos) repo.cleanup();
});

describe('history mining', () => {
  test('keeps ordinary commits, leaves out merges, mass changes and what is older than maxAgeDays', async () => {
    const repo = createRepo({ 'README.md': '# r\n' });
    repos.push(repo);
    const files: Record<string, string> = {};
    for (let index = 0; index < 6; index += 1) files[`src/f${index}.ts`] = `export const v${index} = 0;\n`;
    repo.write(files);
    const old = commitAt(repo, 'add files', '2024-01-01T00:00:00Z');
    repo.write({ 'src/f0.ts': 'export const v0 = 1;\n', 'src/f1.ts': 'export const v1 = 1;\n' });
    const pair = commitAt(repo, 'feat: change f0 and f1', '2025-06-01T00:00:00Z');
    repo.git('checkout', '-q', '-b', 'side');
    repo.write({ 'src/f2.ts': 'export const v2 = 2;\n' });
    const side = commitAt(repo, 'fix: f2 on a branch', '2025-06-02T00:00:00Z');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/f3.ts': 'export const v3 = 3;\n' });
    const main = commitAt(repo, 'change f3', '2025-06-03T00:00:00Z');
    gitAt(repo, '2025-06-04T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    const formatted: Record<string, string> = {};
    for (let index = 0; index < 6; index += 1) formatted[`src/f${index}.ts`] = `export const v${index} = ${index + 10}; // formatted\n`;
    repo.write(formatted);
    const format = commitAt(repo, 'style: format everything', '2025-06-05T00:00:00Z');
    repo.write({ '.checker/config.yml': 'history:\n  maxAgeDays: 400\n  massChangeFiles: 5\n' });
    const last = commitAt(repo, 'config', '2025-06-06T00:00:00Z');

    const env = createNodeEnv(repo.dir);
    const git = await env.openGit();
    const { config } = await loadConfig(env);
    const limitations: Diagnostic[] = [];
    const loaded = await loadMinedHistory(env, git, last, config, limitations);
    assert.deepEqual(limitations, []);
    assert.ok(loaded !== undefined);
    assert.equal(loaded.cached, false);
    const { history } = loaded;
    assert.equal(history.fromOid, last);
    assert.deepEqual(history.settings, { maxCommits: 2000, maxAgeDays: 400, massChangeFiles: 5 });
    assert.deepEqual(
      history.commits.map((commit) => [commit.oid, commit.paths]),
      [
        [last, ['.checker/config.yml']],
        [main, ['src/f3.ts']],
        [side, ['src/f2.ts']],
        [pair, ['src/f0.ts', 'src/f1.ts']],
      ],
    );
    assert.equal(history.commits[2]?.message, 'fix: f2 on a branch\n');
    assert.deepEqual(history.excluded, { merges: 1, massChanges: 1 });
    assert.equal(history.stoppedBy, 'max-age');
    assert.ok(!history.commits.some((commit) => commit.oid === old));

    // The second read comes from the cache under .checker/local/cache/history/, keyed by the commit and the settings.
    const cacheDir = join(repo.dir, '.checker/local/cache/history');
    assert.equal(readdirSync(cacheDir).length, 1);
    const again = await loadMinedHistory(env, git, last, config, limitations);
    assert.equal(again?.cached, true);
    assert.deepEqual(again?.history, history);
    // A damaged cache file (another process, a hand edit) is a miss: mined again and rewritten.
    const [cacheFile = ''] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, cacheFile), '{"fromOid": "not this one", "commits": [');
    const repaired = await loadMinedHistory(env, git, last, config, limitations);
    assert.equal(repaired?.cached, false);
    assert.deepEqual(repaired?.history, history);
    assert.equal((await loadMinedHistory(env, git, last, config, limitations))?.cached, true);
    // Other settings are another cache entry; with the default mass-change bound (50) the format commit is kept.
    const narrower = await loadMinedHistory(env, git, last, { history: { maxCommits: 2 } }, limitations);
    assert.equal(narrower?.cached, false);
    assert.deepEqual(
      narrower?.history.commits.map((commit) => commit.oid),
      [last, format],
    );
    assert.equal(narrower?.history.stoppedBy, 'max-commits');
    assert.equal(readdirSync(cacheDir).length, 2);
    assert.equal(await loadMinedHistory(env, git, last, { history: { enabled: false } }, limitations), undefined);
    assert.ok(existsSync(join(repo.dir, '.checker/local/.gitignore')));
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CI_FILES } from '../../src/app/ci/run-ci.js';
import { LATEST_EXECUTION } from '../../src/app/load/execution-evidence.js';
import { LATEST_FAILURES } from '../../src/app/product/latest.js';
import { resolveOutputPath } from '../../src/io/artifacts.js';
import { TASK_CONTEXT_ARTIFACT } from '../../src/model/context-packet.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { SESSIONS_FOLDER } from '../../src/model/session.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';

const TASK = 'apply the loyalty discount for silver members';

describe('--output never replaces checker-owned state under .checker/local/', () => {
  let repo: TestRepo;
  let sessionPath: string;
  before(async () => {
    repo = createRepo(SHOP_FILES);
    repo.write({ 'src/pricing/discount.ts': `${SHOP_FILES['src/pricing/discount.ts'] ?? ''}\nexport const SILVER = 0.95;\n` });
    const started = await runCliAsync(['session', 'start', '--cwd', repo.dir, '--session', 's1', '--task', TASK, '--format', 'json']);
    assert.equal(started.code, 0, started.stderr);
    sessionPath = join(repo.dir, '.checker/local/agent-sessions/s1.json');
  });
  after(() => repo.cleanup());

  for (const output of ['agent-sessions/s1.json', '.checker/local/agent-sessions/s1.json', 'Agent-Sessions/S1.json']) {
    it(`analyze --output ${output} is refused, names the path and the fix, and keeps the session`, async () => {
      const before = readFileSync(sessionPath);
      const result = await runCliAsync(['analyze', '--cwd', repo.dir, '--format', 'json', '--output', output]);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(
        result.stderr,
        `checker: output/reserved: --output ${JSON.stringify(output)} would replace checker's own state: .checker/local/agent-sessions/ holds durable agent sessions\n` +
          '  hint: name a file outside that state, e.g. --output reports/<name>.md, or write to stdout and use shell redirection (checker … > file)\n',
      );
      assert.deepEqual(readFileSync(sessionPath), before);
      assert.equal(result.stdout, '');
    });
  }

  it('the absolute path of the session file is refused the same way', async () => {
    const result = await runCliAsync(['analyze', '--cwd', repo.dir, '--output', sessionPath]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^checker: output\/reserved: .*\.checker\/local\/agent-sessions\/ holds durable agent sessions/);
  });

  it('a report beside that state is still written', async () => {
    const result = await runCliAsync(['analyze', '--cwd', repo.dir, '--format', 'json', '--output', 'reports/analysis.json']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(repo.dir, '.checker/local/reports/analysis.json')));
  });

  it('every path checker writes its own state to is refused as an --output', async () => {
    const owned = [
      `${SESSIONS_FOLDER}/any.json`,
      TASK_CONTEXT_ARTIFACT,
      LATEST_EXECUTION,
      'executions/run-1/result.json',
      'differentials/run-1/result.json',
      LATEST_FAILURES,
      'product-runs/latest.json',
      'product-tests/web/api.generated.test.mjs',
      'agent-process/bundle.md',
      'worktrees/base/src/x.ts',
      'cache/analysis-v1.json',
      ...Object.values(CI_FILES),
      'report.md.lock',
      'task-context.json.lock.break',
    ];
    for (const output of owned) {
      await assert.rejects(resolveOutputPath(repo.dir, output), (error: unknown) => {
        assert.ok(isCheckerError(error));
        assert.equal(error.code, 'output/reserved', output);
        return true;
      });
    }
    for (const output of [
      'report.md',
      'bundle.json',
      'reports/agent-sessions.md',
      'sessions/s1.json',
      'task-context.md',
      'cached/x.json',
    ]) {
      assert.equal((await resolveOutputPath(repo.dir, output)).relativePath, output);
    }
  });
});

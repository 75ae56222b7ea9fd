import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openRepository } from '../../src/io/git.js';
import { readGitIndex } from '../../src/io/git-index.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import type { PreflightReport } from '../../src/model/preflight.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

const FILES = {
  'src/pricing/discount.ts': 'export function applyLoyaltyDiscount(total: number): number {\n  return total * 0.95;\n}\n',
};

/** A real SHA-256 repository made by the git CLI (`git init --object-format=sha256`), with two commits. */
function createSha256Repo(): TestRepo | undefined {
  const repo = createRepo({}, { commit: false });
  rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
  try {
    repo.git('init', '-q', '--object-format=sha256', '-b', 'main');
  } catch {
    repo.cleanup();
    return undefined;
  }
  repo.write(FILES);
  repo.commit('first');
  repo.write({ 'src/pricing/discount.ts': FILES['src/pricing/discount.ts'].replace('0.95', '0.9') });
  repo.commit('second');
  return repo;
}

const isRefusal = (error: unknown): boolean => {
  assert.ok(isCheckerError(error), String(error));
  assert.equal(error.code, 'git/unsupported-object-format');
  assert.match(
    error.message,
    /is a SHA-256 repository \(extensions\.objectFormat = sha256\); checker's git reader supports SHA-1 repositories only$/,
  );
  assert.match(error.hint ?? '', /graph, preflight, context, rules and session start, context and checkpoint still work/);
  return true;
};

describe('a SHA-256 repository is refused by name, and what needs no history still works', () => {
  let repo: TestRepo | undefined;
  before(() => {
    repo = createSha256Repo();
  });
  after(() => repo?.cleanup());

  it('the git CLI made a SHA-256 repository (64-hex commit ids)', (t) => {
    if (repo === undefined) return t.skip('this git cannot create SHA-256 repositories');
    assert.match(repo.git('rev-parse', 'HEAD'), /^[0-9a-f]{64}$/);
  });

  it('openRepository and the index reader refuse it as git/unsupported-object-format', async (t) => {
    if (repo === undefined) return t.skip('this git cannot create SHA-256 repositories');
    await assert.rejects(openRepository(repo.dir), isRefusal);
    await assert.rejects(readGitIndex(join(repo.dir, '.git')), isRefusal);
  });

  for (const args of [['analyze'], ['analyze', '--base', 'HEAD~1'], ['impact'], ['ai']]) {
    it(`checker ${args.join(' ')} names the object format instead of "no commits"`, async (t) => {
      if (repo === undefined) return t.skip('this git cannot create SHA-256 repositories');
      const result = await runCliAsync([...args, '--cwd', repo.dir]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^checker: git\/unsupported-object-format: .* is a SHA-256 repository/);
      assert.doesNotMatch(result.stderr, /no commits/);
    });
  }

  it('preflight still works, says why there is no base revision, and lists no garbage names from the index', async (t) => {
    if (repo === undefined) return t.skip('this git cannot create SHA-256 repositories');
    const result = await runCliAsync(['ai', 'preflight', '--cwd', repo.dir, '--task', 'change the loyalty discount', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as PreflightReport;
    assert.deepEqual(report.revision, { git: false, head: null });
    assert.equal(report.repositoryEvidence.candidateFiles[0]?.path, 'src/pricing/discount.ts');
    const git = report.limitations.find((item) => item.code === 'git/unavailable');
    assert.match(git?.message ?? '', /is a SHA-256 repository/);
    assert.deepEqual(
      report.limitations.filter((item) => item.code.startsWith('scan/')),
      [],
    );
  });

  it('a SHA-1 repository that names its format explicitly still opens', async () => {
    const sha1 = createRepo(FILES);
    try {
      sha1.git('config', 'extensions.objectFormat', 'sha1');
      assert.equal((await openRepository(sha1.dir)).root, sha1.dir);
    } finally {
      sha1.cleanup();
    }
  });
});

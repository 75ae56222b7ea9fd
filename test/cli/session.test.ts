// Secrets below are synthetic fakes from security.md §6. gitleaks:allow
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { getValidator } from '../../src/io/schema.js';
import type { TaskContextPacket } from '../../src/model/context-packet.js';
import type { PreflightReport } from '../../src/model/preflight.js';
import type { AgentSession, SessionResult } from '../../src/model/session.js';
import { runCliAsync, spawnCliAsync, type CliResult } from '../helpers/cli.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';
import { createRepo, makeTempDir, writeTree, type TestRepo } from '../helpers/git-repo.js';

const TASK = 'apply the loyalty discount for silver members';
const checker = runCliAsync;

function parse<T>(result: CliResult): T {
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as T;
}

describe('checker ai|agent preflight and checker context', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(SHOP_FILES);
  });
  after(() => repo.cleanup());

  for (const command of [
    ['ai', 'preflight'],
    ['agent', 'preflight'],
  ]) {
    it(`${command.join(' ')} grounds a domain task`, async () => {
      const report = parse<PreflightReport>(await checker([...command, '--cwd', repo.dir, '--task', TASK, '--format', 'json']));
      assert.equal(report.repositoryEvidence.candidateFiles[0]?.path, 'src/pricing/discount.ts');
      assert.equal(getValidator('preflight-report')(report), true);
    });
  }

  for (const task of ['frobnicate the zorblax quux', 'fix the api']) {
    it(`preflight of "${task}" has low confidence, no candidates and one question`, async () => {
      const report = parse<PreflightReport>(await checker(['agent', 'preflight', '--cwd', repo.dir, '--task', task, '--format', 'json']));
      assert.equal(report.confidence, 'low');
      assert.deepEqual(report.repositoryEvidence.candidateFiles, []);
      assert.equal(report.unresolvedQuestions.length, 1);
      const markdown = await checker(['agent', 'preflight', '--cwd', repo.dir, '--task', task]);
      assert.equal(markdown.code, 0);
      assert.match(markdown.stdout, /None: the task names nothing of this repository\./);
    });
  }

  it('preflight works in a folder that is not a git repository', async () => {
    const dir = makeTempDir('checker-nogit-');
    try {
      writeTree(dir, SHOP_FILES);
      const report = parse<PreflightReport>(await checker(['ai', 'preflight', '--cwd', dir, '--task', TASK, '--format', 'json']));
      assert.deepEqual(report.revision, { git: false, head: null });
      assert.equal(report.repositoryEvidence.candidateFiles[0]?.path, 'src/pricing/discount.ts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('context --max-nodes bounds the packet and refuses above the maximum', async () => {
    const packet = parse<TaskContextPacket>(
      await checker(['context', '--cwd', repo.dir, '--task', TASK, '--max-nodes', '1', '--format', 'json']),
    );
    assert.deepEqual(
      packet.nodes.map((node) => node.id),
      ['file:src/pricing/discount.ts'],
    );
    assert.equal(getValidator('task-context')(packet), true);
    const refused = await checker(['context', '--cwd', repo.dir, '--task', TASK, '--max-nodes', '1001']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /context\/max-nodes: --max-nodes \(maxNodes\) must be an integer from 1 to 1000/);
  });
});

describe('checker session', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(SHOP_FILES);
  });
  after(() => repo.cleanup());
  const sessionFile = (id: string): string => join(repo.dir, '.checker/local/agent-sessions', `${id}.json`);

  it('start, context, checkpoint and finish through the CLI', async () => {
    const started = parse<SessionResult>(
      await checker(['session', 'start', '--cwd', repo.dir, '--session', 'cli-1', '--task', TASK, '--format', 'json']),
    );
    assert.equal(started.operation, 'start');
    const context = parse<SessionResult>(
      await checker(['session', 'context', '--cwd', repo.dir, '--session', 'cli-1', '--max-nodes', '5', '--format', 'json']),
    );
    assert.equal(context.context?.nodes.length, 5);
    assert.equal(getValidator('session-result')(context), true);
    const checkpoint = parse<SessionResult>(
      await checker([
        'session',
        'checkpoint',
        '--cwd',
        repo.dir,
        '--session',
        'cli-1',
        '--kind',
        'plan',
        '--summary',
        'plan the silver tier',
        '--format',
        'json',
      ]),
    );
    assert.equal(checkpoint.checkpoint?.seq, 1);
    const finished = await checker(['session', 'finish', '--cwd', repo.dir, '--session', 'cli-1']);
    assert.equal(finished.code, 0);
    assert.match(finished.stdout, /## Verification boundary/);
    const late = await checker(['session', 'checkpoint', '--cwd', repo.dir, '--session', 'cli-1', '--kind', 'diff', '--summary', 'late']);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /session\/finished/);
  });

  it('refuses to overwrite a session: exit 2 and the file byte-identical', async () => {
    parse<SessionResult>(await checker(['session', 'start', '--cwd', repo.dir, '--session', 'keep', '--task', TASK, '--format', 'json']));
    const before = readFileSync(sessionFile('keep'));
    const again = await checker(['session', 'start', '--cwd', repo.dir, '--session', 'keep', '--task', 'sales tax']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /^checker: session\/exists: session "keep" already exists/);
    assert.deepEqual(readFileSync(sessionFile('keep')), before);
  });

  it('refuses hostile ids before touching the disk', async () => {
    const bare = createRepo({ 'src/pricing/discount.ts': 'export const applyLoyaltyDiscount = 1;\n' });
    try {
      for (const id of ['../x', '/abs', '', 'a'.repeat(10_000), 'CON']) {
        const result = await checker(['session', 'start', '--cwd', bare.dir, '--session', id, '--task', TASK]);
        assert.equal(result.code, 2);
        assert.match(result.stderr, /session\/invalid-id/);
      }
      assert.equal(existsSync(join(bare.dir, '.checker')), false);
    } finally {
      bare.cleanup();
    }
  });

  it('keeps both of two checkpoints written by two processes at once', async () => {
    parse<SessionResult>(await checker(['session', 'start', '--cwd', repo.dir, '--session', 'race', '--task', TASK, '--format', 'json']));
    const results = await Promise.all(
      ['alpha plan', 'beta plan'].map((summary) =>
        spawnCliAsync([
          'session',
          'checkpoint',
          '--cwd',
          repo.dir,
          '--session',
          'race',
          '--kind',
          'plan',
          '--summary',
          summary,
          '--format',
          'json',
        ]),
      ),
    );
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const session = JSON.parse(readFileSync(sessionFile('race'), 'utf8')) as AgentSession;
    assert.deepEqual(session.checkpoints.map((checkpoint) => checkpoint.summary).sort(), ['alpha plan', 'beta plan']);
    assert.deepEqual(
      session.checkpoints.map((checkpoint) => checkpoint.seq),
      [1, 2],
    );
    assert.equal(existsSync(`${sessionFile('race')}.lock`), false);
  });

  it('redacts a secret from the stored checkpoint and from both output formats', async () => {
    parse<SessionResult>(await checker(['session', 'start', '--cwd', repo.dir, '--session', 'leak', '--task', TASK, '--format', 'json']));
    const secret = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    const summary = `I pasted ${secret} and DB_PASSWORD=Fake-P4ssw0rd-For-Tests by mistake`;
    for (const format of ['json', 'markdown']) {
      const result = await checker([
        'session',
        'checkpoint',
        '--cwd',
        repo.dir,
        '--session',
        'leak',
        '--kind',
        'plan',
        '--summary',
        summary,
        '--format',
        format,
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.includes(secret), false);
      assert.equal(result.stdout.includes('Fake-P4ssw0rd-For-Tests'), false);
      assert.match(result.stdout, /\[REDACTED:github-token\]/);
    }
    const stored = readFileSync(sessionFile('leak'), 'utf8');
    assert.equal(stored.includes(secret), false);
    assert.equal(stored.includes('Fake-P4ssw0rd-For-Tests'), false);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSession } from '../../src/app/session.js';
import { createTestEnv } from '../helpers/test-env.js';
import { getValidator } from '../../src/io/schema.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { cliArgv } from '../helpers/cli.js';

const TASK = 'apply the loyalty discount for silver members';
const ITERATIONS = 30;
const STRAY = /^[A-Za-z0-9._-]+\.[0-9a-f]{12}\.tmp$/;

/**
 * Writes a session the way startSession does (the real writeArtifact, mode create) in a child process. With a pause
 * point, `link` is wrapped (through the builtin module object, so the artifact writer's own import sees it) and the
 * child stops just before or just after publishing the session file, then says "paused".
 */
const WORKER = `
import { readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
const [repo, sessionId, pause, templatePath] = process.argv.slice(2);
const fsp = createRequire(import.meta.url)('node:fs/promises');
const original = fsp.link;
const stop = () => { process.stdout.write('paused\\n'); return new Promise(() => setInterval(() => undefined, 60_000)); };
fsp.link = async (existing, target) => {
  const isSession = String(target).endsWith('/' + sessionId + '.json');
  if (isSession && pause === 'before-link') await stop();
  await original(existing, target);
  if (isSession && pause === 'after-link') await stop();
};
syncBuiltinESMExports();
const { writeArtifact } = await import(${JSON.stringify(childModuleUrl('io/artifacts'))});
const session = { ...JSON.parse(readFileSync(templatePath, 'utf8')), id: sessionId };
await writeArtifact(repo, 'agent-sessions/' + sessionId + '.json', JSON.stringify(session, null, 2) + '\\n', { mode: 'create' });
process.stdout.write('done\\n');
`;

type KillPoint = 'before-link' | 'after-link' | 'file-appears' | 'file-appears-late';

let repo: TestRepo;
let scripts: string;
let workerPath: string;
let templatePath: string;
let sessionsDir: string;
const validateSession = getValidator('agent-session');

before(async () => {
  repo = createRepo({
    'src/pricing/discount.ts':
      'export function applyLoyaltyDiscount(total: number, tier: string): number {\n  return tier === "silver" ? total * 0.95 : total;\n}\n',
    'test/pricing/discount.test.ts':
      'import { applyLoyaltyDiscount } from "../../src/pricing/discount";\nexport const checks = [applyLoyaltyDiscount(100, "silver")];\n',
  });
  scripts = makeTempDir('checker-crash-worker-');
  workerPath = join(scripts, 'start-session-worker.mjs');
  writeFileSync(workerPath, WORKER);
  sessionsDir = join(repo.dir, '.checker/local/agent-sessions');
  mkdirSync(sessionsDir, { recursive: true });
  const env = createTestEnv(repo.dir);
  try {
    await startSession(env, { sessionId: 'template', task: TASK });
  } finally {
    await env.close();
  }
  templatePath = join(scripts, 'template.json');
  writeFileSync(templatePath, readFileSync(join(sessionsDir, 'template.json')));
});
after(() => {
  repo.cleanup();
  rmSync(scripts, { recursive: true, force: true });
});

/**
 * Starts a child and SIGKILLs it at `point`: when it reports the pause, or as soon as a file shows up in the sessions
 * folder (the temp file, or the session file itself), optionally a few event-loop turns later. Resolves once it died.
 */
function runAndKill(argv: string[], point: KillPoint): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const watcher =
      point === 'file-appears' || point === 'file-appears-late'
        ? watch(sessionsDir, () => {
            if (point === 'file-appears') kill();
            else setImmediate(() => setImmediate(kill));
          })
        : undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('paused')) kill();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      watcher?.close();
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0) resolve('finished');
      else reject(new Error(`worker exited with ${code}: ${stderr}`));
    });
  });
}

/** The file is absent or a complete, schema-valid session; returns which. Nothing else but strays may be there. */
function inspect(id: string): 'absent' | 'complete' {
  const target = join(sessionsDir, `${id}.json`);
  for (const name of readdirSync(sessionsDir)) {
    if (name.endsWith('.json')) continue;
    assert.match(name, STRAY, `unexpected file ${name}`);
  }
  if (!existsSync(target)) return 'absent';
  const text = readFileSync(target, 'utf8');
  assert.ok(text.length > 0, `${id}.json is empty`);
  const data: unknown = JSON.parse(text);
  assert.equal(validateSession(data), true, JSON.stringify(validateSession.errors));
  return 'complete';
}

/** `session start` with the same id: succeeds when the file was absent, says exists when it was complete. */
async function startAgain(id: string, state: 'absent' | 'complete'): Promise<void> {
  const env = createTestEnv(repo.dir);
  try {
    if (state === 'absent') {
      const result = await startSession(env, { sessionId: id, task: TASK });
      assert.equal(result.status, 'active');
      assert.equal(inspect(id), 'complete');
    } else {
      await assert.rejects(startSession(env, { sessionId: id, task: TASK }), (error: unknown) => {
        assert.ok(isCheckerError(error), String(error));
        assert.equal(error.code, 'session/exists', error.message);
        return true;
      });
    }
  } finally {
    await env.close();
  }
}

describe('SIGKILL during session start', () => {
  it(`leaves the session absent or complete over ${ITERATIONS} kills at varied points, and the id stays usable`, async (t) => {
    const points: KillPoint[] = ['before-link', 'after-link', 'file-appears', 'file-appears-late'];
    const seen = new Map<string, number>();
    for (let i = 0; i < ITERATIONS; i += 1) {
      const point = points[i % points.length] ?? 'file-appears';
      const id = `kill-${i}`;
      const pause = point === 'before-link' || point === 'after-link' ? point : 'none';
      const outcome = await runAndKill([...childNodeArgs(), workerPath, repo.dir, id, pause, templatePath], point);
      const state = inspect(id);
      if (point === 'before-link') assert.equal(state, 'absent');
      if (point === 'after-link') assert.equal(state, 'complete');
      seen.set(`${point}:${outcome}:${state}`, (seen.get(`${point}:${outcome}:${state}`) ?? 0) + 1);
      await startAgain(id, state);
    }
    t.diagnostic(`point:outcome:state counts ${JSON.stringify([...seen].sort())}`);
    const states = [...seen.keys()].map((key) => key.split(':')[2]);
    assert.ok(states.includes('absent') && states.includes('complete'), JSON.stringify([...seen]));
  });

  it('the real CLI killed as its session file appears leaves it absent or complete, never session/corrupt', async () => {
    for (let i = 0; i < 2; i += 1) {
      const id = `cli-kill-${i}`;
      const argv = [...cliArgv(), 'session', 'start', '--cwd', repo.dir, '--session', id, '--task', TASK, '--format', 'json'];
      await runAndKill(argv, i === 1 ? 'file-appears-late' : 'file-appears');
      await startAgain(id, inspect(id));
    }
  });

  it('an empty session file left by an older version no longer blocks its id once it is a minute old', async () => {
    const target = join(sessionsDir, 'legacy-empty.json');
    writeFileSync(target, '');
    const env = createTestEnv(repo.dir);
    try {
      await assert.rejects(
        startSession(env, { sessionId: 'legacy-empty', task: TASK }),
        (error: unknown) => isCheckerError(error) && error.code === 'session/exists',
      );
      assert.equal(readFileSync(target, 'utf8'), '');
      const old = new Date(Date.now() - 5 * 60_000);
      utimesSync(target, old, old);
      const result = await startSession(env, { sessionId: 'legacy-empty', task: TASK });
      assert.equal(result.status, 'active');
    } finally {
      await env.close();
    }
    assert.equal(inspect('legacy-empty'), 'complete');
  });
});

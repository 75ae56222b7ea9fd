import type { Config } from '../../model/config.js';
import type { OutputExcerpt } from '../../model/command.js';
import { CheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { ServiceExit, ServiceHandle } from '../../model/service.js';
import { splitCommand } from '../../text/command-words.js';
import { runCheck, toPlainText, toRunId } from '../checks.js';
import { type ConfigTrust, decideGate, findTrustedConfigFile, loadTrustedConfig } from '../load/trusted-config.js';
import { loadUserSettings } from '../load/user-config.js';
import { isUrlHostAllowed } from '../../text/hosts.js';
import { countOf } from '../../text/plural.js';
import { type HealthWait, waitForHealth } from './health.js';

type ProductTarget = NonNullable<NonNullable<Config['products']>['targets']>[string];

export const DEFAULT_HEALTH_TIMEOUT_MS = 30_000;
const DEFAULT_HEALTH_INTERVAL_MS = 500;
const DEFAULT_TEARDOWN_TIMEOUT_MS = 120_000;

export interface ProductTargetOptions {
  target: string;
  /** The user asked for execution (`checker product`, MCP `confirmExecution: true`); the config gate must be open too. */
  confirmed: boolean;
  /** A worktree under `.checker/local/worktrees/` to bring the target up from (the base revision); default the repository root. */
  cwd?: string;
  /** Reuse a run id (the base run lives in the head run's folder); default a new one. */
  artifactFolder?: string;
  /** The base revision the target's configuration is read from (default: the change's base, as readChange finds it). */
  base?: string;
  /** `--trust-changed-config`: bring up the target as the change configures it when it alters the base's. */
  trustChangedConfig?: boolean;
}

/** What the workflows of a run get once the target is up. */
export interface ProductTargetContext {
  target: string;
  baseUrl: string;
  runId: string;
  /** The run's folder relative to `.checker/local/` (`product-runs/<runId>`), for `env.writeArtifact`. */
  artifactFolder: string;
  /** The same folder, absolute (for tools that write files themselves: screenshots, traces). */
  runFolder: string;
  /** Settles if the app's process ends during the run; undefined when the target has no `start`. */
  serviceExited: Promise<ServiceExit> | undefined;
}

export type ProductPhaseName = 'setup' | 'start' | 'health' | 'workflows' | 'stop' | 'teardown';

export interface ProductPhase {
  name: ProductPhaseName;
  status: 'passed' | 'failed' | 'skipped';
  reason: string;
  durationMs: number;
  argv?: string[];
  /** start: the app's process id (leader of its process group). */
  pid?: number;
  exitCode?: number | null;
  signal?: string | null;
  stdout?: OutputExcerpt;
  stderr?: OutputExcerpt;
  /** health: the URL polled, the attempts, the last status or connection error. */
  url?: string;
  attempts?: number;
  lastStatus?: number;
  lastError?: string;
}

export interface ProductTargetFailure {
  phase: ProductPhaseName;
  classification: 'environment-failure';
  message: string;
  evidence: string[];
}

export interface ProductTargetRun<T> {
  target: string;
  baseUrl: string;
  gate: { requested: boolean; allowCommands: boolean; open: boolean; explanation: string };
  /** not-run: the gate was closed and nothing was started. */
  status: 'passed' | 'failed' | 'not-run';
  runId?: string;
  /** `.checker/local/product-runs/<runId>` */
  runFolder?: string;
  phases: ProductPhase[];
  /** Why the target could not be brought up or torn down; the workflows' own failures are in `result`. */
  failure?: ProductTargetFailure;
  /** What the workflows returned, when they ran. */
  result?: T;
}

/** The configured target `name`, or CheckerError `product/unknown-target` naming the configured ones. */
export function findProductTarget(config: Config, name: string, trust: ConfigTrust): ProductTarget {
  const targets = config.products?.targets ?? {};
  if (Object.hasOwn(targets, name)) {
    const target = targets[name];
    if (target !== undefined) return target;
  }
  const known = Object.keys(targets).sort();
  throw new CheckerError(
    'product/unknown-target',
    `no product target ${JSON.stringify(name)} in ${trust.source}; ${known.length === 0 ? 'no targets are configured' : `configured: ${known.join(', ')}`}`,
    {
      hint: `Add it under products.targets in ${findTrustedConfigFile(trust, 'products.targets')} (baseUrl, kind, start, healthcheck), or pick a configured one.`,
    },
  );
}

type TargetCommands = Partial<Record<'setup' | 'start' | 'teardown', { argv: string[]; timeoutMs: number | undefined }>>;

function toTargetCommands(name: string, target: ProductTarget, source: string): TargetCommands {
  const commands: TargetCommands = {};
  for (const key of ['setup', 'start', 'teardown'] as const) {
    const spec = target[key];
    if (spec === undefined) continue;
    const words = splitCommand(spec.command);
    if (!words.ok) {
      throw new CheckerError('product/invalid-command', `products.targets.${name}.${key}.command ${words.problem} (in ${source})`, {
        hint: 'Write the command as plain words; checker runs it without a shell.',
        location: { file: source },
      });
    }
    commands[key] = { argv: [...words.argv, ...(spec.args ?? [])], timeoutMs: spec.timeoutMs };
  }
  return commands;
}

/**
 * A product target is reached only at a loopback address, or at a host the user allowed (`products.allowHosts` in the
 * user config, CHECKER_ALLOW_HOSTS): a repository cannot point checker's requests and browser at the network
 * (link-local metadata services, the LAN). CheckerError `product/host-not-allowed` otherwise.
 */
export function assertHostAllowed(name: string, baseUrl: string, allowHosts: readonly string[], source: string): void {
  if (isUrlHostAllowed(baseUrl, allowHosts)) return;
  const host = new URL(baseUrl).host;
  throw new CheckerError(
    'product/host-not-allowed',
    `products.targets.${name}.baseUrl (${source}) is on ${host}, which is not a loopback address nor a host you allowed; nothing was started`,
    {
      hint: `If you mean to test ${host}, allow it yourself: products.allowHosts: [${JSON.stringify(host)}] in ~/.config/checker/config.yml, or CHECKER_ALLOW_HOSTS=${host}. A repository cannot allow hosts.`,
    },
  );
}

/** The healthcheck URL: `baseUrl` without its trailing slashes, then the path (default `/`). */
export function toHealthUrl(baseUrl: string, path: string | undefined): string {
  return `${baseUrl.replace(/\/+$/, '')}${path ?? '/'}`;
}

/**
 * Brings product target `options.target` up, runs `body` against it and always brings it down: setup, start (its own
 * process group), wait for the healthcheck, `body`, then stop the app and tear down, also when a phase fails or `body`
 * throws (the error is rethrown once the target is down) and, through the exit hook, on Ctrl-C. With the gate closed
 * nothing starts. Returns each phase, and a failure to bring the target up classified as `environment-failure`.
 */
export async function runProductTarget<T>(
  env: Env,
  options: ProductTargetOptions,
  body: (context: ProductTargetContext) => Promise<T>,
): Promise<ProductTargetRun<T>> {
  const loaded = await loadTrustedConfig(env, {
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.trustChangedConfig === true ? { trustChangedConfig: true } : {}),
  });
  const source = loaded.trust.source;
  const target = findProductTarget(loaded.config, options.target, loaded.trust);
  const commands = toTargetCommands(options.target, target, source);
  const gate = decideGate(loaded, options.confirmed, 'product');
  const { open } = gate;
  if (open) assertHostAllowed(options.target, target.baseUrl, (await loadUserSettings(env)).allowHosts, source);
  const run: ProductTargetRun<T> = { target: options.target, baseUrl: target.baseUrl, gate, status: 'not-run', phases: [] };
  if (!open) return run;

  const runId = toRunId(env.now());
  const artifactFolder = options.artifactFolder ?? `product-runs/${runId}`;
  const runFolder = await env.createArtifactFolder(artifactFolder);
  run.runId = runId;
  run.runFolder = `.checker/local/${artifactFolder}`;
  const fail = (failure: ProductTargetFailure): void => {
    run.failure ??= failure;
  };
  const forgetTeardown =
    commands.teardown === undefined
      ? () => undefined
      : env.runCommandOnExit({
          argv: commands.teardown.argv,
          timeoutMs: commands.teardown.timeoutMs ?? DEFAULT_TEARDOWN_TIMEOUT_MS,
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        });
  let service: ServiceHandle | undefined;
  let thrown: { error: unknown } | undefined;
  try {
    const isUp = await bringUp(env, { name: options.target, target, commands, cwd: options.cwd }, run, fail, (handle) => {
      service = handle;
    });
    if (isUp) {
      const started = env.now().getTime();
      try {
        run.result = await body({
          target: options.target,
          baseUrl: target.baseUrl,
          runId,
          artifactFolder,
          runFolder,
          serviceExited: service?.exited,
        });
        run.phases.push({ name: 'workflows', status: 'passed', reason: 'the workflows ran', durationMs: env.now().getTime() - started });
      } catch (error) {
        thrown = { error };
        const reason = `the workflows threw: ${error instanceof Error ? error.message : String(error)}`;
        run.phases.push({ name: 'workflows', status: 'failed', reason, durationMs: env.now().getTime() - started });
      }
    }
  } catch (error) {
    thrown ??= { error };
  } finally {
    if (service !== undefined) run.phases.push(await stopService(env, service));
    if (commands.teardown !== undefined) {
      const teardown = await runPhase(
        env,
        'teardown',
        commands.teardown.argv,
        commands.teardown.timeoutMs ?? DEFAULT_TEARDOWN_TIMEOUT_MS,
        options.cwd,
      );
      run.phases.push(teardown);
      if (teardown.status === 'failed') {
        fail({
          phase: 'teardown',
          classification: 'environment-failure',
          message: `teardown ${teardown.reason}`,
          evidence: toCommandEvidence(teardown),
        });
      }
    }
    forgetTeardown();
  }
  if (thrown !== undefined) throw thrown.error;
  run.status = run.failure === undefined ? 'passed' : 'failed';
  return run;
}

/** Setup, start and healthcheck; false (with the failure recorded) when the target did not come up. */
async function bringUp(
  env: Env,
  input: { name: string; target: ProductTarget; commands: TargetCommands; cwd: string | undefined },
  run: ProductTargetRun<unknown>,
  fail: (failure: ProductTargetFailure) => void,
  keep: (service: ServiceHandle) => void,
): Promise<boolean> {
  const { target, commands } = input;
  if (commands.setup !== undefined) {
    const setup = await runPhase(env, 'setup', commands.setup.argv, commands.setup.timeoutMs, input.cwd);
    run.phases.push(setup);
    if (setup.status === 'failed') {
      fail({ phase: 'setup', classification: 'environment-failure', message: `setup ${setup.reason}`, evidence: toCommandEvidence(setup) });
      return false;
    }
  }
  let service: ServiceHandle | undefined;
  if (commands.start !== undefined) {
    const started = env.now().getTime();
    service = await env.startService({ argv: commands.start.argv, ...(input.cwd === undefined ? {} : { cwd: input.cwd }) });
    keep(service);
    const exit = service.pid === undefined ? await service.exited : undefined;
    if (exit?.spawnError !== undefined) {
      const reason = `could not start: ${exit.spawnError}`;
      run.phases.push({ name: 'start', status: 'failed', reason, durationMs: env.now().getTime() - started, argv: commands.start.argv });
      fail({ phase: 'start', classification: 'environment-failure', message: `the app ${reason}`, evidence: [reason] });
      return false;
    }
    run.phases.push({
      name: 'start',
      status: 'passed',
      reason: `started (pid ${String(service.pid)})`,
      durationMs: env.now().getTime() - started,
      argv: commands.start.argv,
      ...(service.pid === undefined ? {} : { pid: service.pid }),
    });
  }
  const health = await waitForHealth(
    env,
    {
      url: toHealthUrl(target.baseUrl, target.healthcheck?.path),
      intervalMs: target.healthcheck?.intervalMs ?? DEFAULT_HEALTH_INTERVAL_MS,
      timeoutMs: target.healthcheck?.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS,
      expectStatus: target.healthcheck?.expectStatus,
    },
    service?.exited,
  );
  const phase = toHealthPhase(health, target.healthcheck?.expectStatus);
  run.phases.push(phase);
  if (health.outcome === 'healthy') return true;
  const evidence = [phase.reason];
  if (health.outcome === 'exited' && service !== undefined) {
    const stopped = await service.stop();
    const stderr = lastLine(toPlainText(stopped.stderr));
    if (stderr !== undefined) evidence.push(`its last stderr line: ${stderr}`);
  }
  fail({
    phase: health.outcome === 'exited' ? 'start' : 'health',
    classification: 'environment-failure',
    message: health.outcome === 'exited' ? 'the app exited before it became healthy' : `the app did not become healthy: ${phase.reason}`,
    evidence,
  });
  return false;
}

function toHealthPhase(health: HealthWait, expectStatus: number | undefined): ProductPhase {
  const expected = expectStatus === undefined ? 'a 2xx or 3xx status' : `status ${expectStatus}`;
  const last =
    health.lastStatus !== undefined
      ? `the last answer was ${health.lastStatus}`
      : health.lastError !== undefined
        ? `the last attempt got no answer (${health.lastError})`
        : 'no attempt was made';
  const exit = health.exit;
  const reason =
    health.outcome === 'healthy'
      ? `GET ${health.url} answered ${String(health.lastStatus)} after ${countOf(health.attempts, 'attempt')}`
      : health.outcome === 'timed-out'
        ? `GET ${health.url} did not answer ${expected} within ${health.durationMs} ms (${health.attempts} attempts); ${last}`
        : `the app ${exit?.exitCode === null || exit === undefined ? `was killed by ${exit?.signal ?? 'a signal'}` : `exited ${exit.exitCode}`} before GET ${health.url} answered ${expected}; ${last}`;
  return {
    name: 'health',
    status: health.outcome === 'healthy' ? 'passed' : 'failed',
    reason,
    durationMs: health.durationMs,
    url: health.url,
    attempts: health.attempts,
    ...(health.lastStatus === undefined ? {} : { lastStatus: health.lastStatus }),
    ...(health.lastError === undefined ? {} : { lastError: health.lastError }),
    ...(exit === undefined ? {} : { exitCode: exit.exitCode, signal: exit.signal }),
  };
}

async function runPhase(
  env: Env,
  name: 'setup' | 'teardown',
  argv: string[],
  timeoutMs: number | undefined,
  cwd: string | undefined,
): Promise<ProductPhase> {
  const result = await runCheck(env, {
    id: name,
    argv,
    timeoutMs,
    leftMs: Number.POSITIVE_INFINITY,
    ...(cwd === undefined ? {} : { cwd }),
  });
  return {
    name,
    status: result.status === 'passed' ? 'passed' : 'failed',
    reason: result.reason,
    durationMs: result.durationMs ?? 0,
    argv,
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    ...(result.stdout === undefined ? {} : { stdout: result.stdout }),
    ...(result.stderr === undefined ? {} : { stderr: result.stderr }),
  };
}

/** Stops the app; the phase's duration is the stop itself (the app's whole lifetime is in the start phase's pid and the run). */
async function stopService(env: Env, service: ServiceHandle): Promise<ProductPhase> {
  const startedAt = env.now().getTime();
  const stopped = await service.stop();
  const how = stopped.exitCode === null ? `ended by ${stopped.signal ?? 'a signal'}` : `exited ${stopped.exitCode}`;
  return {
    name: 'stop',
    status: 'passed',
    reason: stopped.exitedBeforeStop
      ? `the app had already ${how}; its process group was killed`
      : `the app's process group was stopped (${how})`,
    durationMs: Math.max(0, env.now().getTime() - startedAt),
    exitCode: stopped.exitCode,
    signal: stopped.signal,
    stdout: toPlainText(stopped.stdout),
    stderr: toPlainText(stopped.stderr),
  };
}

function toCommandEvidence(phase: ProductPhase): string[] {
  const evidence = [`${phase.name} (${(phase.argv ?? []).join(' ')}) ${phase.reason}`];
  const stderr = phase.stderr === undefined ? undefined : lastLine(phase.stderr);
  if (stderr !== undefined) evidence.push(`its last stderr line: ${stderr}`);
  return evidence;
}

function lastLine(excerpt: OutputExcerpt): string | undefined {
  const text = `${excerpt.head}${excerpt.tail}`.trim();
  if (text === '') return undefined;
  return text.split('\n').at(-1)?.trim().slice(0, 500);
}

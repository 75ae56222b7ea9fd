import type { AgentBundle } from '../model/bundle.js';
import type { Env } from '../model/env.js';
import { executeChecks } from './execute.js';
import { type RunAgentBundleOptions, runAgentBundle } from './run-agent-bundle.js';

/**
 * `checker ai --with-checks` / `agent --with-checks`: runs the configured checks first, through the same gate as
 * checker execute (the flag is the request, `safety.allowCommands: true` the permission; the agent process is left
 * out), then builds the bundle, which holds their results, and whose proof reads the coverage the passing checks wrote.
 */
export async function runAgentBundleWithChecks(
  env: Env,
  options: Omit<RunAgentBundleOptions, 'execution'>,
  onProgress?: (message: string) => void,
): Promise<AgentBundle> {
  const execution = await executeChecks(env, {
    confirmed: true,
    skipAgentProcess: true,
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.head === undefined ? {} : { head: options.head }),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return runAgentBundle(env, { ...options, execution });
}

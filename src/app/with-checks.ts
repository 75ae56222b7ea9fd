import type { AgentBundle } from '../model/bundle.js';
import type { Env } from '../model/env.js';
import type { ExecutionReport } from '../model/execution.js';
import { executeChecks } from './execute.js';
import { type RunAgentBundleOptions, runAgentBundle } from './run-agent-bundle.js';

/**
 * `checker ai --with-checks` / `agent --with-checks`: runs the configured checks first, through the same gate as
 * checker execute (the flag is the request, `safety.allowCommands: true` the permission; the agent process is left
 * out), then builds the bundle, which holds their results, and whose proof reads the coverage the passing checks wrote.
 */
export async function runAgentBundleWithChecks(
  env: Env,
  options: Omit<RunAgentBundleOptions, 'execution'> & { trustChangedConfig?: boolean },
  onProgress?: (message: string) => void,
): Promise<{ bundle: AgentBundle; execution: ExecutionReport }> {
  const { trustChangedConfig, ...bundleOptions } = options;
  const execution = await executeChecks(env, {
    confirmed: true,
    skipAgentProcess: true,
    ...(trustChangedConfig === true ? { trustChangedConfig: true } : {}),
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.head === undefined ? {} : { head: options.head }),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return { bundle: await runAgentBundle(env, { ...bundleOptions, execution }), execution };
}

import type { RepositoryGraph } from './build-graph.js';
import type { ChangeAnalysis } from '../model/analysis.js';
import type { AgentBundle } from '../model/bundle.js';
import type { Env } from '../model/env.js';
import type { ExecutionReport } from '../model/execution.js';
import { buildAgentBundle } from './agent-bundle.js';
import { analyzeRange } from './analysis-memo.js';
import { analyzeChange } from './analyze.js';
import { readBundleInputs, toResolvedRange, type BundleOptions } from './load/read-bundle-inputs.js';

export interface RunAgentBundleOptions extends BundleOptions {
  base?: string;
  head?: string;
  /** A graph already built (the MCP server keeps one warm). */
  repository?: RepositoryGraph;
  /** The analysis of exactly this range over `repository`, when the caller has it (the MCP server's memoised one). */
  analysis?: ChangeAnalysis;
  /** The `--with-checks` run made for this bundle (src/app/with-checks.ts); its results go into the bundle. */
  execution?: ExecutionReport;
}

/** `checker ai` / `checker agent`: the deterministic analysis of the range, packaged for a coding agent. */
export async function runAgentBundle(env: Env, options: RunAgentBundleOptions): Promise<AgentBundle> {
  const range = {
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.head === undefined ? {} : { head: options.head }),
  };
  const analysis =
    options.analysis ??
    (options.repository === undefined
      ? await analyzeRange(env, range)
      : await analyzeChange(env, { ...range, repository: options.repository }));
  const input = await readBundleInputs(env, options, toResolvedRange(analysis));
  return buildAgentBundle(analysis, options.execution === undefined ? input : { ...input, execution: options.execution });
}

import { performance } from 'node:perf_hooks';

export const resultMarker = 'CHECKER_BENCH_RESULT ';

interface ChildResult {
  ok: boolean;
  reason?: string;
  ms?: number;
  nodes?: number;
  edges?: number;
  stats?: unknown;
  timings?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isMissingPipeline(error: unknown): boolean {
  return isRecord(error) && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('build-graph.');
}

function print(result: ChildResult): void {
  process.stdout.write(`${resultMarker}${JSON.stringify(result)}\n`);
}

/** `createNodeEnv(root, {useCache})` from src/io/node-env.ts when the pipeline takes an Env. */
async function loadEnvFactory(): Promise<((...args: unknown[]) => unknown) | undefined> {
  const specifier: string = '../src/io/node-env.js';
  try {
    const loaded: unknown = await import(specifier);
    return isRecord(loaded) && typeof loaded.createNodeEnv === 'function'
      ? (loaded.createNodeEnv as (...args: unknown[]) => unknown)
      : undefined;
  } catch (error) {
    if (isRecord(error) && error.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

function findGraph(result: unknown): { order: number; size: number } | undefined {
  const candidates = isRecord(result) ? [result.graph, result.kg, isRecord(result.kg) ? result.kg.graph : undefined] : [];
  for (const candidate of candidates) {
    if (isRecord(candidate) && typeof candidate.order === 'number' && typeof candidate.size === 'number') {
      return { order: candidate.order, size: candidate.size };
    }
  }
  return undefined;
}

function summarize(result: Record<string, unknown>): Record<string, number> {
  const summary: Record<string, number> = {};
  const scan = result.scan;
  if (isRecord(scan) && Array.isArray(scan.files)) summary.files = scan.files.length;
  if (isRecord(scan) && Array.isArray(scan.skipped)) summary.skipped = scan.skipped.length;
  if (Array.isArray(result.limitations)) summary.limitations = result.limitations.length;
  return summary;
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (root === undefined) {
    process.stderr.write('usage: pipeline-child.ts <repo-root> [--no-cache]\n');
    process.exitCode = 2;
    return;
  }
  const useCache = !process.argv.includes('--no-cache');
  const override = process.env.CHECKER_BENCH_PIPELINE_MODULE;
  const specifier: string = override !== undefined && override !== '' ? override : '../src/app/build-graph.js';
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    if (!isMissingPipeline(error)) throw error;
    print({ ok: false, reason: 'pipeline not available yet: src/app/build-graph.ts does not exist' });
    process.exitCode = 3;
    return;
  }
  const build = isRecord(loaded) ? loaded.buildRepositoryGraph : undefined;
  if (typeof build !== 'function') {
    print({ ok: false, reason: 'pipeline not available yet: src/app/build-graph.ts does not export buildRepositoryGraph' });
    process.exitCode = 3;
    return;
  }
  const createEnv = override === undefined || override === '' ? await loadEnvFactory() : undefined;
  const started = performance.now();
  let result: unknown;
  if (createEnv !== undefined) {
    const env: unknown = createEnv(root, { useCache });
    try {
      result = await build(env);
    } finally {
      if (isRecord(env) && typeof env.close === 'function') await env.close();
    }
  } else {
    result = await build(root, { useCache });
  }
  const ms = performance.now() - started;
  const output: ChildResult = { ok: true, ms };
  const graph = findGraph(result);
  if (graph !== undefined) {
    output.nodes = graph.order;
    output.edges = graph.size;
  }
  if (isRecord(result)) {
    output.stats = result.stats ?? summarize(result);
    output.timings = result.timings;
  }
  print(output);
}

await main();

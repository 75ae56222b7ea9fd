import { availableParallelism } from 'node:os';
import { createNodeEnv, type NodeEnvOptions } from '../../src/io/node-env.js';
import { createParsePool, type ParsePool } from '../../src/io/parse-pool.js';
import type { Env } from '../../src/model/env.js';

let sharedPool: ParsePool | undefined;

/**
 * The real-disk Env, with one parse pool for the whole test process: a fresh pool per analysis
 * starts a child under tsx each time (0.6–1 s of CPU), which was most of the cost of the suite's
 * in-process analyses. Idle children are unreferenced, so the process still exits when its tests end.
 */
export function createTestEnv(root: string, options: Omit<NodeEnvOptions, 'pool' | 'keepPool'> = {}): Env {
  return createNodeEnv(root, { ...options, pool: sharedParsePool() });
}

/** The parse pool of this test process (see createTestEnv). */
export function sharedParsePool(): ParsePool {
  sharedPool ??= createParsePool({ size: Math.min(2, availableParallelism()) });
  return sharedPool;
}

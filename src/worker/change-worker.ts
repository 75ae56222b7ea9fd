import { parentPort, workerData } from 'node:worker_threads';
import { openRepository, readChange, type ReadChangeOptions } from '../io/git.js';
import { isRecord } from '../text/is-record.js';

// Reads one working-tree change on its own thread, while the main thread loads and patches the graph (src/io/node-env.ts,
// `prefetchChange`). Any failure answers nothing: the main thread then reads the change itself, with its own errors.
const data: unknown = workerData;
if (isRecord(data) && typeof data.root === 'string' && isRecord(data.range)) {
  try {
    const repo = await openRepository(data.root);
    parentPort?.postMessage({ change: await readChange(repo, data.range as ReadChangeOptions) });
  } catch {
    parentPort?.postMessage({});
  }
} else parentPort?.postMessage({});

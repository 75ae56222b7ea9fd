import { TASK_CONTEXT_ARTIFACT } from './context-packet.js';
import { SESSIONS_FOLDER } from './session.js';

/** One piece of state checker keeps under `.checker/local/`: a folder (`path` ends in `/`) or a single file. */
export interface LocalStateEntry {
  path: string;
  what: string;
}

/**
 * What checker itself writes and reads back under `.checker/local/` (design.md, "Local state"). An `--output` file
 * never lands on any of it: a report written over a session, a run record or a cache entry would replace checker's
 * own state with something else, silently.
 */
const CHECKER_LOCAL_STATE: readonly LocalStateEntry[] = [
  { path: `${SESSIONS_FOLDER}/`, what: 'durable agent sessions' },
  { path: TASK_CONTEXT_ARTIFACT, what: 'the task context packet that sessions point at' },
  { path: 'product-runs/', what: 'product run records and the latest run' },
  { path: 'product-tests/', what: 'generated product tests' },
  { path: 'agent-process/', what: 'the bundle handed to the agent process' },
  { path: 'executions/', what: 'execution records, their capped output and V8 coverage' },
  { path: 'differentials/', what: 'differential run records' },
  { path: 'worktrees/', what: 'temporary base checkouts' },
  { path: 'cache/', what: 'parse, history and analysis caches' },
  { path: 'ci/', what: 'the files checker ci writes for the CI job' },
];

/** Lock files checker takes beside an artifact (`<artifact>.lock`, `<artifact>.lock.break`). */
const LOCK_FILE_SUFFIXES: readonly string[] = ['.lock', '.lock.break'];

/**
 * The checker-owned state a path relative to `.checker/local/` would replace, if any. Compared without case, since
 * `Agent-Sessions/x.json` is the same file on a case-insensitive filesystem.
 */
export function findLocalState(relativePath: string): LocalStateEntry | undefined {
  const path = relativePath.toLowerCase();
  const owned = CHECKER_LOCAL_STATE.find((entry) => (entry.path.endsWith('/') ? path.startsWith(entry.path) : path === entry.path));
  if (owned !== undefined) return owned;
  const suffix = LOCK_FILE_SUFFIXES.find((ending) => path.endsWith(ending));
  return suffix === undefined ? undefined : { path: `*${suffix}`, what: "checker's lock files" };
}

import { isRecord } from '../text/is-record.js';
import { redactSecrets } from '../text/redact/redact.js';

export interface YamlProblem {
  /** What is wrong, as the yaml library says it: its first line, without the position it appends. */
  reason: string;
  /** Where, 1-based, when the library says. */
  position?: { line: number; col: number };
}

/**
 * A yaml library error as what is wrong and where. The library's message ends "at line 2, column 1:" and goes on with
 * the quoted source lines; those may hold secrets (security H38), so only the first line is kept, and its dangling
 * position is moved out, for the caller to say beside the reason.
 */
export function toYamlProblem(error: unknown, fallback: string): YamlProblem {
  const raw = error instanceof Error ? (error.message.split('\n')[0] ?? '') : '';
  const reason = redactSecrets(raw.replace(/\s*at line \d+, column \d+:?\s*$/, '').replace(/:\s*$/, '')).text.trim();
  const position = readLinePos(error);
  return { reason: reason === '' ? fallback : reason, ...(position === undefined ? {} : { position }) };
}

/** The problem as one phrase: `<reason> (line 2, column 1)`. */
export function describeYamlProblem(problem: YamlProblem): string {
  return problem.position === undefined
    ? problem.reason
    : `${problem.reason} (line ${problem.position.line}, column ${problem.position.col})`;
}

function readLinePos(error: unknown): { line: number; col: number } | undefined {
  if (typeof error !== 'object' || error === null || !('linePos' in error)) return undefined;
  const linePos: unknown = error.linePos;
  const first: unknown = Array.isArray(linePos) ? linePos[0] : undefined;
  if (!isRecord(first)) return undefined;
  const { line, col } = first;
  return typeof line === 'number' && typeof col === 'number' ? { line, col } : undefined;
}

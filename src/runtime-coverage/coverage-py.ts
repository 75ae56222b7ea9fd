import { isRecord } from '../text/is-record.js';
import { addProblem, createProblemLog, type ProblemLog } from './problems.js';

export interface LineCoverageFile {
  /** The path as the coverage tool wrote it. */
  path: string;
  lines: Map<number, number>;
}

export type LineCoverageResult = { ok: true; files: LineCoverageFile[]; problems: ProblemLog } | { ok: false; message: string };

function isLineList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((line) => typeof line === 'number' && Number.isInteger(line) && line >= 1);
}

/**
 * Line hits from coverage.py's `coverage json` report (`{"files": {"<path>": {"executed_lines": [...],
 * "missing_lines": [...]}}}`): an executed line counts 1, a missing one 0 (the report keeps no counts).
 */
export function parseCoveragePyJson(data: unknown): LineCoverageResult {
  const files = isRecord(data) ? data.files : undefined;
  if (!isRecord(data) || !isRecord(files) || !isRecord(data.meta))
    return { ok: false, message: 'expected coverage.py JSON {"meta": …, "files": {…}}' };
  const problems = createProblemLog();
  const out: LineCoverageFile[] = [];
  for (const [path, entry] of Object.entries(files)) {
    const executed = isRecord(entry) ? entry.executed_lines : undefined;
    const missing = isRecord(entry) ? entry.missing_lines : undefined;
    if (!isLineList(executed) || !isLineList(missing)) {
      addProblem(problems, {
        message: `file ${JSON.stringify(path.slice(0, 200))} has no executed_lines/missing_lines lists of line numbers`,
      });
      continue;
    }
    const lines = new Map<number, number>();
    for (const line of missing) lines.set(line, 0);
    for (const line of executed) lines.set(line, 1);
    out.push({ path, lines });
  }
  return { ok: true, files: out, problems };
}

/** One block of a Go cover profile: `file.go:startLine.startCol,endLine.endCol statements count`. */
const GO_BLOCK = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$/;

/**
 * Line hits from a Go cover profile (`go test -coverprofile`): each block's count on every line it spans, the highest
 * where blocks meet. Paths are import paths with the file name (`example.com/shop/orders/orders.go`); the caller maps
 * them onto the repository.
 */
export function parseGoCoverProfile(text: string): LineCoverageResult {
  const rows = text.split('\n');
  if (!/^mode: (?:set|count|atomic)\s*$/.test(rows[0] ?? ''))
    return { ok: false, message: 'expected a Go cover profile starting with "mode: set|count|atomic"' };
  const problems = createProblemLog();
  const byPath = new Map<string, Map<number, number>>();
  rows.forEach((row, index) => {
    if (index === 0 || row.trim() === '') return;
    const match = GO_BLOCK.exec(row.trim());
    const start = Number(match?.[2]);
    const end = Number(match?.[3]);
    const count = Number(match?.[5]);
    if (match === null || !(start >= 1) || end < start || !Number.isSafeInteger(count)) {
      addProblem(problems, { message: 'not a cover profile block', line: index + 1 });
      return;
    }
    const path = match[1] ?? '';
    let lines = byPath.get(path);
    if (lines === undefined) {
      lines = new Map();
      byPath.set(path, lines);
    }
    for (let line = start; line <= end; line++) lines.set(line, Math.max(lines.get(line) ?? 0, count));
  });
  return { ok: true, files: [...byPath].map(([path, lines]) => ({ path, lines })), problems };
}

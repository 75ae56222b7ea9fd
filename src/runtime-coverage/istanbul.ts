import { isRecord } from '../text/is-record.js';
import { addProblem, createProblemLog, type ProblemLog } from './problems.js';

export interface IstanbulFile {
  /** The entry's own `path`, else its key, as the coverage tool wrote it. */
  path: string;
  lines: Map<number, number>;
}

export type IstanbulResult = { ok: true; files: IstanbulFile[]; problems: ProblemLog } | { ok: false; message: string };

/**
 * Line hits from an istanbul `coverage-final.json` object, derived from statements as istanbul's own
 * `getLineCoverage` does: the highest count of a statement starting on the line.
 */
export function parseIstanbulCoverage(data: unknown): IstanbulResult {
  if (!isRecord(data)) return { ok: false, message: 'expected an object keyed by file path' };
  const problems = createProblemLog();
  const files: IstanbulFile[] = [];
  for (const [key, rawEntry] of Object.entries(data)) {
    const entry = isRecord(rawEntry) && isRecord(rawEntry.data) ? rawEntry.data : rawEntry;
    const statementMap = isRecord(entry) ? entry.statementMap : undefined;
    const counts = isRecord(entry) ? entry.s : undefined;
    if (!isRecord(entry) || !isRecord(statementMap) || !isRecord(counts)) {
      addProblem(problems, { message: `entry ${JSON.stringify(key.slice(0, 200))} has no statementMap/s objects` });
      continue;
    }
    const lines = new Map<number, number>();
    for (const [id, count] of Object.entries(counts)) {
      const location = statementMap[id];
      const start = isRecord(location) ? location.start : undefined;
      const line = isRecord(start) ? start.line : undefined;
      if (
        typeof count !== 'number' ||
        !Number.isInteger(count) ||
        count < 0 ||
        typeof line !== 'number' ||
        !Number.isInteger(line) ||
        line < 1
      ) {
        addProblem(problems, { message: `entry ${JSON.stringify(key.slice(0, 200))} statement ${JSON.stringify(id)} is invalid` });
        continue;
      }
      const previous = lines.get(line);
      if (previous === undefined || previous < count) lines.set(line, count);
    }
    const declared = entry.path;
    files.push({ path: typeof declared === 'string' ? declared : key, lines });
  }
  return { ok: true, files, problems };
}

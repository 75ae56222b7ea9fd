/** A malformed part of a coverage report: what is wrong and, for line-based formats, where. */
export interface CoverageProblem {
  message: string;
  line?: number;
}

/** Problems of one report: the first `limit` are listed, the rest only counted. */
export interface ProblemLog {
  listed: CoverageProblem[];
  total: number;
}

/** Listed problems of one report before the rest are only counted. */
export const MAX_PROBLEMS_PER_REPORT = 20;

export function createProblemLog(): ProblemLog {
  return { listed: [], total: 0 };
}

export function addProblem(log: ProblemLog, problem: CoverageProblem): void {
  log.total += 1;
  if (log.total <= MAX_PROBLEMS_PER_REPORT) log.listed.push(problem);
}

/** Number of problems counted but not listed. */
export function countUnlisted(log: ProblemLog): number {
  return Math.max(0, log.total - MAX_PROBLEMS_PER_REPORT);
}

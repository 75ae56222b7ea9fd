import type { BundleTask } from '../model/bundle.js';

/** A task before ranking: what it is about and what it asks, so two tasks asking the same thing merge. */
export interface TaskCandidate {
  task: BundleTask;
  /** The thing the task is about: a file path, a route id, a criterion id, an edge-case id. */
  subject: string;
  /** What the task asks for the subject: `test`, `fix`, `prove`, `strengthen`, `review`. */
  action: string;
  /** How much the task matters (risk of what it guards), 0-100. */
  weight: number;
  /** How close the subject is to the changed lines: 1 for changed code, less for what the change reaches. */
  closeness: number;
}

export interface RankedTasks {
  top: BundleTask[];
  overflow: BundleTask[];
  /** Candidates merged into another task that asked the same thing of the same subject. */
  merged: number;
}

/**
 * One task list: candidates asking the same action of the same subject merge (the stronger keeps its
 * wording, evidence ids are united), then all are ordered by weight × closeness (ties by id) and cut
 * after `limit`; the rest is the overflow, still ranked.
 */
export function rankTasks(candidates: readonly TaskCandidate[], limit: number): RankedTasks {
  const bySubject = new Map<string, { candidate: TaskCandidate; score: number; evidenceIds: Set<string> }>();
  let merged = 0;
  for (const candidate of candidates) {
    const key = `${candidate.action}\u0000${candidate.subject}`;
    const score = candidate.weight * candidate.closeness;
    const known = bySubject.get(key);
    if (known === undefined) {
      bySubject.set(key, { candidate, score, evidenceIds: new Set(candidate.task.evidenceIds) });
      continue;
    }
    merged++;
    for (const id of candidate.task.evidenceIds) known.evidenceIds.add(id);
    if (score > known.score) {
      known.candidate = candidate;
      known.score = score;
    }
  }
  const ranked = [...bySubject.values()]
    .sort(
      (left, right) =>
        right.score - left.score ||
        (left.candidate.task.id < right.candidate.task.id ? -1 : left.candidate.task.id > right.candidate.task.id ? 1 : 0),
    )
    .map((entry) => {
      const own = entry.candidate.task.evidenceIds;
      const extra = [...entry.evidenceIds].filter((id) => !own.includes(id)).sort();
      return { ...entry.candidate.task, evidenceIds: [...own, ...extra] };
    });
  return { top: ranked.slice(0, limit), overflow: ranked.slice(limit), merged };
}

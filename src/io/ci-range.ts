import { lstat, open } from 'node:fs/promises';
import { CheckerError, isCheckerError } from '../model/diagnostic.js';
import type { CiRangeSide, ResolvedCiRange } from '../model/ci.js';
import { findMergeBases, isOversizedCommitError } from './git-commit.js';
import { openRepository, readShallowOids } from './git-repository.js';
import { resolveRevision } from './git-revision.js';

/** A GitHub event payload is a few KiB to a few hundred; past this it is not one. */
const MAX_EVENT_BYTES = 8 * 1024 * 1024;

/**
 * The GitHub Actions event payload at `path` (GITHUB_EVENT_PATH), parsed; undefined with the reason when it is missing,
 * not a regular file, too large or not JSON. The path comes from the CI, not from the repository.
 */
export async function readCiEventPayload(path: string): Promise<{ payload?: unknown; problem?: string }> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) return { problem: 'GITHUB_EVENT_PATH names no file' };
  if (!stats.isFile()) return { problem: 'GITHUB_EVENT_PATH is not a regular file' };
  if (stats.size > MAX_EVENT_BYTES) return { problem: `GITHUB_EVENT_PATH is larger than ${MAX_EVENT_BYTES} bytes` };
  const handle = await open(path, 'r');
  try {
    const text = await handle.readFile({ encoding: 'utf8' });
    return { payload: JSON.parse(text) as unknown };
  } catch {
    return { problem: 'GITHUB_EVENT_PATH is not valid JSON' };
  } finally {
    await handle.close();
  }
}

export interface RangeCandidate {
  ref: string;
  source: string;
  mergeBase?: boolean;
}

/**
 * The first candidate of each side that names a commit in this clone. A base that is a target branch becomes its
 * merge-base with the head. A clone that is shallow and lacks every base candidate is `ci/shallow-clone` with `hint`.
 */
export async function resolveCiRange(
  root: string,
  candidates: { base: RangeCandidate[]; head: RangeCandidate[] },
  shallowHint: string,
): Promise<ResolvedCiRange> {
  const repo = await openRepository(root);
  const shallow = (await readShallowOids(repo)).size > 0;
  const notes: string[] = [];
  if (shallow) notes.push('the clone is shallow');
  const head = await firstResolvable(repo, candidates.head, notes);
  const base = await firstResolvable(repo, candidates.base, notes);
  if (base === undefined && candidates.base.length > 0 && shallow) {
    throw new CheckerError(
      'ci/shallow-clone',
      `the base revision (${candidates.base.map((candidate) => `${candidate.ref} from ${candidate.source}`).join(', ')}) is not in this shallow clone`,
      { hint: shallowHint },
    );
  }
  let resolvedBase: CiRangeSide | undefined = base;
  if (base !== undefined && base.mergeBase === true) {
    const headOid = head?.oid ?? (await resolveRevision(repo, 'HEAD')).oid;
    let oversized: string | undefined;
    const bases = await findMergeBases(repo, [base.oid, headOid]).catch((error: unknown): string[] => {
      if (isOversizedCommitError(error)) oversized = error.message;
      return [];
    });
    const mergeBase = [...bases].sort()[0];
    if (oversized !== undefined) {
      notes.push(
        `the merge-base of ${base.ref} and the head could not be read (${oversized}); the diff is taken against ${base.ref} itself`,
      );
    } else if (mergeBase === undefined) {
      if (shallow) {
        throw new CheckerError('ci/shallow-clone', `no merge-base of ${base.ref} and the head in this shallow clone`, {
          hint: shallowHint,
        });
      }
      notes.push(`${base.ref} and the head share no history; the diff is taken against ${base.ref} itself`);
    } else if (mergeBase !== base.oid) {
      notes.push(`base is the merge-base of ${base.ref} and the head`);
      resolvedBase = { ...base, ref: mergeBase, oid: mergeBase, source: `merge-base with ${base.ref} (${base.source})` };
    }
  }
  return {
    shallow,
    ...(resolvedBase === undefined ? {} : { base: stripMergeBase(resolvedBase) }),
    ...(head === undefined ? {} : { head: stripMergeBase(head) }),
    notes,
  };
}

function stripMergeBase(side: CiRangeSide & { mergeBase?: boolean }): CiRangeSide {
  return { ref: side.ref, oid: side.oid, source: side.source };
}

async function firstResolvable(
  repo: Awaited<ReturnType<typeof openRepository>>,
  candidates: RangeCandidate[],
  notes: string[],
): Promise<(CiRangeSide & { mergeBase?: boolean }) | undefined> {
  for (const candidate of candidates) {
    try {
      const { oid } = await resolveRevision(repo, candidate.ref);
      return { ref: candidate.ref, oid, source: candidate.source, ...(candidate.mergeBase ? { mergeBase: true } : {}) };
    } catch (error) {
      if (!isCheckerError(error)) throw error;
      notes.push(`${candidate.ref} (${candidate.source}) is not in this clone: ${error.code}`);
    }
  }
  return undefined;
}

/**
 * One case of the evaluation corpus: real published code, a real change on top of it, and what a careful
 * reviewer would and would not want checker to tell a coding agent about that change. Every expectation is
 * written by hand from reading the code and the diff, never copied from checker's output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeKind, RiskLevel } from '../../src/model/analysis.js';
import type { TaskKind } from '../../src/model/bundle.js';
import { createPackageRepo } from '../helpers/eval-corpus.js';
import type { FileTree, TestRepo } from '../helpers/git-repo.js';

export interface CaseRepo {
  /** Repository folder; its working tree is at `head`. */
  dir: string;
  base: string;
  head: string;
  cleanup(): void;
}

export interface TaskExpectation {
  kind: TaskKind;
  /** Matched against the task's title and detail. */
  text: RegExp;
  /** Why a reviewer wants it (shown when it is missing). */
  why: string;
}

export interface CaseExpectations {
  /** Exact change kind of each listed file (files not listed are not checked). */
  changeKinds: Record<string, ChangeKind>;
  /** At most this many tasks in the prompt (never more than 12). */
  maxTasks: number;
  /** The merge-risk level must be one of these. */
  riskLevels: RiskLevel[];
  /** Exact number of runtime-proof tasks, in the prompt and overflow together. */
  proofTasks: number;
  /** Tasks that must be in the prompt (the top tasks). */
  mustTasks: TaskExpectation[];
  /** No task, in the prompt or the overflow, may match one of these. */
  mustNotTasks: { text: RegExp; why: string }[];
  /** A semantic edge case (from the diff's before/after) must name this line. */
  semanticEdgeCase?: {
    file: string;
    line: number;
    kind: 'boundary' | 'default' | 'condition' | 'error-path' | 'regex' | 'arithmetic';
    values?: RegExp;
  };
  /** Exact set of impacted route ids, when the case is about routes. */
  impactedRoutes?: string[];
}

export interface EvalCase {
  id: string;
  /** Which kind of change of the corpus this case stands for. */
  kind:
    | 'library release'
    | 'one-line fix'
    | 'type-only'
    | 'docs-only'
    | 'rename'
    | 'express app'
    | 'hono app'
    | 'fastify app'
    | 'test-only';
  /** The code and the change, in one sentence. */
  description: string;
  build(): Promise<CaseRepo>;
  expect: CaseExpectations;
}

export interface TextEdit {
  path: string;
  /** Text that occurs exactly once in the file, or the first occurrence after `after` when given. */
  search: string;
  replace: string;
  after?: string;
}

/** Applies text edits and renames (`git mv`), commits, and returns the new commit. Throws when an edit does not apply exactly once. */
export function commitEdits(
  repo: TestRepo,
  edits: readonly TextEdit[],
  message: string,
  renames: readonly [string, string][] = [],
): string {
  for (const [from, to] of renames) repo.git('mv', from, to);
  for (const edit of edits) {
    const full = join(repo.dir, edit.path);
    const text = readFileSync(full, 'utf8');
    const from = edit.after === undefined ? 0 : text.indexOf(edit.after);
    if (from < 0) throw new Error(`"${edit.after}" does not occur in ${edit.path}`);
    const at = text.indexOf(edit.search, from);
    // With `after`, the first occurrence after it; without, the only one.
    if (at < 0 || (edit.after === undefined && text.indexOf(edit.search, at + 1) >= 0))
      throw new Error(
        edit.after === undefined
          ? `"${edit.search}" must occur exactly once in ${edit.path}`
          : `"${edit.search}" does not occur in ${edit.path} after "${edit.after}"`,
      );
    writeFileSync(full, text.slice(0, at) + edit.replace + text.slice(at + edit.search.length));
  }
  return repo.commit(message);
}

/** A repository whose first commit is `files` (a published package's files) and whose second is the hand-made edit. */
export function buildEditedRepo(
  files: FileTree,
  edits: readonly TextEdit[],
  message: string,
  renames: readonly [string, string][] = [],
): CaseRepo {
  const { repo, baseOid } = createPackageRepo(files);
  try {
    const head = commitEdits(repo, edits, message, renames);
    return { dir: repo.dir, base: baseOid, head, cleanup: () => repo.cleanup() };
  } catch (error) {
    repo.cleanup();
    throw error;
  }
}

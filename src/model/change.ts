import type { Span } from './facts.js';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed';

/** A contiguous range of changed lines, as a unified diff hunk describes it. */
export interface Hunk {
  /** First line and count on the base side (count 0 for pure insertions). */
  oldStart: number;
  oldLines: number;
  /** First line and count on the head side (count 0 for pure deletions). */
  newStart: number;
  newLines: number;
}

export interface ChangedFile {
  /** Head-side path (base-side path for deletions). */
  path: string;
  status: ChangeStatus;
  /** For renames: the base-side path. */
  previousPath?: string;
  hunks: Hunk[];
  additions: number;
  deletions: number;
  /** Binary or undecodable content: no hunks. */
  binary: boolean;
}

export interface RevisionInfo {
  /** What the user asked for (`HEAD~1`, `main`), or `WORKTREE`. */
  ref: string;
  /** Resolved commit oid; absent for the working tree. */
  oid?: string;
}

export interface ChangeSet {
  base: RevisionInfo;
  head: RevisionInfo;
  files: ChangedFile[];
}

export interface ChangedExport {
  path: string;
  name: string;
  change: 'added' | 'modified' | 'removed';
  span: Span;
}

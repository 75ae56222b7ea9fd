/** A commit's tree to write under `.checker/local/worktrees/<name>/` (`Env.createWorktree`). */
export interface WorktreeRequest {
  /** Folder name: letters, digits, ".", "_" and "-", starting with a letter or digit. */
  name: string;
  /** The commit whose tree is written. */
  commit: string;
  /** Writing stops (and `incomplete` says why) past this many files or bytes. */
  maxFiles: number;
  maxBytes: number;
}

export interface Worktree {
  name: string;
  /** Absolute real path; a command may run there (`CommandSpec.cwd`). */
  path: string;
  files: number;
  bytes: number;
  /** Tree entries that were not written, and why: a symlink leading outside the worktree, a submodule, an unsafe name. */
  skipped: { path: string; reason: string }[];
  /** Set when a cap stopped the writing: the tree is incomplete, so nothing should run on it. */
  incomplete?: string;
  /** `<worktree>/node_modules` is a symlink to the repository's own `node_modules` (shared, not a copy). */
  linkedNodeModules: boolean;
}

/**
 * Which worktrees `Env.removeWorktrees` removes: these, or the stale ones: every one whose owner record names a checker
 * process that is dead (at once), and every one without such a record last changed before `olderThanMs` (epoch ms).
 */
export type WorktreeSelection = { names: string[] } | { olderThanMs: number };

/** Bounds of history mining (config `history.*`); the defaults are `DEFAULT_HISTORY_SETTINGS`. */
export interface HistorySettings {
  /** Commits walked from HEAD at most (merges and mass changes count as walked). */
  maxCommits: number;
  /** Commits older than this many days before the HEAD commit are not read. */
  maxAgeDays: number;
  /** A commit changing more files than this is a mass change (formatting, renames, vendoring) and is left out. */
  massChangeFiles: number;
}

export const DEFAULT_HISTORY_SETTINGS: Readonly<HistorySettings> = { maxCommits: 2000, maxAgeDays: 730, massChangeFiles: 50 };

/** One non-merge commit of the mined window. */
export interface MinedCommit {
  oid: string;
  /** Author time, seconds since the epoch. */
  timestamp: number;
  authorEmail: string;
  /** The commit message, at most 1,000 characters. */
  message: string;
  /** Paths whose content changed against the parent (every file of a root commit), sorted. */
  paths: string[];
}

/** The bounded history of HEAD that co-change, fix-prone and hotspot facts are computed from. */
export interface MinedHistory {
  headOid: string;
  /** Committer time of HEAD, seconds since the epoch: ages are measured from it, never from the clock. */
  headTime: number;
  settings: HistorySettings;
  /** Kept commits, newest first. */
  commits: MinedCommit[];
  /** Commits read, kept or not. */
  walked: number;
  excluded: { merges: number; massChanges: number };
  /** Why the walk stopped before the root: `max-commits`, `max-age`, `shallow`, or `` when it reached the root. */
  stoppedBy: '' | 'max-commits' | 'max-age' | 'shallow';
}

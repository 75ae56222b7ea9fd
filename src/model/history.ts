/** Bounds of history mining (config `history.*`); the defaults are `DEFAULT_HISTORY_SETTINGS`. */
export interface HistorySettings {
  /** Commits walked from HEAD at most (merges and mass changes count as walked). */
  maxCommits: number;
  /** Commits older than this many days before the commit the walk starts from are not read. */
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

/** The bounded history behind a commit that co-change, fix-prone and hotspot facts are computed from. */
export interface MinedHistory {
  /** The commit the window was walked from: the change's base, so a change never votes on itself. */
  fromOid: string;
  /** Committer time of `fromOid`, seconds since the epoch: ages are measured from it, never from the clock. */
  fromTime: number;
  settings: HistorySettings;
  /** Kept commits, newest first. */
  commits: MinedCommit[];
  /** Commits read, kept or not. */
  walked: number;
  excluded: { merges: number; massChanges: number };
  /** Why the walk stopped before the root: `max-commits`, `max-age`, `shallow`, or `` when it reached the root. */
  stoppedBy: '' | 'max-commits' | 'max-age' | 'shallow';
  /**
   * Commits too large to read whole (absent from windows mined before it was counted). `messagesCut`: kept commits
   * read only in part, their messages cut (paths, author and times are whole). `commitsLeftOut`: commits whose headers
   * (or whose first parent's) could not be read within the bound, left out with the history behind them.
   */
  oversized?: { messagesCut: number; commitsLeftOut: number };
}

/** A commit of the window cited as evidence: short oid and subject line. */
export interface CitedCommit {
  oid: string;
  subject: string;
}

/** `partner` changed in `support` of the `pathCommits` commits that changed `path`. */
export interface CoChangePartner {
  path: string;
  partner: string;
  /** Commits that changed both. */
  support: number;
  /** Commits that changed `path`. */
  pathCommits: number;
  /** support / pathCommits, 0-1, two decimals. */
  confidence: number;
  /** confidence over the share of window commits that changed `partner`; above 1 means more than chance. */
  lift: number;
  /** The co-changing commits, newest first (at most five). */
  commits: CitedCommit[];
}

/** Why a commit counts as a fix: its message, or the revert relation. */
export type FixKind = 'fix' | 'revert';

export interface FixProneFile {
  path: string;
  /** Fix and revert commits of the window that changed the file. */
  fixes: number;
  /** Window commits that changed the file. */
  commits: number;
  /** Fixes weighted by age: a fix at HEAD counts 1, one a half-life (180 days) older counts 0.5. Two decimals. */
  fixScore: number;
  /** fixes / commits as a whole percentage. */
  fixRatio: number;
  fixCommits: (CitedCommit & { kind: FixKind })[];
}

export interface Hotspot {
  path: string;
  /** Window commits that changed the file. */
  churn: number;
  /** Summed cyclomatic complexity of the file's functions at HEAD (the parse facts). */
  complexity: number;
  /** churn × complexity. */
  score: number;
  /** 1 for the highest score among the repository's files with churn and complexity. */
  rank: number;
  /** Files ranked. */
  rankedFiles: number;
}

/** What the mined history says about a change: evidence for reports and bundles. */
export interface HistoryInsights {
  window: {
    fromOid: string;
    commits: number;
    walked: number;
    excluded: { merges: number; massChanges: number };
    stoppedBy: MinedHistory['stoppedBy'];
    settings: HistorySettings;
  };
  /** High-confidence partners of changed files that this change did not touch, strongest first. */
  missedPartners: CoChangePartner[];
  /** Changed files with fixes in the window, highest fix score first. */
  fixProne: FixProneFile[];
  /** Changed files ranked as hotspots (top tenth of the repository's ranked files), highest score first. */
  hotspots: Hotspot[];
}

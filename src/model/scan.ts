/** What the repository scan saw: regular, decodable text files plus everything it skipped and why. */
export type FileRole = 'source' | 'test' | 'config' | 'doc' | 'manifest' | 'other';

export interface ScannedFile {
  /** Repository-relative POSIX path. */
  path: string;
  size: number;
  /** Modification time in ms and inode, used only to skip re-hashing unchanged files. */
  mtimeMs: number;
  ino: number;
}

/** Why the scan skipped a file; the graph report's `skipped[].reason` (schemas/graph-report.schema.json). */
export const SKIP_REASONS = [
  'symlink-outside',
  'symlink-loop',
  'symlink',
  'not-regular',
  'binary',
  'invalid-utf8',
  'too-large',
  'minified',
  'generated',
  'nesting-too-deep',
  'unsafe-name',
  'unreadable',
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail: string;
}

export interface ScanResult {
  root: string;
  files: ScannedFile[];
  skipped: SkippedFile[];
  /** Files under `.checker/local/` that git tracks: a committed cache could forge facts, so the cache is then not used. */
  trackedLocalState?: string[];
}

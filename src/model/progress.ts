/**
 * What a long command is doing, for a progress display: the graph build's phases in order, with counts where a phase
 * has them (files scanned, files parsed of those that needed parsing).
 */
export type ProgressEvent =
  | { phase: 'scan' }
  /** A focused run's first pass: files read for their imports and exports (src/io/parse-files.ts). */
  | { phase: 'read'; done: number; total: number }
  | { phase: 'parse'; done: number; total: number }
  | { phase: 'resolve'; files: number }
  | { phase: 'build'; files: number }
  | { phase: 'analyse' };

export type ProgressSink = (event: ProgressEvent) => void;

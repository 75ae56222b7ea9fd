import type { ChangeSet } from './change.js';
import type { Config } from './config.js';
import type { Diagnostic } from './diagnostic.js';
import type { FileFacts, ParseOptions } from './facts.js';
import type { DecisionDoc, MemoryEntry, PackageManifest, SkillSummary } from './graph.js';
import type { ScanResult, ScannedFile, SkippedFile } from './scan.js';
import type { CoverageEvidence } from './coverage.js';
import type { LoadedPack, RulePack } from './rules.js';

export interface LoadedConfigData {
  config: Config;
  sources: string[];
  diagnostics: Diagnostic[];
}

export interface ParsedSources {
  facts: Map<string, { hash: string; facts: FileFacts }>;
  skipped: SkippedFile[];
  diagnostics: Diagnostic[];
  stats: { cached: number; parsed: number; read: number; crashed: number };
}

export interface RepoDocsData {
  codeowners?: { path: string; text: string };
  decisions: DecisionDoc[];
  memory: MemoryEntry[];
  skills: SkillSummary[];
  packages: PackageManifest[];
  diagnostics: Diagnostic[];
}

export interface RevisionRange {
  base?: string;
  head?: string;
  /** Config `analysis.defaultBranch`: its merge-base with HEAD is the base when `base` is absent. */
  defaultBranch?: string;
}

export interface HistoryEntry {
  oid: string;
  authorEmail: string;
  timestamp: number;
  paths: string[];
}

/** Read access to the repository's history, opened lazily (a repository without git still gets preflight). */
export interface GitAccess {
  readChange(range: RevisionRange): Promise<ChangeSet>;
  /** Text of `path` at a commit, or undefined when absent or binary. */
  readFileAtRevision(oid: string, path: string): Promise<string | undefined>;
  readHistory(options: { paths?: string[]; maxCommits?: number }): Promise<HistoryEntry[]>;
  headOid(): Promise<string | undefined>;
  /** Paths in the git index (tracked files). */
  listTrackedFiles(): Promise<string[]>;
  /** Commit time (ms) of a revision. */
  commitTime(oid: string): Promise<number | undefined>;
}

/**
 * Everything app functions need from the outside world. `src/io/node-env.ts` implements it on
 * the real disk; app code never imports io, node:fs or process.
 */
export interface Env {
  readonly root: string;
  now(): Date;
  loadConfig(): Promise<LoadedConfigData>;
  scan(options: { maxFileBytes: number }): Promise<ScanResult>;
  parseSources(files: ScannedFile[], options: ParseOptions): Promise<ParsedSources>;
  /** Parses texts that are not on disk (base-side versions) in the crash-isolating pool; never cached. */
  parseTexts(jobs: { path: string; text: string }[], options: ParseOptions): Promise<Map<string, FileFacts>>;
  /** Runtime coverage found in the repository (lcov, istanbul, V8); coverage files that are tracked are refused. */
  readCoverage(options: { trackedPaths?: ReadonlySet<string> }): Promise<CoverageEvidence>;
  /** Built-in rule packs plus the repository's `.checker/rules/*` (namespaced `repo:`); a bad repository pack is a diagnostic. */
  loadRulePacks(): Promise<{ packs: LoadedPack[]; diagnostics: Diagnostic[] }>;
  /** Parses and validates one rule-pack file's text; throws CheckerError `pack/invalid` naming the pack, rule and field. */
  validateRulePack(file: string, text: string): Promise<RulePack>;
  /** Modification time (ms) of a working-tree file, or undefined. */
  fileTime(path: string): Promise<number | undefined>;
  /** A repository file's text (contained, regular, size-capped), or undefined when it is missing or unreadable. */
  readRepoText(path: string, maxBytes: number): Promise<string | undefined>;
  readRepoDocs(files: readonly string[]): Promise<RepoDocsData>;
  /** Throws CheckerError (git/not-a-repository, …) when the repository has no usable git history. */
  openGit(): Promise<GitAccess>;
  writeArtifact(relativePath: string, content: string, options?: { mode?: 'replace' | 'create' }): Promise<string>;
  readArtifact(relativePath: string): Promise<string | undefined>;
  withArtifactLock<T>(relativePath: string, fn: () => Promise<T>): Promise<T>;
  /** Validates data against `schemas/<name>.schema.json`; throws CheckerError with `code` naming the field. */
  validate<T>(schemaName: string, data: unknown, options: { code: string; file?: string }): T;
  close(): Promise<void>;
}

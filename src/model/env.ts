import type { ChangeSet } from './change.js';
import type { ChatCompletionOutcome, ChatCompletionSpec } from './chat-completion.js';
import type { CommandRun, CommandSpec } from './command.js';
import type { Diagnostic } from './diagnostic.js';
import type { FileFacts, ParseOptions } from './facts.js';
import type { HistorySettings, MinedHistory } from './history.js';
import type { ExplorationSpec, ProductExploration } from './product-exploration.js';
import type { RepoFiles } from './repo-files.js';
import type { ScanResult, ScannedFile, SkippedFile } from './scan.js';
import type { SchemaIssue } from './schema-issue.js';
import type { HttpGetResult, ServiceHandle, ServiceSpec } from './service.js';
import type { Worktree, WorktreeRequest, WorktreeSelection } from './worktree.js';
import type { ProgressEvent } from './progress.js';

/** An earlier parse and the scan it was made from, which a later parse may take unchanged files from. */
export interface KnownFacts {
  files: ScannedFile[];
  parsed: ParsedSources;
  /** When that scan began (ms since the epoch): files modified since are hashed again. */
  scannedAt: number;
}

export interface ParsedSources {
  facts: Map<string, { hash: string; facts: FileFacts }>;
  skipped: SkippedFile[];
  diagnostics: Diagnostic[];
  stats: { cached: number; parsed: number; read: number; crashed: number };
  /**
   * The facts the cache held for files parsed again in this run (an earlier version of each): what a graph kept from
   * that earlier version was made of (src/app/build-graph.ts patches it knowing which exposed names the edits moved).
   */
  previous?: Map<string, { hash: string; facts: FileFacts }>;
  /**
   * Files whose facts hold their imports, exports and lines alone, every other list empty (a focused run,
   * ParseSourcesOptions.focus): read by the fast scanner, never parsed, cached as such for the next focused run. Those
   * in `unlinked` were not even scanned.
   */
  linkOnly?: ReadonlySet<string>;
  /**
   * Among `linkOnly`, the files a focused cold run never scanned: their text held no key of the change's reach
   * (FocusSelector), so their facts hold their lines alone, and their imports are not known.
   */
  unlinked?: ReadonlySet<string>;
  /**
   * Files parsed in this run whose facts may hold what the facts cache redacts (a parse child found something to redact,
   * or the facts were made in this process): a graph made of them is not what a build from the cache makes, and is
   * never kept. Unset: every file parsed in this run is taken as such.
   */
  unclean?: ReadonlySet<string>;
}

/** What a file's text must hold for one of its imports to resolve to a given file (src/graph/resolve/link-keys.ts). */
export interface LinkKeys {
  /** Any one of them: each a text after what must come before it, `/` a slash or a quote, `'` a quote, `*` anything. */
  words: string[];
  /** A specifier of dots alone (`'.'`, `'../..'`). */
  dots: boolean;
}

/** What a focused run has read so far: every code file's facts, and which of them are partial. */
export interface FocusRead {
  facts: ReadonlyMap<string, { hash: string; facts: FileFacts }>;
  /** Read for imports and exports alone (`unlinked` among them: not even that). */
  linkOnly: ReadonlySet<string>;
  /** Read and hashed, but their text held none of the keys looked for: their facts hold their lines alone. */
  unlinked: ReadonlySet<string>;
}

/**
 * What a focused run reads next: the unlinked files holding one of `keys` (every key so far, words only ever appended:
 * a file is tested against those it was not tested against yet), for their links; `parse`, in full.
 */
export interface FocusStep {
  keys?: LinkKeys;
  parse: string[];
}

/**
 * How a focused run (ParseSourcesOptions.focus) reads no more than the analysis of the change needs. The first pass
 * scans a file for its links only when its text holds a key of the change (`firstKeys`, asked as each batch goes out;
 * a batch that goes out before they are known scans none); then `step` is asked after each pass, until a step leaves
 * nothing to read.
 */
export interface FocusSelector {
  firstKeys(): LinkKeys | undefined;
  step(read: FocusRead): Promise<FocusStep>;
  /**
   * Files the caller reads in full after the build whatever the change reaches (the churned files whose complexity
   * could outrank a changed one among the history's hotspots), asked once, when a step leaves nothing more to read and
   * the change's own files are read in full: they are parsed by the same children, not in a pass of their own after
   * the build.
   */
  alsoInFull?(read: FocusRead): Promise<readonly string[]>;
}

/** One rule pack shipped with checker (`rules/<folder>/pack.yaml|json`), as read; the core parses and validates it. */
export interface BuiltinPackSource {
  folder: string;
  /** Shown path, `rules/<folder>/pack.yaml`. */
  file: string;
  text: string;
  /** The data the build parsed from exactly this text (dist/rules-compiled), when there is one: no YAML parse needed. */
  compiled?: unknown;
  /** The build validated `compiled` against this version's rule-pack schema and checks: it is used as it is. */
  validated?: boolean;
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
  /**
   * A cheap digest of what `readChange(range)` depends on besides the working tree's files (resolved revisions, the
   * index): equal stamps over unchanged files mean an equal change. Absent where it cannot be had cheaply.
   */
  readChangeStamp?(range: RevisionRange): Promise<unknown>;
  /**
   * Starts reading the working-tree change of `range` on another thread, stamped first: the next `readChangeStamp` and
   * `readChange` of that range answer from it (the stamp taken before the change was read, as a caller stamping first
   * expects). Absent where there is no other thread to read on.
   */
  prefetchChange?(range: RevisionRange): void;
  /**
   * The base `readChange(range)` compares with, resolved without reading the change: `range.base`, else the merge-base
   * of HEAD with `range.defaultBranch` (or the detected default branch), else HEAD.
   */
  resolveBase(range: RevisionRange): Promise<{ ref: string; oid: string }>;
  /** Text of `path` at a commit, or undefined when absent or binary. */
  readFileAtRevision(oid: string, path: string): Promise<string | undefined>;
  readHistory(options: { paths?: string[]; maxCommits?: number }): Promise<HistoryEntry[]>;
  /** The bounded history window behind commit `fromOid` the co-change, fix-prone and hotspot facts come from (io/git-history). */
  mineHistory(fromOid: string, settings: HistorySettings): Promise<MinedHistory>;
  headOid(): Promise<string | undefined>;
  /** Paths in the git index (tracked files). */
  listTrackedFiles(): Promise<string[]>;
  /** Commit time (ms) of a revision. */
  commitTime(oid: string): Promise<number | undefined>;
}

/**
 * The edges app functions reach the outside world through: the working tree (`files`), git, the clock, the scanner and
 * parser pool, the artifact store, the command runner, and data the host ships (built-in packs, compiled schema
 * validators). Domain logic (config, rule packs, repository docs, runtime coverage) lives in the core and reads through
 * `files`.
 * `src/io/node-env.ts` implements it on the real disk and `test/helpers/memory-env.ts` in memory; app code never
 * imports io, node:fs or process.
 */
/** The parse options, and the size limit the scan applied (`analysis.maxFileBytes`), which the reads keep. */
export interface ParseSourcesOptions extends ParseOptions {
  maxFileBytes?: number;
  /**
   * Told, with their number, once the files that need reading are with the parse children (not told when none do):
   * the caller's work from then on overlaps theirs.
   */
  onStarted?: (files: number) => void;
  /**
   * With no facts cache to start from (a first run, `--no-cache`): files are first read for their imports and exports
   * alone where the fast scanner can tell them (src/graph/parse/link-facts.ts), and `focus` is asked which of those need
   * their full facts; the others stay `linkOnly`. A run whose cache holds such link entries takes them as they are and
   * reads for their links the files with no entry (src/io/parse-files.ts' link modes).
   */
  focus?: FocusSelector;
  /**
   * With no focus (a build with no change: preflight, context): files that are neither tests (`isTest`) nor may hold
   * framework facts are read for their links and words alone, and link entries of such files are taken as they are.
   */
  moduleLinks?: { isTest: (path: string) => boolean };
  /** Drop the cache entries of code files not in `files` (deleted files); default true. False when `files` is a subset. */
  pruneCache?: boolean;
  /** Reports no progress: a read nobody waits on (the MCP server's reads while it is idle). */
  quiet?: boolean;
}

/**
 * What the user chose outside any repository: the user config file (`$CHECKER_USER_CONFIG`, else
 * `$XDG_CONFIG_HOME/checker/config.yml`, else `~/.config/checker/config.yml`) and the CHECKER_* variables that pick an
 * investigation provider or allow hosts (USER_VARIABLES in src/app/load/user-config.ts). Parsed and validated by the core.
 */
export interface UserSettingsSource {
  /** The user config file's absolute path and text; absent when there is none. */
  file?: { path: string; text: string };
  /** The CHECKER_* variables that are set, by name. */
  variables: Readonly<Record<string, string>>;
}

export interface Env {
  readonly root: string;
  now(): Date;
  /** The working tree: contained, size-capped reads whose refusals are data. */
  readonly files: RepoFiles;
  scan(options: { maxFileBytes: number }): Promise<ScanResult>;
  /**
   * Facts of the JS/TS files among `files`: from `known` or the facts cache when unchanged, else read (at most
   * `options.maxFileBytes`, the scan's limit, default 1 MiB) and parsed.
   */
  parseSources(files: ScannedFile[], options: ParseSourcesOptions, known?: KnownFacts): Promise<ParsedSources>;
  /** Says what a long command is doing (a terminal's progress line); does nothing unless someone listens. */
  reportProgress(event: ProgressEvent): void;
  /** Parses texts that are not on disk (base-side versions) in the crash-isolating pool; never cached. */
  parseTexts(jobs: { path: string; text: string }[], options: ParseOptions): Promise<Map<string, FileFacts>>;
  /**
   * Host-provided data: the rule packs shipped with checker, read once per process (the same array every call).
   * Throws CheckerError `pack/invalid` when the installation itself is broken.
   */
  builtinPacks(): Promise<readonly BuiltinPackSource[]>;
  /**
   * An id of the running build of checker, new with every `npm run build` (dist/bundle/build-id.json); undefined when
   * run from sources or an unbundled build, where results kept across runs could come from other code.
   */
  readonly buildId?: string;
  /** Throws CheckerError (git/not-a-repository, …) when the repository has no usable git history. */
  openGit(): Promise<GitAccess>;
  /** The user's own settings (never the repository's); throws `config/user-unreadable` when the file is there but cannot be read. */
  readUserSettings(): Promise<UserSettingsSource>;
  writeArtifact(relativePath: string, content: string, options?: { mode?: 'replace' | 'create' }): Promise<string>;
  /**
   * Writes `value` under `.checker/local/` as JSON, redacted as a tree first (what `writeArtifact` does to JSON text
   * after parsing it again): for a large document built in memory, such as the kept graph.
   */
  writeJsonArtifact(relativePath: string, value: unknown): Promise<string>;
  readArtifact(relativePath: string): Promise<string | undefined>;
  /** Creates a folder under `.checker/local/` for a command to write into (NODE_V8_COVERAGE); returns its absolute path. */
  createArtifactFolder(relativePath: string): Promise<string>;
  withArtifactLock<T>(relativePath: string, fn: () => Promise<T>): Promise<T>;
  /** Runs one command without a shell in the repository root; never throws for the command's own failure. */
  runCommand(spec: CommandSpec): Promise<CommandRun>;
  /** Starts a long-running program without a shell in the repository root, in its own process group (a product target's app). */
  startService(spec: ServiceSpec): Promise<ServiceHandle>;
  /**
   * Registers a command (a teardown) to run synchronously if checker exits or is interrupted before the returned
   * function is called; call it once the command has run the ordinary way.
   */
  runCommandOnExit(spec: CommandSpec): () => void;
  /** One GET of an http(s) URL (redirects not followed, body capped); a connection failure is data, never thrown. */
  httpGet(url: string, options: { timeoutMs: number; maxBodyBytes?: number }): Promise<HttpGetResult>;
  /** One HTTP request with a method, headers and a text body (generated API checks); redirects are not followed. */
  httpRequest(
    url: string,
    options: { method: string; headers?: Record<string, string>; body?: string; timeoutMs: number; maxBodyBytes?: number },
  ): Promise<HttpGetResult>;
  /**
   * One chat-completions call to a bring-your-own-key investigation provider (bounded: timeout, retries, size cap);
   * the key is read by the host from the variable `spec.apiKeyEnv` names and never handed to the caller. Call it only
   * for an explicit investigation request.
   */
  requestChatCompletion(spec: ChatCompletionSpec): Promise<ChatCompletionOutcome>;
  /**
   * Explores a product target in headless Chromium (found from `spec.executablePath`, CHECKER_CHROMIUM, then well-known
   * paths; CheckerError `product/no-browser` when none), same-origin only and bounded; artifacts go under
   * `.checker/local/<spec.artifactsFolder>/`. Starts a browser: call it only behind the execution gate.
   */
  /**
   * The Chromium `exploreProduct` would drive (config path, CHECKER_CHROMIUM, well-known paths, Playwright's cache), or
   * why there is none with how to install one. Looks only: nothing is started.
   */
  findBrowser(
    configured?: string,
  ): Promise<{ found: true; executablePath: string; source: string } | { found: false; message: string; hint: string }>;
  exploreProduct(spec: ExplorationSpec): Promise<ProductExploration>;
  /**
   * Writes a commit's tree from git objects into `.checker/local/worktrees/<name>/` (a new folder; never through a
   * symlink) for `checker differential`. Until removed, it is also removed when checker exits or is interrupted.
   */
  createWorktree(request: WorktreeRequest): Promise<Worktree>;
  /** Removes worktrees under `.checker/local/worktrees/` (never following a symlink); returns the names removed. */
  removeWorktrees(selection: WorktreeSelection): Promise<string[]>;
  /**
   * Host-provided: the compiled validator of `schemas/<name>.schema.json`. Returns the data typed, or throws
   * CheckerError with `code` naming the field.
   */
  validate<T>(schemaName: string, data: unknown, options: { code: string; file?: string }): T;
  /** Host-provided, as `validate`: the first schema issue of `data` (for callers that word it themselves), or undefined. */
  checkSchema(schemaName: string, data: unknown): SchemaIssue | undefined;
  close(): Promise<void>;
}

import { homedir } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChangeSet } from '../model/change.js';
import { isCheckerError, CheckerError } from '../model/diagnostic.js';
import type { Env, GitAccess, HistoryEntry, KnownFacts, ParsedSources, ParseSourcesOptions, RevisionRange } from '../model/env.js';
import type { ScannedFile } from '../model/scan.js';
import { createArtifactFolder, readArtifact, withArtifactLock, writeArtifact } from './artifacts.js';
import { parseRepositoryFiles } from './parse-files.js';
import { readFactsCacheTime } from './parse-cache.js';
import { createParsePool, type ParsePool } from './parse-pool.js';
import { loadRevisionFactsCache } from './revision-facts-cache.js';
import type { ProgressSink } from '../model/progress.js';
import { readBuiltinPackSources } from './builtin-packs.js';
import { readBuildId } from './build-id.js';
import { createRepoFiles } from './repo-files.js';
import { runCommand } from './run-command.js';
import { runCommandOnExit, startService } from './services.js';
import { httpGet, httpRequest } from './http-get.js';
import { requestChatCompletion } from './chat-completions.js';
import { scanRepository } from './scan.js';
import type { ReadChangeOptions } from './git.js';
import { checkSchema, validateOrThrow } from './schema.js';
import { readGitIndex } from './git-index.js';
import { readUserSettings } from './user-settings.js';
import { emptyFacts, type FileFacts, isCodeFile } from '../model/facts.js';
import { redactDocument, redactTree } from '../text/redact/tree.js';
import { toAsciiJson } from '../text/ascii-json.js';
import { isRecord } from '../text/is-record.js';

export interface NodeEnvOptions {
  /** Read and write the facts cache under `.checker/local/cache/` (default true). */
  useCache?: boolean;
  /** Keep one parse pool alive across calls (the MCP server); otherwise a pool lives for one parse. */
  keepPool?: boolean;
  /** A pool owned by the caller and shared by several envs (a test process, a host with many roots); `close` leaves it open. */
  pool?: ParsePool;
  now?: () => Date;
  /** Where the graph build says what it is doing (the CLI's progress line on a terminal). */
  onProgress?: ProgressSink;
  /** Where a BYOK provider's key is read from (the variable named by `apiKeyEnv`); default process.env. */
  processEnv?: NodeJS.ProcessEnv;
}

/** The real-disk implementation of Env, rooted at one repository. */
export function createNodeEnv(root: string, options: NodeEnvOptions = {}): Env {
  let pool: ParsePool | undefined;
  let git: Promise<GitAccess> | undefined;
  let trackedLocalState: string[] = [];
  let scanListingsKeptAt: number | undefined;
  const getPool = (): ParsePool | undefined => {
    if (options.pool !== undefined) return options.pool;
    if (options.keepPool !== true) return undefined;
    pool ??= createParsePool();
    return pool;
  };
  return {
    root,
    now: options.now ?? (() => new Date()),
    reportProgress: options.onProgress ?? (() => undefined),
    files: createRepoFiles(root),
    scan: async (scanOptions) => {
      const { listingsKeptAt, ...result } = await scanRepository(root, { ...scanOptions, useCache: options.useCache !== false });
      trackedLocalState = result.trackedLocalState ?? [];
      scanListingsKeptAt = listingsKeptAt;
      return result;
    },
    parseSources: async (files: ScannedFile[], parseOptions: ParseSourcesOptions, known?: KnownFacts): Promise<ParsedSources> => {
      const sharedPool = getPool();
      // A repository that commits files under .checker/local could ship a forged facts cache.
      const cacheIsTrusted = trackedLocalState.length === 0;
      const result = await parseRepositoryFiles(root, files, {
        ...parseOptions,
        useCache: options.useCache !== false && cacheIsTrusted,
        ...(sharedPool === undefined ? {} : { pool: sharedPool }),
        ...(options.onProgress === undefined || parseOptions.quiet === true ? {} : { onProgress: options.onProgress }),
        ...(known === undefined ? {} : { known }),
      });
      if (!cacheIsTrusted) {
        result.diagnostics.push({
          code: 'cache/tracked',
          severity: 'warn',
          message: `git tracks files under .checker/local/ (${trackedLocalState.slice(0, 3).join(', ')}${trackedLocalState.length > 3 ? ', …' : ''}); the facts cache was not read or written, so every file was parsed`,
          hint: 'Remove them from git (git rm -r --cached .checker/local) so checker can cache facts again.',
        });
      }
      return result;
    },
    parseTexts: async (jobs, parseOptions): Promise<Map<string, FileFacts>> => {
      const code = jobs.filter((job) => isCodeFile(job.path));
      if (code.length === 0) return new Map();
      // Base sides repeat from run to run: served from the revision cache, a warm run starts no parse child at all.
      const cache =
        options.useCache !== false && trackedLocalState.length === 0 ? await loadRevisionFactsCache(root, parseOptions) : undefined;
      const facts = new Map<string, FileFacts>();
      const missing = code.filter((job) => {
        const hit = cache?.get(job.path, job.text);
        if (hit !== undefined) facts.set(job.path, hit);
        return hit === undefined;
      });
      if (missing.length === 0) return facts;
      const sharedPool = getPool();
      const pool = sharedPool ?? createParsePool({ size: Math.min(2, missing.length) });
      try {
        const parsed = await pool.parse(missing, parseOptions);
        for (const job of missing) {
          const found = parsed.get(job.path);
          // A crash or timeout is not cached: the next run tries again.
          if (found !== undefined && found.failure?.code !== 'parse/crash' && found.failure?.code !== 'parse/timeout')
            cache?.set(job.path, job.text, found);
          facts.set(job.path, found ?? emptyFacts(job.text.split('\n').length));
        }
        await cache?.save();
        return facts;
      } finally {
        if (sharedPool === undefined) await pool.close();
      }
    },
    builtinPacks: () => readBuiltinPackSources(),
    ...(readBuildId() === undefined ? {} : { buildId: readBuildId() }),
    openGit: () => {
      git ??= openGitAccess(root, {
        keepListings: options.useCache !== false,
        hasFreshScanListings: () => scanListingsKeptAt !== undefined && Date.now() - scanListingsKeptAt < FRESH_LISTINGS_MS,
      });
      return git;
    },
    readUserSettings: async () => readUserSettings(options.processEnv ?? process.env),
    // Every file written under .checker/local/ is redacted on the way out, whatever produced it.
    writeArtifact: (relativePath, content, writeOptions) =>
      writeArtifact(root, relativePath, redactDocument(relativePath, content), writeOptions),
    // ASCII (non-ASCII escaped): the next run decodes it as Latin-1, about twice as fast as UTF-8.
    writeJsonArtifact: (relativePath, value) => writeArtifact(root, relativePath, `${toAsciiJson(redactTree(value))}\n`),
    readArtifact: async (relativePath) => (await readArtifact(root, relativePath))?.toString('utf8'),
    createArtifactFolder: (relativePath) => createArtifactFolder(root, relativePath),
    withArtifactLock: (relativePath, fn) => withArtifactLock(root, relativePath, fn),
    runCommand: (spec) => runCommand(root, spec),
    startService: (spec) => startService(root, spec),
    runCommandOnExit: (spec) => runCommandOnExit(root, spec),
    httpGet: (url, httpOptions) => httpGet(url, httpOptions),
    httpRequest: (url, httpOptions) => httpRequest(url, httpOptions),
    requestChatCompletion: (spec) => requestChatCompletion(spec, options.processEnv ?? process.env),
    findBrowser: async (configured) => {
      const { findChromium } = await import('./browser.js');
      try {
        const found = await findChromium({
          ...(configured === undefined ? {} : { configured }),
          ...(process.env.CHECKER_CHROMIUM === undefined ? {} : { fromEnvironment: process.env.CHECKER_CHROMIUM }),
          home: homedir(),
        });
        return { found: true as const, executablePath: found.executablePath, source: found.source };
      } catch (error) {
        if (!isCheckerError(error)) throw error;
        return { found: false as const, message: error.message, hint: error.hint ?? '' };
      }
    },
    exploreProduct: async (spec) =>
      (await import('./explore-product.js')).exploreProduct(root, spec, { fromEnvironment: process.env.CHECKER_CHROMIUM, home: homedir() }),
    createWorktree: async (request) => {
      const [{ openRepository }, { createWorktree }] = await Promise.all([import('./git.js'), import('./worktrees.js')]);
      return createWorktree(await openRepository(root), root, request);
    },
    removeWorktrees: async (selection) => (await import('./worktrees.js')).removeWorktrees(root, selection),
    validate: (schemaName, data, validateOptions) => validateOrThrow(schemaName, data, validateOptions),
    checkSchema: (schemaName, data) => checkSchema(schemaName, data),
    close: async () => {
      await pool?.close();
      pool = undefined;
    },
  };
}

/** Programming errors stay internal errors; anything else thrown while reading objects means the repository is damaged. */
const BUG_ERRORS = [TypeError, ReferenceError, RangeError, SyntaxError];

/**
 * A corrupt loose object or pack surfaces from isomorphic-git or zlib as a bare Error ("Invalid compressed buffer",
 * "incorrect header check", a failed checksum). Whatever object read it came from, the user gets a git error.
 */
async function asGitError<T>(gitdir: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof CheckerError || BUG_ERRORS.some((kind) => error instanceof kind) || !(error instanceof Error)) throw error;
    throw new CheckerError(
      'git/state-invalid',
      `cannot read the repository at ${gitdir}: ${error.message.split('\n')[0] ?? 'unreadable object'}`,
      {
        hint: 'The repository looks damaged (a corrupt or truncated object); run `git fsck` to find it, or re-clone.',
        location: { file: gitdir },
        cause: error,
      },
    );
  }
}

function toRangeKey(range: RevisionRange): string {
  return JSON.stringify([range.base ?? null, range.head ?? null, range.defaultBranch ?? null]);
}

function startChangeWorker(root: string, range: ReadChangeOptions): Worker {
  const isSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`../worker/change-worker.${isSource ? 'ts' : 'js'}`, import.meta.url);
  const options = { workerData: { root, range } };
  if (!isSource) return new Worker(entry, options);
  // From sources (tests, tsx): the main thread's loader hooks do not reach a thread, which registers tsx itself.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`, {
    ...options,
    eval: true,
  });
}

/** The change read by src/worker/change-worker.ts, or undefined when the thread could not read it (the caller reads it). */
function readChangeInWorker(root: string, range: ReadChangeOptions): Promise<ChangeSet | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startChangeWorker(root, range);
    } catch {
      resolve(undefined);
      return;
    }
    // A run that ends without asking for the change does not wait for it.
    worker.unref();
    worker.once('message', (message: unknown) => {
      resolve(isRecord(message) && isRecord(message.change) ? (message.change as unknown as ChangeSet) : undefined);
      void worker.terminate();
    });
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
}

/**
 * A scan's kept listings stand for the working tree this long after it: the change read by the same run walks them
 * instead of listing every folder again, and sees the untracked files the scan saw.
 */
const FRESH_LISTINGS_MS = 2000;

interface ListingUse {
  /** false: `--no-cache`. */
  keepListings: boolean;
  hasFreshScanListings: () => boolean;
}

async function openGitAccess(root: string, listings: ListingUse): Promise<GitAccess> {
  // Loaded on first use: isomorphic-git costs ~90 ms to import, and graph, preflight and context
  // outside a git repository never need it.
  const {
    defaultBase,
    mineHistory,
    openRepository,
    readChange,
    readChangeStamp,
    readCommitHead,
    readFileAtRevision,
    readHistory,
    resolveRevision,
  } = await import('./git.js');
  const repo = await openRepository(root);
  const prefetched = new Map<string, { stamp: Promise<unknown>; change: Promise<ChangeSet | undefined> }>();
  return {
    readChange: (range: RevisionRange): Promise<ChangeSet> => {
      const early = prefetched.get(toRangeKey(range));
      const withListings = (): ReadChangeOptions => ({
        ...range,
        keepListings: listings.keepListings,
        hasFreshScanListings: listings.hasFreshScanListings(),
      });
      if (early === undefined) return asGitError(repo.gitdir, readChange(repo, withListings()));
      prefetched.delete(toRangeKey(range));
      return asGitError(
        repo.gitdir,
        early.change.then((change) => change ?? readChange(repo, withListings())),
      );
    },
    readChangeStamp: (range: RevisionRange) =>
      asGitError(repo.gitdir, prefetched.get(toRangeKey(range))?.stamp ?? readChangeStamp(repo, range)),
    // Only a working-tree change: it is what a run after an edit asks, and reading it (every tracked file's stat, the
    // untracked files, the base tree against the index) takes the other core while this one loads the kept graph.
    // Not with no facts cache (a first run, a CI job): this thread then only waits while the parse children read every
    // file, and the caller reads the change itself once they have started (BuildFocus.onParseStarted), instead of
    // loading a second copy of git into a thread that competes with them.
    prefetchChange: (range: RevisionRange) => {
      const key = toRangeKey(range);
      if (range.head !== undefined || prefetched.has(key) || readFactsCacheTime(repo.root) === undefined) return;
      const stamp = readChangeStamp(repo, range);
      const change = stamp.then(
        () =>
          readChangeInWorker(repo.root, {
            ...range,
            keepListings: listings.keepListings,
            hasFreshScanListings: listings.hasFreshScanListings(),
          }),
        () => undefined,
      );
      prefetched.set(key, { stamp, change });
    },
    resolveBase: async (range) => {
      const base =
        range.base === undefined
          ? await asGitError(repo.gitdir, defaultBase(repo, range.defaultBranch))
          : await asGitError(repo.gitdir, resolveRevision(repo, range.base));
      return { ref: base.ref, oid: base.oid };
    },
    readFileAtRevision: (oid, path) => asGitError(repo.gitdir, readFileAtRevision(repo, oid, path)),
    readHistory: async (historyOptions): Promise<HistoryEntry[]> => asGitError(repo.gitdir, readHistory(repo, historyOptions)),
    mineHistory: (fromOid, settings) => asGitError(repo.gitdir, mineHistory(repo, fromOid, settings)),
    listTrackedFiles: async () => (await readGitIndex(repo.gitdir)).entries.map((entry) => entry.path),
    commitTime: async (oid) => {
      try {
        return (await readCommitHead(repo, oid)).committer.timestamp * 1000;
      } catch {
        return undefined;
      }
    },
    headOid: async () => {
      try {
        return (await resolveRevision(repo, 'HEAD')).oid;
      } catch (error) {
        if (error instanceof CheckerError && error.code === 'git/no-commits') return undefined;
        throw error;
      }
    },
  };
}

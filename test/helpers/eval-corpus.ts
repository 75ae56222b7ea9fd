/**
 * Evaluation corpora: a published npm package's files, committed into a fresh temporary git repository
 * (test/helpers/git-repo.ts), so hand-made edits on top of it are real git changes for `analyzeChange`.
 * Tarballs come from `fetchTarball` (bench/corpus.ts): `npm pack` once, cached in bench/corpus-cache/.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchTarball } from '../../bench/corpus.js';
import { createTestEnv } from './test-env.js';
import type { Env } from '../../src/model/env.js';
import { createRepo, type FileTree, type TestRepo } from './git-repo.js';

export interface PackageRepo {
  repo: TestRepo;
  /** The first commit: the selected package files, unmodified. */
  baseOid: string;
}

function collectFiles(root: string, folder: string, tree: FileTree): void {
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) collectFiles(root, path, tree);
    else if (entry.isFile()) tree[path] = readFileSync(join(root, path));
  }
}

/**
 * The files of `name@version` under the given package-relative paths (folders or files, e.g.
 * `build/src`, `package.json`) or all of them, keyed by their path inside the package, byte for byte.
 */
export function readPackageFiles(name: string, version: string, include: readonly string[] | 'all'): FileTree {
  const tarball = fetchTarball(name, version);
  const staging = mkdtempSync(join(tmpdir(), 'checker-eval-package-'));
  try {
    // npm tarballs put everything under `package/`.
    execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '--no-same-owner', '-m', '-C', staging], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tree: FileTree = {};
    if (include === 'all') {
      collectFiles(staging, '', tree);
      return tree;
    }
    for (const path of include) {
      const full = join(staging, path);
      if (!existsSync(full)) throw new Error(`${name}@${version} has no ${path}`);
      if (statSync(full).isDirectory()) collectFiles(staging, path, tree);
      else tree[path] = readFileSync(full);
    }
    return tree;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The tree with the folder `from` moved to `to` (`build/src/` → `src/`), keeping only the files `keep`
 * accepts: a published app's build output committed as its authors keep their sources.
 */
export function moveFolder(tree: FileTree, from: string, to: string, keep: (path: string) => boolean = () => true): FileTree {
  const moved: FileTree = {};
  for (const [path, content] of Object.entries(tree)) {
    if (keep(path)) moved[path.startsWith(`${from}/`) ? `${to}/${path.slice(from.length + 1)}` : path] = content;
  }
  return moved;
}

/** A temporary repository whose first commit is `files`; checker's local state (.checker/) stays out of git. */
export function createPackageRepo(files: FileTree): PackageRepo {
  const repo = createRepo(files);
  // The facts cache is written under .checker/local/ in the repository: keep it out of later commits
  // (a tracked cache makes checker refuse it) without adding a file to the corpus itself.
  appendFileSync(join(repo.dir, '.git', 'info', 'exclude'), '\n.checker/\n');
  return { repo, baseOid: repo.git('rev-parse', 'HEAD') };
}

export interface LineEdit {
  /** Repository path of the edited file. */
  path: string;
  /** Text that occurs exactly once in the file (after `after`, when given), on one line. */
  search: string;
  /** Search only after the first occurrence of this text (a declaration, to pick one of several equal lines). */
  after?: string;
  replace: string;
  /** When set, the edit must land on this (1-based) line: a guard against the package changing under us. */
  line?: number;
}

/**
 * Applies a one-line edit and commits it; returns the new commit and the edited line. Throws unless
 * `search` occurs exactly once and git sees exactly one line changed.
 */
export function commitLineEdit(repo: TestRepo, edit: LineEdit, message = 'one-line edit'): { oid: string; line: number } {
  if (edit.search.includes('\n') || edit.replace.includes('\n')) throw new Error('a line edit must not span lines');
  const full = join(repo.dir, edit.path);
  const text = readFileSync(full, 'utf8');
  const from = edit.after === undefined ? 0 : text.indexOf(edit.after);
  if (from < 0) throw new Error(`"${edit.after}" does not occur in ${edit.path}`);
  const at = text.indexOf(edit.search, from);
  const where = edit.after === undefined ? edit.path : `${edit.path} after "${edit.after}"`;
  if (at < 0 || text.indexOf(edit.search, at + 1) >= 0) throw new Error(`"${edit.search}" must occur exactly once in ${where}`);
  const line = text.slice(0, at).split('\n').length;
  if (edit.line !== undefined && line !== edit.line)
    throw new Error(`"${edit.search}" is on line ${line} of ${edit.path}, expected ${edit.line}`);
  writeFileSync(full, text.slice(0, at) + edit.replace + text.slice(at + edit.search.length));
  const before = repo.git('rev-parse', 'HEAD');
  const oid = repo.commit(message);
  const numstat = repo.git('diff', '--numstat', before, oid);
  if (numstat !== `1\t1\t${edit.path}`) throw new Error(`expected a one-line change of ${edit.path}, git shows: ${numstat}`);
  return { oid, line };
}

/** Checks out `oid` (detached), so the working tree the graph is built from is the analysed head. */
export function checkout(repo: TestRepo, oid: string): void {
  repo.git('checkout', '-q', '--detach', oid);
}

/** Runs `run` with a real-disk Env on `dir` and closes it afterwards (its parse pool). */
export async function withNodeEnv<T>(dir: string, run: (env: Env) => Promise<T>): Promise<T> {
  const env = createTestEnv(dir);
  try {
    return await run(env);
  } finally {
    await env.close();
  }
}

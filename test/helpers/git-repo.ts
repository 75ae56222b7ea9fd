import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, symlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type FileTree = Record<string, string | Buffer>;

/** A real git repository in a temporary folder, driven by the git CLI (the test's own repo, so the CLI is safe here). */
export interface TestRepo {
  dir: string;
  write(files: FileTree): void;
  remove(...paths: string[]): void;
  symlink(target: string, linkPath: string): void;
  git(...args: string[]): string;
  /** Stages everything and commits; returns the new commit oid. */
  commit(message?: string): string;
  /**
   * Writes `files` and commits them alone, leaving every other change in the working tree as it was: how a test sets
   * the checker configuration a run trusts (power keys are read from the base revision, never from the change).
   */
  commitFiles(files: FileTree, message?: string): string;
  cleanup(): void;
}

const gitEnv = (home: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.test',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.test',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  LANG: 'C',
});

/** Temporary folders this test process made: removed when it exits, whether or not its tests removed them. */
const tempDirs = new Set<string>();

/** A new empty folder in the system's temporary folder, removed (with what is in it) when this test process exits. */
export function makeTempDir(prefix = 'checker-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  if (tempDirs.size === 0) {
    process.once('exit', () => {
      for (const made of tempDirs) {
        try {
          rmSync(made, { recursive: true, force: true });
        } catch {}
      }
    });
  }
  tempDirs.add(dir);
  return dir;
}

export function writeTree(root: string, files: FileTree): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * Committed repositories already built in this process, by content: a test file that builds the same tree again
 * (per test, or in a loop) gets a copy from its second request on (`cp -a`, about a quarter of the cost of
 * git init + add + commit), with the same commit oid, since author, committer and dates are fixed.
 */
const templates = new Map<string, string>();
/** Trees built once: the second request keeps a template, so a tree built only once costs no copy. */
const requested = new Set<string>();

function getTreeKey(files: FileTree, branch: string): string {
  const hash = createHash('sha256').update(branch);
  for (const path of Object.keys(files).sort()) {
    const content = files[path] ?? '';
    hash.update(`\0${path}\0${typeof content === 'string' ? 's' : 'b'}${String(content.length)}\0`).update(content);
  }
  return hash.digest('hex');
}

function removeTemplates(): void {
  for (const template of templates.values()) rmSync(template, { recursive: true, force: true });
}

/** Creates a repository with `files` committed as the first commit (unless `commit: false`). */
export function createRepo(files: FileTree = {}, options: { commit?: boolean; branch?: string } = {}): TestRepo {
  const branch = options.branch ?? 'main';
  const isCommitted = options.commit !== false && Object.keys(files).length > 0;
  const key = isCommitted ? getTreeKey(files, branch) : undefined;
  const template = key === undefined ? undefined : templates.get(key);
  const dir = makeTempDir();
  const home = join(dir, '..', `${dir.split('/').pop() ?? 'repo'}-home`);
  mkdirSync(home, { recursive: true });
  tempDirs.add(home);
  const env = gitEnv(home);
  let tick = 0;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  if (template !== undefined) {
    execFileSync('cp', ['-a', `${template}/.`, dir]);
    tick = 1;
  } else {
    git('init', '-q', '-b', branch);
  }
  const commitPaths = (message: string, addArgs: string[]): string => {
    tick += 1;
    const date = `2026-01-01T00:${String(tick).padStart(2, '0')}:00Z`;
    git('add', ...addArgs);
    const only = addArgs[0] === '--' ? ['--', ...addArgs.slice(1)] : [];
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message, ...only], {
      cwd: dir,
      env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return git('rev-parse', 'HEAD');
  };
  const repo: TestRepo = {
    dir,
    write: (tree) => writeTree(dir, tree),
    remove: (...paths) => {
      for (const path of paths) rmSync(join(dir, path), { recursive: true, force: true });
    },
    symlink: (target, linkPath) => {
      const full = join(dir, linkPath);
      mkdirSync(dirname(full), { recursive: true });
      symlinkSync(target, full);
    },
    git,
    commit: (message = 'change') => commitPaths(message, ['-A']),
    commitFiles: (tree, message = 'config') => {
      writeTree(dir, tree);
      return commitPaths(message, ['--', ...Object.keys(tree)]);
    },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
  if (template !== undefined) return repo;
  repo.write(files);
  if (isCommitted) repo.commit('initial');
  if (key !== undefined && requested.has(key)) {
    if (templates.size === 0) process.once('exit', removeTemplates);
    const copy = makeTempDir('checker-template-');
    execFileSync('cp', ['-a', `${dir}/.`, copy]);
    templates.set(key, copy);
  }
  if (key !== undefined) requested.add(key);
  return repo;
}

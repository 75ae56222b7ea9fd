import { execFileSync } from 'node:child_process';
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

export function makeTempDir(prefix = 'checker-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function writeTree(root: string, files: FileTree): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Creates a repository with `files` committed as the first commit (unless `commit: false`). */
export function createRepo(files: FileTree = {}, options: { commit?: boolean; branch?: string } = {}): TestRepo {
  const dir = makeTempDir();
  const home = join(dir, '..', `${dir.split('/').pop() ?? 'repo'}-home`);
  mkdirSync(home, { recursive: true });
  const env = gitEnv(home);
  let tick = 0;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git('init', '-q', '-b', options.branch ?? 'main');
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
    commit: (message = 'change') => {
      tick += 1;
      const date = `2026-01-01T00:${String(tick).padStart(2, '0')}:00Z`;
      git('add', '-A');
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], {
        cwd: dir,
        env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return git('rev-parse', 'HEAD');
    },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
  repo.write(files);
  if (options.commit !== false && Object.keys(files).length > 0) repo.commit('initial');
  return repo;
}

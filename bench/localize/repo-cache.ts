import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { toRepoKey } from './cases.js';

/** Neutralises what a cloned repository's own config could make git run (fsmonitor, hooks, pagers). */
const SAFE_CONFIG = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'advice.detachedHead=false',
];

export function runGit(args: readonly string[], options: { cwd?: string; gitDir?: string; maxBuffer?: number } = {}): string {
  return execFileSync('git', [...SAFE_CONFIG, ...(options.gitDir === undefined ? [] : ['--git-dir', options.gitDir]), ...args], {
    encoding: 'utf8',
    maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
}

function isGitDir(path: string): boolean {
  return existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects')) && existsSync(join(path, 'refs'));
}

/**
 * The git directory of `repository` in the cache folder, `<dir>/<owner>+<name>`: a plain clone (its `.git`), a bare
 * clone, or a folder holding `repo/` (the layout of this workplace's mirrors). Undefined when none is there.
 */
export function findGitDir(reposDir: string, repository: string): string | undefined {
  const base = join(reposDir, toRepoKey(repository));
  for (const candidate of [join(base, '.git'), base, join(base, 'repo')]) {
    if (existsSync(candidate) && statSync(candidate).isDirectory() && isGitDir(candidate)) return candidate;
  }
  return undefined;
}

/** The repository cache folder: `--repos`, else `CHECKER_BENCH_REPOS`; refused when missing or not a folder. */
export function resolveReposDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = flag ?? env.CHECKER_BENCH_REPOS;
  if (given === undefined || given === '')
    throw new Error('--repos <dir> (or CHECKER_BENCH_REPOS) is required: the folder of clones named owner+name (bench/README.md)');
  const dir = resolve(given);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--repos ${given}: no such folder`);
  return dir;
}

/**
 * A working clone of `gitDir` at `workDir` (made once, objects hard-linked), checked out at `commit` with every
 * untracked file removed except checker's own `.checker/` state.
 */
export function checkoutCommit(gitDir: string, workDir: string, commit: string): void {
  if (!existsSync(join(workDir, '.git'))) {
    mkdirSync(dirname(workDir), { recursive: true });
    runGit(['clone', '--quiet', '--no-checkout', gitDir, workDir]);
  }
  runGit(['checkout', '--quiet', '--force', '--detach', commit], { cwd: workDir });
  runGit(['clean', '-fdxq', '-e', '.checker'], { cwd: workDir });
}

/** Tracked paths of the checkout, repository-relative. */
export function listTrackedFiles(workDir: string): string[] {
  return runGit(['ls-files', '-z'], { cwd: workDir })
    .split('\0')
    .filter((path) => path !== '');
}

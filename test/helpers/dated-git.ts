import { execFileSync } from 'node:child_process';
import type { TestRepo } from './git-repo.js';

/**
 * Runs git in `repo` with author and committer dates set to `date` (the helper's own git pins every date to
 * 2026-01-01); `date` may name the two apart, as a cherry-pick or rebase leaves them.
 */
export function gitAt(repo: TestRepo, date: string | { author: string; committer: string }, ...args: string[]): string {
  const dates = typeof date === 'string' ? { author: date, committer: date } : date;
  return execFileSync('git', args, {
    cwd: repo.dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: repo.dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Dated Author',
      GIT_AUTHOR_EMAIL: 'dated@example.test',
      GIT_COMMITTER_NAME: 'Dated Author',
      GIT_COMMITTER_EMAIL: 'dated@example.test',
      GIT_AUTHOR_DATE: dates.author,
      GIT_COMMITTER_DATE: dates.committer,
    },
  }).trim();
}

/** Stages everything and commits at `date` with `message`; returns the new oid. */
export function commitAt(repo: TestRepo, message: string, date: string | { author: string; committer: string }): string {
  repo.git('add', '-A');
  gitAt(repo, date, 'commit', '-q', '--allow-empty', '-m', message);
  return repo.git('rev-parse', 'HEAD');
}

import type { LocalizeCase, RepoEntry } from './cases.js';
import { toRepoKey } from './cases.js';
import { isAuxiliaryPath, isGeneratedPath, isTestPath } from './paths.js';
import { runGit } from './repo-cache.js';
import { classifyRole } from '../../src/graph/roles.js';
import { countWords, findFirstSentence, findSkipReason, toTask } from './task-text.js';

export interface MineOptions {
  /** Only commits on or after this date (ISO). */
  since: string;
  /** The most cases kept per repository, evenly spaced over the qualifying commits. */
  perRepo: number;
}

interface LoggedCommit {
  commit: string;
  parents: string[];
  date: string;
  author: string;
  subject: string;
  body: string;
  changes: Array<{ status: string; path: string }>;
}

export interface MineResult {
  head: string;
  qualifying: number;
  cases: LocalizeCase[];
  /** How many commits each rule turned away, for the log. */
  skipped: Record<string, number>;
}

const BOT_AUTHOR = /\[bot\]|dependabot|renovate|github-actions|greenkeeper|semantic-release/i;
const MAX_TRUTH_FILES = 3;
const MIN_TASK_WORDS = 3;

function readLog(gitDir: string, since: string): LoggedCommit[] {
  const text = runGit(
    [
      'log',
      '--no-merges',
      '--no-renames',
      `--since=${since}`,
      '--format=%x1e%H%x1f%P%x1f%cI%x1f%an%x1f%s%x1f%b%x1f',
      '--name-status',
      'HEAD',
    ],
    { gitDir },
  );
  return text
    .split('\x1e')
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [commit = '', parents = '', date = '', author = '', subject = '', body = '', files = ''] = record.split('\x1f');
      const changes = files
        .split('\n')
        .filter((line) => line.includes('\t'))
        .map((line) => {
          const [status = '', path = ''] = line.split('\t');
          return { status: status.charAt(0), path };
        });
      return { commit, parents: parents.split(' ').filter((id) => id !== ''), date, author, subject, body, changes };
    });
}

/** The changed code files a task is judged on: JS/TS that is no test and not generated. */
function getCodeChanges(changes: LoggedCommit['changes']): LoggedCommit['changes'] {
  return changes.filter((change) => classifyRole(change.path) === 'source' && !isTestPath(change.path) && !isGeneratedPath(change.path));
}

/** Why a commit makes no case, or undefined when it does. */
function findRejection(commit: LoggedCommit): string | undefined {
  if (commit.parents.length !== 1) return 'not one parent';
  if (BOT_AUTHOR.test(commit.author)) return 'bot author';
  const skip = findSkipReason(commit.subject);
  if (skip !== undefined) return skip;
  if (countWords(toTask(commit.subject)) < MIN_TASK_WORDS) return 'subject under 3 words';
  const code = getCodeChanges(commit.changes);
  if (code.length === 0) return 'no source file changed (tests, docs, generated, lock files only)';
  if (code.length > MAX_TRUTH_FILES) return 'more than 3 source files';
  if (code.some((change) => change.status !== 'M')) return 'adds, deletes or renames a source file';
  if (code.some((change) => isAuxiliaryPath(change.path))) return 'changes examples, docs sites, benchmarks or scripts';
  return undefined;
}

/** `count` indices spread evenly over `0..total-1`, first and last included. */
function spreadIndices(total: number, count: number): number[] {
  if (total <= count) return [...Array(total).keys()];
  if (count === 1) return [0];
  return [...Array(count).keys()].map((index) => Math.round((index * (total - 1)) / (count - 1)));
}

function toCase(entry: RepoEntry, commit: LoggedCommit): LocalizeCase {
  const task = toTask(commit.subject);
  const sentence = findFirstSentence(commit.body);
  const longTask =
    sentence === undefined || sentence.toLowerCase().replace(/\W/g, '') === task.toLowerCase().replace(/\W/g, '')
      ? undefined
      : `${task}. ${sentence}`;
  return {
    id: `${toRepoKey(entry.repository)}@${commit.commit.slice(0, 10)}`,
    repository: entry.repository,
    split: entry.split,
    commit: commit.commit,
    parent: commit.parents[0] ?? '',
    date: commit.date,
    task,
    ...(longTask === undefined ? {} : { longTask }),
    truth: getCodeChanges(commit.changes)
      .map((change) => change.path)
      .sort(),
  };
}

/**
 * Cases from one repository's history: non-merge commits since `since` that change 1-3 existing non-test JS/TS
 * source files, whose subject is a task; at most `perRepo`, spread evenly over time, one per distinct task text.
 */
export function mineRepository(entry: RepoEntry, gitDir: string, options: MineOptions): MineResult {
  const head = runGit(['rev-parse', 'HEAD'], { gitDir }).trim();
  const skipped: Record<string, number> = {};
  const seenTasks = new Set<string>();
  const qualifying: LoggedCommit[] = [];
  for (const commit of readLog(gitDir, options.since)) {
    const rejection =
      findRejection(commit) ?? (seenTasks.has(toTask(commit.subject).toLowerCase()) ? 'same task as a newer commit' : undefined);
    if (rejection !== undefined) {
      skipped[rejection] = (skipped[rejection] ?? 0) + 1;
      continue;
    }
    seenTasks.add(toTask(commit.subject).toLowerCase());
    qualifying.push(commit);
  }
  const picked = spreadIndices(qualifying.length, options.perRepo).map((index) => qualifying[index]);
  const cases = picked.filter((commit): commit is LoggedCommit => commit !== undefined).map((commit) => toCase(entry, commit));
  return { head, qualifying: qualifying.length, cases, skipped };
}

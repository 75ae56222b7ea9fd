/**
 * The cases of issue 41's test-reach yardstick, shared by bench/test-reach.ts (checker) and bench/peer-related.ts (jest
 * and vitest on the same commits): the localization benchmark's mined commits that also modify an existing test file,
 * per repository in repos.json order, the first `perRepo` of each.
 */
import { classifyRole } from '../src/graph/roles.js';
import { type CaseSet, type LocalizeCase, loadCases, loadRepoEntries, type Split } from './localize/cases.js';
import { findGitDir, runGit } from './localize/repo-cache.js';

/** The files whose role decides whether a changed path is an edited test. */
const CODE = /\.(?:[cm]?[jt]sx?|py|go)$/i;

export interface EditedTests {
  modified: string[];
  added: string[];
}

export interface ReachCase {
  testCase: LocalizeCase;
  gitDir: string;
  edited: EditedTests;
}

/** Test files the commit modified (they exist at the parent) and added, by checker's own test rule. */
export function findEditedTests(gitDir: string, testCase: LocalizeCase): EditedTests {
  const modified: string[] = [];
  const added: string[] = [];
  const lines = runGit(['diff', '--name-status', '--no-renames', testCase.parent, testCase.commit], { gitDir }).split('\n');
  for (const line of lines) {
    const [status, path] = line.split('\t');
    if (path === undefined || !CODE.test(path) || classifyRole(path) !== 'test') continue;
    if (status === 'M') modified.push(path);
    else if (status === 'A') added.push(path);
  }
  return { modified, added };
}

/**
 * Per repository of `split` (in repos.json order, only `repo` when given), its first `perRepo` cases whose commit
 * modifies a test; a repository with no clone under `reposDir` is reported through `onMissing` and skipped.
 */
export function selectReachCases(options: {
  reposDir: string;
  split: Split | 'all';
  perRepo: number;
  set?: CaseSet;
  repo?: string;
  onMissing: (repository: string) => void;
}): ReachCase[] {
  const entries = loadRepoEntries(options.set).filter((entry) => options.split === 'all' || entry.split === options.split);
  const cases = loadCases(entries, options.set);
  const selected: ReachCase[] = [];
  for (const entry of entries) {
    if (options.repo !== undefined && entry.repository !== options.repo) continue;
    const gitDir = findGitDir(options.reposDir, entry.repository);
    if (gitDir === undefined) {
      options.onMissing(entry.repository);
      continue;
    }
    let taken = 0;
    for (const testCase of cases.filter((item) => item.repository === entry.repository)) {
      if (taken >= options.perRepo) break;
      const edited = findEditedTests(gitDir, testCase);
      if (edited.modified.length === 0) continue;
      taken += 1;
      selected.push({ testCase, gitDir, edited });
    }
  }
  return selected;
}

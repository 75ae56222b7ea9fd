import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const localizeDir = fileURLToPath(new URL('.', import.meta.url));
const casesDir = join(localizeDir, 'cases');
const reposPath = join(localizeDir, 'repos.json');
const offTopicPath = join(localizeDir, 'off-topic.json');

/**
 * The sets of mined repositories: `localize`, issue 40's JavaScript and TypeScript repositories (this folder); and
 * `languages`, Python and Go repositories for issue 43's test-reach check (bench/languages/). Each has its repos.json
 * and its cases/ folder.
 */
export type CaseSet = 'localize' | 'languages';

export function getCaseSetPaths(set: CaseSet): { reposPath: string; casesDir: string } {
  if (set === 'localize') return { reposPath, casesDir };
  const folder = join(localizeDir, '..', 'languages');
  return { reposPath: join(folder, 'repos.json'), casesDir: join(folder, 'cases') };
}

export function toCaseSet(value: string | undefined): CaseSet {
  if (value === undefined || value === 'localize' || value === 'languages') return value ?? 'localize';
  throw new Error(`--set ${value}: expected localize or languages`);
}

export type Split = 'dev' | 'held-out';

/** One repository of the benchmark, hand-listed in repos.json with the split it belongs to. */
export interface RepoEntry {
  /** `owner/name` on GitHub. */
  repository: string;
  /** What kind of code it is (library, Express app, monorepo, …), for the reader. */
  shape: string;
  split: Split;
}

/** One mined commit: the task is its cleaned subject, the truth the non-test source files it changed. */
export interface LocalizeCase {
  id: string;
  repository: string;
  split: Split;
  commit: string;
  parent: string;
  date: string;
  task: string;
  /** The task followed by the first sentence of the commit body, when the body has one. */
  longTask?: string;
  truth: string[];
}

/** What mine.ts writes per repository (cases/<owner>+<name>.json). */
export interface RepoCases {
  repository: string;
  split: Split;
  shape: string;
  /** The tip the history was walked from, and how many commits qualified before sampling. */
  mined: { head: string; since: string; qualifying: number; perRepo: number };
  cases: LocalizeCase[];
}

/** A task that has nothing to do with its repository, run on the tree at `commit` (off-topic.json); any candidate file is an invention. */
export interface OffTopicCase {
  id: string;
  repository: string;
  split: Split;
  commit: string;
  task: string;
}

/** `owner/name` as a file or folder name: `owner+name`, the form the repository cache uses. */
export function toRepoKey(repository: string): string {
  return repository.replace('/', '+');
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSplit(value: unknown): value is Split {
  return value === 'dev' || value === 'held-out';
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const COMMIT = /^[0-9a-f]{40}$/;

export function loadRepoEntries(set: CaseSet = 'localize'): RepoEntry[] {
  const { reposPath } = getCaseSetPaths(set);
  const value = readJson(reposPath);
  if (!Array.isArray(value)) throw new Error(`${reposPath}: expected an array of repositories`);
  return value.map((entry, index) => {
    if (!isRecord(entry) || typeof entry.repository !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(entry.repository))
      throw new Error(`${reposPath}[${index}]: repository must be "owner/name"`);
    if (typeof entry.shape !== 'string' || !isSplit(entry.split))
      throw new Error(`${reposPath}[${index}] (${entry.repository}): needs a shape and a split (dev or held-out)`);
    return { repository: entry.repository, shape: entry.shape, split: entry.split };
  });
}

function toCase(value: unknown, where: string, split: Split): LocalizeCase {
  if (!isRecord(value)) throw new Error(`${where}: not an object`);
  const { id, repository, commit, parent, date, task, longTask, truth } = value;
  if (typeof id !== 'string' || typeof repository !== 'string' || typeof date !== 'string' || typeof task !== 'string')
    throw new Error(`${where}: id, repository, date and task must be strings`);
  if (typeof commit !== 'string' || !COMMIT.test(commit) || typeof parent !== 'string' || !COMMIT.test(parent))
    throw new Error(`${where}: commit and parent must be 40-hex commit ids`);
  if (!isStringArray(truth) || truth.length === 0) throw new Error(`${where}: truth must list at least one file`);
  if (longTask !== undefined && typeof longTask !== 'string') throw new Error(`${where}: longTask must be a string`);
  if (value.split !== split) throw new Error(`${where}: split ${String(value.split)} differs from repos.json (${split})`);
  return { id, repository, split, commit, parent, date, task, ...(longTask === undefined ? {} : { longTask }), truth };
}

/** The mined cases of every repository in repos.json that has a cases file, checked against repos.json's split. */
export function loadCases(entries: readonly RepoEntry[], set: CaseSet = 'localize'): LocalizeCase[] {
  const { casesDir } = getCaseSetPaths(set);
  const cases: LocalizeCase[] = [];
  for (const entry of entries) {
    const path = join(casesDir, `${toRepoKey(entry.repository)}.json`);
    if (!existsSync(path)) continue;
    const file = readJson(path);
    if (!isRecord(file) || !Array.isArray(file.cases)) throw new Error(`${path}: expected { cases: [...] }`);
    file.cases.forEach((item, index) => {
      cases.push(toCase(item, `${path} cases[${index}]`, entry.split));
    });
  }
  const ids = new Set<string>();
  for (const item of cases) {
    if (ids.has(item.id)) throw new Error(`case id ${item.id} appears twice`);
    ids.add(item.id);
  }
  return cases;
}

/** Cases files that no repos.json entry names (a renamed or dropped repository): refused rather than silently skipped. */
export function findStrayCaseFiles(entries: readonly RepoEntry[]): string[] {
  if (!existsSync(casesDir)) return [];
  const known = new Set(entries.map((entry) => `${toRepoKey(entry.repository)}.json`));
  return readdirSync(casesDir).filter((name) => name.endsWith('.json') && !known.has(name));
}

export function loadOffTopicCases(entries: readonly RepoEntry[]): OffTopicCase[] {
  const value = readJson(offTopicPath);
  if (!Array.isArray(value)) throw new Error(`${offTopicPath}: expected an array`);
  const splitOf = new Map(entries.map((entry) => [entry.repository, entry.split]));
  return value.flatMap((set, index): OffTopicCase[] => {
    const where = `${offTopicPath}[${index}]`;
    if (!isRecord(set) || typeof set.repository !== 'string' || !isStringArray(set.tasks))
      throw new Error(`${where}: expected { repository, commit, tasks: [...] }`);
    if (typeof set.commit !== 'string' || !COMMIT.test(set.commit)) throw new Error(`${where}: commit must be a 40-hex commit id`);
    const split = splitOf.get(set.repository);
    if (split === undefined) throw new Error(`${where}: ${set.repository} is not in repos.json`);
    const { repository, commit } = set;
    return set.tasks.map((task, taskIndex) => ({ id: `${toRepoKey(repository)}#off${taskIndex + 1}`, repository, split, commit, task }));
  });
}

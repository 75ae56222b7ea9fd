import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeChange } from '../../src/app/analyze.js';
import { getValidator } from '../../src/io/schema.js';
import { createTestEnv } from './test-env.js';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import type { RevisionRange } from '../../src/model/env.js';
import { runCliAsync, type CliResult } from './cli.js';
import { createRepo, type FileTree, type TestRepo } from './git-repo.js';

export interface ChangeFixture {
  repo: TestRepo;
  /** The base commit's oid. */
  base: string;
  /** The head commit's oid, or undefined when the change is left in the working tree. */
  head?: string;
}

/**
 * A repository with `base` committed, then `change` applied (paths mapped to `null` are removed):
 * committed as a second commit, or left uncommitted in the working tree with `worktree: true`.
 */
export function createChangeFixture(
  base: FileTree,
  change: Record<string, string | null>,
  options: { worktree?: boolean } = {},
): ChangeFixture {
  const repo = createRepo(base);
  try {
    const baseOid = repo.git('rev-parse', 'HEAD');
    applyChange(repo, change);
    if (options.worktree === true) return { repo, base: baseOid };
    return { repo, base: baseOid, head: repo.commit('change') };
  } catch (error) {
    repo.cleanup();
    throw error;
  }
}

export function applyChange(repo: TestRepo, change: Record<string, string | null>): void {
  const writes: FileTree = {};
  for (const [path, text] of Object.entries(change)) {
    if (text === null) repo.remove(path);
    else writes[path] = text;
  }
  repo.write(writes);
}

/** Writes untracked coverage files and dates them `secondsAhead` after now, so they postdate the change. */
export function writeCoverage(repo: TestRepo, files: FileTree, secondsAhead = 60): void {
  repo.write(files);
  const when = new Date(Date.now() + secondsAhead * 1000);
  for (const path of Object.keys(files)) utimesSync(join(repo.dir, path), when, when);
}

/** analyzeChange through the real pipeline (disk, git, parser, rule packs). */
export async function analyzeFixture(fixture: ChangeFixture, range?: RevisionRange): Promise<ChangeAnalysis> {
  const env = createTestEnv(fixture.repo.dir);
  try {
    return await analyzeChange(env, range ?? { base: fixture.base, ...(fixture.head === undefined ? {} : { head: fixture.head }) });
  } finally {
    await env.close();
  }
}

/** Runs `checker <command> --format json` (in process) on the fixture's range and returns the parsed, schema-checked report. */
export async function runJsonReport<T>(
  fixture: ChangeFixture,
  command: string[],
  schema: string,
): Promise<{ result: CliResult; report: T }> {
  const range = ['--base', fixture.base, ...(fixture.head === undefined ? [] : ['--head', fixture.head])];
  const result = await runCliAsync([...command, '--cwd', fixture.repo.dir, ...range, '--format', 'json']);
  if (result.code !== 0) throw new Error(`checker ${command.join(' ')} exited ${String(result.code)}: ${result.stderr}`);
  const report: unknown = JSON.parse(result.stdout);
  const validate = getValidator(schema);
  if (!validate(report)) throw new Error(`report does not match ${schema}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  return { result, report: report as T };
}

/** Sorted copy, for exact set comparisons. */
export function sorted<T>(values: Iterable<T>): T[] {
  return [...values].sort();
}

/** Lcov text for one file: `hits` maps line numbers to hit counts. */
export function toLcov(entries: Record<string, Record<number, number>>): string {
  const blocks = Object.entries(entries).map(([path, hits]) => {
    const lines = Object.entries(hits).map(([line, count]) => `DA:${line},${String(count)}`);
    const hit = Object.values(hits).filter((count) => count > 0).length;
    return ['TN:', `SF:${path}`, ...lines, `LF:${String(lines.length)}`, `LH:${String(hit)}`, 'end_of_record'].join('\n');
  });
  return `${blocks.join('\n')}\n`;
}

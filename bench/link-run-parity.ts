/**
 * Whether a run on the tree an earlier run left answers what a cold run answers, on real repositories: per repository of
 * the test-reach benchmark (bench/test-reach-cases.ts), a cold `checker ai` on one fix, then the next fix checked out
 * over it (the facts cache's link entries and the kept graph of the first run in place: src/io/parse-files.ts' link
 * mode `focus`), against a cold run of that next fix in a folder of its own. The two JSON answers must be the same
 * (`generatedAt` left out).
 *
 *   node --import tsx bench/link-run-parity.ts --repos <dir> [--from 0] [--work <dir>]
 *
 * `--from K` pairs each repository's fixes K and K + 1 (in the benchmark's order). Exit 1 when an answer differs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutCommit, resolveReposDir, runGit } from './localize/repo-cache.js';
import { repoRoot, toCount } from './measure.js';
import { type ReachCase, selectReachCases } from './test-reach-cases.js';

const cli = join(repoRoot, 'bin', 'checker.js');

/** The fix's tree as the test-reach benchmark makes it: the commit, its edited tests as they were at the parent. */
function prepare(dir: string, item: ReachCase): void {
  checkoutCommit(item.gitDir, dir, item.testCase.commit);
  runGit(['checkout', item.testCase.parent, '--', ...item.edited.modified], { cwd: dir });
  for (const path of item.edited.added) rmSync(join(dir, path), { force: true });
}

function runAi(dir: string, parent: string): { out: string; seconds: number } {
  const started = performance.now();
  const out = execFileSync(process.execPath, [cli, 'ai', '--cwd', dir, '--base', parent, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  const seconds = (performance.now() - started) / 1000;
  return { out: JSON.stringify({ ...(JSON.parse(out) as object), generatedAt: undefined }), seconds };
}

/** Where two answers first part, with some context on each side. */
function describeDifference(cold: string, chained: string): string {
  let index = 0;
  while (index < cold.length && cold[index] === chained[index]) index += 1;
  const around = (text: string): string => text.slice(Math.max(0, index - 80), index + 120);
  return `  cold: …${around(cold)}\n  next: …${around(chained)}`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string' },
      from: { type: 'string', default: '0' },
      work: { type: 'string', default: join(tmpdir(), 'checker-link-run-parity') },
    },
    strict: true,
  });
  const reposDir = resolveReposDir(values.repos, process.env);
  const from = toCount('from', values.from, 0);
  const work = values.work;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const cases = selectReachCases({ reposDir, split: 'all', perRepo: from + 2, onMissing: () => undefined });
  const byRepository = new Map<string, ReachCase[]>();
  for (const item of cases) byRepository.set(item.testCase.repository, [...(byRepository.get(item.testCase.repository) ?? []), item]);
  let same = 0;
  let different = 0;
  for (const [repository, items] of byRepository) {
    const [first, next] = items.slice(from);
    if (first === undefined || next === undefined) continue;
    const folder = join(work, repository.replace('/', '+'));
    const chain = join(folder, 'chain');
    const cold = join(folder, 'cold');
    prepare(chain, first);
    rmSync(join(chain, '.checker', 'local'), { recursive: true, force: true });
    const firstRun = runAi(chain, first.testCase.parent);
    prepare(chain, next);
    const chained = runAi(chain, next.testCase.parent);
    prepare(cold, next);
    rmSync(join(cold, '.checker', 'local'), { recursive: true, force: true });
    const fresh = runAi(cold, next.testCase.parent);
    const equal = chained.out === fresh.out;
    if (equal) same += 1;
    else different += 1;
    const times = `first cold ${firstRun.seconds.toFixed(1)} s, next on its tree ${chained.seconds.toFixed(1)} s, next cold ${fresh.seconds.toFixed(1)} s`;
    console.log(
      `${repository} ${first.testCase.commit.slice(0, 10)} → ${next.testCase.commit.slice(0, 10)}: ${equal ? 'same' : 'DIFFERENT'} (${times})`,
    );
    if (!equal) console.log(describeDifference(fresh.out, chained.out));
  }
  console.log(`\n${same} same, ${different} different`);
  rmSync(work, { recursive: true, force: true });
  if (different > 0) process.exitCode = 1;
}

main();

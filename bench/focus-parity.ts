/**
 * Whether a focused cold `checker ai` (no facts cache: most files tested for the keys of the change's reach and left
 * unread, src/app/build-graph.ts) answers what a warm one answers (every file's full facts from the cache), edit by
 * edit, on a real tree:
 *
 *   node --import tsx bench/focus-parity.ts <dir> [--edits 30] [--seed 1]
 *
 * `<dir>` is a git repository (a bench corpus, bench/work/corpus-*). It is copied three times to a temporary folder: one
 * copy keeps a full facts cache and graph, one is run with none, and one (the chain) is run cold at the first edit and
 * keeps what each run leaves from then on, as a user's edit loop does (the facts cache's link entries, the kept graph
 * with files read for their links alone, parse-files.ts' link mode `focus`). Each edit appends an exported constant to one
 * JS/TS file (picked by the seed) in all three, and the three `ai --format json` outputs must be byte-identical.
 * Prints each mismatch with its first differing line, and the median times (the chain's without its cold first run).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isCodeFile } from '../src/model/facts.js';
import { createRandom } from './seeded-random.js';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(repoRoot, 'bin', 'checker.js');

function runAi(dir: string): { out: string; seconds: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'ai', '--format', 'json', '--cwd', dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`ai exited ${result.status} in ${dir}: ${result.stderr.slice(0, 500)}`);
  return { out: result.stdout, seconds };
}

/** Where `out` first differs from the warm run's answer, or undefined when they are the same. */
function describeDifference(label: string, out: string, warm: string): string | undefined {
  if (out === warm) return undefined;
  const left = warm.split('\n');
  const right = out.split('\n');
  const line = left.findIndex((text, index) => text !== right[index]);
  return `line ${line + 1}: warm ${JSON.stringify(left[line])} vs ${label} ${JSON.stringify(right[line])}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { edits: { type: 'string', default: '30' }, seed: { type: 'string', default: '1' } },
    allowPositionals: true,
  });
  const source = positionals[0];
  if (source === undefined || positionals.length > 1 || !existsSync(join(source, '.git'))) {
    throw new Error('usage: focus-parity.ts <dir, a git repository> [--edits N] [--seed S]');
  }
  const option = (name: 'edits' | 'seed'): number => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number, not ${values[name]}`);
    return value;
  };
  const edits = option('edits');
  const random = createRandom(option('seed'));
  const paths = execFileSync('git', ['ls-files'], { cwd: source, encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .filter((path) => isCodeFile(path) && !path.endsWith('.d.ts') && !/\.min\.[cm]?js$/.test(path));
  const picked = new Set<string>();
  while (picked.size < Math.min(edits, paths.length)) picked.add(paths[Math.floor(random() * paths.length)] as string);

  const work = mkdtempSync(join(tmpdir(), 'checker-focus-parity-'));
  const warm = join(work, 'warm');
  const cold = join(work, 'cold');
  const chain = join(work, 'chain');
  const dirs = [warm, cold, chain];
  try {
    for (const dir of dirs) cpSync(source, dir, { recursive: true, filter: (from) => !from.includes('/.checker/') });
    for (let round = 0; round < 2; round += 1) {
      const settled = spawnSync(process.execPath, [cli, 'graph', '--format', 'json', '--cwd', warm], { encoding: 'utf8' });
      if (settled.status !== 0) throw new Error(`graph exited ${settled.status}: ${settled.stderr.slice(0, 500)}`);
    }
    const times = { warm: [] as number[], cold: [] as number[], chain: [] as number[] };
    const mismatches: string[] = [];
    for (const [round, path] of [...picked].sort().entries()) {
      const originals = dirs.map((dir) => readFileSync(join(dir, path)));
      try {
        for (const dir of dirs) appendFileSync(join(dir, path), '\nexport const checkerParityEdit = 1;\n');
        const answer = runAi(warm);
        rmSync(join(cold, '.checker'), { recursive: true, force: true });
        const focused = runAi(cold);
        const chained = runAi(chain);
        times.warm.push(answer.seconds);
        times.cold.push(focused.seconds);
        if (round > 0) times.chain.push(chained.seconds);
        const differences = [
          describeDifference('cold', focused.out, answer.out),
          describeDifference('chain', chained.out, answer.out),
        ].filter((line) => line !== undefined);
        for (const difference of differences) mismatches.push(`${path}: ${difference}`);
        console.log(
          `${path}: ${differences.length === 0 ? 'same' : 'DIFFERENT'} (warm ${answer.seconds.toFixed(2)} s, cold ${focused.seconds.toFixed(2)} s, chain ${chained.seconds.toFixed(2)} s)`,
        );
      } finally {
        for (const [index, dir] of dirs.entries()) writeFileSync(join(dir, path), originals[index] as Buffer);
      }
    }
    console.log(
      `\n${picked.size} edits, ${picked.size - new Set(mismatches.map((line) => line.split(':')[0])).size} identical, ${mismatches.length} differences; median warm ${median(times.warm).toFixed(2)} s, cold ${median(times.cold).toFixed(2)} s, chain after its first run ${median(times.chain).toFixed(2)} s`,
    );
    for (const mismatch of mismatches) console.log(`- ${mismatch}`);
    if (mismatches.length > 0) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();

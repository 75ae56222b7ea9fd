import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { appendSettledLine, repoRoot, runTimed, toCount } from './measure.js';
import { generateSyntheticRepo, runGit } from './synthetic.js';

interface ScaleOptions {
  sizes: number[];
  /** Sizes that get one warm run whatever `warm` says: the cold run alone costs minutes there. */
  shortSizes: Set<number>;
  warm: number;
  seed: number;
  work: string;
}

interface TimedRun {
  what: string;
  code: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  limitation: string | undefined;
}

interface SizeFigures {
  files: number;
  edited: string;
  cold: TimedRun;
  warm: TimedRun[];
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

function toSizes(name: string, text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => toCount(name, part.trim(), 80));
}

function readOptions(): ScaleOptions {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,5000,20000,50000' },
      short: { type: 'string', default: '50000' },
      warm: { type: 'string', default: '2' },
      seed: { type: 'string', default: '1' },
      work: { type: 'string', default: join(repoRoot, 'bench', 'work', 'scale') },
    },
    strict: true,
  });
  return {
    sizes: toSizes('sizes', values.sizes),
    shortSizes: new Set(toSizes('short', values.short)),
    warm: toCount('warm', values.warm, 1),
    seed: toCount('seed', values.seed, 0),
    work: values.work,
  };
}

/** Generates the tree once: a folder whose HEAD is the generator's commit is reused as it is. */
async function prepareTree(dir: string, files: number, seed: number): Promise<void> {
  const subject = `synthetic repository (${files} files, seed ${seed})`;
  if (existsSync(join(dir, '.git')) && runGit(dir, ['log', '-1', '--format=%s']) === subject) {
    runGit(dir, ['checkout', '--quiet', '--', '.']);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  const started = Date.now();
  await generateSyntheticRepo(dir, { files, seed });
  log(`generated ${files} files in ${((Date.now() - started) / 1000).toFixed(1)} s at ${dir}`);
}

/** A file nothing imports: the first React component card by path, present at every size. */
function pickLeafFile(dir: string): string {
  const leaf = runGit(dir, ['ls-files', 'apps/web/components'])
    .split('\n')
    .filter((path) => path.endsWith('Card.tsx'))
    .sort()[0];
  if (leaf === undefined) throw new Error(`no component under ${dir}/apps/web/components to edit`);
  return leaf;
}

/** The first `limits/*` code of a JSON report or an error message, if the run ran into one. */
function findLimitation(output: string): string | undefined {
  return /limits\/[a-z-]+/.exec(output)?.[0];
}

function runAi(dir: string, what: string): TimedRun {
  const checker = join(repoRoot, 'bin', 'checker.js');
  const outcome = runTimed(process.execPath, [checker, 'ai', '--format', 'json', '--base', 'HEAD', '--cwd', dir], { cwd: dir });
  const run: TimedRun = {
    what,
    code: outcome.code,
    wallSeconds: outcome.wallSeconds,
    cpuSeconds: outcome.cpuSeconds,
    peakRssBytes: outcome.peakRssBytes,
    limitation: findLimitation(`${outcome.stdout}\n${outcome.stderr}`),
  };
  log(
    `${what}: exit ${run.code}, ${run.wallSeconds.toFixed(2)} s wall, ${run.cpuSeconds.toFixed(2)} CPU s, ${formatMegabytes(run.peakRssBytes)}${run.limitation === undefined ? '' : `, ${run.limitation}`}`,
  );
  if (run.code !== 0) log(outcome.stderr.split('\n').slice(0, 12).join('\n'));
  return run;
}

function appendEdit(dir: string, path: string, ordinal: number): Promise<void> {
  return appendSettledLine(join(dir, path), `// scale edit ${ordinal}`);
}

async function measureSize(options: ScaleOptions, files: number): Promise<SizeFigures> {
  const dir = join(options.work, `synthetic-${files}-s${options.seed}`);
  await prepareTree(dir, files, options.seed);
  const edited = pickLeafFile(dir);
  rmSync(join(dir, '.checker'), { recursive: true, force: true });
  await appendEdit(dir, edited, 1);
  const cold = runAi(dir, `${files} files, cold`);
  const warmRuns = options.shortSizes.has(files) ? 1 : options.warm;
  const warm: TimedRun[] = [];
  for (let rep = 0; rep < warmRuns; rep += 1) {
    await appendEdit(dir, edited, rep + 2);
    warm.push(runAi(dir, `${files} files, warm ${rep + 1}`));
  }
  runGit(dir, ['checkout', '--quiet', '--', edited]);
  return { files, edited, cold, warm };
}

function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / 1e6).toLocaleString('en-US')} MB`;
}

function formatRun(run: TimedRun | undefined): string[] {
  if (run === undefined) return ['—', '—', '—'];
  const failed = run.code === 0 ? '' : ` (exit ${run.code}${run.limitation === undefined ? '' : `, ${run.limitation}`})`;
  return [`${run.wallSeconds.toFixed(1)} s${failed}`, `${run.cpuSeconds.toFixed(1)} s`, formatMegabytes(run.peakRssBytes)];
}

/** The log-log slope between two sizes: figure ∝ files^slope. */
function getGrowthExponent(smallFiles: number, small: number, largeFiles: number, large: number): number {
  return Math.log(large / small) / Math.log(largeFiles / smallFiles);
}

/** The first warm run parses fully what the focused cold run parsed for imports only; later ones are the steady state. */
const getFirstWarm = (figures: SizeFigures): TimedRun | undefined => figures.warm[0];
const getLaterWarm = (figures: SizeFigures): TimedRun | undefined => figures.warm.slice(1).at(-1);

function renderTable(results: readonly SizeFigures[]): string {
  const rows = [
    '| files | cold wall | cold CPU | cold peak RSS | first warm wall | CPU | peak RSS | later warm wall | CPU | peak RSS |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const figures of results) {
    const runs = [figures.cold, getFirstWarm(figures), getLaterWarm(figures)];
    rows.push(`| ${figures.files.toLocaleString('en-US')} | ${runs.flatMap(formatRun).join(' | ')} |`);
  }
  const exponents = [
    '',
    '| between | cold CPU | cold RSS | first warm CPU | first warm RSS | later warm CPU | later warm RSS |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (let index = 1; index < results.length; index += 1) {
    const small = results[index - 1];
    const large = results[index];
    if (small === undefined || large === undefined) continue;
    const slope = (pick: (figures: SizeFigures) => number | undefined): string => {
      const a = pick(small);
      const b = pick(large);
      return a === undefined || b === undefined ? '—' : getGrowthExponent(small.files, a, large.files, b).toFixed(2);
    };
    const slopes = [figuresOf((figures) => figures.cold), figuresOf(getFirstWarm), figuresOf(getLaterWarm)].flatMap(([cpu, rss]) => [
      slope(cpu),
      slope(rss),
    ]);
    exponents.push(`| ${small.files.toLocaleString('en-US')} → ${large.files.toLocaleString('en-US')} | ${slopes.join(' | ')} |`);
  }
  return [...rows, ...exponents].join('\n');
}

type Pick = (figures: SizeFigures) => number | undefined;

function figuresOf(run: (figures: SizeFigures) => TimedRun | undefined): [Pick, Pick] {
  return [(figures) => run(figures)?.cpuSeconds, (figures) => run(figures)?.peakRssBytes];
}

async function main(): Promise<void> {
  const options = readOptions();
  const revision = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  log(`checker ${revision}; sizes ${options.sizes.join(', ')}; work ${options.work}`);
  const results: SizeFigures[] = [];
  for (const files of options.sizes) {
    results.push(await measureSize(options, files));
    process.stdout.write(`${renderTable(results)}\n\n`);
  }
}

await main();

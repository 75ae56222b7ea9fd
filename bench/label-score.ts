/**
 * Issue 41's hand-labelled sample (bench/labels/issue-41.json) against the bundles of a later checker: how many of
 * their tasks a reviewer keeps, how many edge cases have evidence in the changed code, how many known false claims
 * are still made.
 *
 *   node --import tsx bench/label-score.ts --keep <dir> [--labels bench/labels/issue-41.json] [--noise]
 *
 * `--noise` lists each task labelled noise, edge case without evidence and false claim still made, with its reason.
 *
 * `<dir>` is what `bench/test-reach.ts --keep <dir>` writes: one folder per fix commit with `bundle.json`,
 * `bundle.md` and `case.json`. Each task of a bundle's task list is matched to a label of the same case by kind, file
 * and exact title (a weak-test label also by the test it names), then by kind, file and line; an edge case the same
 * way by its template. What matches nothing is "not labelled": label it (same file) before trusting the share. A false
 * claim counts while its `quote` (checker's own words) still appears in the bundle; a reworded claim counts as gone,
 * so read the bundle before calling one fixed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadRepoEntries } from './localize/cases.js';

type Label = 'keep' | 'noise';

interface TaskLabel {
  rank: number;
  kind: string;
  /** Only for weak-test tasks, whose titles do not name the test: `task:test:<file>#<test>`. */
  id?: string;
  title: string;
  file?: string;
  line?: number;
  label: Label;
  reason: string;
}

interface EdgeCaseLabel {
  title: string;
  /** The rule that wrote it (`edge-case/changed-condition`), from the edge case's provenance. */
  template?: string;
  file?: string;
  line?: number;
  evidence: boolean;
  reason: string;
}

interface FalseClaim {
  claim: string;
  /** Checker's own words that make the claim; the claim is still made while they appear in the bundle. */
  quote: string;
  reason: string;
}

interface CaseLabels {
  case: string;
  repository: string;
  commit: string;
  labelledAt: string;
  tasks: TaskLabel[];
  edgeCases: EdgeCaseLabel[];
  falseClaims: FalseClaim[];
}

/** A task or an edge case of a fresh bundle, described the way the labels are. */
interface Item {
  kind: string;
  id?: string;
  title: string;
  file?: string;
  line?: number;
}

interface BundleJson {
  tasks: { id: string; kind: string; title: string; evidenceIds: string[] }[];
  evidence: {
    edgeCases: {
      top: EdgeCaseJson[];
      overflow: EdgeCaseJson[];
    };
  };
}

interface EdgeCaseJson {
  title: string;
  scope?: string;
  provenance?: string;
  evidenceIds: string[];
}

interface Tally {
  bundles: number;
  tasks: number;
  kept: number;
  noise: number;
  edgeCases: number;
  withEvidence: number;
  withoutEvidence: number;
  claims: number;
  claimsStill: number;
}

const PATH_LINE = /([\w@./+-]+\.[A-Za-z0-9]+):(\d+)/;

class UsageError extends Error {}

/** The file and line an item is about: the first `path:line` of its title, else its scope, else its first file evidence. */
function locate(title: string, evidenceIds: readonly string[], scope?: string): { file?: string; line?: number } {
  const inTitle = PATH_LINE.exec(title);
  if (inTitle?.[1] !== undefined) return { file: inTitle[1], line: Number(inTitle[2]) };
  const inScope = scope === undefined ? null : new RegExp(`^${PATH_LINE.source}$`).exec(scope);
  if (inScope?.[1] !== undefined) return { file: inScope[1], line: Number(inScope[2]) };
  const file = evidenceIds.find((id) => id.startsWith('file:'))?.slice('file:'.length);
  return file === undefined ? {} : { file };
}

function describeTasks(bundle: BundleJson): Item[] {
  return bundle.tasks.map((task) => ({
    kind: task.kind,
    ...(task.id.startsWith('task:test:') ? { id: task.id } : {}),
    title: task.title,
    ...locate(task.title, task.evidenceIds),
  }));
}

function describeEdgeCases(bundle: BundleJson): Item[] {
  return [...bundle.evidence.edgeCases.top, ...bundle.evidence.edgeCases.overflow].map((edgeCase) => ({
    kind: edgeCase.provenance?.split('#')[1] ?? '',
    title: edgeCase.title,
    ...locate(edgeCase.title, edgeCase.evidenceIds, edgeCase.scope),
  }));
}

/**
 * For each item, the label it matches: same kind, file and title first (and same test, where the label names one),
 * then same kind, file and line (both without a line: a proof task per file) when the candidates left there agree.
 * Each label answers one item.
 */
function matchLabels<T extends Item & { id?: string }, V>(
  items: readonly Item[],
  labels: readonly T[],
  value: (label: T) => V,
): (V | undefined)[] {
  const used = new Set<T>();
  const found: (V | undefined)[] = items.map((item) => {
    const exact = labels.find(
      (label) =>
        !used.has(label) &&
        label.kind === item.kind &&
        label.file === item.file &&
        label.title === item.title &&
        (label.id === undefined || label.id === item.id),
    );
    if (exact === undefined) return undefined;
    used.add(exact);
    return value(exact);
  });
  items.forEach((item, index) => {
    if (found[index] !== undefined || item.file === undefined) return;
    const near = labels.filter(
      (label) =>
        !used.has(label) &&
        label.kind === item.kind &&
        label.file === item.file &&
        label.line === item.line &&
        (label.id === undefined || label.id === item.id),
    );
    const first = near[0];
    if (first === undefined || new Set(near.map(value)).size !== 1) return;
    used.add(first);
    found[index] = value(first);
  });
  return found;
}

/** Every string of the JSON bundle and the Markdown one without its backslash escapes: where a claim's words are looked for. */
function readBundleText(dir: string, bundle: unknown): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const entry of value) walk(entry);
    else if (value !== null && typeof value === 'object') for (const entry of Object.values(value)) walk(entry);
  };
  walk(bundle);
  const markdownPath = join(dir, 'bundle.md');
  const markdown = existsSync(markdownPath) ? readFileSync(markdownPath, 'utf8').replace(/\\([\\`*_{}[\]()#+\-.!<>|])/g, '$1') : '';
  return `${strings.join('\n')}\n${markdown}`;
}

function readOptions(): { keep: string; labels: string; noise: boolean } {
  let values: { keep?: string; labels?: string; noise?: boolean };
  try {
    ({ values } = parseArgs({ options: { keep: { type: 'string' }, labels: { type: 'string' }, noise: { type: 'boolean' } } }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.keep === undefined) throw new UsageError('--keep <dir> is required: a folder written by bench/test-reach.ts --keep');
  const keep = resolve(values.keep);
  if (!existsSync(keep) || !statSync(keep).isDirectory()) throw new UsageError(`--keep ${values.keep}: no such directory`);
  const labels = resolve(values.labels ?? fileURLToPath(new URL('labels/issue-41.json', import.meta.url)));
  if (!existsSync(labels)) throw new UsageError(`--labels ${values.labels ?? labels}: no such file`);
  return { keep, labels, noise: values.noise === true };
}

function readLabels(path: string): Map<string, CaseLabels> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--labels ${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const valid = (entry: unknown): entry is CaseLabels =>
    typeof entry === 'object' &&
    entry !== null &&
    typeof (entry as CaseLabels).case === 'string' &&
    Array.isArray((entry as CaseLabels).tasks) &&
    Array.isArray((entry as CaseLabels).edgeCases) &&
    Array.isArray((entry as CaseLabels).falseClaims);
  if (!Array.isArray(parsed) || !parsed.every(valid)) {
    throw new UsageError(`--labels ${path}: expected an array of cases, each with case, tasks, edgeCases and falseClaims`);
  }
  return new Map(parsed.map((entry) => [entry.case, entry]));
}

const emptyTally = (): Tally => ({
  bundles: 0,
  tasks: 0,
  kept: 0,
  noise: 0,
  edgeCases: 0,
  withEvidence: 0,
  withoutEvidence: 0,
  claims: 0,
  claimsStill: 0,
});

const percent = (part: number, whole: number): string => (whole === 0 ? '—' : `${Math.round((100 * part) / whole)}%`);

function shareKept(tally: Tally): string {
  const labelled = tally.kept + tally.noise;
  if (labelled === 0) return '—';
  const low = percent(tally.kept, tally.tasks);
  const high = percent(tally.kept, labelled);
  return low === high ? high : `${low.replace('%', '')}–${high}`;
}

function row(name: string, tally: Tally): string {
  return [
    name,
    tally.bundles,
    tally.tasks,
    tally.kept,
    tally.noise,
    tally.tasks - tally.kept - tally.noise,
    shareKept(tally),
    tally.edgeCases,
    tally.withEvidence,
    tally.withoutEvidence,
    tally.edgeCases - tally.withEvidence - tally.withoutEvidence,
    `${tally.claimsStill} of ${tally.claims}`,
  ].join(' | ');
}

function main(): void {
  const options = readOptions();
  const labelsByCase = readLabels(options.labels);
  const dirs = readdirSync(options.keep)
    .filter((name) => existsSync(join(options.keep, name, 'bundle.json')) && existsSync(join(options.keep, name, 'case.json')))
    .sort();
  if (dirs.length === 0) throw new UsageError(`--keep ${options.keep}: no bundle folders (<id>/bundle.json and <id>/case.json)`);
  const splitOf = new Map(loadRepoEntries().map((entry) => [entry.repository, entry.split as string]));
  const tallies = new Map<string, Tally>([
    ['dev', emptyTally()],
    ['held-out', emptyTally()],
  ]);
  const byKind = new Map<string, { tasks: number; kept: number; noise: number }>();
  const unlabelled: string[] = [];
  /** With --noise: each task labelled noise, edge case without evidence and false claim still made, with its reason. */
  const noise: string[] = [];

  for (const dir of dirs) {
    const folder = join(options.keep, dir);
    const bundle = JSON.parse(readFileSync(join(folder, 'bundle.json'), 'utf8')) as BundleJson;
    const testCase = JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as { repository: string; split?: string };
    const split = testCase.split ?? splitOf.get(testCase.repository) ?? 'unknown';
    const tally = tallies.get(split) ?? emptyTally();
    tallies.set(split, tally);
    const labels = labelsByCase.get(dir);
    tally.bundles++;

    const tasks = describeTasks(bundle);
    const taskLabels = matchLabels(tasks, labels?.tasks ?? [], (label) => label);
    tasks.forEach((task, index) => {
      const label = taskLabels[index]?.label;
      if (label === 'noise') noise.push(`${dir} #${index + 1} ${task.kind}: ${task.title} (${taskLabels[index]?.reason})`);
      const kind = byKind.get(task.kind) ?? { tasks: 0, kept: 0, noise: 0 };
      byKind.set(task.kind, kind);
      tally.tasks++;
      kind.tasks++;
      if (label === 'keep') {
        tally.kept++;
        kind.kept++;
      } else if (label === 'noise') {
        tally.noise++;
        kind.noise++;
      } else unlabelled.push(`${dir} #${index + 1} ${task.kind}: ${task.title}`);
    });

    const edgeCases = describeEdgeCases(bundle);
    const edgeLabels = matchLabels(
      edgeCases,
      (labels?.edgeCases ?? []).map((label) => ({ ...label, kind: label.template ?? '' })),
      (label) => label,
    );
    tally.edgeCases += edgeCases.length;
    tally.withEvidence += edgeLabels.filter((label) => label?.evidence === true).length;
    tally.withoutEvidence += edgeLabels.filter((label) => label?.evidence === false).length;
    edgeCases.forEach((edgeCase, index) => {
      const label = edgeLabels[index];
      if (label === undefined) unlabelled.push(`${dir} edge case: ${edgeCase.title}`);
      else if (!label.evidence) noise.push(`${dir} edge case without evidence: ${edgeCase.title} (${label.reason})`);
    });
    const text = readBundleText(folder, bundle);
    for (const claim of labels?.falseClaims ?? []) {
      if (text.includes(claim.quote)) noise.push(`${dir} false claim: ${claim.claim} (${claim.reason})`);
    }

    tally.claims += labels?.falseClaims.length ?? 0;
    tally.claimsStill += (labels?.falseClaims ?? []).filter((claim) => text.includes(claim.quote)).length;
  }

  const overall = emptyTally();
  for (const tally of tallies.values()) {
    for (const key of Object.keys(overall) as (keyof Tally)[]) overall[key] += tally[key];
  }
  const lines = [
    `${dirs.length} bundles in ${options.keep}; labels ${options.labels}`,
    '',
    '| split | bundles | tasks | kept | noise | not labelled | share kept | edge cases | with evidence | without | not labelled | false claims still made |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[...tallies].filter(([, tally]) => tally.bundles > 0).map(([split, tally]) => `| ${row(split, tally)} |`),
    `| ${row('all', overall)} |`,
    '',
    '| task kind | tasks | kept | noise | not labelled |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...[...byKind]
      .sort(([, a], [, b]) => b.noise - a.noise || b.tasks - a.tasks)
      .map(
        ([kind, counts]) =>
          `| ${kind} | ${counts.tasks} | ${counts.kept} | ${counts.noise} | ${counts.tasks - counts.kept - counts.noise} |`,
      ),
  ];
  if (options.noise && noise.length > 0) lines.push('', `Noise (${noise.length}):`, ...noise.map((entry) => `- ${entry}`));
  if (unlabelled.length > 0) lines.push('', `Not labelled (${unlabelled.length}):`, ...unlabelled.map((entry) => `- ${entry}`));
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`label-score: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}

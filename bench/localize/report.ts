import type { Split } from './cases.js';
import {
  comparePaired,
  getCalibration,
  getInventionRate,
  getTimings,
  type OffTopicRecord,
  type RunRecord,
  summarizeAccuracy,
  type TaskRecord,
  type Variant,
} from './metrics.js';
import type { SystemName } from './systems.js';

const BASELINE: SystemName = 'bm25';
const CHECKER_SYSTEMS: readonly SystemName[] = ['preflight', 'context'];

const fixed = (value: number, digits = 2): string => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
const signed = (value: number): string => (Number.isNaN(value) ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`);

function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  rightAligned = header.map((_, index) => index > 0),
): string {
  const align = header.map((_, index) => (rightAligned[index] ? '---:' : '---'));
  return [header, align, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function isTask(record: RunRecord): record is TaskRecord {
  return record.kind === 'task';
}

function isOffTopic(record: RunRecord): record is OffTopicRecord {
  return record.kind === 'off-topic';
}

function renderPaired(tasks: readonly TaskRecord[], system: SystemName): string {
  const paired = comparePaired(tasks, system, BASELINE, 5);
  return `${signed(paired.difference)} [${signed(paired.low)}, ${signed(paired.high)}]`;
}

const rate = (counts: { tasks: number; invented: number }): number => (counts.tasks === 0 ? Number.NaN : counts.invented / counts.tasks);

/** One row per system; the other systems' figures carry BM25's on the same cases in brackets. */
function renderAccuracy(tasks: readonly TaskRecord[], offTopic: readonly OffTopicRecord[], systems: readonly SystemName[]): string {
  const hasBaseline = systems.includes(BASELINE);
  const base = summarizeAccuracy(tasks, BASELINE);
  const baseInvention = getInventionRate(offTopic, BASELINE);
  const rows = systems.map((system) => {
    const summary = summarizeAccuracy(tasks, system);
    const invention = getInventionRate(offTopic, system);
    const beside = hasBaseline && system !== BASELINE;
    const cell = (value: number, baseline: number): string => (beside ? `${fixed(value)} (${fixed(baseline)})` : fixed(value));
    return [
      system,
      String(summary.cases),
      cell(summary.recall1, base.recall1),
      cell(summary.recall5, base.recall5),
      cell(summary.recall10, base.recall10),
      cell(summary.mrr, base.mrr),
      fixed(summary.answered),
      fixed(summary.testsInTop5),
      invention.tasks === 0 ? 'n/a' : `${cell(rate(invention), rate(baseInvention))}, ${invention.invented}/${invention.tasks}`,
      beside ? renderPaired(tasks, system) : '',
      summary.errors === 0 ? '' : String(summary.errors),
    ];
  });
  const note = hasBaseline ? '\n\nIn brackets: BM25 on the same cases.' : '';
  return `${table(
    [
      'system',
      'cases',
      'recall@1',
      'recall@5',
      'recall@10',
      'MRR',
      'answered',
      'tests in top 5',
      'off-topic invention',
      'recall@5 − BM25 [95% CI]',
      'errors',
    ],
    rows,
  )}${note}`;
}

function renderCalibration(tasks: readonly TaskRecord[], offTopic: readonly OffTopicRecord[], systems: readonly SystemName[]): string {
  const rows = CHECKER_SYSTEMS.filter((system) => systems.includes(system)).flatMap((system) =>
    getCalibration(tasks, offTopic, system).map((row) => [
      system,
      row.confidence,
      String(row.cases),
      fixed(row.recall5),
      fixed(row.mrr),
      String(row.offTopic),
    ]),
  );
  return table(['system', 'confidence', 'cases', 'recall@5', 'MRR', 'off-topic tasks given it'], rows);
}

function renderTimings(records: readonly RunRecord[], systems: readonly SystemName[]): string {
  const rows = getTimings(records, systems).map((row) => [row.system, row.run, String(row.calls), fixed(row.median), fixed(row.p90)]);
  return table(['system', 'run', 'calls', 'median s', 'p90 s'], rows);
}

function renderPerRepository(tasks: readonly TaskRecord[], systems: readonly SystemName[]): string {
  const repositories = [...new Set(tasks.map((record) => `${record.split}\t${record.repository}`))].sort();
  const rows = repositories.map((key) => {
    const [split = '', repository = ''] = key.split('\t');
    const own = tasks.filter((record) => record.repository === repository);
    return [repository, split, String(own.length), ...systems.map((system) => fixed(summarizeAccuracy(own, system).recall5))];
  });
  return table(['repository', 'split', 'cases', ...systems.map((system) => `${system} R@5`)], rows, [
    false,
    false,
    true,
    ...systems.map(() => true),
  ]);
}

/** The Markdown report of one run: accuracy per split and task variant, calibration, times, and recall@5 per repository. */
export function renderReport(records: readonly RunRecord[], systems: readonly SystemName[], splits: readonly Split[]): string {
  const sections: string[] = [];
  const tasks = records.filter(isTask);
  const offTopic = records.filter(isOffTopic);
  for (const split of splits) {
    const splitTasks = tasks.filter((record) => record.split === split);
    const splitOffTopic = offTopic.filter((record) => record.split === split);
    const repositories = new Set([...splitTasks, ...splitOffTopic].map((record) => record.repository)).size;
    for (const variant of ['short', 'long'] satisfies Variant[]) {
      const variantTasks = splitTasks.filter((record) => record.variant === variant);
      if (variantTasks.length === 0 && (variant === 'long' || splitOffTopic.length === 0)) continue;
      const label = variant === 'short' ? 'task = commit subject' : 'task = subject + first sentence of the body (cases that have one)';
      sections.push(
        `### ${split}: ${label} (${repositories} repositories, ${new Set(variantTasks.map((record) => record.id)).size} cases${
          variant === 'short' ? `, ${splitOffTopic.length} off-topic tasks` : ''
        })\n\n${renderAccuracy(variantTasks, variant === 'short' ? splitOffTopic : [], systems)}`,
      );
    }
    const short = splitTasks.filter((record) => record.variant === 'short');
    if (CHECKER_SYSTEMS.some((system) => systems.includes(system)) && (short.length > 0 || splitOffTopic.length > 0))
      sections.push(`### ${split}: calibration (short tasks)\n\n${renderCalibration(short, splitOffTopic, systems)}`);
  }
  sections.push(`### Time per call (every split and variant)\n\n${renderTimings(records, systems)}`);
  const short = tasks.filter((record) => record.variant === 'short');
  if (short.length > 0) sections.push(`### recall@5 per repository (short tasks)\n\n${renderPerRepository(short, systems)}`);
  return `${sections.join('\n\n')}\n`;
}

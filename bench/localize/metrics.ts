import type { Split } from './cases.js';
import { isTestPath } from './paths.js';
import type { SystemAnswer, SystemName } from './systems.js';
import { createRandom } from '../seeded-random.js';

/** How warm checker was for a call: nothing under `.checker/local`, the first call on a freshly checked-out tree, or a later one. */
export type RunKind = 'cold' | 'first' | 'later';

export interface RecordedAnswer extends SystemAnswer {
  /** preflight and context only. */
  run?: RunKind;
}

export type Variant = 'short' | 'long';

export interface TaskRecord {
  kind: 'task';
  id: string;
  repository: string;
  split: Split;
  variant: Variant;
  task: string;
  truth: string[];
  answers: Partial<Record<SystemName, RecordedAnswer>>;
}

export interface OffTopicRecord {
  kind: 'off-topic';
  id: string;
  repository: string;
  split: Split;
  task: string;
  answers: Partial<Record<SystemName, RecordedAnswer>>;
}

export type RunRecord = TaskRecord | OffTopicRecord;

/** The share of the truth files among the first `k` answered files. */
export function getRecallAt(files: readonly string[], truth: readonly string[], k: number): number {
  if (truth.length === 0) return 0;
  const top = new Set(files.slice(0, k));
  return truth.filter((path) => top.has(path)).length / truth.length;
}

/** 1 / the rank of the first truth file in the answer, 0 when none is there. */
function getReciprocalRank(files: readonly string[], truth: readonly string[]): number {
  const wanted = new Set(truth);
  const index = files.findIndex((path) => wanted.has(path));
  return index === -1 ? 0 : 1 / (index + 1);
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;

function getQuantile(values: readonly number[], quantile: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * quantile;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low);
}

export interface AccuracySummary {
  cases: number;
  recall1: number;
  recall5: number;
  recall10: number;
  mrr: number;
  /** Share of the cases where the system named at least one file. */
  answered: number;
  /** Mean share of test files (paths.ts isTestPath) among the first five answered files, over the cases with an answer. */
  testsInTop5: number;
  errors: number;
}

export function summarizeAccuracy(records: readonly TaskRecord[], system: SystemName): AccuracySummary {
  const answered = records.flatMap((record) => {
    const answer = record.answers[system];
    return answer === undefined ? [] : [{ answer, truth: record.truth }];
  });
  const files = answered.map(({ answer }) => answer.files);
  return {
    cases: answered.length,
    recall1: mean(answered.map(({ answer, truth }) => getRecallAt(answer.files, truth, 1))),
    recall5: mean(answered.map(({ answer, truth }) => getRecallAt(answer.files, truth, 5))),
    recall10: mean(answered.map(({ answer, truth }) => getRecallAt(answer.files, truth, 10))),
    mrr: mean(answered.map(({ answer, truth }) => getReciprocalRank(answer.files, truth))),
    answered: mean(files.map((list) => (list.length > 0 ? 1 : 0))),
    testsInTop5: mean(
      files.filter((list) => list.length > 0).map((list) => list.slice(0, 5).filter(isTestPath).length / Math.min(5, list.length)),
    ),
    errors: answered.filter(({ answer }) => answer.error !== undefined).length,
  };
}

/**
 * The mean paired difference of recall@k between `system` and `baseline` over the cases both answered, with a 95%
 * percentile bootstrap interval (2,000 resamples of the cases, seeded).
 */
export function comparePaired(
  records: readonly TaskRecord[],
  system: SystemName,
  baseline: SystemName,
  k: number,
): { difference: number; low: number; high: number; cases: number } {
  const differences = records.flatMap((record) => {
    const answer = record.answers[system];
    const base = record.answers[baseline];
    if (answer === undefined || base === undefined) return [];
    return [getRecallAt(answer.files, record.truth, k) - getRecallAt(base.files, record.truth, k)];
  });
  if (differences.length === 0) return { difference: Number.NaN, low: Number.NaN, high: Number.NaN, cases: 0 };
  const random = createRandom(40);
  const means: number[] = [];
  for (let round = 0; round < 2000; round += 1) {
    let sum = 0;
    for (let index = 0; index < differences.length; index += 1) sum += differences[Math.floor(random() * differences.length)] ?? 0;
    means.push(sum / differences.length);
  }
  return { difference: mean(differences), low: getQuantile(means, 0.025), high: getQuantile(means, 0.975), cases: differences.length };
}

/** The share of off-topic tasks for which the system named any file at all. */
export function getInventionRate(records: readonly OffTopicRecord[], system: SystemName): { tasks: number; invented: number } {
  const answers = records.flatMap((record) => (record.answers[system] === undefined ? [] : [record.answers[system]]));
  return { tasks: answers.length, invented: answers.filter((answer) => answer !== undefined && answer.files.length > 0).length };
}

export interface CalibrationRow {
  confidence: string;
  cases: number;
  recall5: number;
  mrr: number;
  /** Off-topic tasks answered with this confidence. */
  offTopic: number;
}

const CONFIDENCE_ORDER = ['high', 'medium', 'low'];
const confidenceRank = (level: string): number =>
  CONFIDENCE_ORDER.includes(level) ? CONFIDENCE_ORDER.indexOf(level) : CONFIDENCE_ORDER.length;
const confidenceOf = (record: RunRecord, system: SystemName): string | undefined =>
  record.answers[system] === undefined ? undefined : (record.answers[system]?.confidence ?? 'none');

/** recall@5 and MRR by the confidence the system gave, and how often off-topic tasks got that confidence. */
export function getCalibration(tasks: readonly TaskRecord[], offTopic: readonly OffTopicRecord[], system: SystemName): CalibrationRow[] {
  const levels = new Set([...tasks, ...offTopic].flatMap((record) => confidenceOf(record, system) ?? []));
  return [...levels]
    .sort((a, b) => confidenceRank(a) - confidenceRank(b) || (a < b ? -1 : 1))
    .map((confidence) => {
      const matching = tasks.filter((record) => confidenceOf(record, system) === confidence);
      const summary = summarizeAccuracy(matching, system);
      return {
        confidence,
        cases: matching.length,
        recall5: summary.recall5,
        mrr: summary.mrr,
        offTopic: offTopic.filter((record) => confidenceOf(record, system) === confidence).length,
      };
    });
}

export interface TimingRow {
  system: SystemName;
  run: RunKind | 'any';
  calls: number;
  median: number;
  p90: number;
}

/** Seconds per call by system and, for checker, by how warm it was. */
export function getTimings(records: readonly RunRecord[], systems: readonly SystemName[]): TimingRow[] {
  return systems.flatMap((system) => {
    const answers = records.flatMap((record) => (record.answers[system] === undefined ? [] : [record.answers[system]]));
    const runs = [...new Set(answers.map((answer) => answer?.run ?? 'any'))].sort(
      (a, b) => ['cold', 'first', 'later', 'any'].indexOf(a) - ['cold', 'first', 'later', 'any'].indexOf(b),
    );
    return runs.map((run) => {
      const seconds = answers.filter((answer) => (answer?.run ?? 'any') === run).map((answer) => answer?.seconds ?? 0);
      return { system, run, calls: seconds.length, median: getQuantile(seconds, 0.5), p90: getQuantile(seconds, 0.9) };
    });
  });
}

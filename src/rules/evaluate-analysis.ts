import type { EdgeCaseCandidate, MissingTest, ReviewContext, ScoreContributor, StaleAssertion, WeakTest } from '../model/analysis.js';
import type { FactSubject, Finding, PackKind } from '../model/rules.js';
import { LENGTH_TEST } from './changed-signals.js';
import { evaluatePacks, type Evaluator } from './engine.js';
import type { CompiledPack } from './pack.js';
import { compareText } from '../text/compare-text.js';

export interface EvaluateAnalysisOptions {
  /** `compiled` (default) runs the same conditions as predicates, about 50x faster than the engine. */
  evaluator?: Evaluator;
}

/** Runs every pack over the analysis subjects; findings come back in the engine's stable order. */
export async function evaluateAnalysis(
  packs: readonly CompiledPack[],
  subjects: readonly FactSubject[],
  options: EvaluateAnalysisOptions = {},
): Promise<Finding[]> {
  return evaluatePacks(packs, subjects, { evaluator: options.evaluator ?? 'compiled' });
}

type SubjectIndex = ReadonlyMap<string, FactSubject>;

/** Subjects by `<subject kind>|<id>` (ids are unique only within a kind: a test file and a changed file share `file:`). */
function indexSubjects(subjects: readonly FactSubject[]): SubjectIndex {
  return new Map(subjects.map((subject) => [`${subject.subject}|${subject.id}`, subject]));
}

function getFacts(index: SubjectIndex, finding: Finding): Record<string, unknown> {
  return index.get(`${finding.subject}|${finding.subjectId}`)?.facts ?? {};
}

function readString(facts: Record<string, unknown>, key: string): string {
  const value = facts[key];
  return typeof value === 'string' ? value : '';
}

function readNumber(facts: Record<string, unknown>, key: string): number {
  const value = facts[key];
  return typeof value === 'number' ? value : 0;
}

function groupBySubject(findings: readonly Finding[], kind: PackKind): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    if (finding.kind !== kind) continue;
    const key = `${finding.subject}|${finding.subjectId}`;
    const group = groups.get(key) ?? [];
    group.push(finding);
    groups.set(key, group);
  }
  return groups;
}

function byWeight(a: Finding, b: Finding): number {
  return b.weight - a.weight || compareText(a.ruleId, b.ruleId) || compareText(a.packId, b.packId);
}

function joinUnique(values: readonly string[], separator: string): string {
  return [...new Set(values.filter((value) => value !== ''))].join(separator);
}

/** One WeakTest per test case with weak-test findings: tests that reach the change first, then by weight. */
export function toWeakTests(findings: readonly Finding[], subjects: readonly FactSubject[]): WeakTest[] {
  const index = indexSubjects(subjects);
  const ranked: { test: WeakTest; weight: number }[] = [];
  for (const group of groupBySubject(findings, 'weak-test').values()) {
    const sorted = [...group].sort(byWeight);
    const first = sorted[0];
    if (first === undefined) continue;
    const facts = getFacts(index, first);
    ranked.push({
      weight: sorted.reduce((total, finding) => total + finding.weight, 0),
      test: {
        id: first.subjectId,
        file: readString(facts, 'file'),
        title: readString(facts, 'title'),
        kinds: [...new Set(sorted.map((finding) => finding.ruleId))].sort(compareText),
        message: joinUnique(
          sorted.map((finding) => finding.message),
          '; ',
        ),
        repairTask: joinUnique(
          sorted.map((finding) => finding.params.task ?? ''),
          '; ',
        ),
        reachesChange: facts.coversChangedFile === true,
        editedByChange: false,
        namesChange: [],
        findingIds: sorted.map((finding) => finding.id).sort(compareText),
      },
    });
  }
  ranked.sort(
    (a, b) => Number(b.test.reachesChange) - Number(a.test.reachesChange) || b.weight - a.weight || compareText(a.test.id, b.test.id),
  );
  return ranked.map((entry) => entry.test);
}

/** One MissingTest per changed export or route with missing-test findings, heaviest first. */
export function toMissingTests(findings: readonly Finding[], subjects: readonly FactSubject[]): MissingTest[] {
  const index = indexSubjects(subjects);
  const ranked: { missing: MissingTest; weight: number }[] = [];
  for (const group of groupBySubject(findings, 'missing-test').values()) {
    const sorted = [...group].sort(byWeight);
    const first = sorted[0];
    if (first === undefined) continue;
    const facts = getFacts(index, first);
    const isRoute = first.subject === 'route';
    const isExport = first.subject === 'changed-export';
    ranked.push({
      weight: sorted.reduce((total, finding) => total + finding.weight, 0),
      missing: {
        id: first.subjectId,
        subject: isRoute ? 'route' : isExport ? 'export' : 'file',
        path: isRoute ? readString(facts, 'file') : readString(facts, 'path'),
        name: isRoute
          ? `${readString(facts, 'method')} ${readString(facts, 'path')}`
          : isExport
            ? readString(facts, 'name')
            : readString(facts, 'path'),
        message: first.message,
        repairTask: joinUnique(
          sorted.map((finding) => finding.params.task ?? ''),
          '; ',
        ),
        findingIds: sorted.map((finding) => finding.id).sort(compareText),
      },
    });
  }
  ranked.sort((a, b) => b.weight - a.weight || compareText(a.missing.id, b.missing.id));
  return ranked.map((entry) => entry.missing);
}

/** One StaleAssertion per test line with stale-assertion findings: tests that reach the change first, then by file and line. */
export function toStaleAssertions(findings: readonly Finding[], subjects: readonly FactSubject[]): StaleAssertion[] {
  const index = indexSubjects(subjects);
  const stale: StaleAssertion[] = [];
  for (const group of groupBySubject(findings, 'stale-assertion').values()) {
    const sorted = [...group].sort(byWeight);
    const first = sorted[0];
    if (first === undefined) continue;
    const facts = getFacts(index, first);
    stale.push({
      id: first.subjectId,
      path: readString(facts, 'path'),
      line: readNumber(facts, 'line'),
      literalKind: facts.literalKind === 'default' ? 'default' : 'message',
      name: readString(facts, 'name'),
      before: readString(facts, 'before'),
      after: readString(facts, 'after'),
      testFile: readString(facts, 'testFile'),
      testLine: readNumber(facts, 'testLine'),
      excerpt: readString(facts, 'excerpt'),
      reachesChange: facts.reachesChange === true,
      message: first.message,
      repairTask: joinUnique(
        sorted.map((finding) => finding.params.task ?? ''),
        '; ',
      ),
      findingIds: sorted.map((finding) => finding.id).sort(compareText),
    });
  }
  return stale.sort(
    (a, b) => Number(b.reachesChange) - Number(a.reachesChange) || compareText(a.testFile, b.testFile) || a.testLine - b.testLine,
  );
}

export type { EdgeCaseCandidate };

function getEvidenceIds(finding: Finding, facts: Record<string, unknown>): string[] {
  const ids = new Set<string>([finding.subjectId]);
  const path = finding.subject === 'route' ? readString(facts, 'file') : readString(facts, 'path');
  if (path !== '') ids.add(`file:${path}`);
  return [...ids].sort(compareText);
}

/** Signals a changed decision on their line already states: a missing value (`??`, `??=`, `?.`) and its fallback. */
const RESTATED_SIGNALS: ReadonlySet<string> = new Set(['optional-access', 'env-config']);

/** How far below a call chain's first line its `.catch(` may sit and still be the same chain's. */
const CHAIN_LINES = 3;

/** A first or last element read (`rv[0]`, `segments[length - 1]`), as the collection signal names it. */
const ELEMENT_READ = /\[(?:0|length - 1)\]$/;
/** A Go slice (`b[:1]`), which a changed slice bound on its line asks (go-toml's new `p.Range(b[:1])`, check 117). */
const SLICE_READ = /\[[^\][]*:[^\][]*\]$/;

/**
 * A restated signal, a length compared with 0 or 1 (`cookies.length > 0`), an element read (werkzeug's `if rv is None
 * or rv[0].merge_slashes is False:`, ufo's `segments[segments.length - 1]?.endsWith(":/")` in a new `if`) or a Go
 * slice: a changed decision on its line asks it.
 */
function isRestated(facts: Record<string, unknown>): boolean {
  const kind = readString(facts, 'signalKind');
  const detail = readString(facts, 'detail');
  return (
    RESTATED_SIGNALS.has(kind) ||
    (kind === 'collection' && (LENGTH_TEST.test(detail) || ELEMENT_READ.test(detail) || SLICE_READ.test(detail)))
  );
}

/**
 * The edge-case findings on changed decisions, one per changed line: the heaviest (then the first rule id), so a line
 * read as a changed boundary and a changed default, or a condition and the throw it guards, asks one question. The
 * other cases of that line are dropped, not merged: the kept one already names the line and its edit; so are the
 * signal cases (an optional field, a read of the environment) of a line with a changed decision, and an await's
 * failure case on a line whose Promise.all or changed error path asks it.
 */
function findWeakerOnSameLine(findings: readonly Finding[], index: SubjectIndex): Set<Finding> {
  const strongest = new Map<string, Finding>();
  const weaker = new Set<Finding>();
  for (const finding of [...findings].sort(byWeight)) {
    if (finding.kind !== 'edge-case' || finding.subject !== 'changed-semantic') continue;
    const facts = getFacts(index, finding);
    const line = `${readString(facts, 'path')}:${readNumber(facts, 'line')}`;
    if (strongest.has(line)) weaker.add(finding);
    else strongest.set(line, finding);
  }
  // An optional field, an environment read or a length test on a line whose changed decision already asks (`??=`
  // read as a changed default and as an optional field, `process.env.X ?? 3000` as a default and as configuration,
  // `if (cookies.length > 0)` as a changed condition and as a collection) says it twice.
  const signals = findings.filter((finding) => finding.kind === 'edge-case' && finding.subject === 'changed-signal');
  const lineOf = (finding: Finding): string => {
    const facts = getFacts(index, finding);
    return `${readString(facts, 'path')}:${readNumber(facts, 'line')}`;
  };
  for (const finding of signals) {
    if (isRestated(getFacts(index, finding)) && strongest.has(lineOf(finding))) weaker.add(finding);
  }
  // `await Promise.all(…)`: the concurrency case asks what one failure leaves done; the await's own case asks it again.
  const concurrent = new Set(
    signals.filter((finding) => readString(getFacts(index, finding), 'signalKind') === 'promise-concurrency').map(lineOf),
  );
  // A `.catch(` on a line whose changed error path already asks (`this.#writer.abort().catch((error) => {`): the same
  // failure forced at the same line.
  const errorPaths = new Set(
    [...strongest.entries()]
      .filter(([, finding]) => readString(getFacts(index, finding), 'semanticKind') === 'error-path')
      .map(([line]) => line),
  );
  // The signal sits where its call chain starts (`this.#writer` above `.write(…)` and `.catch((error) => {`).
  const asksErrorPath = (finding: Finding): boolean => {
    const facts = getFacts(index, finding);
    const line = readNumber(facts, 'line');
    return Array.from({ length: CHAIN_LINES + 1 }, (_, offset) => `${readString(facts, 'path')}:${line + offset}`).some((at) =>
      errorPaths.has(at),
    );
  };
  // `return Promise.reject(err)` inside a changed catch (yup's catchValidationError): the catch's case asks what the
  // caller gets; the rejection it makes is that answer, not another failure to force.
  const rejectsInCaughtPath = (finding: Finding): boolean => {
    const facts = getFacts(index, finding);
    const line = readNumber(facts, 'line');
    return (
      readString(facts, 'detail') === 'Promise.reject' &&
      Array.from({ length: CHAIN_LINES }, (_, offset) => `${readString(facts, 'path')}:${line - 1 - offset}`).some((at) =>
        errorPaths.has(at),
      )
    );
  };
  for (const finding of signals) {
    if (readString(getFacts(index, finding), 'signalKind') !== 'async-failure') continue;
    if (concurrent.has(lineOf(finding)) || asksErrorPath(finding) || rejectsInCaughtPath(finding)) weaker.add(finding);
  }
  return weaker;
}

/** Edge-case findings as candidates for rankEdgeCases (score 0 until ranked); one per changed line for changed decisions. */
export function toEdgeCases(findings: readonly Finding[], subjects: readonly FactSubject[]): EdgeCaseCandidate[] {
  const index = indexSubjects(subjects);
  const weaker = findWeakerOnSameLine(findings, index);
  const candidates: EdgeCaseCandidate[] = [];
  for (const finding of findings) {
    if (finding.kind !== 'edge-case' || weaker.has(finding)) continue;
    const facts = getFacts(index, finding);
    const { params } = finding;
    candidates.push({
      id: finding.id,
      title: finding.message,
      trigger: params.trigger ?? '',
      expectedBehavior: params.expectedBehavior ?? '',
      userVisibleFailure: params.userVisibleFailure ?? '',
      scope: params.scope ?? '',
      provenance: finding.provenance,
      confidence: params.confidence ?? 'low',
      recommendedProof: params.recommendedProof ?? '',
      score: 0,
      evidenceIds: getEvidenceIds(finding, facts),
      weight: finding.weight,
      inChangedLines:
        finding.subject === 'route' ? facts.changed === true : finding.subject === 'changed-semantic' || facts.inChangedLines === true,
    });
  }
  return candidates.sort((a, b) => compareText(a.id, b.id));
}

/** Pattern findings on changed lines, by path, line and rule. */
export function toPatternMatches(findings: readonly Finding[], subjects: readonly FactSubject[]): ReviewContext['patterns'] {
  const index = indexSubjects(subjects);
  return findings
    .filter((finding) => finding.kind === 'pattern')
    .map((finding) => {
      const facts = getFacts(index, finding);
      return {
        id: finding.id,
        path: readString(facts, 'path'),
        line: readNumber(facts, 'line'),
        message: finding.message,
        provenance: finding.provenance,
        ruleId: finding.ruleId,
      };
    })
    .sort((a, b) => compareText(a.path, b.path) || a.line - b.line || compareText(a.ruleId, b.ruleId) || compareText(a.id, b.id))
    .map(({ id, path, line, message, provenance }) => ({ id, path, line, message, provenance }));
}

/** Tool recommendations, heaviest first, one per tool. */
export function toToolRecommendations(findings: readonly Finding[]): ReviewContext['tools'] {
  const seen = new Set<string>();
  const tools: ReviewContext['tools'] = [];
  for (const finding of [...findings]
    .filter((entry) => entry.kind === 'tool')
    .sort((a, b) => byWeight(a, b) || compareText(a.params.tool ?? '', b.params.tool ?? ''))) {
    const tool = finding.params.tool ?? finding.ruleId;
    if (seen.has(tool)) continue;
    seen.add(tool);
    tools.push({ tool, why: finding.params.why ?? finding.message, install: finding.params.install ?? '', provenance: finding.provenance });
  }
  return tools;
}

/**
 * Findings of one kind folded into score contributors, one per rule: the weight is the sum over the
 * rule's subjects, capped at three times its largest single weight so one rule firing on many files
 * cannot alone saturate the score. Zero-weight rules stay in (they explain a low score).
 */
export function toScoreContributors(findings: readonly Finding[], kind: PackKind): ScoreContributor[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    if (finding.kind !== kind) continue;
    const key = `${finding.packId}#${finding.ruleId}`;
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const contributors: ScoreContributor[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort((a, b) => b.weight - a.weight || compareText(a.subjectId, b.subjectId));
    const first = sorted[0];
    if (first === undefined) continue;
    const sum = sorted.reduce((total, finding) => total + finding.weight, 0);
    const largest = Math.max(...sorted.map((finding) => Math.abs(finding.weight)));
    const weight = Math.max(-3 * largest, Math.min(3 * largest, sum));
    const more = sorted.length - 1;
    contributors.push({
      contributor: first.ruleId,
      weight: Math.round(weight * 100) / 100,
      detail: more === 0 ? first.message : `${first.message} (and ${more} more)`,
      evidenceIds: [...new Set(sorted.map((finding) => finding.subjectId))].sort(compareText),
      provenance: first.provenance,
    });
  }
  return contributors.sort(
    (a, b) => b.weight - a.weight || compareText(a.contributor, b.contributor) || compareText(a.provenance ?? '', b.provenance ?? ''),
  );
}

export function toRiskContributors(findings: readonly Finding[]): ScoreContributor[] {
  return toScoreContributors(findings, 'risk');
}

export function toDecayContributors(findings: readonly Finding[]): ScoreContributor[] {
  return toScoreContributors(findings, 'decay');
}

/** Context weight per edge-kind subject id (`edge-kind:imports`, `edge-kind:imports:type-only`, …); sums when several rules fire. */
export function toContextWeights(findings: readonly Finding[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const finding of findings) {
    if (finding.kind !== 'context-weight') continue;
    weights.set(finding.subjectId, (weights.get(finding.subjectId) ?? 0) + finding.weight);
  }
  return new Map([...weights].sort((a, b) => compareText(a[0], b[0])));
}

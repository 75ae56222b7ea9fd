import { createHash } from 'node:crypto';
import type { Engine, Event } from 'json-rules-engine';
import { CheckerError } from '../model/diagnostic.js';
import type { FactSubject, Finding, RuleEventParams } from '../model/rules.js';
import { buildEngine, type CompiledPack, type CompiledRule } from './pack.js';
import { compareText } from '../text/compare-text.js';

/**
 * A finding's id: the first 64 bits of the SHA-1 of pack, rule and subject. Stable across runs and platforms; not a
 * security boundary (ids only name findings within reports). node:crypto replaced a hand-written cyrb53: as fast on
 * 133,500 ids (1.09 s against 1.19 s, loaded machine) and nothing of ours to maintain.
 */
function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

export function getFindingId(packId: string, ruleId: string, subjectId: string): string {
  return `finding:${hashText(`${packId}|${ruleId}|${subjectId}`)}`;
}

function buildFinding(compiled: CompiledPack, entry: CompiledRule, subject: FactSubject): Finding {
  const { pack } = compiled;
  const { rule, priority } = entry;
  const params: RuleEventParams = entry.renderParams(subject.facts, subject.id);
  const messageId = rule.event.params.messageId;
  const finding: Finding = {
    id: getFindingId(pack.id, rule.id, subject.id),
    packId: pack.id,
    packVersion: pack.version,
    ruleId: rule.id,
    kind: pack.kind,
    subject: pack.subject,
    subjectId: subject.id,
    priority,
    weight: rule.event.params.weight,
    message: entry.renderMessage(subject.facts, subject.id),
    params,
    provenance: `${pack.id}@${pack.version}#${rule.id}`,
  };
  if (messageId !== undefined) finding.messageId = messageId;
  if (params.proof !== undefined) finding.proof = params.proof;
  return finding;
}

/** Sorted because rules of equal priority run in parallel and their events arrive in any order. */
function compareFindings(a: Finding, b: Finding): number {
  return (
    b.priority - a.priority || compareText(a.ruleId, b.ruleId) || compareText(a.subjectId, b.subjectId) || compareText(a.packId, b.packId)
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type Evaluator = 'json-rules-engine' | 'compiled';

export interface EvaluateOptions {
  /**
   * `compiled` (default, what analysis and context run) tests each rule's predicate. `json-rules-engine`
   * runs the pack as a json-rules-engine Engine over the same operator table: the reference the
   * predicates are proven equal to (test/rules/engine-parity.test.ts), about 50x slower.
   */
  evaluator?: Evaluator;
}

const engines = new WeakMap<CompiledPack, Engine>();

function getEngine(compiled: CompiledPack): Engine {
  let engine = engines.get(compiled);
  if (engine === undefined) {
    engine = buildEngine(compiled);
    engines.set(compiled, engine);
  }
  return engine;
}

function failEvaluation(pack: CompiledPack, subject: FactSubject, error: unknown): never {
  throw new CheckerError(
    'rules/evaluation-failed',
    `pack "${pack.pack.id}" failed on ${subject.subject} "${subject.id}": ${describeError(error)}`,
    {
      hint: 'the fact builder must supply every fact the pack names (see FACT_CATALOGUE in src/model/rules.ts)',
      cause: error,
    },
  );
}

async function runEngine(compiled: CompiledPack, subject: FactSubject): Promise<CompiledRule[]> {
  let events: Event[];
  try {
    ({ events } = await getEngine(compiled).run(subject.facts));
  } catch (error) {
    failEvaluation(compiled, subject, error);
  }
  const fired: CompiledRule[] = [];
  for (const event of events) {
    const entry = compiled.rules.get(event.type);
    if (entry !== undefined) fired.push(entry);
  }
  return fired;
}

function runPredicates(compiled: CompiledPack, subject: FactSubject): CompiledRule[] {
  for (const name of compiled.requiredFacts) {
    if (!Object.hasOwn(subject.facts, name)) failEvaluation(compiled, subject, new Error(`Undefined fact: ${name}`));
  }
  const fired: CompiledRule[] = [];
  try {
    for (const entry of compiled.rules.values()) if (entry.test(subject.facts)) fired.push(entry);
  } catch (error) {
    failEvaluation(compiled, subject, error);
  }
  return fired;
}

/** Runs every pack over the subjects of its subject kind and returns the findings in a stable order. */
export async function evaluatePacks(
  packs: readonly CompiledPack[],
  subjects: readonly FactSubject[],
  options: EvaluateOptions = {},
): Promise<Finding[]> {
  const useEngine = options.evaluator === 'json-rules-engine';
  const findings: Finding[] = [];
  for (const compiled of packs) {
    for (const subject of subjects) {
      if (subject.subject !== compiled.pack.subject) continue;
      const fired = useEngine ? await runEngine(compiled, subject) : runPredicates(compiled, subject);
      for (const entry of fired) findings.push(buildFinding(compiled, entry, subject));
    }
  }
  return findings.sort(compareFindings);
}

import { CheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import {
  GROUNDING_FILE_ROLES,
  GROUNDING_MATCH_STRENGTHS,
  type GroundingWeights,
  type GroundingWeightsSection,
} from '../model/grounding.js';
import type { LoadedPack } from '../model/rules.js';
import { loadRulePacks } from './load-rule-packs.js';

const SOURCE_ORDER = { builtin: 0, repository: 1 } as const;

function isSet(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
}

function isComplete<K extends string>(record: Partial<Record<K, number>>, keys: readonly K[]): record is Record<K, number> {
  return keys.every((key) => isSet(record[key]));
}

function failMissing(key: string, packs: readonly string[]): never {
  throw new CheckerError(
    'rules/grounding-weights',
    `no rule pack sets the grounding weight ${key} (packs with a grounding section: ${packs.join(', ') || 'none'})`,
    {
      hint: 'the built-in context-weights pack (rules/context-weights/pack.yaml) sets every grounding weight; reinstall checker if it is missing',
    },
  );
}

/**
 * The task-grounding weights: every pack's `grounding` section merged key by key, built-in packs first and
 * repository packs after them, so a repository pack overrides single weights.
 */
export function toGroundingWeights(packs: readonly LoadedPack[]): { weights: GroundingWeights; source: string } {
  const sections = packs
    .filter((entry) => entry.pack.grounding !== undefined)
    .sort((a, b) => SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || (a.pack.id < b.pack.id ? -1 : a.pack.id > b.pack.id ? 1 : 0));
  const merged: Required<GroundingWeightsSection> = {
    matchStrength: {},
    roleFactor: {},
    surfaceBoost: Number.NaN,
    requirementsFactor: Number.NaN,
  };
  for (const { pack } of sections) {
    const section = pack.grounding ?? {};
    Object.assign(merged.matchStrength, section.matchStrength);
    Object.assign(merged.roleFactor, section.roleFactor);
    if (section.surfaceBoost !== undefined) merged.surfaceBoost = section.surfaceBoost;
    if (section.requirementsFactor !== undefined) merged.requirementsFactor = section.requirementsFactor;
  }
  const names = sections.map((entry) => `${entry.pack.id}@${entry.pack.version}`);
  const { matchStrength, roleFactor, surfaceBoost, requirementsFactor } = merged;
  if (!isComplete(matchStrength, GROUNDING_MATCH_STRENGTHS))
    failMissing(`matchStrength.${GROUNDING_MATCH_STRENGTHS.find((key) => !isSet(matchStrength[key]))}`, names);
  if (!isComplete(roleFactor, GROUNDING_FILE_ROLES))
    failMissing(`roleFactor.${GROUNDING_FILE_ROLES.find((key) => !isSet(roleFactor[key]))}`, names);
  if (!isSet(surfaceBoost)) failMissing('surfaceBoost', names);
  if (!isSet(requirementsFactor)) failMissing('requirementsFactor', names);
  return { weights: { matchStrength, roleFactor, surfaceBoost, requirementsFactor }, source: names.join(', ') };
}

/**
 * The grounding weights of the run's rule packs (built-in and repository). A repository pack the loader refused
 * (`pack/invalid`, `pack/refused`) is reported in `limitations`, so a report never uses defaults silently.
 */
export async function loadGroundingWeights(env: Env, limitations: Diagnostic[]): Promise<{ weights: GroundingWeights; source: string }> {
  const { packs, diagnostics } = await loadRulePacks(env);
  limitations.push(...diagnostics);
  return toGroundingWeights(packs);
}

import { CheckerError } from '../model/diagnostic.js';
import {
  GROUNDING_FILE_ROLES,
  GROUNDING_MATCH_STRENGTHS,
  GROUNDING_SCALARS,
  type GroundingScalar,
  type GroundingWeights,
  type GroundingWeightsSection,
} from '../model/grounding.js';
import type { LoadedPack } from '../model/rules.js';

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
  const matchStrength: GroundingWeightsSection['matchStrength'] = {};
  const roleFactor: GroundingWeightsSection['roleFactor'] = {};
  const scalars: Partial<Record<GroundingScalar, number>> = {};
  for (const { pack } of sections) {
    const section = pack.grounding ?? {};
    Object.assign(matchStrength, section.matchStrength);
    Object.assign(roleFactor, section.roleFactor);
    for (const key of GROUNDING_SCALARS) if (section[key] !== undefined) scalars[key] = section[key];
  }
  const names = sections.map((entry) => `${entry.pack.id}@${entry.pack.version}`);
  if (!isComplete(matchStrength, GROUNDING_MATCH_STRENGTHS))
    failMissing(`matchStrength.${GROUNDING_MATCH_STRENGTHS.find((key) => !isSet(matchStrength[key]))}`, names);
  if (!isComplete(roleFactor, GROUNDING_FILE_ROLES))
    failMissing(`roleFactor.${GROUNDING_FILE_ROLES.find((key) => !isSet(roleFactor[key]))}`, names);
  if (!isComplete(scalars, GROUNDING_SCALARS)) failMissing(`${GROUNDING_SCALARS.find((key) => !isSet(scalars[key]))}`, names);
  return { weights: { matchStrength, roleFactor, ...scalars }, source: names.join(', ') };
}

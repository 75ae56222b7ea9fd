import type { CustomOperatorName } from '../../model/rules.js';
import { endsWithAny } from './ends-with-any.js';
import { intersects } from './intersects.js';
import { matchesGlob } from './matches-glob.js';
import { matchesRegex } from './matches-regex.js';
import { startsWithAny } from './starts-with-any.js';

export type OperatorEvaluator = (factValue: unknown, value: unknown) => boolean;

/** Every custom operator the model declares, by name; the Record type keeps the two lists in step. */
export const customOperators: Readonly<Record<CustomOperatorName, OperatorEvaluator>> = {
  matchesGlob,
  matchesRegex,
  intersects,
  startsWithAny,
  endsWithAny,
};

import { toGroundingWeights } from '../../src/app/grounding-weights.js';
import { loadBuiltinPacks } from './packs.js';
import type { GroundingWeights } from '../../src/model/grounding.js';

/** The built-in packs' grounding weights (rules/context-weights/pack.yaml), as the app passes them to groundTask. */
export const BUILTIN_GROUNDING_WEIGHTS: GroundingWeights = toGroundingWeights(await loadBuiltinPacks()).weights;

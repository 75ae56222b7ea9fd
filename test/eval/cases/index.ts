/** The evaluation corpus, in the order of bench/RESULTS.md's signal table. */
import type { EvalCase } from '../case.js';
import { HONO_APP } from './hono-app.js';
import { SYNC_RENAME, SYNC_STATUS_CHANGE } from './sync-server-advice.js';
import { ZOD_DOCS_ONLY, ZOD_ONE_LINE_FIX, ZOD_RELEASE, ZOD_TEST_ONLY, ZOD_TYPE_ONLY } from './zod.js';

export const CASES: EvalCase[] = [
  ZOD_RELEASE,
  ZOD_ONE_LINE_FIX,
  ZOD_TYPE_ONLY,
  ZOD_DOCS_ONLY,
  ZOD_TEST_ONLY,
  SYNC_RENAME,
  SYNC_STATUS_CHANGE,
  HONO_APP,
];

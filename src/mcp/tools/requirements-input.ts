import { createHash } from 'node:crypto';
import { CheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { Requirements, RequirementsInput } from '../../model/requirements.js';
import { renderJson } from '../../report/json.js';
import type { RequirementsObject } from '../schemas.js';

/** Provenance label of requirements given inline by the MCP client (spec 4.2: an object, not a file). */
const INLINE_REQUIREMENTS_PATH = 'mcp:requirements';

/**
 * The `requirements` object of a tool call as the app functions take it: validated against
 * schemas/requirements.schema.json (as a requirements file is), acceptance-criterion ids unique, and
 * hashed (SHA-256 of its JSON) for provenance.
 */
export function toRequirementsInput(env: Env, data: RequirementsObject | undefined): RequirementsInput | undefined {
  if (data === undefined) return undefined;
  const requirements = env.validate<Requirements>('requirements', data, { code: 'requirements/invalid', file: 'requirements' });
  const seen = new Set<string>();
  for (const [index, criterion] of (requirements.acceptanceCriteria ?? []).entries()) {
    if (seen.has(criterion.id)) {
      throw new CheckerError(
        'requirements/invalid',
        `requirements.acceptanceCriteria[${index}].id ${JSON.stringify(criterion.id)} is used twice`,
        {
          hint: 'Give every acceptance criterion its own id.',
        },
      );
    }
    seen.add(criterion.id);
  }
  const text = renderJson(requirements);
  return { path: INLINE_REQUIREMENTS_PATH, hash: createHash('sha256').update(text).digest('hex'), data: requirements };
}

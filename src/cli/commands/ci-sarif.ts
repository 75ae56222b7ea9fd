import { CheckerError } from '../../model/diagnostic.js';
import { toFormat, type OutputFormat } from '../args.js';

/** Output formats of the commands that report findings: the usual two, plus SARIF 2.1.0 for code scanning. */
export type FindingsFormat = OutputFormat | 'sarif';

/** --format for a command that can print SARIF; anything else is refused with the three choices. */
export function toFindingsFormat(value: unknown): FindingsFormat {
  if (value === 'sarif') return 'sarif';
  try {
    return toFormat(value);
  } catch {
    throw new CheckerError(
      'usage/invalid-format',
      `--format must be markdown, json or sarif (got ${JSON.stringify(String(value).slice(0, 80))})`,
      { hint: 'Use --format markdown (the default), --format json, or --format sarif for code scanning.' },
    );
  }
}

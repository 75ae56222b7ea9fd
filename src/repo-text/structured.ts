import { parse as parseYaml } from 'yaml';
import { CheckerError } from '../model/diagnostic.js';
import { redactSecrets } from '../text/redact/redact.js';
import { describeYamlProblem, toYamlProblem } from './yaml-error.js';

/** YAML (default alias limits, one document) or JSON by extension; throws CheckerError `input/malformed` naming the file. */
export function parseStructuredText(path: string, text: string): unknown {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : '';
  try {
    if (extension === '.json') return JSON.parse(text.replace(/^\uFEFF/, ''));
    return parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    const reason =
      extension === '.json'
        ? redactSecrets(error instanceof Error ? (error.message.split('\n')[0] ?? 'malformed') : 'malformed').text
        : describeYamlProblem(toYamlProblem(error, 'malformed'));
    throw new CheckerError('input/malformed', `${path} is not valid ${extension === '.json' ? 'JSON' : 'YAML'}: ${reason}`, {
      hint: 'Fix the syntax at the position given, then run the command again.',
      location: { file: path },
      cause: error,
    });
  }
}

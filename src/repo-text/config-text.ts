import { parseDocument } from 'yaml';
import { CheckerError } from '../model/diagnostic.js';
import { toYamlProblem } from './yaml-error.js';

function toYamlError(file: string, error: unknown, fallback: string): CheckerError {
  const { reason, position } = toYamlProblem(error, fallback);
  const where = position === undefined ? file : `${file}:${position.line}:${position.col}`;
  return new CheckerError('config/yaml', `${where}: ${reason}`, {
    hint: 'fix the YAML syntax at that position (source lines are not quoted so no secret is printed)',
    location: position === undefined ? { file } : { file, line: position.line, col: position.col },
    cause: error,
  });
}

/** Parses one YAML (or JSON) document with the library's default alias limit and unique keys. */
export function parseConfigText(text: string, file: string): unknown {
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw toYamlError(file, error, 'cannot parse YAML');
  }
  const firstError = doc.errors[0];
  if (firstError !== undefined) throw toYamlError(file, firstError, 'invalid YAML');
  try {
    return doc.toJS();
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new CheckerError('config/yaml', `${file}: alias expansion limit exceeded (excessive YAML aliases)`, {
        hint: 'remove the anchors and aliases; documents that expand aliases excessively are refused',
        location: { file },
        cause: error,
      });
    }
    throw toYamlError(file, error, 'cannot convert YAML');
  }
}

import { parseDocument } from 'yaml';
import { CheckerError } from '../model/diagnostic.js';
import { isRecord } from '../text/is-record.js';
import { redactSecrets } from '../text/redact.js';

function toYamlError(file: string, error: unknown, fallback: string): CheckerError {
  const raw = error instanceof Error ? error.message : fallback;
  // yaml's messages quote the surrounding source lines; keep only the first line so no config value is echoed (H38).
  const headline = redactSecrets(raw.split('\n')[0] ?? fallback).text.replace(/:\s*$/, '');
  const position = readLinePos(error);
  const where = position === undefined ? file : `${file}:${position.line}:${position.col}`;
  return new CheckerError('config/yaml', `${where}: ${headline}`, {
    hint: 'fix the YAML syntax at that position (source lines are not quoted so no secret is printed)',
    location: position === undefined ? { file } : { file, line: position.line, col: position.col },
    cause: error,
  });
}

function readLinePos(error: unknown): { line: number; col: number } | undefined {
  if (typeof error !== 'object' || error === null || !('linePos' in error)) return undefined;
  const linePos: unknown = error.linePos;
  const first: unknown = Array.isArray(linePos) ? linePos[0] : undefined;
  if (!isRecord(first)) return undefined;
  const { line, col } = first;
  return typeof line === 'number' && typeof col === 'number' ? { line, col } : undefined;
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

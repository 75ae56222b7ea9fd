import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';

/** JSON.parse names no position on Node 20, so jsonc-parser locates the first error. */
export function describeJsonError(text: string): { message: string; line: number | undefined } {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return { message: 'not valid JSON', line: undefined };
  let line = 1;
  for (let index = text.indexOf('\n'); index >= 0 && index < first.offset; index = text.indexOf('\n', index + 1)) line += 1;
  return { message: `not valid JSON (${printParseErrorCode(first.error)})`, line };
}

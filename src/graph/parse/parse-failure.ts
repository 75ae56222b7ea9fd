import type { ParseFailure } from '../../model/facts.js';

const maxMessageLength = 200;

/**
 * swc reports syntax errors as a rendered diagnostic: `x Message`, a `,-[line:col]` header and a
 * source excerpt with a caret. Only the first line is kept (the excerpt may quote secrets); the
 * position comes from the caret under the excerpt.
 */
export function toSyntaxFailure(error: unknown): ParseFailure {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown parser error';
  const rendered = raw.split('Caused by:')[0] ?? raw;
  const lines = rendered.split('\n');
  const firstLine = lines.find((line) => line.trim().length > 0)?.trim() ?? 'syntax error';
  const message = firstLine.replace(/^[x×]\s+/, '').slice(0, maxMessageLength);
  const failure: ParseFailure = { code: 'parse/syntax', message };
  const position = findCaretPosition(lines) ?? findHeaderPosition(rendered);
  if (position !== undefined) {
    failure.line = position.line;
    failure.col = position.col;
  }
  return failure;
}

function findCaretPosition(lines: string[]): { line: number; col: number } | undefined {
  for (let index = 1; index < lines.length; index++) {
    const caretLine = lines[index] ?? '';
    const caretMatch = /^(\s*):(\s*)\^/.exec(caretLine);
    if (caretMatch === null) continue;
    const sourceLine = lines[index - 1] ?? '';
    const sourceMatch = /^\s*(\d+) \| /.exec(sourceLine);
    if (sourceMatch === null) continue;
    const gutterWidth = sourceMatch[0].length;
    const caretColumn = caretLine.indexOf('^');
    return { line: Number(sourceMatch[1]), col: Math.max(1, caretColumn - gutterWidth + 1) };
  }
  return undefined;
}

function findHeaderPosition(rendered: string): { line: number; col: number } | undefined {
  const match = /,-\[(?:[^\]]*:)?(\d+):(\d+)\]/.exec(rendered);
  if (match === null) return undefined;
  return { line: Number(match[1]), col: Number(match[2]) };
}

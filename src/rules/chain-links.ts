import type { SourceLine } from './semantic-text.js';

/**
 * Method chains written one link per line, as formatters break them: `z` / `.string()` / `.optional(),` is one
 * statement, and a line-by-line reading compares the first line alone (outline's `client_name: z.string().min(1)` made
 * `client_name: z` over five lines read as its string, min and max removed; ky's `promise.then(resolve).catch(reject)`
 * broken over lines read as a removed error path and a new one).
 */

/** The most links of one chain followed below its first line. */
const MAX_CHAIN_LINES = 16;
/** A line that goes on with the statement above it as a link of a chain: `.then(resolve)`, `?.map(f)`. */
const CHAIN_LINK = /^\s*\??\.[A-Za-z_$]/;

export function isChainLink(line: SourceLine | undefined): boolean {
  return line !== undefined && !line.isComment && CHAIN_LINK.test(line.code);
}

/** The index of the last chain link written below the line at `at` (`at` itself when none follows). */
function findChainEnd(count: number, at: number, isLink: (index: number) => boolean): number {
  let end = at;
  while (end + 1 < count && end + 1 <= at + MAX_CHAIN_LINES && isLink(end + 1)) end++;
  return end;
}

/** `pieces`, the first trimmed at its end and the rest at both, as one line. */
function joinPieces(pieces: readonly string[]): string {
  return pieces.map((piece, index) => (index === 0 ? piece.trimEnd() : piece.trim())).join('');
}

/** Lines as written: the line at `at` with the chain links written below it, joined (`promise.then(resolve).catch(reject)`). */
export function joinLinesBelow(lines: readonly string[], at: number): string {
  const end = findChainEnd(lines.length, at, (index) => CHAIN_LINK.test(lines[index] ?? ''));
  return end === at ? (lines[at] ?? '') : joinPieces(lines.slice(at, end + 1));
}

/** The line at `at` with the chain links written below it, as one line; the line itself when no link follows. */
export function joinChainBelow(lines: readonly SourceLine[], at: number): SourceLine | undefined {
  const first = lines[at];
  const end = findChainEnd(lines.length, at, (index) => isChainLink(lines[index]));
  if (first === undefined || end === at) return first;
  const chain = lines.slice(at, end + 1);
  return {
    ...first,
    raw: joinPieces(chain.map((line) => line.raw)),
    text: joinPieces(chain.map((line) => line.text)),
    code: joinPieces(chain.map((line) => line.code)),
  };
}

/**
 * The statement a chain link belongs to, from its first line through the link at `at`, as one line (`promise` /
 * `.then(resolve)` / `.catch(reject)` → `promise.then(resolve).catch(reject)`); undefined for a line that is no link.
 */
export function joinChainAbove(lines: readonly SourceLine[], at: number): string | undefined {
  if (!isChainLink(lines[at])) return undefined;
  let start = at;
  while (start > 0 && at - start < MAX_CHAIN_LINES && isChainLink(lines[start])) start--;
  let text = '';
  for (let index = start; index <= at; index++) text += (lines[index]?.text ?? '').trim();
  return text;
}

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

/** Lines as written: the line at `at` with the chain links written below it, joined (`promise.then(resolve).catch(reject)`). */
export function joinLinesBelow(lines: readonly string[], at: number): string {
  let joined = lines[at] ?? '';
  for (let next = at + 1; next < lines.length && next <= at + MAX_CHAIN_LINES; next++) {
    const link = lines[next] ?? '';
    if (!CHAIN_LINK.test(link)) break;
    joined = `${joined.trimEnd()}${link.trim()}`;
  }
  return joined;
}

/** The line at `at` with the chain links written below it, as one line; the line itself when no link follows. */
export function joinChainBelow(lines: readonly SourceLine[], at: number): SourceLine | undefined {
  const first = lines[at];
  if (first === undefined || !isChainLink(lines[at + 1])) return first;
  let { raw, text, code } = first;
  raw = raw.trimEnd();
  text = text.trimEnd();
  code = code.trimEnd();
  for (let next = at + 1; next < lines.length && next <= at + MAX_CHAIN_LINES; next++) {
    const link = lines[next];
    if (link === undefined || !isChainLink(link)) break;
    raw += link.raw.trim();
    text += link.text.trim();
    code += link.code.trim();
  }
  return { ...first, raw, text, code };
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

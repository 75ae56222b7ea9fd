/**
 * Which options of a middleware factory a change sits behind: outline's `auth(options)` changed only inside
 * `if (options.optional …)`, so only the routes registered with `auth({ optional: true })` can run the changed lines.
 * Pure: the changed file's texts, hunks and functions in, option names out.
 */
import type { Hunk } from '../model/change.js';
import type { FunctionFact } from '../model/facts.js';
import { toChangedLines } from './proof.js';

interface GatedSource {
  hunks: readonly Hunk[];
  headText?: string | undefined;
  baseText?: string | undefined;
  headFunctions?: readonly FunctionFact[] | undefined;
}

/** Lines that run nothing of their own: blank, comment, import. */
const INERT_LINE = /^\s*(?:$|\/\/|\/\*|\*|import\b)/;

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** `if (options.optional) {` or `if (options.optional && …`: the option the `if` opens on, else undefined. */
function getOpeningOption(line: string, parameter: string): string | undefined {
  const escaped = parameter.replace(/\$/g, '\\$');
  return new RegExp(`^\\s*(?:\\}\\s*else\\s+)?if\\s*\\(\\s*${escaped}\\??\\.([A-Za-z_$][\\w$]*)\\s*(?:\\)|&&)`).exec(line)?.[1];
}

/**
 * The options every enclosing `if` of `line` in the function (from `start`) opens on, by indentation: an `else` branch
 * of one is not behind it. The line itself counts when it is such an `if` that was one already (`if (options.optional)`
 * given a further `&& …` clause): for a registration without the option, old and new are both false.
 */
function findGates(head: readonly string[], line: number, start: number, parameter: string, removed: readonly string[]): Set<string> {
  const gates = new Set<string>();
  const own = head[line - 1] ?? '';
  const ownOption = getOpeningOption(own, parameter);
  if (ownOption !== undefined && removed.some((text) => getOpeningOption(text, parameter) === ownOption)) gates.add(ownOption);
  let indent = indentOf(own);
  let inElse = /^\s*\}?\s*else\b/.test(own);
  for (let index = line - 2; index >= start - 1 && indent > 0; index--) {
    const text = head[index] ?? '';
    // A line that only closes brackets ends a block above; it opens nothing around `line`.
    if (INERT_LINE.test(text) || /^[}\])]+[;,)]*$/.test(text.trim()) || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    const option = getOpeningOption(text, parameter);
    if (option !== undefined && !inElse) gates.add(option);
    inElse = /^\s*\}?\s*else\b/.test(text);
  }
  return gates;
}

/**
 * The options of `factory` (a function of the changed file, its first parameter the options object) that gate every
 * changed line of the file: each such line sits in the factory under `if (options.X …)`. Undefined when a changed line
 * runs without one, lies outside the factory, or a hunk only deletes lines (where it stood is not known).
 */
export function findOptionGates(file: GatedSource, factory: string): string[] | undefined {
  if (file.headText === undefined || file.baseText === undefined) return undefined;
  const fn = file.headFunctions?.find((candidate) => candidate.name === factory);
  if (fn === undefined || file.hunks.some((hunk) => hunk.newLines === 0)) return undefined;
  const head = file.headText.split('\n');
  const parameter = /\(\s*([A-Za-z_$][\w$]*)/.exec(head.slice(fn.span.start - 1, fn.span.start + 1).join(' '))?.[1];
  if (parameter === undefined) return undefined;
  const base = file.baseText.split('\n');
  const removed = file.hunks.flatMap((hunk) => base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines));
  let common: Set<string> | undefined;
  for (const line of toChangedLines(file.hunks)) {
    if (INERT_LINE.test(head[line - 1] ?? '')) continue;
    if (line < fn.span.start || line > fn.span.end) return undefined;
    const gates = findGates(head, line, fn.span.start, parameter, removed);
    common = common === undefined ? gates : new Set([...common].filter((option) => gates.has(option)));
    if (common.size === 0) return undefined;
  }
  return common === undefined ? undefined : [...common].sort();
}

import type { GroundingMatch, GroundingReason } from '../model/grounding.js';
import { splitWords } from '../text/split-words.js';
import { toCompact, toStem } from './terms.js';

/** Matches in a file's own text, whose line is worth finding; a path, export or test names its node already. */
const TEXT_MATCHES: ReadonlySet<GroundingMatch> = new Set(['declaration', 'identifier', 'string', 'comment', 'text']);

/** Whether a reason is a match in its file's text (a declared name, an identifier, a string, a comment, prose). */
export function isTextReason(reason: GroundingReason): boolean {
  return TEXT_MATCHES.has(reason.matchedOn);
}

/**
 * The first line of `text` that says `term`: a word whose stem it is, or (for a name kept whole, `verifytoken`) the
 * line's letters and digits holding it. Undefined when no line does.
 */
function findTermLine(text: string, term: string): number | undefined {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const lower = line.toLowerCase();
    if (!lower.includes(term.slice(0, Math.min(term.length, 4)))) continue;
    if (splitWords(line).some((word) => toStem(word) === term) || toCompact(line).includes(term)) return index + 1;
  }
  return undefined;
}

/** The reasons with the line of each text match filled in from the file's text. */
export function withReasonLines(reasons: GroundingReason[], text: string): GroundingReason[] {
  return reasons.map((reason) => {
    if (!isTextReason(reason)) return reason;
    const line = findTermLine(text, reason.term);
    return line === undefined ? reason : { ...reason, line };
  });
}

/** Turning commit messages into task texts, and deciding which subjects are no task at all. */

const ISSUE_REFERENCES = [
  /\(\s*(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+)?(?:#|gh-)\d+(?:\s*,\s*(?:#|gh-)?\d+)*\s*\)/gi,
  /\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\b:?\s+(?:[\w.-]+\/[\w.-]+)?(?:#|gh-)\d+/gi,
  /https?:\/\/\S+/g,
  /(?:[\w.-]+\/[\w.-]+)?#\d+\b/g,
  /\bgh-\d+\b/gi,
];
/** `feat(scope)!:`, `fix:`, `[core]`, `:bug:` and emoji markers at the start of a subject. */
const PREFIXES = [
  /^\s*[a-z][\w-]{0,19}(?:\([^)]*\))?!?:\s+/i,
  /^\s*\[[^\]]{1,30}\]\s*/,
  /^\s*:[a-z_]+:\s*/,
  /^\s*\p{Extended_Pictographic}\uFE0F?\s*/u,
];

const SKIP_SUBJECTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['revert', /^\s*(?:revert|reapply)\b/i],
  ['merge', /^\s*merge\b/i],
  [
    'version bump',
    /^\s*v?\d+\.\d+\.\d+|\b(?:bump(?:ed)?|release[ds]?|releasing|publish(?:ed)?)\b[^\n]*\bv?\d+\.\d+|^\s*(?:chore|build)\(release\)|^\s*release\b/i,
  ],
  [
    'dependency update',
    /\((?:deps|deps-dev|dependencies)\)|\b(?:bump|update|upgrade)s?\b[^\n]*(?:\bdep(?:endenc(?:y|ies)|s)\b|\bfrom\s+v?\d[\w.-]*\s+to\s+v?\d)|\b(?:dependabot|renovate)\b/i,
  ],
  ['formatting or typo', /\b(?:typos?|lint(?:ing|er)?|prettier|reformat(?:ted)?|formatting|code ?style|whitespace)\b/i],
];

/** Why a commit subject is no task (revert, version bump, dependency update, formatting), or undefined. */
export function findSkipReason(subject: string): string | undefined {
  return SKIP_SUBJECTS.find(([, pattern]) => pattern.test(subject))?.[0];
}

function stripIssueReferences(text: string): string {
  return ISSUE_REFERENCES.reduce((current, pattern) => current.replace(pattern, ' '), text);
}

function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/^[\s,.;:-]+|[\s,.;:-]+$/g, '')
    .trim();
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The subject without `type(scope):`-like prefixes and issue or PR numbers. */
export function toTask(subject: string): string {
  let text = subject;
  for (let round = 0; round < 3; round += 1) {
    const before = text;
    for (const prefix of PREFIXES) text = text.replace(prefix, '');
    if (text === before) break;
  }
  return tidy(stripIssueReferences(text));
}

const BODY_NOISE =
  /^\s*\(?(?:signed-off-by|co-authored-by|reviewed-by|acked-by|change-id|cherry picked from|this reverts commit|pr-url|closes|fixes|resolves|refs?)\b/i;

/** The first sentence of a commit body, cleaned like the subject, or undefined when the body has none of 3+ words. */
export function findFirstSentence(body: string): string | undefined {
  const withoutComments = body.replace(/<!--[\s\S]*?(?:-->|$)/g, '\n');
  const lines = withoutComments
    .split('\n')
    .filter((line) => !BODY_NOISE.test(line))
    .filter((line) => !/^\s*(?:#{1,6}\s|[-*]\s*\[[ xX]\]|```|\||>|---)/.test(line))
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''));
  const paragraph = lines
    .join('\n')
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .find((block) => block !== '');
  if (paragraph === undefined) return undefined;
  const sentence = paragraph.split(/(?<=[.!?])\s+(?=[A-Z`*"'(])/)[0] ?? paragraph;
  const cleaned = toTask(sentence).slice(0, 300);
  return countWords(cleaned) >= 3 ? cleaned : undefined;
}

import { ENGLISH_STEM_LINES } from './english-words.js';
import { SOFTWARE_STEMS } from './software-words.js';
import { stemWord } from './terms.js';

let softwareStems: ReadonlySet<string> | undefined;
let englishStems: ReadonlySet<string> | undefined;

/** Whether software's own language uses a stem: at least two installed packages say it (src/ranking/software-words.ts). */
export function isSoftwareStem(stem: string): boolean {
  softwareStems ??= new Set(SOFTWARE_STEMS);
  return softwareStems.has(stem);
}

/** Whether a stem is a common English word's (src/ranking/english-words.ts): spelt right, so no misspelling of another. */
function isEnglishStem(stem: string): boolean {
  englishStems ??= new Set(ENGLISH_STEM_LINES.join(' ').split(' '));
  return englishStems.has(stem);
}

/** The shortest stems checked for a letter too many, and for one replaced or two swapped: shorter ones are one such edit from too many words (`photo` from `proto`). */
const MIN_EXTRA_LETTER = 5;
const MIN_REPLACED_LETTER = 7;
/** The shortest part of two words of the repository run together (`parsecontext`, `keyschema`). */
const MIN_PART = 3;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Whether `stem` is one edit from a stem the repository says: a letter left out (`brower`, `asyc`; from four letters),
 * one too many (`remopv`, `fonrt`; from MIN_EXTRA_LETTER), one replaced (`conctructor`) or two swapped (from
 * MIN_REPLACED_LETTER). A common English word is spelt right whatever it is one edit from: "river" is no misspelt
 * "driver", nor "stork" a misspelt "store".
 */
function isMisspelt(stem: string, isKnown: (stem: string) => boolean): boolean {
  if (stem.length < 4 || isEnglishStem(stem)) return false;
  for (let at = 0; at <= stem.length; at += 1) {
    for (const letter of LETTERS) if (isKnown(`${stem.slice(0, at)}${letter}${stem.slice(at)}`)) return true;
  }
  for (let at = 0; at < stem.length && stem.length >= MIN_EXTRA_LETTER; at += 1) {
    if (isKnown(`${stem.slice(0, at)}${stem.slice(at + 1)}`)) return true;
    if (stem.length < MIN_REPLACED_LETTER) continue;
    for (const letter of LETTERS) if (letter !== stem[at] && isKnown(`${stem.slice(0, at)}${letter}${stem.slice(at + 1)}`)) return true;
    if (at + 1 < stem.length && isKnown(`${stem.slice(0, at)}${stem[at + 1]}${stem[at]}${stem.slice(at + 2)}`)) return true;
  }
  return false;
}

/** The shortest part of two words of software's language run together: shorter ones make too many pairs (`tiebreak`). */
const MIN_KNOWN_PART = 4;

/**
 * Whether `word` is two words run together: two the repository says (`parsecontext` for parseContext: its names), or
 * two of software's language of at least MIN_KNOWN_PART letters each (`hardcoded`).
 */
function isCompound(
  word: string,
  repository: ReadonlySet<string>,
  isKnown: (stem: string) => boolean,
  toStem: (word: string) => string | undefined,
): boolean {
  for (let at = MIN_PART; at <= word.length - MIN_PART; at += 1) {
    const head = toStem(word.slice(0, at));
    const tail = toStem(word.slice(at));
    if (head === undefined || tail === undefined) continue;
    if (repository.has(head) && repository.has(tail)) return true;
    if (at >= MIN_KNOWN_PART && word.length - at >= MIN_KNOWN_PART && isKnown(head) && isKnown(tail)) return true;
  }
  return false;
}

/** English prefixes and suffixes that make a word of a word (`revalidation`, `unanchored`, `misleading`, `caseless`). */
const PREFIXES = ['un', 're', 'mis', 'pre', 'dis', 'non', 'de'];
const SUFFIXES = ['less', 'ness', 'ment', 'ful', 'abl'];
/** The shortest word left after a prefix or suffix. */
const MIN_BASE = 4;

/** Endings of a verb whose stem may have lost an `e` the stemmer keeps (`hiding` of hide, `shaded` of shade). */
const VERB_ENDINGS = ['ing', 'ed'];

/** Whether `stem` is a known word with an English prefix or suffix, or a verb's form the stemmer left whole (`hiding`). */
function isDerived(stem: string, isKnown: (stem: string) => boolean): boolean {
  const known = (base: string): boolean => base.length >= MIN_BASE && (isKnown(base) || isKnown(stemWord(base)));
  return (
    PREFIXES.some((prefix) => stem.startsWith(prefix) && known(stem.slice(prefix.length))) ||
    SUFFIXES.some((suffix) => stem.endsWith(suffix) && known(stem.slice(0, -suffix.length))) ||
    VERB_ENDINGS.some((ending) => stem.endsWith(ending) && known(`${stem.slice(0, -ending.length)}e`))
  );
}

/**
 * The task's unmatched words that are about something else: said nowhere in the repository and not software's own
 * language, nor made of known words: a misspelling of one, two run together, one with an English prefix or suffix.
 * "knitting" and "photo" on a web framework are; "polyfill" (software's language), "brower" (browser misspelt),
 * "keyschema" (key and schema) and "revalidation" (validation) are not. `said` is every stem the repository says
 * (asked only when a word is left).
 */
export function findForeignWords(
  words: readonly ForeignWordCandidate[],
  said: () => ReadonlySet<string>,
  toStem: (word: string) => string | undefined,
): string[] {
  const left = words.filter(({ stem }) => /^[a-z]{3,}$/.test(stem) && !isSoftwareStem(stem));
  if (left.length === 0) return [];
  const repository = said();
  const isKnown = (stem: string): boolean => repository.has(stem) || isSoftwareStem(stem);
  return left
    .filter(
      ({ stem, word }) =>
        !repository.has(stem) &&
        !isMisspelt(stem, isKnown) &&
        !isCompound(word.replace(/[^a-z]/g, ''), repository, isKnown, toStem) &&
        !isDerived(stem, isKnown),
    )
    .map(({ stem }) => stem);
}

/** A task word nothing matched: its stem, and the word as written (lower case), whose parts a compound is split into. */
export interface ForeignWordCandidate {
  stem: string;
  word: string;
}

const WORD = /[A-Z]{2,}(?:s(?![a-z])|v(?=\d))|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

/**
 * Splits an identifier, path or sentence into lower-case ASCII words: case changes, digits and any other character
 * separate them (`HTTPServer2Config` → http, server, 2, config). An acronym's plural is one word (`getURLs` → get,
 * urls; `APIs` → apis), and so is a version's `v` (`IPv6` → ipv, 6; zod's `$ZodCIDRv6` → zod, cidrv, 6): each as its
 * lower-case spelling splits (`ipv6`, `cidrv6`), where the case rule alone read `IPv6` as i, pv, 6. Any other single
 * lower-case letter after capitals starts a word (vue's `VOn` → v, on). One regular expression, no intermediate strings: the
 * parse children split every identifier, string and comment of a file with it.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) words.push(match[0].toLowerCase());
  return words;
}

/** English function words and filler: never terms of a task, never kept among a file's words. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor but not no yes if then else so than too very just only also even still yet ' +
    'is am are was were be been being do does did doing done has have had having will would shall should can could may might must ' +
    'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those ' +
    'what which who whom whose when where why how whatever whenever wherever ' +
    'of in on at to for from by with without within into onto upon out off over under above below up down about ' +
    'after before while during between through throughout across against along among around behind beside beyond via per ' +
    'as like unlike since until till because though although unless whether ' +
    'all any both each either neither every few many more most much other others some such same own ' +
    'here there now again once ever never always often sometimes already soon ' +
    'one two three first second last next ' +
    'please let lets want wants wanted need needs needed try tries able ' +
    'something anything nothing everything someone anyone everyone somewhere anywhere ' +
    'see also eg ie etc vs ok okay ca wo'
  ).split(/\s+/),
);

/**
 * Source languages checker reads as text only (it parses JavaScript, TypeScript, Python and Go), by file extension: a changed file
 * in one of them gets no proof obligation and no test task, and one limitation names it.
 */
const UNPARSED_LANGUAGES: ReadonlyMap<string, string> = new Map([
  ['pyi', 'Python stubs'],
  ['rb', 'Ruby'],
  ['java', 'Java'],
  ['kt', 'Kotlin'],
  ['kts', 'Kotlin'],
  ['scala', 'Scala'],
  ['rs', 'Rust'],
  ['php', 'PHP'],
  ['cs', 'C#'],
  ['fs', 'F#'],
  ['swift', 'Swift'],
  ['m', 'Objective-C'],
  ['c', 'C'],
  ['h', 'C'],
  ['cc', 'C++'],
  ['cpp', 'C++'],
  ['cxx', 'C++'],
  ['hpp', 'C++'],
  ['ex', 'Elixir'],
  ['exs', 'Elixir'],
  ['erl', 'Erlang'],
  ['clj', 'Clojure'],
  ['dart', 'Dart'],
  ['lua', 'Lua'],
  ['pl', 'Perl'],
  ['r', 'R'],
  ['vue', 'Vue'],
  ['svelte', 'Svelte'],
  ['astro', 'Astro'],
]);

/** The language of a source file checker does not parse, or undefined (JavaScript, TypeScript, Python, Go, docs, config, data). */
export function getUnparsedLanguage(path: string): string | undefined {
  const match = /\.([^./]+)$/.exec(path);
  return match === null ? undefined : UNPARSED_LANGUAGES.get((match[1] ?? '').toLowerCase());
}

/** The language of a source file checker parses, by extension, or undefined. */
function getParsedLanguageName(path: string): string | undefined {
  if (/\.[cm]?tsx?$/.test(path)) return 'TypeScript';
  if (/\.[cm]?jsx?$/.test(path)) return 'JavaScript';
  if (path.endsWith('.py')) return 'Python';
  if (path.endsWith('.go')) return 'Go';
  return undefined;
}

/** Source files by language, parsed ones first, then by count (`checker graph`'s language table). */
export function countSourceLanguages(paths: Iterable<string>): { language: string; files: number; parsed: boolean }[] {
  const counts = new Map<string, { language: string; files: number; parsed: boolean }>();
  for (const path of paths) {
    const parsed = getParsedLanguageName(path);
    const language = parsed ?? getUnparsedLanguage(path);
    if (language === undefined) continue;
    const entry = counts.get(language) ?? { language, files: 0, parsed: parsed !== undefined };
    entry.files += 1;
    counts.set(language, entry);
  }
  return [...counts.values()].sort(
    (left, right) => Number(right.parsed) - Number(left.parsed) || right.files - left.files || (left.language < right.language ? -1 : 1),
  );
}

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

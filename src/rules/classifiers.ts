import { RE2JS } from 're2js';
import {
  type ClassifierSection,
  type LoadedPack,
  PATH_CLASSES,
  type PathClass,
  type PathClassData,
  SIGNAL_WORD_CLASSES,
  type SignalClassData,
  type SignalWordClass,
} from '../model/rules.js';
import { compileGlobs } from '../text/glob.js';
import { getCompiledPattern } from './operators/matches-regex.js';

/** Every pack's classes merged: lists are unions, `removeWords` takes words out of them. */
export interface MergedClassifiers {
  paths: Record<PathClass, Required<Omit<PathClassData, 'description' | 'removeWords'>>>;
  signals: Record<SignalWordClass, Required<Omit<SignalClassData, 'description' | 'removeWords'>>>;
}

export type PathClasses = Record<PathClass, boolean>;

/** Which path classes a repository-relative path is in. */
export type PathClassifier = (path: string) => PathClasses;

function mapNames<K extends string, V>(names: readonly K[], build: (name: K) => V): Record<K, V> {
  const out: Partial<Record<K, V>> = {};
  for (const name of names) out[name] = build(name);
  // Every name of the closed list is set above.
  return out as Record<K, V>;
}

const sortUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

function mergePathClass(sections: readonly PathClassData[]): MergedClassifiers['paths'][PathClass] {
  const removed = new Set(sections.flatMap((data) => data.removeWords ?? []).map((word) => word.toLowerCase()));
  const keep = (words: string[]): string[] => sortUnique(words.map((word) => word.toLowerCase()).filter((word) => !removed.has(word)));
  return {
    words: keep(sections.flatMap((data) => data.words ?? [])),
    prefixes: keep(sections.flatMap((data) => data.prefixes ?? [])),
    globs: sortUnique(sections.flatMap((data) => data.globs ?? [])),
    regexes: sortUnique(sections.flatMap((data) => data.regexes ?? [])),
    exclude: sortUnique(sections.flatMap((data) => data.exclude ?? [])),
  };
}

function mergeSignalClass(sections: readonly SignalClassData[]): MergedClassifiers['signals'][SignalWordClass] {
  const removed = new Set(sections.flatMap((data) => data.removeWords ?? []));
  const keep = (words: string[]): string[] => sortUnique(words.filter((word) => !removed.has(word)));
  return {
    words: keep(sections.flatMap((data) => data.words ?? [])),
    prefixes: keep(sections.flatMap((data) => data.prefixes ?? [])),
  };
}

function collect<T>(
  sections: readonly ClassifierSection[],
  pick: (section: ClassifierSection) => Record<string, T> | undefined,
  name: string,
): T[] {
  return sections.flatMap((section) => {
    const data = pick(section)?.[name];
    return data === undefined ? [] : [data];
  });
}

/**
 * The classes of every loaded pack (built-in and repository) merged. Class names outside PATH_CLASSES
 * and SIGNAL_WORD_CLASSES are refused by pack validation, so they are ignored here.
 */
export function mergeClassifiers(packs: readonly Pick<LoadedPack, 'pack'>[]): MergedClassifiers {
  const sections = packs.flatMap((loaded) => (loaded.pack.classifiers === undefined ? [] : [loaded.pack.classifiers]));
  return {
    paths: mapNames(PATH_CLASSES, (name) => mergePathClass(collect(sections, (section) => section.paths, name))),
    signals: mapNames(SIGNAL_WORD_CLASSES, (name) => mergeSignalClass(collect(sections, (section) => section.signals, name))),
  };
}

const SEPARATOR = '[/._-]';

function escapeWord(word: string): string {
  return word.replace(/[^A-Za-z0-9]/g, (char) => `\\${char}`);
}

/** One RE2 program for a class's words and prefixes: a name between separators equal to a word, or starting with a prefix. */
function compileWords(words: readonly string[], prefixes: readonly string[]): ((path: string) => boolean) | undefined {
  const alternatives = [...words.map(escapeWord), ...prefixes.map((prefix) => `${escapeWord(prefix)}[A-Za-z0-9_]*`)];
  if (alternatives.length === 0) return undefined;
  const regex = RE2JS.compile(`(?:^|${SEPARATOR})(?:${alternatives.join('|')})(?:${SEPARATOR}|$)`, RE2JS.CASE_INSENSITIVE);
  return (path) => regex.test(path);
}

function compilePathClass(data: MergedClassifiers['paths'][PathClass]): (path: string) => boolean {
  const matchers: ((path: string) => boolean)[] = [];
  const words = compileWords(data.words, data.prefixes);
  if (words !== undefined) matchers.push(words);
  if (data.globs.length > 0) matchers.push(compileGlobs(data.globs, { dot: true, nocase: true }));
  for (const source of data.regexes) {
    // Validation refused what RE2 cannot run; a refused pattern here never matches.
    const pattern = getCompiledPattern(source);
    if (pattern !== null) matchers.push((path) => pattern.regex.test(path));
  }
  const excluded = data.exclude.length > 0 ? compileGlobs(data.exclude, { dot: true, nocase: true }) : () => false;
  return (path) => !excluded(path) && matchers.some((matcher) => matcher(path));
}

/**
 * One path class alone, remembered per path: what a caller that asks one class of many paths needs (task grounding
 * asks `generated` of every scored file, several times each; every class of each cost a warm preflight 86 ms).
 */
export function createPathClassTest(merged: MergedClassifiers, name: PathClass): (path: string) => boolean {
  const matches = compilePathClass(merged.paths[name]);
  const seen = new Map<string, boolean>();
  return (path) => {
    let answer = seen.get(path);
    if (answer === undefined) {
      answer = matches(path);
      seen.set(path, answer);
    }
    return answer;
  };
}

/** Compiles the merged path classes once; every match runs on RE2 (linear in the path). */
export function createPathClassifier(merged: MergedClassifiers): PathClassifier {
  const compiled = mapNames(PATH_CLASSES, (name) => compilePathClass(merged.paths[name]));
  return (path) => mapNames(PATH_CLASSES, (name) => compiled[name](path));
}

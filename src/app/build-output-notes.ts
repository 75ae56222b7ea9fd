import type { Diagnostic } from '../model/diagnostic.js';
import type { Resolution } from '../model/resolve.js';
import { compareText } from '../text/compare-text.js';
import { countOf } from '../text/plural.js';

const CODE = 'resolve/build-output';
const HINT =
  'The build is assumed to copy each source file to the same path under its output folder; a test that imports the source directly needs no such assumption.';
/** What a note says, read back: how many imports, of which files, by which rule. */
const NOTE =
  /^(\d+) imports? of build output the repository does not hold \(in (.+?)\) (?:was|were) mapped to (?:its source|their sources): (.+)\.$/;

function toNote(rule: string, count: number, files: readonly string[]): Diagnostic {
  const shown = `${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}`;
  return {
    code: CODE,
    severity: 'info',
    message: `${countOf(count, 'import')} of build output the repository does not hold (in ${shown}) ${count === 1 ? 'was' : 'were'} mapped to ${count === 1 ? 'its source' : 'their sources'}: ${rule}.`,
    hint: HINT,
    location: { file: files[0] ?? '' },
  };
}

/**
 * One note per importing file and rule that mapped imports of absent build output (`../lib/a`) to their sources
 * (src/graph/resolve/build-output.ts). Per file, so that an analysis keeps those of the files its change reaches: a
 * focused cold run resolves only those, and a run on the kept graph must say the same.
 */
export function describeBuildOutputImports(resolutions: ReadonlyMap<string, readonly Resolution[]>): Diagnostic[] {
  const notes: Diagnostic[] = [];
  for (const [path, list] of [...resolutions].sort(([left], [right]) => compareText(left, right))) {
    const counts = new Map<string, number>();
    for (const resolution of list)
      if (resolution.builtFrom !== undefined) counts.set(resolution.builtFrom, (counts.get(resolution.builtFrom) ?? 0) + 1);
    for (const [rule, count] of [...counts].sort(([left], [right]) => compareText(left, right))) notes.push(toNote(rule, count, [path]));
  }
  return notes;
}

/** The per-file build-output notes of `diagnostics` folded into one per rule (counts added, files listed); the rest as given. */
export function summariseBuildOutputNotes(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const byRule = new Map<string, { count: number; files: string[]; at: number }>();
  const kept: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const note = diagnostic.code === CODE ? NOTE.exec(diagnostic.message) : null;
    if (note === null) {
      kept.push(diagnostic);
      continue;
    }
    const [, count, files, rule] = note as unknown as [string, string, string, string];
    const entry = byRule.get(rule) ?? { count: 0, files: [], at: kept.length };
    entry.count += Number(count);
    entry.files.push(...files.split(', ').filter((file) => file !== '…'));
    byRule.set(rule, entry);
  }
  // Each rule's note stands where its first file's did.
  const placed = [...byRule].sort(([left, a], [right, b]) => a.at - b.at || compareText(left, right));
  for (const [rule, entry] of placed.reverse()) {
    kept.splice(entry.at, 0, toNote(rule, entry.count, [...new Set(entry.files)].sort(compareText)));
  }
  return kept;
}

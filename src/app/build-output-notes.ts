import type { Diagnostic } from '../model/diagnostic.js';
import type { Resolution } from '../model/resolve.js';
import { compareText } from '../text/compare-text.js';
import { countOf } from '../text/plural.js';

const CODE = 'resolve/build-output';
const HINT =
  'The build is assumed to copy each source file to the same path under its output folder; a test that imports the source directly needs no such assumption.';
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

/**
 * The rule of a per-file note made by describeBuildOutputImports, with its count: the message is rebuilt from its
 * location, so a file or rule text holding the note's own words cannot mislead the reading. Undefined for any other
 * diagnostic, a folded note among them.
 */
function readFileNote(diagnostic: Diagnostic): { rule: string; count: number; file: string } | undefined {
  const file = diagnostic.location?.file;
  const count = /^(\d+) /.exec(diagnostic.message)?.[1];
  if (diagnostic.code !== CODE || file === undefined || count === undefined) return undefined;
  const one = Number(count) === 1;
  const start = `${countOf(Number(count), 'import')} of build output the repository does not hold (in ${file}) ${one ? 'was' : 'were'} mapped to ${one ? 'its source' : 'their sources'}: `;
  const { message } = diagnostic;
  if (!message.startsWith(start) || !message.endsWith('.')) return undefined;
  return { rule: message.slice(start.length, -1), count: Number(count), file };
}

/** The per-file build-output notes of `diagnostics` folded into one per rule, where its first stood (counts added, files listed); the rest as given. */
export function summariseBuildOutputNotes(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const byRule = new Map<string, { count: number; files: Set<string>; slot: number }>();
  const out: (Diagnostic | string)[] = [];
  for (const diagnostic of diagnostics) {
    const note = readFileNote(diagnostic);
    if (note === undefined) {
      out.push(diagnostic);
      continue;
    }
    let entry = byRule.get(note.rule);
    if (entry === undefined) {
      entry = { count: 0, files: new Set(), slot: out.push(note.rule) - 1 };
      byRule.set(note.rule, entry);
    }
    entry.count += note.count;
    entry.files.add(note.file);
  }
  return out.map((item) => {
    if (typeof item !== 'string') return item;
    const entry = byRule.get(item);
    return toNote(item, entry?.count ?? 0, [...(entry?.files ?? [])].sort(compareText));
  });
}

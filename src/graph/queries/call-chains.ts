import type { CallableFact, FileFacts, Span } from '../../model/facts.js';
import { parseCallableKey, type SymbolIndex, toCallableKey } from '../symbol-index.js';
import { isShownWhole, SHOWN_PATH_END, toOmittedMarker } from './shown-path.js';
import { compareText } from '../../text/compare-text.js';

/** One changed file as route reach needs it. Without `changedLines` every line of the file counts as changed. */
export interface RouteChange {
  path: string;
  /** Head-side lines added or modified. */
  changedLines?: readonly number[];
  /** Base-side lines removed (pure deletions leave no head-side line). */
  deletedLines?: readonly number[];
  headFacts?: FileFacts;
  baseFacts?: FileFacts;
}

export type ChangedLines = ReadonlyMap<string, ReadonlySet<number> | 'all'>;

interface Reached {
  parent: string | undefined;
  /** The first changed line, for callables that changed themselves. */
  line?: number;
  /** Steps from this callable down to the changed one, both included. */
  steps: number;
  /** Changes of file between neighbours on the way down (the chain's file count is `breaks + 1`). */
  breaks: number;
  /** The nearest callable on the way down whose chain has at most `SHOWN_PATH_END` steps and files. */
  anchor: string;
}

/** A described call chain: steps from the route end to the change, files from the change up. */
export interface CallChain {
  /** `calls foo (src/a.ts)` … `changed bar (src/b.ts:12)`; a chain over `MAX_SHOWN_PATH` steps keeps both ends around a `… N more calls …` marker. */
  steps: string[];
  /** Files from the changed callable's up to the start's, shortened the same way (`… N more files …`). */
  files: string[];
  /** How many steps the whole chain has (`steps.length` when it was not shortened). */
  count: number;
}

/** Callables the change reached (modified ones and, transitively, their callers), with parent pointers. */
export interface ReachedCallables {
  has(key: string): boolean;
  /** Files with at least one reached callable (or the module itself). */
  readonly files: ReadonlySet<string>;
  /** The reached callable of `file` with the smallest key, the module itself (`#*`) left out. */
  getFirstCallable(file: string): string | undefined;
  /** The chain from `key` down to a changed callable. O(MAX_SHOWN_PATH) per call once the chains are indexed. */
  describe(key: string): CallChain;
}

/** The first line of `span` among `lines` (its start when every line counts), or undefined. */
export function overlaps(span: Span, lines: ReadonlySet<number> | 'all'): number | undefined {
  if (lines === 'all') return span.start;
  for (let line = span.start; line <= span.end; line++) if (lines.has(line)) return line;
  return undefined;
}

/** Callables (`file#name`) the change modified, and every callable that calls them, with parent pointers. */
export function findReachedCallables(
  symbols: SymbolIndex,
  changes: readonly RouteChange[],
  changedLines: ChangedLines,
  candidateFiles: readonly string[],
): ReachedCallables {
  const reached = new Map<string, Reached>();
  const queue: string[] = [];
  // Members the change added (not in the base file): no code that was there before can call them, so neither their
  // class nor their module is reached through them; code that calls them changed too, and is reached by its own lines.
  const added = new Set<string>();
  const mark = (key: string, parent: string | undefined, line?: number): void => {
    if (reached.has(key)) return;
    const entry: Reached = { parent, steps: 0, breaks: 0, anchor: key };
    if (line !== undefined) entry.line = line;
    reached.set(key, entry);
    queue.push(key);
  };
  for (const change of changes) {
    const lines = changedLines.get(change.path) ?? 'all';
    const callables = change.headFacts?.callables ?? symbols.getCallables(change.path);
    if (callables.length === 0) {
      mark(toCallableKey(change.path, '*'), undefined, lines === 'all' ? 1 : (lines.values().next().value ?? 1));
      continue;
    }
    const baseNames = change.baseFacts === undefined ? undefined : new Set(change.baseFacts.callables.map((callable) => callable.name));
    for (const callable of callables) {
      const line = overlaps(callable.span, lines);
      if (line === undefined || isChangedOnlyInMembers(callable, callables, lines)) continue;
      const key = toCallableKey(change.path, callable.name);
      if (baseNames !== undefined && callable.name.includes('.') && !baseNames.has(callable.name)) added.add(key);
      mark(key, undefined, line);
    }
    const deleted = new Set(change.deletedLines ?? []);
    if (deleted.size > 0) {
      const headStarts = new Map<string, number>();
      for (const callable of callables) if (!headStarts.has(callable.name)) headStarts.set(callable.name, callable.span.start);
      const baseCallables = change.baseFacts?.callables ?? [];
      for (const callable of baseCallables) {
        const line = overlaps(callable.span, deleted);
        if (line !== undefined && headStarts.has(callable.name) && !isChangedOnlyInMembers(callable, baseCallables, deleted))
          mark(toCallableKey(change.path, callable.name), undefined, headStarts.get(callable.name));
      }
    }
    if (lines !== 'all') {
      const rebound = new Set<string>();
      // A name the base file bound alike (same module, same imported name) is not rebound by a reformatted statement
      // (`import { a, b }` spread over lines to add `c`): only `c` is.
      const bound = new Set(
        (change.baseFacts?.imports ?? []).flatMap((fact) => fact.names.map((name) => `${fact.specifier}\0${name.imported}\0${name.local}`)),
      );
      for (const fact of change.headFacts?.imports ?? []) {
        if (!lines.has(fact.line)) continue;
        for (const name of fact.names) if (!bound.has(`${fact.specifier}\0${name.imported}\0${name.local}`)) rebound.add(name.local);
      }
      if (rebound.size > 0) {
        for (const callable of callables) {
          if (callable.refs.some((ref) => rebound.has(ref.split('.')[0] ?? ref)))
            mark(toCallableKey(change.path, callable.name), undefined, callable.span.start);
        }
      }
    }
  }

  const referrers = new Map<string, Set<string>>();
  const uses = new Map<string, Set<string>>();
  for (const file of new Set(candidateFiles)) {
    for (const callable of symbols.getCallables(file)) {
      const from = toCallableKey(file, callable.name);
      const keys = new Set<string>();
      for (const ref of callable.refs) {
        const target = symbols.resolveName(file, ref);
        if (target === undefined || target.kind === 'package') continue;
        const key = target.kind === 'module' ? toCallableKey(target.file, '*') : toCallableKey(target.file, target.name);
        if (key === from) continue;
        keys.add(key);
        const set = referrers.get(key) ?? new Set<string>();
        set.add(from);
        referrers.set(key, set);
      }
      uses.set(from, keys);
    }
  }
  // A class reached only because one of its members changed stands for the whole of it only to code that uses it
  // whole: not to its own members (`this.users` in findOne), nor to code naming the members it uses
  // (`this.users.find(id)` names UsersService.find). A class whose own lines changed (a field) reaches them all.
  const usesWhole = (referrer: string, owner: string): boolean => {
    if (referrer.startsWith(`${owner}.`)) return false;
    for (const key of uses.get(referrer) ?? []) if (key.startsWith(`${owner}.`)) return false;
    return true;
  };

  // An index, not shift(): a queue of 50,000 callables must not be moved 50,000 times.
  for (let head = 0; head < queue.length; head += 1) {
    const key = queue[head] ?? '';
    const { file, name } = parseCallableKey(key);
    const isAdded = added.has(key);
    if (name !== '*' && !isAdded) mark(toCallableKey(file, '*'), key);
    const dot = name.indexOf('.');
    if (dot > 0 && !isAdded) mark(toCallableKey(file, name.slice(0, dot)), key);
    const parent = reached.get(key)?.parent;
    const throughMember = parent !== undefined && name !== '*' && !name.includes('.') && parent.startsWith(`${key}.`);
    for (const referrer of [...(referrers.get(key) ?? [])].sort(compareText)) {
      if (!throughMember || usesWhole(referrer, key)) mark(referrer, key);
    }
  }
  return createReachedCallables(reached);
}

/**
 * A class or object whose changed lines all lie in its members: it is reached through them (and stands for its whole
 * only to code that uses it whole), not changed itself.
 */
function isChangedOnlyInMembers(owner: CallableFact, callables: readonly CallableFact[], lines: ReadonlySet<number> | 'all'): boolean {
  if (lines === 'all' || owner.name.includes('.')) return false;
  const members = callables.filter((callable) => callable.name.startsWith(`${owner.name}.`));
  if (members.length === 0) return false;
  // A line between two members (a blank line, a comment) is neither's; the class header and its closing lines are the class's.
  const first = Math.min(...members.map((member) => member.span.start));
  const last = Math.max(...members.map((member) => member.span.end));
  for (let line = owner.span.start; line <= owner.span.end; line++) {
    if (!lines.has(line) || (line > first && line < last)) continue;
    if (!members.some((member) => member.span.start <= line && line <= member.span.end)) return false;
  }
  return true;
}

/** The step `key` adds to a chain: `changed …` for a changed callable, `calls …` for a caller, nothing for a module or an enclosing callable. */
function describeStep(key: string, entry: Reached | undefined): string | undefined {
  const { file, name } = parseCallableKey(key);
  const label = name === '*' ? 'the module' : name;
  if (entry?.parent === undefined) return `changed ${label} (${file}${entry?.line === undefined ? '' : `:${entry.line}`})`;
  if (name === '*') return undefined;
  const { file: parentFile, name: parentName } = parseCallableKey(entry.parent);
  return parentFile === file && parentName.startsWith(`${name}.`) ? undefined : `calls ${label} (${file})`;
}

interface Walked {
  steps: string[];
  /** Files in walk order (from `key` down), consecutive repeats dropped. */
  files: string[];
  /** The last callable walked. */
  last: string;
}

/** Walks from `key` down the parent pointers, stopping once `isFull` says so (after the callable that filled it). */
function walkDown(reached: ReadonlyMap<string, Reached>, key: string, isFull: (walked: Walked) => boolean): Walked {
  const walked: Walked = { steps: [], files: [], last: key };
  const seen = new Set<string>();
  let current: string | undefined = key;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    const entry = reached.get(current);
    const step = describeStep(current, entry);
    if (step !== undefined) walked.steps.push(step);
    const { file } = parseCallableKey(current);
    if (walked.files[walked.files.length - 1] !== file) walked.files.push(file);
    walked.last = current;
    if (isFull(walked)) break;
    current = entry?.parent;
  }
  return walked;
}

function createReachedCallables(reached: Map<string, Reached>): ReachedCallables {
  const files = new Set<string>();
  const firstCallables = new Map<string, string>();
  for (const key of reached.keys()) {
    const { file, name } = parseCallableKey(key);
    files.add(file);
    if (name === '*') continue;
    const known = firstCallables.get(file);
    if (known === undefined || compareText(key, known) < 0) firstCallables.set(file, key);
  }
  let isIndexed = false;
  // Insertion order is BFS order, so a parent is always indexed before its children.
  const index = (): void => {
    if (isIndexed) return;
    isIndexed = true;
    for (const [key, entry] of reached) {
      const parent = entry.parent === undefined ? undefined : reached.get(entry.parent);
      const hasStep = describeStep(key, entry) === undefined ? 0 : 1;
      entry.steps = (parent?.steps ?? 0) + hasStep;
      entry.breaks =
        parent === undefined || entry.parent === undefined
          ? 0
          : parent.breaks + (parseCallableKey(key).file === parseCallableKey(entry.parent).file ? 0 : 1);
      const isShort = entry.steps <= SHOWN_PATH_END && entry.breaks + 1 <= SHOWN_PATH_END;
      entry.anchor = isShort || parent === undefined ? key : parent.anchor;
    }
  };
  return {
    has: (key) => reached.has(key),
    files,
    getFirstCallable: (file) => firstCallables.get(file),
    describe(key) {
      index();
      const entry = reached.get(key);
      if (entry === undefined || (isShownWhole(entry.steps) && isShownWhole(entry.breaks + 1))) {
        const walked = walkDown(reached, key, () => false);
        return { steps: walked.steps, files: walked.files.reverse(), count: walked.steps.length };
      }
      const head = walkDown(reached, key, (walked) => walked.steps.length >= SHOWN_PATH_END || walked.files.length >= SHOWN_PATH_END);
      const tail = walkDown(reached, entry.anchor, () => false);
      const last = reached.get(head.last);
      const anchor = reached.get(entry.anchor);
      const lastStep = describeStep(head.last, last) === undefined ? 0 : 1;
      const omittedSteps = (last?.steps ?? 0) - lastStep - (anchor?.steps ?? 0);
      const omittedFiles = (last?.breaks ?? 0) - (anchor?.breaks ?? 0) - 1;
      const steps = [...head.steps, ...(omittedSteps > 0 ? [toOmittedMarker(omittedSteps, 'calls')] : []), ...tail.steps];
      const files = [
        ...head.files,
        ...(omittedFiles > 0 ? [toOmittedMarker(omittedFiles, 'files')] : []),
        ...(omittedFiles < 0 ? tail.files.slice(1) : tail.files),
      ];
      return { steps, files: files.reverse(), count: entry.steps };
    },
  };
}

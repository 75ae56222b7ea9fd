import type { CallableFact, FileFacts, PathPart } from '../model/facts.js';

/** What the graph build knows that name resolution needs: facts, import resolution and barrel-aware export lookup. */
export interface SymbolSources {
  getFacts(path: string): FileFacts | undefined;
  /**
   * The repository file (or the external package) that import `index` of `path` resolves to; `others`, the rest of
   * the files it lands on (a Go package's).
   */
  resolveImport(path: string, specifier: string, index?: number): { file?: string; others?: string[]; packageName?: string };
  /** Every export `name` of `path` lands on through re-exports, as file and export name. */
  findExport(path: string, name: string): { file: string; name: string }[];
}

/** Where a local name leads. Callable keys are `path#name` (`src/a.ts#list`, `src/a.ts#Users.find`). */
export type SymbolTarget =
  | { kind: 'callable'; file: string; name: string }
  | { kind: 'module'; file: string }
  | { kind: 'package'; packageName: string; specifier: string; imported: string };

interface Binding {
  specifier: string;
  imported: string;
  index: number;
}

interface FileSymbols {
  callables: Map<string, CallableFact>;
  bindings: Map<string, Binding>;
  constants: Map<string, PathPart[]>;
}

const MAX_DEPTH = 12;
/** A resolved path longer than this is treated as unresolvable (a hostile `A = B + B`, `B = C + C`, … chain). */
const MAX_PATH_TEXT = 2048;

export const toCallableKey = (file: string, name: string): string => `${file}#${name}`;

/** Splits `path#name` at the last `#` that precedes the name (paths may contain `#`). */
export function parseCallableKey(key: string): { file: string; name: string } {
  const index = key.lastIndexOf('#');
  return { file: key.slice(0, index), name: key.slice(index + 1) };
}

/**
 * Resolves names the way the code uses them at run time: top-level declarations, import bindings
 * (through barrels and workspace packages), namespace members, class and object members, and
 * string constants for route paths. Per-file tables are built on first use.
 */
export class SymbolIndex {
  private readonly files = new Map<string, FileSymbols>();
  /** Constants already resolved (`undefined` while in progress, so cycles end), keyed by file and reference. */
  private readonly constantValues = new Map<string, { text: string; unresolved: string[] } | undefined>();

  constructor(private readonly sources: SymbolSources) {}

  getFacts(path: string): FileFacts | undefined {
    return this.sources.getFacts(path);
  }

  resolveModule(file: string, specifier: string, index?: number): { file?: string; packageName?: string } {
    return this.sources.resolveImport(file, specifier, index);
  }

  /** The import binding of local name `local` in `file`. */
  getBinding(file: string, local: string): { specifier: string; imported: string; index: number } | undefined {
    return this.getSymbols(file)?.bindings.get(local);
  }

  getCallable(file: string, name: string): CallableFact | undefined {
    return this.getSymbols(file)?.callables.get(name);
  }

  /** The callables of `file` (members as `Owner.member`). */
  getCallables(file: string): CallableFact[] {
    return [...(this.getSymbols(file)?.callables.values() ?? [])];
  }

  /** Where `name` (`list`, `users.list`, `Class.member`) used in `file` leads. */
  resolveName(file: string, name: string, depth = 0): SymbolTarget | undefined {
    const symbols = this.getSymbols(file);
    if (symbols === undefined || depth > MAX_DEPTH) return undefined;
    const dot = name.indexOf('.');
    const root = dot < 0 ? name : name.slice(0, dot);
    const binding = symbols.bindings.get(root);
    if (binding === undefined) {
      if (symbols.callables.has(name)) return { kind: 'callable', file, name };
      if (symbols.callables.has(root)) return { kind: 'callable', file, name: root };
      return this.resolveInOwnPackage(file, symbols, name, root);
    }
    // Most references are locals, parameters and globals: the member is cut out only for an import binding.
    const member = dot < 0 ? undefined : name.slice(dot + 1).split('.')[0];
    const resolved = this.sources.resolveImport(file, binding.specifier, binding.index);
    if (resolved.file === undefined) {
      const imported = binding.imported === '*' || binding.imported === 'default' ? (member ?? binding.imported) : binding.imported;
      return { kind: 'package', packageName: resolved.packageName ?? binding.specifier, specifier: binding.specifier, imported };
    }
    if (binding.imported === '*') {
      if (member === undefined) return { kind: 'module', file: resolved.file };
      // A Go package is several files: the member is declared in one of them.
      for (const packageFile of [resolved.file, ...(resolved.others ?? [])]) {
        const target = this.resolveExport(packageFile, member, depth + 1);
        if (target !== undefined) return target;
      }
      return { kind: 'module', file: resolved.file };
    }
    const target = this.resolveExport(resolved.file, binding.imported, depth + 1);
    // Python's `from . import views` lands on views.py itself (src/graph/resolve/python.ts): `views.detail` is its member.
    if (target === undefined && member !== undefined && resolved.file.endsWith('.py'))
      return this.resolveExport(resolved.file, member, depth + 1) ?? { kind: 'module', file: resolved.file };
    if (target?.kind === 'callable' && member !== undefined) {
      const memberName = `${target.name}.${member}`;
      if (this.getSymbols(target.file)?.callables.has(memberName) === true)
        return { kind: 'callable', file: target.file, name: memberName };
    }
    return target ?? { kind: 'module', file: resolved.file };
  }

  /**
   * A name a Go file uses without an import: a declaration of another file of its package (the `.` import the Go
   * extractor writes, src/graph/resolve/go.ts), `listItems` or `Server.handleList`.
   */
  private resolveInOwnPackage(file: string, symbols: FileSymbols, name: string, root: string): SymbolTarget | undefined {
    const own = symbols.bindings.get('.');
    if (own === undefined || !file.endsWith('.go')) return undefined;
    const resolved = this.sources.resolveImport(file, own.specifier, own.index);
    for (const sibling of resolved.file === undefined ? [] : [resolved.file, ...(resolved.others ?? [])]) {
      const callables = this.getSymbols(sibling)?.callables;
      if (callables?.has(name) === true) return { kind: 'callable', file: sibling, name };
      if (callables?.has(root) === true) return { kind: 'callable', file: sibling, name: root };
    }
    return undefined;
  }

  /** The declaration behind export `name` of `file`, through barrels; a module when it has no declaration of its own. */
  resolveExport(file: string, name: string, depth = 0): SymbolTarget | undefined {
    if (depth > MAX_DEPTH) return undefined;
    for (const hit of this.sources.findExport(file, name)) {
      const facts = this.sources.getFacts(hit.file);
      const fact = facts?.exports.find((candidate) => candidate.name === hit.name);
      if (fact === undefined || fact.kind === 'reexport') continue;
      const local = fact.local ?? (fact.kind === 'default' ? 'default' : fact.name);
      return { kind: 'callable', file: hit.file, name: local };
    }
    const facts = this.sources.getFacts(file);
    const reexport = facts?.exports.find(
      (candidate) => candidate.name === name && candidate.imported === '*' && candidate.from !== undefined,
    );
    if (reexport?.from !== undefined) {
      const target = this.sources.resolveImport(file, reexport.from).file;
      if (target !== undefined) return { kind: 'module', file: target };
    }
    if (name === 'default' && facts !== undefined && this.getSymbols(file)?.callables.has('default') === true)
      return { kind: 'callable', file, name: 'default' };
    return undefined;
  }

  /**
   * The text of a path made of parts: constants are looked up in `file`, then through its imports.
   * Unresolvable references come back in `unresolved` and show as `{?ref}` in the text.
   */
  resolvePath(file: string, parts: readonly PathPart[], depth = 0): { text: string; unresolved: string[] } {
    let text = '';
    const unresolved: string[] = [];
    for (const part of parts) {
      if ('text' in part) {
        text += part.text;
        continue;
      }
      const value = depth > MAX_DEPTH ? undefined : this.resolveConstantOnce(file, part.ref, depth + 1);
      if (value === undefined || value.unresolved.length > 0 || text.length + value.text.length > MAX_PATH_TEXT) {
        unresolved.push(part.ref);
        text += `{?${part.ref}}`;
      } else text += value.text;
    }
    return { text, unresolved };
  }

  private resolveConstantOnce(file: string, ref: string, depth: number): { text: string; unresolved: string[] } | undefined {
    const key = `${file}\0${ref}`;
    if (this.constantValues.has(key)) return this.constantValues.get(key);
    this.constantValues.set(key, undefined);
    const value = this.resolveConstant(file, ref, depth);
    this.constantValues.set(key, value);
    return value;
  }

  private resolveConstant(file: string, ref: string, depth: number): { text: string; unresolved: string[] } | undefined {
    const symbols = this.getSymbols(file);
    if (symbols === undefined) return undefined;
    const own = symbols.constants.get(ref);
    if (own !== undefined) return this.resolvePath(file, own, depth);
    const dot = ref.indexOf('.');
    const root = dot < 0 ? ref : ref.slice(0, dot);
    const rest = dot < 0 ? '' : ref.slice(dot);
    const binding = symbols.bindings.get(root);
    if (binding === undefined) return undefined;
    const target = this.sources.resolveImport(file, binding.specifier, binding.index).file;
    if (target === undefined) return undefined;
    if (binding.imported === '*') {
      const member = rest.slice(1);
      if (member === '') return undefined;
      const memberRoot = member.split('.')[0] ?? member;
      const declared = this.resolveExport(target, memberRoot, depth);
      if (declared?.kind !== 'callable') return undefined;
      return this.resolveConstantOnce(declared.file, `${declared.name}${member.slice(memberRoot.length)}`, depth + 1);
    }
    const declared = this.resolveExport(target, binding.imported, depth);
    if (declared?.kind !== 'callable') return undefined;
    return this.resolveConstantOnce(declared.file, `${declared.name}${rest}`, depth + 1);
  }

  private getSymbols(file: string): FileSymbols | undefined {
    const known = this.files.get(file);
    if (known !== undefined) return known;
    const facts = this.sources.getFacts(file);
    if (facts === undefined) return undefined;
    const callables = new Map<string, CallableFact>();
    for (const callable of facts.callables ?? []) if (!callables.has(callable.name)) callables.set(callable.name, callable);
    const bindings = new Map<string, Binding>();
    facts.imports.forEach((fact, index) => {
      if (fact.kind === 'reexport' || fact.kind === 'reexport-all' || fact.typeOnly) return;
      for (const name of fact.names) {
        if (name.local === '*' || name.typeOnly || bindings.has(name.local)) continue;
        bindings.set(name.local, { specifier: fact.specifier, imported: name.imported, index });
      }
    });
    const constants = new Map<string, PathPart[]>();
    for (const constant of facts.constants ?? []) if (!constants.has(constant.name)) constants.set(constant.name, constant.parts);
    const symbols: FileSymbols = { callables, bindings, constants };
    this.files.set(file, symbols);
    return symbols;
  }
}

import type { ExportFact } from '../../../model/facts.js';
import { getAssignedValue, type ModuleScope } from './python-scope.js';
import { getParts, getSpan, getStringValue, getText, type PyFile, type PyNode } from './python-tree.js';

/**
 * The names a module exports: its top-level functions, classes and variables not named `_private`; when `__all__` is a
 * literal list or tuple, exactly the names it lists (imported ones as re-exports of their import's specifier).
 */
export function collectExports(file: PyFile, scope: ModuleScope): ExportFact[] {
  const listed = getDunderAll(file, scope);
  const exports: ExportFact[] = [];
  const seen = new Set<string>();
  for (const declaration of scope.declarations) {
    const { name } = declaration;
    if (seen.has(name) || name === '__all__' || !(listed === undefined ? !name.startsWith('_') : listed.has(name))) continue;
    seen.add(name);
    exports.push({ name, kind: declaration.kind, span: getSpan(file, declaration.outer), typeOnly: false });
  }
  if (listed === undefined) return exports;
  for (const { fact, node } of scope.imports) {
    for (const binding of fact.names) {
      if (seen.has(binding.local) || !listed.has(binding.local)) continue;
      seen.add(binding.local);
      exports.push({
        name: binding.local,
        kind: 'reexport',
        span: getSpan(file, node),
        typeOnly: fact.typeOnly,
        from: fact.specifier,
        imported: binding.imported,
      });
    }
  }
  return exports;
}

/** The names of a literal `__all__` (extended by literal `__all__ +=`), or undefined when it is absent or computed. */
function getDunderAll(file: PyFile, scope: ModuleScope): Set<string> | undefined {
  let names: Set<string> | undefined;
  for (const { node } of scope.statements) {
    if (node.type !== 'expression_statement') continue;
    const statement = getParts(node)[0];
    if (statement === undefined) continue;
    const [target] = getParts(statement);
    if (target === undefined || getText(file, target) !== '__all__') continue;
    if (statement.type === 'assignment') {
      names = toNameList(file, getAssignedValue(statement));
      if (names === undefined) return undefined;
    } else if (statement.type === 'augmented_assignment' && names !== undefined) {
      const added = toNameList(file, getParts(statement)[1]);
      if (added === undefined) return undefined;
      for (const name of added) names.add(name);
    }
  }
  return names;
}

function toNameList(file: PyFile, node: PyNode | undefined): Set<string> | undefined {
  if (node === undefined || (node.type !== 'list' && node.type !== 'tuple')) return undefined;
  const names = new Set<string>();
  for (const item of getParts(node)) {
    const name = getStringValue(file, item);
    if (name === undefined) return undefined;
    names.add(name);
  }
  return names;
}

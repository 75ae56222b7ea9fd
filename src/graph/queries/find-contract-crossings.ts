import { compileGlobs } from '../../text/glob.js';
import type { ContractInput } from '../../model/graph.js';
import type { KnowledgeGraph } from '../build.js';
import { compareText } from '../../text/compare-text.js';

export interface ContractCrossing {
  id: string;
  description?: string;
  /** The importing file (matches the contract's `from` globs). */
  from: string;
  /** The imported file (matches its `to` globs). */
  to: string;
  specifier: string;
  line: number;
}

interface ImportLink {
  from: string;
  to: string;
  specifier: string;
  line: number;
}

function listImportLinks(knowledge: KnowledgeGraph, scope: Set<string> | undefined): ImportLink[] {
  const links: ImportLink[] = [];
  knowledge.graph.forEachEdge((_edge, attributes, _source, _target, sourceAttributes, targetAttributes) => {
    if (attributes.kind !== 'imports' && attributes.kind !== 'reexports') return;
    if (sourceAttributes.kind !== 'file' || targetAttributes.kind !== 'file') return;
    if (scope !== undefined && !scope.has(sourceAttributes.path)) return;
    links.push({ from: sourceAttributes.path, to: targetAttributes.path, specifier: attributes.specifier, line: attributes.line });
  });
  return links;
}

/**
 * Design-contract boundaries (`.checker/contracts.yml`: files matching `from` must not import files
 * matching `to`) crossed by import or re-export edges (type-only ones included) whose importer is in
 * `scope` (all files when absent). Sorted by contract id, importer, line, imported file.
 */
export function findContractCrossings(
  knowledge: KnowledgeGraph,
  contracts: readonly ContractInput[],
  scope?: { files: readonly string[] },
): ContractCrossing[] {
  if (contracts.length === 0) return [];
  const links = listImportLinks(knowledge, scope === undefined ? undefined : new Set(scope.files));
  const crossings: ContractCrossing[] = [];
  for (const contract of contracts) {
    if (contract.from.length === 0 || contract.to.length === 0) continue;
    const isFrom = compileGlobs(contract.from, { dot: true });
    const isTo = compileGlobs(contract.to, { dot: true });
    for (const link of links) {
      if (link.from === link.to || !isFrom(link.from) || !isTo(link.to)) continue;
      const crossing: ContractCrossing = { id: contract.id, from: link.from, to: link.to, specifier: link.specifier, line: link.line };
      if (contract.description !== undefined) crossing.description = contract.description;
      crossings.push(crossing);
    }
  }
  const unique = new Map(
    crossings.map((crossing) => [`${crossing.id}\0${crossing.from}\0${crossing.line}\0${crossing.to}\0${crossing.specifier}`, crossing]),
  );
  return [...unique.values()].sort(
    (left, right) =>
      compareText(left.id, right.id) ||
      compareText(left.from, right.from) ||
      left.line - right.line ||
      compareText(left.to, right.to) ||
      compareText(left.specifier, right.specifier),
  );
}

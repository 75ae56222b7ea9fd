import type { SymbolImpact, SymbolImporter } from '../../model/analysis.js';
import type { ChangedExport } from '../../model/change.js';
import type { ImportEdge } from '../../model/graph.js';
import type { KnowledgeGraph } from '../build.js';
import { toExportId, toFileId } from '../ids.js';
import { compareText } from '../../text/compare-text.js';

type Use = SymbolImporter['use'];

/** Where the changed name can be imported from: its declaring file, or a barrel that re-exports it. */
interface Exposure {
  file: string;
  name: string;
  /** `name` is a namespace object (`export * as ns from`) that contains the changed name. */
  namespace: boolean;
  /** Barrels between an importer of `file` and the declaring file, nearest to the importer first. */
  through: string[];
  /** Every re-export on the way is type-only. */
  typeOnly: boolean;
  /** The export node whose `uses` edges carry the importers' local names. */
  usesTarget: string;
}

const USE_PRIORITY: Record<Use, number> = { named: 0, namespace: 1, require: 2, dynamic: 3, 'side-effect': 4 };

/**
 * The files that expose a declared name: barrels that re-export it by name (renames followed), with
 * `export *` (unless they declare the name themselves), or inside a namespace (`export * as ns`).
 */
function findExposures(knowledge: KnowledgeGraph, path: string, name: string): Exposure[] {
  const { graph } = knowledge;
  const bindings = knowledge.reexportBindings ?? new Map();
  const start: Exposure = { file: path, name, namespace: false, through: [], typeOnly: false, usesTarget: toExportId(path, name) };
  const seen = new Set([`${path}\0${name}`]);
  const exposures = [start];
  for (let index = 0; index < exposures.length; index += 1) {
    const current = exposures[index];
    if (current === undefined) break;
    const add = (barrel: string, exported: string, namespace: boolean, typeOnly: boolean, usesTarget: string): void => {
      const key = `${barrel}\0${exported}`;
      if (seen.has(key) || barrel === path) return;
      seen.add(key);
      exposures.push({
        file: barrel,
        name: exported,
        namespace,
        through: [barrel, ...current.through],
        typeOnly: current.typeOnly || typeOnly,
        usesTarget,
      });
    };
    for (const binding of bindings.get(current.file) ?? []) {
      if (binding.imported === '*') add(binding.barrel, binding.name, true, binding.typeOnly, toExportId(binding.barrel, binding.name));
      else if (binding.imported === current.name)
        add(binding.barrel, binding.name, current.namespace, binding.typeOnly, current.usesTarget);
    }
    const fileId = toFileId(current.file);
    if (current.name === 'default' || !graph.hasNode(fileId)) continue;
    graph.forEachInEdge(fileId, (_edge, attributes, _source, _target, sourceAttributes) => {
      if (attributes.kind !== 'reexports' || !attributes.all || sourceAttributes.kind !== 'file') return;
      if (graph.hasNode(toExportId(sourceAttributes.path, current.name))) return;
      add(sourceAttributes.path, current.name, current.namespace, attributes.typeOnly, current.usesTarget);
    });
  }
  return exposures;
}

function getModuleUse(edge: ImportEdge): Use {
  if (edge.require) return 'require';
  if (edge.dynamic) return 'dynamic';
  return edge.names.length === 0 ? 'side-effect' : 'namespace';
}

/** Local names and type-only flag of the importer's `uses` edge for this import line, if the build made one. */
function findUses(
  knowledge: KnowledgeGraph,
  importer: string,
  usesTarget: string,
  line: number,
): { locals: string[]; typeOnly: boolean } | undefined {
  const { graph } = knowledge;
  const source = toFileId(importer);
  if (!graph.hasNode(usesTarget) || !graph.hasNode(source)) return undefined;
  let found: { locals: string[]; typeOnly: boolean } | undefined;
  graph.forEachOutEdge(source, (_edge, attributes, _source, target) => {
    if (found !== undefined || target !== usesTarget || attributes.kind !== 'uses' || attributes.line !== line) return;
    found = { locals: [...attributes.locals], typeOnly: attributes.typeOnly };
  });
  return found;
}

function mergeImporter(importers: Map<string, SymbolImporter>, next: SymbolImporter): void {
  const known = importers.get(next.path);
  if (known === undefined) {
    importers.set(next.path, next);
    return;
  }
  const preferred = USE_PRIORITY[next.use] < USE_PRIORITY[known.use] ? next : known;
  const locals = [...new Set([...known.locals, ...next.locals])].sort(compareText);
  const through = next.through.length < known.through.length ? next.through : known.through;
  importers.set(next.path, { path: next.path, locals, through, typeOnly: known.typeOnly && next.typeOnly, use: preferred.use });
}

function findImporters(knowledge: KnowledgeGraph, changed: ChangedExport): SymbolImporter[] {
  const { graph } = knowledge;
  const importers = new Map<string, SymbolImporter>();
  const moduleSeen = new Set<string>();
  for (const exposure of findExposures(knowledge, changed.path, changed.name)) {
    const fileId = toFileId(exposure.file);
    if (!graph.hasNode(fileId)) continue;
    const isFirstForFile = !moduleSeen.has(exposure.file);
    moduleSeen.add(exposure.file);
    graph.forEachInEdge(fileId, (_edge, attributes, _source, _target, sourceAttributes) => {
      if (attributes.kind !== 'imports' || sourceAttributes.kind !== 'file') return;
      const importer = sourceAttributes.path;
      if (importer === changed.path) return;
      const isModuleUse = attributes.names.length === 0 || attributes.names.includes('*');
      if (isModuleUse && isFirstForFile) {
        mergeImporter(importers, {
          path: importer,
          locals: [attributes.names.length === 0 ? '' : '*'],
          through: exposure.through,
          typeOnly: attributes.typeOnly || exposure.typeOnly,
          use: getModuleUse(attributes),
        });
      }
      if (!attributes.names.includes(exposure.name)) return;
      const uses = findUses(knowledge, importer, exposure.usesTarget, attributes.line);
      const use: Use = attributes.require ? 'require' : attributes.dynamic ? 'dynamic' : exposure.namespace ? 'namespace' : 'named';
      mergeImporter(importers, {
        path: importer,
        locals: uses?.locals.sort(compareText) ?? [exposure.name],
        through: exposure.through,
        typeOnly: (uses?.typeOnly ?? attributes.typeOnly) || exposure.typeOnly,
        use,
      });
    });
  }
  return [...importers.values()].sort((left, right) => compareText(left.path, right.path));
}

/**
 * For each changed export, exactly the files that use that name: named imports (through barrels,
 * `export *` and renames, down to the final importers), namespace imports of the declaring module or of
 * a barrel that re-exports it (or of `export * as ns` namespaces), side-effect imports, `require` and
 * dynamic `import()` of those modules. A barrel that only re-exports the name is not an importer.
 * Impacts keep the order of `changedExports`; importers are sorted by path, one per file.
 */
export function findSymbolImpacts(knowledge: KnowledgeGraph, changedExports: readonly ChangedExport[]): SymbolImpact[] {
  return changedExports.map((changed) => ({
    id: toExportId(changed.path, changed.name),
    path: changed.path,
    name: changed.name,
    change: changed.change,
    importers: findImporters(knowledge, changed),
  }));
}

import type { SymbolImpact, SymbolImporter } from '../model/analysis.js';
import type { ChangedExport } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import { getLanguage } from '../graph/roles.js';

/** Importers read per removed export at most: the task names a few, and reading all of a widely used module's is waste. */
const MAX_READ_IMPORTERS = 20;

export interface StaleUseInput {
  facts: ReadonlyMap<string, { facts: Pick<FileFacts, 'imports'> }>;
  changedExports: readonly ChangedExport[];
  /** The changed files' facts at the base: whether a removed export was a type. */
  baseFacts: ReadonlyMap<string, Pick<FileFacts, 'exports'>>;
  /** The importer's text at the head (undefined when it cannot be read). */
  readText: (path: string) => Promise<string | undefined>;
}

/**
 * Marks, for each export the change removes, the importers that still name it (`staleLine`) and the export added in
 * its place (`renamedTo`): a named `import { x }` or `require` of the gone name, or `ns.x` through a namespace import
 * (path-to-regexp renamed `tokensToRegExp` to `tokensToRegexp`, and its spec still called
 * `pathToRegexp.tokensToRegExp`). A missing ESM named import fails to link; a missing member is `undefined` where
 * it is called. Go is left to its compiler, which refuses the package.
 */
export async function markStaleUses(impacts: readonly SymbolImpact[], input: StaleUseInput): Promise<SymbolImpact[]> {
  const marked: SymbolImpact[] = [];
  for (const impact of impacts) {
    if (impact.change !== 'removed' || getLanguage(impact.path) === 'go') {
      marked.push(impact);
      continue;
    }
    const was = input.baseFacts.get(impact.path)?.exports.find((item) => item.name === impact.name);
    // A CommonJS module always has a default for `import x from` and `require` (its `module.exports`): commander made
    // `module.exports` an object of exports instead of the program, and esm.mjs's `import commander` still loads.
    if (impact.name === 'default' && was?.kind === 'cjs') {
      marked.push(impact);
      continue;
    }
    // An importer of a removed type uses it as a type: the type check, not the run, fails on it.
    const isType = was?.typeOnly === true;
    const importers: SymbolImporter[] = [];
    let read = 0;
    for (const importer of impact.importers) {
      if (importer.use === 'side-effect' || importer.use === 'dynamic' || read >= MAX_READ_IMPORTERS) {
        importers.push(importer);
        continue;
      }
      read += 1;
      const line = await findStaleLine(input, importer, impact.name);
      importers.push(line === undefined ? importer : { ...importer, typeOnly: importer.typeOnly || isType, staleLine: line });
    }
    const renamedTo = findRename(impact, input.changedExports);
    marked.push({ ...impact, importers, ...(renamedTo === undefined ? {} : { renamedTo }) });
  }
  return marked;
}

/** The importer's first line that names the removed export: its import of the name, or a member of a namespace of it. */
async function findStaleLine(input: StaleUseInput, importer: SymbolImporter, name: string): Promise<number | undefined> {
  const imports = input.facts.get(importer.path)?.facts.imports ?? [];
  // The graph matched the name on an import of this module (`named`, or a destructuring `require`).
  if (importer.locals.some((local) => local !== '*' && local !== '')) {
    const named = imports.find((item) => item.names.some((entry) => entry.imported === name));
    if (named !== undefined) return named.line;
  }
  const namespaces = imports.flatMap((item) =>
    item.names.filter((entry) => entry.imported === '*' && /^[A-Za-z_$][\w$]*$/.test(entry.local)).map((entry) => entry.local),
  );
  if (namespaces.length === 0) return undefined;
  const text = await input.readText(importer.path);
  if (text === undefined) return undefined;
  const escaped = name.replace(/\$/g, '\\$');
  const member = new RegExp(
    `(?<![\\w$.])(?:${namespaces.map((local) => local.replace(/\$/g, '\\$')).join('|')})\\s*\\??\\.\\s*${escaped}(?![\\w$])`,
  );
  const lines = text.split('\n');
  const index = lines.findIndex((line) => member.test(line));
  return index === -1 ? undefined : index + 1;
}

/** The export added in the removed one's place: its name but for case, or the only one added to a file that loses one. */
function findRename(impact: SymbolImpact, changedExports: readonly ChangedExport[]): string | undefined {
  const ofFile = changedExports.filter((changed) => changed.path === impact.path);
  const added = ofFile.filter((changed) => changed.change === 'added');
  const sameWord = added.find((changed) => changed.name.toLowerCase() === impact.name.toLowerCase());
  if (sameWord !== undefined) return sameWord.name;
  const removed = ofFile.filter((changed) => changed.change === 'removed');
  return added.length === 1 && removed.length === 1 ? added[0]?.name : undefined;
}

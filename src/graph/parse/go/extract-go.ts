import type { CallableFact, FileFacts, FunctionFact } from '../../../model/facts.js';
import type { SyntaxNode } from '../syntax-tree.js';
import { collectDeclarations, type GoDeclarations } from './go-declarations.js';
import { collectLocals, collectOwnerTypes, collectReferences, countParameters } from './go-references.js';
import { collectRoutes } from './go-routes.js';
import { collectSignals } from './go-signals.js';
import { collectTests } from './go-tests.js';
import { GoLines, getChild, toGoTree } from './go-tree.js';
import { collectGoWords } from './go-words.js';

/** Facts of one Go file from its tree-sitter tree (`lines` is the caller's to set). */
export function extractGoFacts(path: string, root: SyntaxNode, source: string, words: boolean): FileFacts {
  const tree = toGoTree(root, source);
  const lines = new GoLines(source);
  const declarations = collectDeclarations(tree, source, lines);
  const { callables, functions } = collectCallables(declarations, source, lines);
  const { routes, mounts, uses } = collectRoutes(declarations, source, lines);
  const facts: FileFacts = {
    imports: declarations.imports,
    exports: declarations.exports,
    tests: path.endsWith('_test.go') ? collectTests(declarations.functions, source, lines, declarations.importPaths) : [],
    mocks: [],
    routes,
    mounts,
    uses,
    lines: lines.lineOf(source.length),
    callables,
    constants: declarations.constants,
    signals: collectSignals(tree, source, lines, declarations.importPaths),
    functions,
  };
  if (declarations.typeSpans.length > 0) facts.typeSpans = declarations.typeSpans;
  if (words) facts.words = collectGoWords(tree, source);
  return facts;
}

function collectCallables(
  declarations: GoDeclarations,
  source: string,
  lines: GoLines,
): { callables: CallableFact[]; functions: FunctionFact[] } {
  const callables: CallableFact[] = [];
  const functions: FunctionFact[] = [];
  for (const fn of declarations.functions) {
    const span = lines.spanOf(fn.node);
    const body = getChild(fn.node, 'body');
    const scope = {
      source,
      importPaths: declarations.importPaths,
      locals: collectLocals(fn.node, source),
      ownerTypes: collectOwnerTypes(fn.node, source),
    };
    const references = body === undefined ? { refs: [], statuses: [], complexity: 1 } : collectReferences(body, scope);
    const callable: CallableFact = { name: fn.name, span, refs: references.refs };
    if (references.statuses.length > 0) callable.statuses = references.statuses;
    callables.push(callable);
    functions.push({
      name: fn.name,
      span,
      complexity: references.complexity,
      isAsync: false,
      params: countParameters(getChild(fn.node, 'parameters')),
    });
  }
  return { callables, functions };
}

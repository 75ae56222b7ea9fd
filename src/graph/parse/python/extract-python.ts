import { emptyFacts, type FileFacts } from '../../../model/facts.js';
import type { SyntaxNode } from '../syntax-tree.js';
import { collectCallables } from './python-callables.js';
import { collectConftestImports } from './python-conftest.js';
import { collectExports } from './python-exports.js';
import { collectHttpCalls } from './python-http-calls.js';
import { collectImports } from './python-imports.js';
import { collectRoutes } from './python-routes.js';
import { getModuleScope } from './python-scope.js';
import { collectSignals } from './python-signals.js';
import { collectMocks, collectTests } from './python-tests.js';
import { copyTree, findSyntaxFailure } from './python-tree.js';
import { collectWords } from './python-words.js';

/**
 * Facts of one Python file from its tree-sitter tree, or none with a `parse/syntax` failure when the tree has an error.
 * The tree is copied out of WebAssembly once (python-tree.ts) and every reader works on the copy; `lines` is left for
 * the caller to set.
 */
export function extractPythonFacts(path: string, root: SyntaxNode, source: string, words: boolean): FileFacts {
  // As for JavaScript, a file with a syntax error gives no facts, only the failure: tree-sitter's recovery around the
  // error can read a broken line as another construct (a phantom route or export).
  const failure = findSyntaxFailure(root);
  if (failure !== undefined) return emptyFacts(0, failure);
  const file = copyTree(root, source);
  const scope = getModuleScope(file);
  const imports = collectImports(file);
  const routes = collectRoutes(file, scope, imports);
  const { callables, functions } = collectCallables(file, scope);
  const tests = collectTests(path, file, scope);
  // An app a test builds to exercise the framework (`@app.route` inside a test function, as flask's own tests do) is
  // no route of the product: a test module's routes would be asked for tests of their own.
  if (tests.length > 0 || /(?:^|\/)conftest\.py$/.test(path)) {
    routes.routes = [];
    routes.mounts = [];
    routes.uses = [];
  }
  // pytest collects a module's test functions and classes; nothing imports them, so they are no exports to prove.
  const collected = new Set(tests.map((test) => test.titlePath[0]));
  const facts: FileFacts = {
    imports: [...imports, ...routes.imports, ...collectConftestImports(path)],
    exports: collectExports(file, scope).filter((item) => !collected.has(item.name)),
    tests,
    mocks: collectMocks(file),
    routes: routes.routes,
    mounts: routes.mounts,
    uses: routes.uses,
    lines: 0,
    callables,
    constants: routes.constants,
    functions,
    signals: collectSignals(file),
  };
  const httpCalls = collectHttpCalls(file);
  if (httpCalls.length > 0) facts.httpCalls = httpCalls;
  if (words) facts.words = collectWords(file);
  return facts;
}

import {
  type AstNode,
  getIdentifierName,
  getNode,
  getNodes,
  getSpan,
  isAstNode,
  isFunctionNode,
  isRecord,
  unwrapExpression,
} from './swc-node.js';
import { type AssertionContext, type AssertionMatch, matchAssertionCall, matchPropertyAssertion } from './assertion-calls.js';
import { matchTestCall } from './test-calls.js';
import { skippedKeys } from './walker-patterns.js';

/** What a call to a function declared in the test file proves, judged from its body. */
export interface LocalHelper {
  /** swc span of the declaration, to tell helpers declared inside the calling test (counted in place) from shared ones. */
  start: number;
  end: number;
  /** Every assertion the helper makes (directly or through other local helpers) is trivial / a snapshot. */
  trivial: boolean;
  snapshot: boolean;
}

interface HelperBody {
  assertions: number;
  trivial: number;
  snapshot: number;
  calls: string[];
}

const noContextNames: ReadonlySet<string> = new Set();
const maxHelperDepth = 32;

/** Local assertion helpers by name, each judged on first use. */
export interface LocalHelpers {
  get(name: string): LocalHelper | undefined;
}

interface HelperDefinition {
  fn: AstNode;
  span: { start: number; end: number };
}

/**
 * Functions declared anywhere in the file (`function check(x) {…}`, `const check = (x) => …`) whose
 * body asserts, directly or by calling another such function. Test callbacks inside a body
 * (`function itParses() { it(…) }`) are not the helper's own assertions. One pass finds the
 * declarations; a body is scanned only when a test calls its name.
 */
export function collectAssertingHelpers(module: AstNode, context: Omit<AssertionContext, 'contextName'>): LocalHelpers {
  const definitions = new Map<string, HelperDefinition[]>();
  const define = (name: string | undefined, fn: AstNode | undefined, spanNode: AstNode): void => {
    const span = getSpan(spanNode);
    if (name === undefined || fn === undefined || span === undefined) return;
    const list = definitions.get(name);
    if (list === undefined) definitions.set(name, [{ fn, span }]);
    else list.push({ fn, span });
  };
  forEachNode(module, (node) => {
    if (node.type === 'FunctionDeclaration') define(getIdentifierName(getNode(node, 'identifier')), node, node);
    else if (node.type === 'ExportDefaultDeclaration') {
      // `export default function test(options) {…}`: the module's default export, by its name and as `default`.
      const decl = getNode(node, 'decl');
      if (decl?.type === 'FunctionExpression') {
        define('default', decl, node);
        define(getIdentifierName(getNode(decl, 'identifier')), decl, node);
      }
    } else if (node.type === 'ExportDefaultExpression') {
      const expression = unwrapExpression(getNode(node, 'expression'));
      if (isFunctionNode(expression)) define('default', expression, node);
    } else if (node.type === 'VariableDeclarator') {
      const init = unwrapExpression(getNode(node, 'init'));
      if (isFunctionNode(init)) define(getIdentifierName(getNode(node, 'id')), init, node);
    }
    return true;
  });

  const resolved = new Map<string, LocalHelper | null>();
  const resolve = (name: string, depth: number): LocalHelper | undefined => {
    const known = resolved.get(name);
    if (known !== undefined) return known ?? undefined;
    const list = definitions.get(name);
    if (list === undefined || depth > maxHelperDepth) return undefined;
    resolved.set(name, null); // cycle guard: a recursive helper proves nothing through itself
    let best: LocalHelper | undefined;
    for (const { fn, span } of list) {
      const contextName = getCallbackParamName(fn) === 't' ? 't' : undefined;
      const body = scanHelperBody(fn, { ...context, contextName });
      let { assertions, trivial, snapshot } = body;
      for (const callee of body.calls) {
        const inner = resolve(callee, depth + 1);
        if (inner === undefined) continue;
        assertions++;
        if (inner.trivial) trivial++;
        if (inner.snapshot) snapshot++;
      }
      if (assertions === 0) continue;
      const helper = { start: span.start, end: span.end, trivial: trivial === assertions, snapshot: snapshot === assertions };
      if (best === undefined || (best.trivial && !helper.trivial) || (best.snapshot && !helper.snapshot)) best = helper;
    }
    resolved.set(name, best ?? null);
    return best;
  };
  return { get: (name) => (definitions.has(name) ? resolve(name, 0) : undefined) };
}

function scanHelperBody(fn: AstNode, context: AssertionContext): HelperBody {
  const body: HelperBody = { assertions: 0, trivial: 0, snapshot: 0, calls: [] };
  const subjects = new Set<AstNode>();
  const count = (match: AssertionMatch): void => {
    body.assertions++;
    if (match.trivial) body.trivial++;
    if (match.snapshot) body.snapshot++;
    if (match.subject !== undefined) subjects.add(match.subject);
  };
  const root = getNode(fn, 'body');
  if (root === undefined) return body;
  if (root.type !== 'BlockStatement') {
    const member = unwrapExpression(root);
    const match = member?.type === 'MemberExpression' ? matchPropertyAssertion(member) : undefined;
    if (match !== undefined) count(match);
  }
  forEachNode(root, (node) => {
    if (node.type === 'CallExpression') {
      if (matchTestCall(node, noContextNames) !== undefined) return false;
      const match = subjects.has(node) ? undefined : matchAssertionCall(node, context);
      if (match !== undefined) count(match);
      else {
        const name = getIdentifierName(unwrapExpression(getNode(node, 'callee')));
        if (name !== undefined) body.calls.push(name);
      }
    } else if (node.type === 'ExpressionStatement') {
      let expression = unwrapExpression(getNode(node, 'expression'));
      if (expression?.type === 'AwaitExpression') expression = unwrapExpression(getNode(expression, 'argument'));
      const match = expression?.type === 'MemberExpression' ? matchPropertyAssertion(expression) : undefined;
      if (match !== undefined) count(match);
    }
    return true;
  });
  return body;
}

function getCallbackParamName(fn: AstNode): string | undefined {
  const first = getNodes(fn, 'params')[0];
  if (first === undefined) return undefined;
  return getIdentifierName(first.type === 'Parameter' ? getNode(first, 'pat') : first);
}

/** Depth-first over every AST node under `root` (itself included), skipping type annotations; `visit` returns false to skip a subtree. */
/** Every AST node under `root`, iteratively (no depth limit); `visit` returning false skips a node's children. */
export function forEachNode(root: AstNode, visit: (node: AstNode) => boolean): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (!isRecord(value) || (isAstNode(value) && !visit(value))) continue;
    for (const key in value) {
      const child = value[key];
      if (typeof child === 'object' && child !== null && !skippedKeys.has(key)) stack.push(child);
    }
  }
}

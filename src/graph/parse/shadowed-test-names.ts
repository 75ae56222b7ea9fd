import { type AstNode, type ByteSpan, getNode, getSpan, getString, isAstNode, isRecord, unwrapExpression } from './swc-node.js';
import { getBindingNames } from './walker-patterns.js';

/** A scope of the file (the module, a function) that binds a test function's name (`test`, `it`) itself. */
export interface ShadowedName {
  name: string;
  span: ByteSpan;
}

interface Scope {
  span: ByteSpan | undefined;
  declared: Set<string>;
}

/** Values a variable may hold that are the runner's test function under its name: `require('tape')`, `base.extend({…})`, `runner.test`. */
const RUNNER_VALUES = new Set(['CallExpression', 'AwaitExpression', 'MemberExpression', 'Identifier', 'OptionalChainingExpression']);

/**
 * Where the file declares one of `names` as its own: a function or class declaration, a parameter, or a variable
 * holding a value of the file's making (`const test = (n) => n > 2`). A call of that name inside the scope is the
 * file's function, not a test declaration. Imports, and variables given by a call or read from another value, keep
 * the runner's meaning.
 */
export function findShadowedTestNames(module: AstNode, names: ReadonlySet<string>): ShadowedName[] {
  const scopes: Scope[] = [];
  const moduleScope: Scope = { span: getSpan(module), declared: new Set() };
  scopes.push(moduleScope);
  visit(module, moduleScope, names, scopes);
  return scopes.flatMap(({ span, declared }) => (span === undefined ? [] : [...declared].map((name) => ({ name, span }))));
}

function readSpan(value: Readonly<Record<string, unknown>>): ByteSpan | undefined {
  const span = value.span;
  if (!isRecord(span) || typeof span.start !== 'number' || typeof span.end !== 'number') return undefined;
  return { start: span.start, end: span.end };
}

/** `node` with its children, scopes opened by functions (arrows, function expressions and declarations, class methods' `function`). */
function visit(value: Readonly<Record<string, unknown>>, scope: Scope, names: ReadonlySet<string>, scopes: Scope[]): void {
  if (isAstNode(value)) declare(value, scope, names);
  let inner = scope;
  if (Array.isArray(value.params) && 'body' in value) {
    inner = { span: readSpan(value), declared: new Set() };
    scopes.push(inner);
    for (const param of value.params) {
      if (!isAstNode(param)) continue;
      const pattern = param.type === 'Parameter' ? getNode(param, 'pat') : param;
      for (const name of getBindingNames(pattern)) if (names.has(name)) inner.declared.add(name);
    }
  }
  for (const [key, child] of Object.entries(value)) {
    if (key === 'span') continue;
    for (const item of Array.isArray(child) ? child : [child]) if (isRecord(item)) visit(item, inner, names, scopes);
  }
}

function declare(node: AstNode, scope: Scope, names: ReadonlySet<string>): void {
  let name: string | undefined;
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') {
    const identifier = getNode(node, 'identifier');
    name = identifier === undefined ? undefined : getString(identifier, 'value');
  } else if (node.type === 'VariableDeclarator') {
    const id = getNode(node, 'id');
    const init = unwrapExpression(getNode(node, 'init'));
    if (id?.type === 'Identifier' && (init === undefined || !RUNNER_VALUES.has(init.type) || isIndexedElement(init)))
      name = getString(id, 'value');
  }
  if (name !== undefined && names.has(name)) scope.declared.add(name);
}

/**
 * An element read by a computed index (`const test = tests[i]`, yup's validation loop): a value of the file's list,
 * never the runner's function, which is read by name (`runner.test`, `base['test']`).
 */
function isIndexedElement(init: AstNode): boolean {
  if (init.type !== 'MemberExpression') return false;
  const property = getNode(init, 'property');
  if (property?.type !== 'Computed') return false;
  const expression = unwrapExpression(getNode(property, 'expression'));
  return expression?.type !== 'StringLiteral';
}

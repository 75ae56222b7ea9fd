/** Narrow accessors over swc's plain-object AST, so the walker needs no casts. */
export interface AstNode {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ByteSpan {
  start: number;
  end: number;
}

export function isAstNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

export function getNode(node: AstNode, key: string): AstNode | undefined {
  const value = node[key];
  return isAstNode(value) ? value : undefined;
}

export function getNodes(node: AstNode, key: string): AstNode[] {
  const value = node[key];
  if (!Array.isArray(value)) return [];
  const nodes: AstNode[] = [];
  for (const item of value) if (isAstNode(item)) nodes.push(item);
  return nodes;
}

/** Call/new arguments and array elements are `{spread, expression}` wrappers without a type. */
export function getExpressions(node: AstNode, key: string): AstNode[] {
  const value = node[key];
  if (!Array.isArray(value)) return [];
  const nodes: AstNode[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    if (isAstNode(item)) nodes.push(item);
    else if ('expression' in item && isAstNode(item.expression)) nodes.push(item.expression);
  }
  return nodes;
}

export function getString(node: AstNode, key: string): string | undefined {
  const value = node[key];
  return typeof value === 'string' ? value : undefined;
}

export function isTrue(node: AstNode, key: string): boolean {
  return node[key] === true;
}

export function getSpan(node: AstNode): ByteSpan | undefined {
  const span = node.span;
  if (typeof span !== 'object' || span === null || !('start' in span) || !('end' in span)) return undefined;
  const { start, end } = span;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/** `ClassMethod.function` and similar members are objects without `type`. */
export function getObject(node: AstNode, key: string): Readonly<Record<string, unknown>> | undefined {
  const value = node[key];
  return isRecord(value) ? value : undefined;
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getIdentifierName(node: AstNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'Identifier' || node.type === 'BindingIdentifier') return getString(node, 'value');
  return undefined;
}

/** How many `+` links a joined static string may have: more is no specifier anyone writes. */
const MAX_JOINED_STRINGS = 8;

/**
 * Value of a string literal, of a template literal without expressions, or of such strings joined by `+` (ajv's
 * spec helpers `require("" + "../dist/jtd")`, written so that bundlers leave the require alone).
 */
export function getStaticString(node: AstNode | undefined, depth = 0): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'StringLiteral') return getString(node, 'value');
  if (node.type === 'BinaryExpression' && getString(node, 'operator') === '+' && depth < MAX_JOINED_STRINGS) {
    const left = getStaticString(unwrapExpression(getNode(node, 'left')), depth + 1);
    const right = left === undefined ? undefined : getStaticString(unwrapExpression(getNode(node, 'right')), depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (node.type === 'TemplateLiteral' && getNodes(node, 'expressions').length === 0) {
    const quasis = getNodes(node, 'quasis');
    const first = quasis[0];
    if (quasis.length !== 1 || first === undefined) return undefined;
    return getString(first, 'cooked') ?? getString(first, 'raw');
  }
  return undefined;
}

/** Unwraps parentheses and TypeScript-only wrappers (`x as T`, `x!`, `x satisfies T`). */
export function unwrapExpression(node: AstNode | undefined): AstNode | undefined {
  let current = node;
  while (current !== undefined) {
    switch (current.type) {
      case 'ParenthesisExpression':
      case 'TsAsExpression':
      case 'TsSatisfiesExpression':
      case 'TsNonNullExpression':
      case 'TsTypeAssertion':
      case 'TsConstAssertion':
      case 'TsInstantiation':
        current = getNode(current, 'expression');
        break;
      default:
        return current;
    }
  }
  return current;
}

/** Property name of a member expression (`a.b` → `b`, `a['b']` → `b`). */
export function getPropertyName(member: AstNode): string | undefined {
  const property = getNode(member, 'property');
  if (property === undefined) return undefined;
  if (property.type === 'Identifier') return getString(property, 'value');
  if (property.type === 'Computed') return getStaticString(getNode(property, 'expression'));
  if (property.type === 'PrivateName') {
    const name = getString(property, 'value') ?? getString(property, 'name');
    return name === undefined ? undefined : `#${name}`;
  }
  return undefined;
}

/** Dotted name of an identifier or member chain (`fs.promises.readFile`), `this` as `this`. */
export function getDottedName(node: AstNode | undefined, depth = 0): string | undefined {
  const target = unwrapExpression(node);
  if (target === undefined || depth > 6) return undefined;
  if (target.type === 'Identifier') return getString(target, 'value');
  if (target.type === 'ThisExpression') return 'this';
  if (target.type === 'MemberExpression') {
    const object = getDottedName(getNode(target, 'object'), depth + 1);
    const property = getPropertyName(target);
    return object === undefined || property === undefined ? undefined : `${object}.${property}`;
  }
  return undefined;
}

/** Key name of an object property or class member (`a`, `'a'`, `[\`a\`]`). */
export function getKeyName(key: AstNode | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.type === 'Identifier') return getString(key, 'value');
  if (key.type === 'StringLiteral') return getString(key, 'value');
  if (key.type === 'NumericLiteral') {
    const value = key.value;
    return typeof value === 'number' ? String(value) : undefined;
  }
  if (key.type === 'Computed') return getStaticString(getNode(key, 'expression'));
  if (key.type === 'PrivateName') {
    const name = getString(key, 'value') ?? getString(key, 'name');
    return name === undefined ? undefined : `#${name}`;
  }
  return undefined;
}

export function isFunctionNode(node: AstNode | undefined): boolean {
  return node !== undefined && (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression');
}

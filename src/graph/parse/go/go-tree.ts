import type { Language } from '@vscode/tree-sitter-wasm';
import type { Span } from '../../../model/facts.js';
import type { SyntaxNode } from '../syntax-tree.js';

/**
 * A node of a Go syntax tree copied out of WebAssembly: named nodes, and the `&&` and `||` complexity counts. Offsets are UTF-16 indexes into the source, as the grammar reports them for a JavaScript string.
 */
export interface GoNode {
  type: string;
  /** The field the node stands in within its parent (`function`, `operand`, `name`), if any. */
  field: string | undefined;
  start: number;
  end: number;
  children: GoNode[];
}

const LEAVES: ReadonlySet<string> = new Set([
  'interpreted_string_literal',
  'raw_string_literal',
  'rune_literal',
  'comment',
  'int_literal',
  'float_literal',
  'imaginary_literal',
  'identifier',
  'field_identifier',
  'type_identifier',
  'package_identifier',
  'label_name',
]);

const typeCache = new WeakMap<Language, Map<number, string>>();

function getTypes(language: Language): Map<number, string> {
  let types = typeCache.get(language);
  if (types === undefined) {
    types = new Map();
    typeCache.set(language, types);
  }
  return types;
}

/**
 * The tree below `root` as plain objects: every later question is answered in JavaScript, because each step across the
 * WebAssembly boundary costs more than the JavaScript that reads the copy. One `namedChildren` call per parent
 * (measured: about half the cost of a TreeCursor walk, which stops at every bracket and comma too); the `&&` and `||`
 * that complexity counts are anonymous tokens, read from the text between a binary expression's operands.
 */
export function toGoTree(root: SyntaxNode, source: string): GoNode {
  const types = getTypes(root.tree.language);
  const top: GoNode = { type: root.type, field: undefined, start: root.startIndex, end: root.endIndex, children: [] };
  const stack: { node: SyntaxNode; copy: GoNode }[] = [{ node: root, copy: top }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, copy } = item;
    const children = node.namedChildren;
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (child === null || child === undefined) continue;
      const id = child.typeId;
      let type = types.get(id);
      if (type === undefined) {
        type = child.type;
        types.set(id, type);
      }
      const field = node.fieldNameForNamedChild(index) ?? undefined;
      const kept: GoNode = { type, field, start: child.startIndex, end: child.endIndex, children: [] };
      copy.children.push(kept);
      if (!LEAVES.has(type)) stack.push({ node: child, copy: kept });
    }
    if (copy.type === 'binary_expression') addOperator(copy, source);
  }
  return top;
}

/** `a && b`, `a || b`: the operator as a child of its own, as complexity counts it. */
function addOperator(node: GoNode, source: string): void {
  const [left, right] = node.children;
  if (left === undefined || right === undefined) return;
  const operator = source.slice(left.end, right.start).trim();
  if (operator === '&&' || operator === '||')
    node.children.push({ type: operator, field: 'operator', start: left.end, end: right.start, children: [] });
}

/** The first child standing in `field`. */
export function getChild(node: GoNode, field: string): GoNode | undefined {
  for (const child of node.children) if (child.field === field) return child;
  return undefined;
}

/** Every child standing in `field`. */
export function getChildren(node: GoNode, field: string): GoNode[] {
  return node.children.filter((child) => child.field === field);
}

/** The first child of `type`. */
export function findChild(node: GoNode, type: string): GoNode | undefined {
  for (const child of node.children) if (child.type === type) return child;
  return undefined;
}

/** 1-based lines of source offsets, by binary search over the line starts. */
export class GoLines {
  private readonly starts: number[] = [0];

  constructor(source: string) {
    for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  spanOf(node: GoNode): Span {
    return { start: this.lineOf(node.start), end: this.lineOf(Math.max(node.start, node.end - 1)) };
  }
}

/** The text of a string literal node: an interpreted string unescaped for the common escapes, a raw string as written. */
export function toStringValue(node: GoNode, source: string): string | undefined {
  if (node.type === 'raw_string_literal') return source.slice(node.start + 1, node.end - 1);
  if (node.type !== 'interpreted_string_literal') return undefined;
  const body = source.slice(node.start + 1, node.end - 1);
  return body.includes('\\') ? body.replace(/\\(["\\/nrt])/g, (_match, escaped: string) => ESCAPES[escaped] ?? escaped) : body;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

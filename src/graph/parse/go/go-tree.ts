import type { Language, TreeCursor } from '@vscode/tree-sitter-wasm';
import type { Span } from '../../../model/facts.js';
import type { SyntaxNode } from '../syntax-tree.js';

/**
 * A node of a Go syntax tree copied out of WebAssembly: named nodes, the operators complexity counts, and the `go`
 * keyword. Offsets are UTF-16 indexes into the source, as the grammar reports them for a JavaScript string.
 */
export interface GoNode {
  type: string;
  /** The field the node stands in within its parent (`function`, `operand`, `name`), if any. */
  field: string | undefined;
  start: number;
  end: number;
  children: GoNode[];
}

interface NodeKind {
  type: string;
  isKept: boolean;
  /** Its children are never read (a string's content, a comment): the copy stops there. */
  isLeaf: boolean;
}

const KEPT_TOKENS: ReadonlySet<string> = new Set(['&&', '||']);
const LEAVES: ReadonlySet<string> = new Set([
  'interpreted_string_literal',
  'raw_string_literal',
  'rune_literal',
  'comment',
  'int_literal',
  'float_literal',
  'imaginary_literal',
]);

const kindCache = new WeakMap<Language, Map<number, NodeKind>>();
const fieldCache = new WeakMap<Language, Map<number, string | undefined>>();

function getKind(language: Language, kinds: Map<number, NodeKind>, id: number): NodeKind {
  let kind = kinds.get(id);
  if (kind === undefined) {
    const type = language.nodeTypeForId(id) ?? '';
    kind = { type, isKept: language.nodeTypeIsNamed(id) || KEPT_TOKENS.has(type), isLeaf: LEAVES.has(type) };
    kinds.set(id, kind);
  }
  return kind;
}

function getField(language: Language, fields: Map<number, string | undefined>, id: number): string | undefined {
  if (id === 0) return undefined;
  if (!fields.has(id)) fields.set(id, language.fieldNameForId(id) ?? undefined);
  return fields.get(id);
}

/**
 * The tree below `root` as plain objects, in one cursor walk: every later question is answered in JavaScript, because
 * each step across the WebAssembly boundary costs more than the JavaScript that reads the copy.
 */
export function toGoTree(root: SyntaxNode): GoNode {
  const language = root.tree.language;
  let kinds = kindCache.get(language);
  if (kinds === undefined) {
    kinds = new Map();
    kindCache.set(language, kinds);
  }
  let fields = fieldCache.get(language);
  if (fields === undefined) {
    fields = new Map();
    fieldCache.set(language, fields);
  }
  const top: GoNode = { type: root.type, field: undefined, start: root.startIndex, end: root.endIndex, children: [] };
  const cursor = root.walk();
  try {
    copyChildren(cursor, top, language, kinds, fields);
  } finally {
    cursor.delete();
  }
  return top;
}

function copyChildren(
  cursor: TreeCursor,
  top: GoNode,
  language: Language,
  kinds: Map<number, NodeKind>,
  fields: Map<number, string | undefined>,
): void {
  if (!cursor.gotoFirstChild()) return;
  const parents: GoNode[] = [top];
  for (;;) {
    const kind = getKind(language, kinds, cursor.nodeTypeId);
    let descended = false;
    if (kind.isKept) {
      const node: GoNode = {
        type: kind.type,
        field: getField(language, fields, cursor.currentFieldId),
        start: cursor.startIndex,
        end: cursor.endIndex,
        children: [],
      };
      parents[parents.length - 1]?.children.push(node);
      if (!kind.isLeaf && cursor.gotoFirstChild()) {
        parents.push(node);
        descended = true;
      }
    }
    if (descended) continue;
    while (!cursor.gotoNextSibling()) {
      if (parents.length <= 1 || !cursor.gotoParent()) return;
      parents.pop();
    }
  }
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

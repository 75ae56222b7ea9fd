import type { Node, Parser } from '@vscode/tree-sitter-wasm';

/** A node of a tree-sitter syntax tree (Python and Go files). */
export type SyntaxNode = Node;

/** The tree-sitter parsers a parse child has loaded, by language: each set to its grammar. */
export interface GrammarParsers {
  python?: Parser;
  go?: Parser;
}

/** A node's 1-based inclusive line span. */
export function getNodeSpan(node: SyntaxNode): { start: number; end: number } {
  const end =
    node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? node.endPosition.row : node.endPosition.row + 1;
  return { start: node.startPosition.row + 1, end };
}

/** The node's 1-based first line. */
export function getNodeLine(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

import type { Node, Parser } from '@vscode/tree-sitter-wasm';

/** A node of a tree-sitter syntax tree (Python and Go files). */
export type SyntaxNode = Node;

/** The tree-sitter parsers a parse child has loaded, by language: each set to its grammar. */
export interface GrammarParsers {
  python?: Parser;
  go?: Parser;
}

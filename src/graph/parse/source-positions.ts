import type { Span } from '../../model/facts.js';
import { getLineAt, type LineIndex } from './line-index.js';
import { type AstNode, getSpan } from './swc-node.js';

/** Lines and offsets of swc spans in one file: swc numbers bytes from `base`, facts use 1-based lines. */
export class SourcePositions {
  constructor(
    readonly lineIndex: LineIndex,
    readonly base: number,
  ) {}

  offsetOf(node: AstNode): number {
    const span = getSpan(node);
    return span === undefined ? 0 : span.start - this.base;
  }

  lineOf(offset: number): number {
    return getLineAt(this.lineIndex, offset - this.base);
  }

  startLine(node: AstNode): number {
    const span = getSpan(node);
    return span === undefined ? 1 : this.lineOf(span.start);
  }

  spanOf(node: AstNode, startNode: AstNode = node): Span {
    const span = getSpan(node);
    const start = getSpan(startNode);
    if (span === undefined) return { start: 1, end: 1 };
    const end = span.end > span.start ? span.end - 1 : span.start;
    return { start: this.lineOf(Math.min(start?.start ?? span.start, span.start)), end: this.lineOf(end) };
  }
}

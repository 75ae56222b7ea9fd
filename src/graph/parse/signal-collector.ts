import type { SignalFact, SignalKind } from '../../model/facts.js';
import { isMoneyName, truncateDetail } from './signal-rules.js';
import type { SourcePositions } from './source-positions.js';
import { type AstNode, getDottedName, getPropertyName, getString, unwrapExpression } from './swc-node.js';

const maxSignals = 200;
const arithmeticOperators = new Set(['+', '-', '*', '/', '%', '**']);
const comparisonOperators = new Set(['===', '==', '!==', '!=', '<', '<=', '>', '>=']);

/** Signals of one file: at most one per kind and line, at most `maxSignals` in all. */
export class SignalCollector {
  readonly signals: SignalFact[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly positions: SourcePositions) {}

  add(kind: SignalKind, node: AstNode, detail: string): void {
    if (this.signals.length >= maxSignals) return;
    const line = this.positions.startLine(node);
    const key = `${kind}:${line}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.signals.push({ kind, line, detail: truncateDetail(detail) });
  }

  /** `price + tax`, `total *= rate`: arithmetic on a money-named operand. */
  addMoneyArithmetic(node: AstNode, operator: string, left: AstNode | undefined, right: AstNode | undefined): void {
    const name = getMoneyOperandName(left) ?? getMoneyOperandName(right);
    if (name !== undefined) this.add('money', node, `${name} ${operator}`);
  }

  /** Arithmetic on money and `.length` compared with 0 or 1 in one binary expression. */
  addBinary(node: AstNode, operator: string, left: AstNode | undefined, right: AstNode | undefined): void {
    if (arithmeticOperators.has(operator)) {
      this.addMoneyArithmetic(node, operator, left, right);
      return;
    }
    if (!comparisonOperators.has(operator)) return;
    const lengthSide = isLengthMember(left) ? left : isLengthMember(right) ? right : undefined;
    const other = lengthSide === left ? right : left;
    if (lengthSide !== undefined && other?.type === 'NumericLiteral' && (other.value === 0 || other.value === 1)) {
      this.add('collection', node, `${getDottedName(lengthSide) ?? '.length'} ${operator} ${String(other.value)}`);
    }
  }
}

export function isArithmeticOperator(operator: string): boolean {
  return arithmeticOperators.has(operator);
}

export function isLengthMember(node: AstNode | undefined): boolean {
  return node?.type === 'MemberExpression' && getPropertyName(node) === 'length';
}

function getMoneyOperandName(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  const name =
    value.type === 'Identifier' ? getString(value, 'value') : value.type === 'MemberExpression' ? getPropertyName(value) : undefined;
  return isMoneyName(name) ? name : undefined;
}

import type { SignalFact, SignalKind } from '../../model/facts.js';
import { classifyCall, isSqlText, type SignalWordMatcher, truncateDetail } from './signal-rules.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getIdentifierName,
  getNode,
  getNodes,
  getPropertyName,
  getString,
  unwrapExpression,
} from './swc-node.js';

const maxSignals = 200;
const arithmeticOperators = new Set(['+', '-', '*', '/', '%', '**']);
const comparisonOperators = new Set(['===', '==', '!==', '!=', '<', '<=', '>', '>=']);

/** Signals of one file: at most one per kind and line, at most `maxSignals` in all. */
export class SignalCollector {
  readonly signals: SignalFact[] = [];
  private readonly keys = new Set<string>();

  constructor(
    private readonly positions: SourcePositions,
    private readonly words: SignalWordMatcher,
  ) {}

  add(kind: SignalKind, node: AstNode, detail: string): void {
    if (this.signals.length >= maxSignals) return;
    const line = this.positions.startLine(node);
    const key = `${kind}:${line}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.signals.push({ kind, line, detail: truncateDetail(detail) });
  }

  /** An identifier whose words are auth or pagination words (`authToken`, `pageSize`). */
  addIdentifier(node: AstNode, name: string): void {
    const kind = this.words.classifyIdentifier(name);
    if (kind !== undefined) this.add(kind, node, name);
  }

  /** `price + tax`, `total *= rate`: arithmetic on a money-named operand. */
  addMoneyArithmetic(node: AstNode, operator: string, left: AstNode | undefined, right: AstNode | undefined): void {
    const name = this.getMoneyOperandName(left) ?? this.getMoneyOperandName(right);
    if (name !== undefined) this.add('money', node, `${name} ${operator}`);
  }

  private getMoneyOperandName(node: AstNode | undefined): string | undefined {
    const value = unwrapExpression(node);
    if (value === undefined) return undefined;
    const name =
      value.type === 'Identifier' ? getString(value, 'value') : value.type === 'MemberExpression' ? getPropertyName(value) : undefined;
    return this.words.isMoneyName(name) ? name : undefined;
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

  /** Regular expressions, and SQL in strings, templates and `sql` tagged templates. */
  addLiteral(node: AstNode): void {
    switch (node.type) {
      case 'RegExpLiteral':
        this.add('regex', node, `/${getString(node, 'pattern') ?? ''}/${getString(node, 'flags') ?? ''}`);
        return;
      case 'StringLiteral': {
        const value = getString(node, 'value') ?? '';
        if (isSqlText(value)) this.add('sql', node, value.trim());
        return;
      }
      case 'TemplateLiteral': {
        const first = getNodes(node, 'quasis')[0];
        const text = first === undefined ? '' : (getString(first, 'cooked') ?? getString(first, 'raw') ?? '');
        if (isSqlText(text)) this.add('sql', node, text.trim());
        return;
      }
      case 'TaggedTemplateExpression': {
        const tag = getDottedName(getNode(node, 'tag'));
        if (tag === 'sql' || tag === 'Prisma.sql') this.add('sql', node, tag);
        return;
      }
    }
  }

  /** `process.env.X`, `import.meta.env.X`, `list[0]` and `list[list.length - 1]`. */
  addMemberAccess(node: AstNode, object: AstNode | undefined, property: AstNode | undefined): void {
    if (object?.type === 'MemberExpression') {
      const objectName = getDottedName(object);
      if (objectName === 'process.env') this.add('env-config', node, `process.env.${getPropertyName(node) ?? '[…]'}`);
      else if (
        objectName === undefined &&
        getPropertyName(object) === 'env' &&
        unwrapExpression(getNode(object, 'object'))?.type === 'MetaProperty'
      ) {
        this.add('env-config', node, `import.meta.env.${getPropertyName(node) ?? '[…]'}`);
      }
    }
    if (property?.type === 'Computed') {
      const index = unwrapExpression(getNode(property, 'expression'));
      if (index?.type === 'NumericLiteral' && index.value === 0) this.add('collection', node, `${getDottedName(object) ?? ''}[0]`);
      else if (index?.type === 'BinaryExpression' && isLengthMember(unwrapExpression(getNode(index, 'left')))) {
        this.add('collection', node, `${getDottedName(object) ?? ''}[length - 1]`);
      }
    }
  }

  /** A call the signal rules classify, or `.map`/`.filter`/`.reduce` on a parameter of the enclosing function (`params`). */
  addCall(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined, params: string[] | undefined): void {
    const name = calleeName ?? (method === undefined ? undefined : `.${method}`);
    if (name === undefined) return;
    const last = method ?? name;
    const root = calleeName === undefined ? '' : (calleeName.split('.')[0] ?? '');
    const kind = classifyCall(calleeName ?? name, last, calleeName?.startsWith('fs.promises.') === true ? 'fs.promises' : root);
    // Strings slice too: `req.path.slice(1)` is no list that could be empty or hold 100,000 items.
    if (kind === 'collection' && method === 'slice' && isText(getNode(callee, 'object'))) return;
    if (kind !== undefined) {
      this.add(kind, node, name);
      return;
    }
    if (method === 'map' || method === 'filter' || method === 'reduce') {
      const object = getIdentifierName(unwrapExpression(getNode(callee, 'object')));
      if (object && params?.includes(object)) this.add('collection', node, `${object}.${method}`);
    }
  }
}

/** Methods that return a string: what `x.trim().slice(1)` cuts is text. */
const stringMethods = new Set([
  'toString',
  'trim',
  'trimStart',
  'trimEnd',
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'padStart',
  'padEnd',
  'replace',
  'replaceAll',
  'normalize',
  'repeat',
  'substring',
  'join',
  'toFixed',
  'toISOString',
  'stringify',
]);
/**
 * Names that hold text by convention (`req.path`, `fileName`, `url`); plurals (`lines`, `ids`) are lists, and so is a
 * name either could be (`input`, `value`, `data`).
 */
const textName =
  /^(?:path|pathname|url|href|search|hash|host|hostname|origin|protocol|message|stack|name|text|id|key|slug|title|email|label|prefix|suffix|line|str|string|filename|extension|ext|sha|token|word|source)$|[a-z](?:Path|Url|URL|Name|Text|Id|ID|Key|Line|String|Str|Prefix|Suffix|Hash|Message|Title|Label|Slug|Email|Token)$/;

/** An expression that evidently holds a string: a literal, a string method's result, or a value named like text. */
function isText(node: AstNode | undefined): boolean {
  const target = unwrapExpression(node);
  if (target === undefined) return false;
  switch (target.type) {
    case 'StringLiteral':
    case 'TemplateLiteral':
      return true;
    case 'Identifier':
      return textName.test(getString(target, 'value') ?? '');
    case 'MemberExpression':
      return textName.test(getPropertyName(target) ?? '');
    case 'CallExpression': {
      const callee = unwrapExpression(getNode(target, 'callee'));
      if (callee?.type === 'Identifier') return getString(callee, 'value') === 'String';
      return callee?.type === 'MemberExpression' && stringMethods.has(getPropertyName(callee) ?? '');
    }
    default:
      return false;
  }
}

export function isArithmeticOperator(operator: string): boolean {
  return arithmeticOperators.has(operator);
}

function isLengthMember(node: AstNode | undefined): boolean {
  return node?.type === 'MemberExpression' && getPropertyName(node) === 'length';
}

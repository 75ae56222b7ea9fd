import type { CallableFact, ChainEntryFact, PathPart, Span } from '../../model/facts.js';
import { type AstNode, getDottedName, getExpressions, getNode, getNodes, getString, unwrapExpression } from './swc-node.js';

/** Statuses that tell what a middleware does: validation (400, 422), authentication (401, 403), rate limiting (429). */
const ROLE_STATUSES = new Set([400, 401, 403, 422, 429]);

const EXCEPTION_STATUSES: ReadonlyMap<string, number> = new Map([
  ['BadRequestException', 400],
  ['BadRequestError', 400],
  ['ValidationError', 400],
  ['UnauthorizedException', 401],
  ['UnauthorizedError', 401],
  ['AuthenticationError', 401],
  ['ForbiddenException', 403],
  ['ForbiddenError', 403],
  ['UnprocessableEntityException', 422],
  ['TooManyRequestsException', 429],
  ['ThrottlerException', 429],
]);

const NAMED_STATUSES: ReadonlyMap<string, number> = new Map([
  ['BAD_REQUEST', 400],
  ['UNAUTHORIZED', 401],
  ['FORBIDDEN', 403],
  ['UNPROCESSABLE_ENTITY', 422],
  ['TOO_MANY_REQUESTS', 429],
]);

const MAX_REFS = 200;
const MAX_CALLABLES = 2000;
const MAX_CONSTANTS = 500;

/** What one callable (or one route argument) references while the walker is inside it. */
export class RefFrame {
  readonly refs = new Set<string>();
  readonly statuses = new Set<number>();

  constructor(readonly name: string | undefined) {}

  addRef(name: string): void {
    if (this.refs.size < MAX_REFS) this.refs.add(name);
  }

  addStatus(status: number | undefined): void {
    if (status !== undefined && ROLE_STATUSES.has(status)) this.statuses.add(status);
  }

  toCallable(span: Span): CallableFact | undefined {
    if (this.name === undefined) return undefined;
    const callable: CallableFact = { name: this.name, span, refs: [...this.refs].sort() };
    if (this.statuses.size > 0) callable.statuses = [...this.statuses].sort((a, b) => a - b);
    return callable;
  }
}

/** A route argument whose references are filled in while the walker visits it. */
export interface PendingEntry {
  entry: ChainEntryFact;
  frame: RefFrame;
}

export function toChainEntry(pending: PendingEntry): ChainEntryFact {
  const entry: ChainEntryFact = { ...pending.entry, refs: sortedUnion(pending.entry.refs, pending.frame.refs) };
  if (pending.frame.statuses.size > 0) entry.statuses = [...pending.frame.statuses].sort((a, b) => a - b);
  return entry;
}

function sortedUnion(first: readonly string[], second: Iterable<string>): string[] {
  return [...new Set([...first, ...second])].sort();
}

/** The status a thrown exception class stands for (`new UnauthorizedException()` → 401). */
export function getExceptionStatus(name: string): number | undefined {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return EXCEPTION_STATUSES.get(last);
}

/** `HttpStatus.UNAUTHORIZED`, `StatusCodes.FORBIDDEN` → the number. */
export function getNamedStatus(dotted: string | undefined): number | undefined {
  if (dotted === undefined) return undefined;
  const dot = dotted.lastIndexOf('.');
  if (dot < 0) return undefined;
  return NAMED_STATUSES.get(dotted.slice(dot + 1));
}

export function getNumericValue(node: AstNode | undefined): number | undefined {
  const value = unwrapExpression(node);
  return value?.type === 'NumericLiteral' && typeof value.value === 'number' ? value.value : undefined;
}

export const limits = { MAX_CALLABLES, MAX_CONSTANTS };

/** A short description of an expression for limitations: `API.users`, `getPath()`, `expression`. */
function describeExpression(node: AstNode | undefined): string {
  const value = unwrapExpression(node);
  if (value === undefined) return 'expression';
  const dotted = getDottedName(value);
  if (dotted !== undefined) return dotted;
  if (value.type === 'CallExpression') {
    const callee = getDottedName(getNode(value, 'callee'));
    return callee === undefined ? 'call' : `${callee}()`;
  }
  if (value.type === 'MemberExpression') return 'member expression';
  return 'expression';
}

/**
 * The parts of a path-like expression: literals, template literals, `+` concatenation, and references
 * to constants (`BASE`, `API.users`). Anything else becomes a reference that cannot resolve
 * (`getPath()`), so the path shows `{?getPath()}` instead of being dropped.
 */
export function getPathParts(node: AstNode | undefined, depth = 0): PathPart[] | undefined {
  const value = unwrapExpression(node);
  if (value === undefined || depth > 20) return undefined;
  switch (value.type) {
    case 'StringLiteral': {
      const text = getString(value, 'value');
      return text === undefined ? undefined : [{ text }];
    }
    case 'TemplateLiteral': {
      const quasis = getNodes(value, 'quasis');
      const expressions = getExpressions(value, 'expressions');
      const parts: PathPart[] = [];
      quasis.forEach((quasi, index) => {
        const text = getString(quasi, 'cooked') ?? getString(quasi, 'raw') ?? '';
        if (text !== '') parts.push({ text });
        const expression = expressions[index];
        if (expression !== undefined) parts.push(...(getPathParts(expression, depth + 1) ?? [{ ref: describeExpression(expression) }]));
      });
      return parts;
    }
    case 'BinaryExpression': {
      if (getString(value, 'operator') !== '+') return [{ ref: describeExpression(value) }];
      const left = getPathParts(getNode(value, 'left'), depth + 1);
      const right = getPathParts(getNode(value, 'right'), depth + 1);
      return left === undefined || right === undefined ? [{ ref: describeExpression(value) }] : [...left, ...right];
    }
    case 'NumericLiteral':
      return typeof value.value === 'number' ? [{ text: String(value.value) }] : [{ ref: 'number' }];
    case 'Identifier':
    case 'MemberExpression': {
      const dotted = getDottedName(value);
      return [{ ref: dotted ?? describeExpression(value) }];
    }
    default:
      return [{ ref: describeExpression(value) }];
  }
}

/** True when the parts are all literal text. */
export function isStaticParts(parts: readonly PathPart[]): boolean {
  return parts.every((part) => 'text' in part);
}

/** Literal text joined, every reference shown as `{?ref}`. */
export function renderParts(parts: readonly PathPart[]): string {
  return parts.map((part) => ('text' in part ? part.text : `{?${part.ref}}`)).join('');
}

/** Constants usable in paths: strings, templates, concatenations, references, and `as const` object members. */
export function collectConstantParts(name: string, init: AstNode | undefined, out: { name: string; parts: PathPart[] }[], depth = 0): void {
  const value = unwrapExpression(init);
  if (value === undefined || depth > 3 || out.length >= MAX_CONSTANTS) return;
  if (value.type === 'ObjectExpression') {
    for (const property of getNodes(value, 'properties')) {
      if (property.type !== 'KeyValueProperty') continue;
      const key = getKeyText(getNode(property, 'key'));
      if (key !== undefined) collectConstantParts(`${name}.${key}`, getNode(property, 'value'), out, depth + 1);
    }
    return;
  }
  if (
    value.type !== 'StringLiteral' &&
    value.type !== 'TemplateLiteral' &&
    value.type !== 'BinaryExpression' &&
    value.type !== 'Identifier' &&
    value.type !== 'MemberExpression'
  )
    return;
  const parts = getPathParts(value);
  if (parts !== undefined && parts.length > 0) out.push({ name, parts });
}

function getKeyText(key: AstNode | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.type === 'Identifier') return getString(key, 'value');
  if (key.type === 'StringLiteral') return getString(key, 'value');
  return undefined;
}

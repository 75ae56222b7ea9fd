import type { AuthzFact } from '../../model/facts.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getExpressions,
  getIdentifierName,
  getNode,
  getPropertyName,
  getStaticString,
  unwrapExpression,
} from './swc-node.js';

/** Bare calls that ask a cancan-style policy (`authorize(user, "delete", op)`, `can(actor, "read", doc)`): actor, action, subject. */
const CANCAN_CHECKS = new Set(['authorize', 'can', 'cannot']);
/** Member calls that ask a CASL ability (`ability.can("read", post)`, `ForbiddenError.from(ability).throwUnlessCan(…)`): action, subject. */
const CASL_CHECKS = new Set(['can', 'cannot', 'throwUnlessCan', 'throwUnlessCannot']);
const CASL_PACKAGE = /^@casl\//;

interface Declaration {
  name: string;
  model: string;
  offset: number;
}

/**
 * Authorization rules and the checks that consult them, so a changed policy reaches the routes that ask it
 * (graph/queries/find-route-impacts.ts). Code evidence only, by the shape of the call:
 * - a cancan-style rule `allow(User, "delete" | ["read", "update"], FileOperation, …)` (three arguments or more: an
 *   identifier, literal actions, a subject), or a CASL rule `can("read", "Post")` / `cannot(Action.Delete, Article)`
 *   in a file importing `@casl/…`;
 * - a check `authorize(user, "delete", op)` (or bare `can`/`cannot` with three arguments), or a CASL check
 *   `ability.can("read", post)`, `….throwUnlessCan("update", article)`.
 * A check's subject is the model its argument was loaded from when the file says so (`const op = await
 * FileOperation.findByPk(id)`, `new Article(…)`), else the argument's own name (`fileOperation`, `ctx.state.team` →
 * `team`), which the query compares with rule subjects without case.
 */
export class AuthzCollector {
  private readonly facts: AuthzFact[] = [];
  /** CASL-shaped rules, kept only when the file imports CASL. */
  private readonly caslRules: AuthzFact[] = [];
  private readonly declarations: Declaration[] = [];

  constructor(private readonly positions: SourcePositions) {}

  /** `const op = await FileOperation.unscoped().findByPk(id)`: `op` holds a FileOperation from here on. */
  recordDeclaration(name: string, init: AstNode): void {
    const model = findModelRoot(init);
    if (model !== undefined) this.declarations.push({ name, model, offset: this.positions.offsetOf(init) });
  }

  recordCall(node: AstNode, callee: AstNode, args: readonly AstNode[]): void {
    const calleeName = getIdentifierName(callee);
    if (calleeName === 'allow' && args.length >= 3 && getIdentifierName(unwrapExpression(args[0])) !== undefined) {
      this.addRule(node, args[1], args[2], this.facts);
      return;
    }
    // CASL's `can(action, subject, conditions?, fields?)`: its first argument is the action; cancan's `can(user, …)` is a check.
    if ((calleeName === 'can' || calleeName === 'cannot') && args.length >= 2 && args.length <= 4 && readActions(args[0]) !== undefined) {
      this.addRule(node, args[0], args[1], this.caslRules);
      return;
    }
    if (calleeName !== undefined && CANCAN_CHECKS.has(calleeName) && args.length >= 3) {
      this.addCheck(node, args[1], args[2]);
      return;
    }
    const method = callee.type === 'MemberExpression' ? getPropertyName(callee) : undefined;
    if (method !== undefined && CASL_CHECKS.has(method) && args.length >= 2) this.addCheck(node, args[0], args[1]);
  }

  toFacts(importedSpecifiers: readonly string[]): AuthzFact[] {
    const casl = importedSpecifiers.some((specifier) => CASL_PACKAGE.test(specifier));
    const all = casl ? [...this.facts, ...this.caslRules] : this.facts;
    return all.sort((left, right) => left.span.start - right.span.start || left.span.end - right.span.end);
  }

  private addRule(node: AstNode, actionsArg: AstNode | undefined, subjectArg: AstNode | undefined, into: AuthzFact[]): void {
    const actions = readActions(actionsArg);
    const target = unwrapExpression(subjectArg);
    const subjects = target?.type === 'ArrayExpression' ? getExpressions(target, 'elements').map(unwrapExpression) : [target];
    if (actions === undefined) return;
    for (const subject of subjects.map(readRuleSubject)) {
      if (subject !== undefined) into.push({ kind: 'rule', actions, subject, span: this.positions.spanOf(node) });
    }
  }

  private addCheck(node: AstNode, actionArg: AstNode | undefined, subjectArg: AstNode | undefined): void {
    const actions = readActions(actionArg);
    if (actions === undefined || actions.length !== 1) return;
    const subject = this.readCheckSubject(unwrapExpression(subjectArg), this.positions.offsetOf(node));
    if (subject === undefined) return;
    this.facts.push({ kind: 'check', actions, subject, span: this.positions.spanOf(node) });
  }

  private readCheckSubject(node: AstNode | undefined, offset: number): string | undefined {
    if (node === undefined) return undefined;
    const text = getStaticString(node);
    if (text !== undefined) return text;
    // CASL's `subject("Article", data)`.
    if (node.type === 'CallExpression' && getIdentifierName(unwrapExpression(getNode(node, 'callee'))) === 'subject') {
      return getStaticString(unwrapExpression(getExpressions(node, 'arguments')[0]));
    }
    const name = getIdentifierName(node);
    if (name !== undefined) {
      let model: string | undefined;
      for (const declaration of this.declarations) if (declaration.name === name && declaration.offset <= offset) model = declaration.model;
      return model ?? name;
    }
    if (node.type === 'MemberExpression') return getPropertyName(node);
    return findModelRoot(node);
  }
}

/** `"delete"`, `["read", "update"]`, `Action.Read` (a CASL action enum: `read`); anything else is not an action. */
function readActions(node: AstNode | undefined): string[] | undefined {
  const target = unwrapExpression(node);
  if (target === undefined) return undefined;
  const single = readAction(target);
  if (single !== undefined) return [single];
  if (target.type !== 'ArrayExpression') return undefined;
  const actions: string[] = [];
  for (const element of getExpressions(target, 'elements')) {
    const action = readAction(unwrapExpression(element));
    if (action === undefined) return undefined;
    actions.push(action);
  }
  return actions.length === 0 ? undefined : actions;
}

function readAction(node: AstNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  const text = getStaticString(node);
  if (text !== undefined) return text.length > 0 && text.length <= 64 ? text : undefined;
  // An action enum's member (`Action.Read`): a capitalised object, never a value's property (`ctx.user`).
  if (node.type === 'MemberExpression' && /^[A-Z]/.test(getIdentifierName(unwrapExpression(getNode(node, 'object'))) ?? '')) {
    return getPropertyName(node)?.toLowerCase();
  }
  return undefined;
}

/** A rule's subject: a model class (`FileOperation`) or a subject type string (`"Post"`, `"all"`). */
function readRuleSubject(node: AstNode | undefined): string | undefined {
  const text = node === undefined ? undefined : getStaticString(node);
  if (text !== undefined) return text.length > 0 && text.length <= 64 ? text : undefined;
  const name = getIdentifierName(node);
  return name !== undefined && /^[A-Z]/.test(name) ? name : undefined;
}

/** The capitalised identifier an expression starts from: `await X.scope().findByPk(id)`, `new X(…)`, `X.findOne(…).lean()` → X. */
function findModelRoot(node: AstNode | undefined): string | undefined {
  let current = unwrapExpression(node);
  for (let depth = 0; current !== undefined && depth < 12; depth++) {
    switch (current.type) {
      case 'AwaitExpression':
        current = unwrapExpression(getNode(current, 'argument'));
        break;
      case 'CallExpression':
      case 'NewExpression':
        current = unwrapExpression(getNode(current, 'callee'));
        break;
      case 'MemberExpression':
        current = unwrapExpression(getNode(current, 'object'));
        break;
      case 'Identifier': {
        const name = getIdentifierName(current);
        return name !== undefined && /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/.test(name) ? name : undefined;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

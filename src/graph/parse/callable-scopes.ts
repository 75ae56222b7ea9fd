import type { CallableFact, ChainEntryFact } from '../../model/facts.js';
import { getNamedStatus, limits, type PendingEntry, RefFrame } from './reference-frames.js';
import { getHandlerName } from './route-calls.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getKeyName,
  getNode,
  getPropertyName,
  getString,
  isFunctionNode,
  unwrapExpression,
} from './swc-node.js';
import { isDynamicReference } from './walker-patterns.js';

interface ClassContext {
  name: string;
  /** A top-level class: its members are callables of their own (`Class.member`). */
  frame: RefFrame | undefined;
  /** Constructor parameter properties and their declared class (`private svc: UsersService`). */
  paramTypes: Map<string, string>;
}

/**
 * Callables and what they reference: a frame per top-level declaration, per member of a top-level
 * class or object, and per route argument, collecting the names used inside it.
 */
export class CallableScopes {
  readonly callables: CallableFact[] = [];
  private readonly frames: RefFrame[] = [];
  private readonly argFrames = new Map<AstNode, PendingEntry>();
  private readonly nonRefs = new WeakSet<AstNode>();
  private readonly classContexts: ClassContext[] = [];
  private readonly objectContexts: { name: string }[] = [];
  private topLevelName: string | undefined;

  constructor(private readonly positions: SourcePositions) {}

  getTopLevelName(): string | undefined {
    return this.topLevelName;
  }

  /** The frame of a route argument whose references are being collected, when `node` is one. */
  getArgFrame(node: AstNode): RefFrame | undefined {
    return this.argFrames.size === 0 ? undefined : this.argFrames.get(node)?.frame;
  }

  pushFrame(frame: RefFrame): void {
    this.frames.push(frame);
  }

  popFrame(): void {
    this.frames.pop();
  }

  /** True inside exactly one frame, the top-level declaration `name`. */
  isTopLevelFrame(name: string): boolean {
    const top = this.frames.length === 1 ? this.frames[0] : undefined;
    return top?.name === name;
  }

  /** Visits a top-level declaration inside a frame named after it, then records it as a callable. */
  visitInFrame(name: string | undefined, spanNode: AstNode, spanStart: AstNode, visit: () => void): void {
    if (name === undefined || this.frames.length > 0) {
      visit();
      return;
    }
    const frame = new RefFrame(name);
    const savedTopLevel = this.topLevelName;
    this.topLevelName = name;
    this.frames.push(frame);
    try {
      visit();
    } finally {
      this.frames.pop();
      this.topLevelName = savedTopLevel;
    }
    this.addCallable(frame, this.positions.spanOf(spanNode, spanStart));
  }

  /** A member of a top-level class or object: a callable `Owner.member` of its own. */
  visitMemberInFrame(owner: string, key: string | undefined, spanNode: AstNode, visit: () => void, startNode: AstNode = spanNode): void {
    if (key === undefined) {
      visit();
      return;
    }
    const frame = new RefFrame(`${owner}.${key}`);
    this.frames.push(frame);
    try {
      visit();
    } finally {
      this.frames.pop();
    }
    this.addCallable(frame, this.positions.spanOf(spanNode, startNode));
  }

  /** A class member: a callable of its own when the class is a top-level declaration visited in its own frame. */
  visitClassMember(node: AstNode, key: string | undefined, visit: () => void): void {
    const context = this.classContexts[this.classContexts.length - 1];
    if (context?.frame === undefined || this.frames[this.frames.length - 1] !== context.frame) {
      visit();
      return;
    }
    this.visitMemberInFrame(context.name, key, node, visit);
  }

  enterClass(name: string, paramTypes: Map<string, string>): void {
    const top = this.frames.length === 1 ? this.frames[0] : undefined;
    const frame = top !== undefined && top.name === name ? top : undefined;
    this.classContexts.push({ name, frame, paramTypes });
  }

  leaveClass(): void {
    this.classContexts.pop();
  }

  enterObject(name: string): void {
    this.objectContexts.push({ name });
  }

  leaveObject(): void {
    this.objectContexts.pop();
  }

  addRef(name: string): void {
    this.frames[this.frames.length - 1]?.addRef(name);
  }

  addStatus(status: number | undefined): void {
    this.frames[this.frames.length - 1]?.addStatus(status);
  }

  /** Property and member keys are names, not references. */
  markKey(node: AstNode): void {
    const key = getNode(node, 'key');
    if (key?.type === 'Identifier') this.nonRefs.add(key);
  }

  markNonRef(node: AstNode): void {
    this.nonRefs.add(node);
  }

  addIdentifierRef(node: AstNode, name: string): void {
    if (!this.nonRefs.has(node)) this.addRef(name);
  }

  /** `ns.member` for imports and objects, `Class.member` for `this.member`, `Service.member` for `this.service.member`. */
  addMemberRef(node: AstNode, object: AstNode | undefined): void {
    if (this.frames.length === 0) return;
    const member = getPropertyName(node);
    if (member === undefined) return;
    this.addStatus(getNamedStatus(getDottedName(node)));
    if (object?.type === 'Identifier') {
      const root = getString(object, 'value');
      if (root !== undefined) this.addRef(`${root}.${member}`);
      // `ns.member` names what is used; the bare root would stand for the whole object or module.
      this.nonRefs.add(object);
      return;
    }
    if (object?.type === 'ThisExpression') {
      const owner = this.getOwnerName();
      if (owner !== undefined) this.addRef(`${owner}.${member}`);
      return;
    }
    if (object?.type === 'MemberExpression' && unwrapExpression(getNode(object, 'object'))?.type === 'ThisExpression') {
      const property = getPropertyName(object);
      const type = property === undefined ? undefined : this.classContexts[this.classContexts.length - 1]?.paramTypes.get(property);
      if (type !== undefined) {
        this.addRef(type);
        this.addRef(`${type}.${member}`);
      }
    }
  }

  /** A handler or middleware argument; its references are collected while the walker visits it. */
  makeEntry(arg: AstNode): PendingEntry {
    const known = this.argFrames.get(arg);
    if (known !== undefined) return known;
    const value = unwrapExpression(arg) ?? arg;
    const entry: ChainEntryFact = { inline: isFunctionNode(value), span: this.positions.spanOf(value), refs: [] };
    if (isDynamicReference(value)) entry.dynamic = true;
    else if (value.type === 'Identifier' || value.type === 'MemberExpression') {
      const name = this.toOwnName(getDottedName(value));
      if (name !== undefined) {
        entry.name = name;
        entry.refs = [name];
      }
    } else if (value.type === 'CallExpression') {
      const callee = this.toOwnName(getDottedName(getNode(value, 'callee')));
      if (callee !== undefined) entry.callee = callee;
      const name = this.toOwnName(getHandlerName(value));
      if (name !== undefined && name !== callee) entry.name = name;
      const options = getSetOptions(value);
      if (options !== undefined) entry.options = options;
    }
    const pending: PendingEntry = { entry, frame: new RefFrame(undefined) };
    this.argFrames.set(arg, pending);
    return pending;
  }

  /** `this.list` inside a top-level class or object names its member `Owner.list`. */
  private toOwnName(name: string | undefined): string | undefined {
    if (name === undefined || !name.startsWith('this.')) return name;
    const owner = this.getOwnerName();
    const member = name.slice(5).split('.')[0];
    return owner === undefined || member === undefined ? undefined : `${owner}.${member}`;
  }

  private getOwnerName(): string | undefined {
    return this.classContexts[this.classContexts.length - 1]?.name ?? this.objectContexts[this.objectContexts.length - 1]?.name;
  }

  private addCallable(frame: RefFrame, span: CallableFact['span']): void {
    const callable = frame.toCallable(span);
    if (callable !== undefined && this.callables.length < limits.MAX_CALLABLES) this.callables.push(callable);
  }
}

/** A literal that is false in a condition: `false`, `0`, `''`, `null`. */
function isFalsyLiteral(node: AstNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.type === 'NullLiteral') return true;
  if (node.type === 'BooleanLiteral' || node.type === 'NumericLiteral' || node.type === 'StringLiteral') return !node.value;
  return node.type === 'Identifier' && getString(node, 'value') === 'undefined';
}

/**
 * The options a middleware factory call sets (`auth({ optional: true })` → optional; `auth()` → none): the keys of its
 * object-literal argument whose value is not a false literal, sorted. Undefined when the call passes anything else, or
 * an object whose keys cannot all be read (a spread, a shorthand `{ optional }`, a computed key).
 */
function getSetOptions(call: AstNode): string[] | undefined {
  const args = getExpressions(call, 'arguments');
  if (args.length === 0) return [];
  const first = unwrapExpression(args[0]);
  if (args.length > 1 || first?.type !== 'ObjectExpression') return undefined;
  const set: string[] = [];
  for (const property of getExpressions(first, 'properties')) {
    if (property.type !== 'KeyValueProperty') return undefined;
    const key = getKeyName(getNode(property, 'key'));
    if (key === undefined) return undefined;
    if (!isFalsyLiteral(unwrapExpression(getNode(property, 'value')))) set.push(key);
  }
  return set.sort();
}

import { type AstNode, getDottedName, getExpressions, getIdentifierName, getNode, getNodes, unwrapExpression } from './swc-node.js';

const timerFunctions = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process.nextTick']);
const listenerMethods = new Set(['on', 'once', 'addEventListener', 'addListener', 'subscribe']);
const promiseMethods = new Set(['then', 'catch', 'finally']);

/** Which expressions are awaited or returned, so a test's assertions in callbacks that run later can be told apart. */
export class AwaitTracker {
  private readonly awaited = new Set<AstNode>();
  private promiseExecutorDepth = 0;

  markAwaited(node: AstNode): void {
    this.awaited.add(node);
  }

  isAwaited(node: AstNode): boolean {
    return this.awaited.has(node);
  }

  /** Visits the executor of an awaited `new Promise(…)`: timers and listeners inside it resolve the promise. */
  visitPromiseExecutor(visit: () => void): void {
    this.promiseExecutorDepth++;
    visit();
    this.promiseExecutorDepth--;
  }

  /** Callbacks of an un-awaited `.then`, a timer or a listener run after the test returns; an awaited `.then` awaits its object. */
  hasUnawaitedCallbacks(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined): boolean {
    if (method !== undefined && promiseMethods.has(method)) {
      if (!this.awaited.has(node)) return true;
      const object = unwrapExpression(getNode(callee, 'object'));
      if (object !== undefined) this.awaited.add(object);
      return false;
    }
    const isDeferred =
      (calleeName !== undefined && timerFunctions.has(calleeName)) || (method !== undefined && listenerMethods.has(method));
    return isDeferred && this.promiseExecutorDepth === 0;
  }

  /**
   * A listener that only fails (`stream.once('error', () => t.assert.fail())`, `(error) => { throw error; }`) guards
   * the test against an event: it waits for nothing, and the runner reports the failure whenever it fires.
   */
  isGuard(method: string | undefined, callback: AstNode | undefined): boolean {
    if (method === undefined || !listenerMethods.has(method) || callback === undefined) return false;
    const body = unwrapExpression(getNode(callback, 'body'));
    if (body?.type !== 'BlockStatement') return isFailCall(body);
    const statements = getNodes(body, 'stmts');
    return (
      statements.length > 0 &&
      statements.every(
        (statement) =>
          statement.type === 'ThrowStatement' ||
          (statement.type === 'ExpressionStatement' && isFailCall(unwrapExpression(getNode(statement, 'expression')))),
      )
    );
  }

  /** `await Promise.all([a(), b()])` awaits every element. */
  markAwaitedLists(args: AstNode[]): void {
    for (const arg of args) {
      const list = unwrapExpression(arg);
      if (list?.type === 'ArrayExpression')
        for (const element of getExpressions(list, 'elements')) this.awaited.add(unwrapExpression(element) ?? element);
    }
  }
}

/** `assert.fail(…)`, `t.assert.fail()`, `expect.fail()`, `t.fail()`, `fail()`, and expect.js's `expect().fail()`. */
function isFailCall(node: AstNode | undefined): boolean {
  if (node?.type !== 'CallExpression') return false;
  const callee = unwrapExpression(getNode(node, 'callee'));
  const name = getDottedName(callee);
  if (name === 'fail' || name?.endsWith('.fail') === true) return true;
  if (callee?.type !== 'MemberExpression' || getIdentifierName(getNode(callee, 'property')) !== 'fail') return false;
  const object = unwrapExpression(getNode(callee, 'object'));
  return object?.type === 'CallExpression' && getIdentifierName(unwrapExpression(getNode(object, 'callee'))) === 'expect';
}

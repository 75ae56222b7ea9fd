import { type AstNode, getExpressions, getNode, unwrapExpression } from './swc-node.js';

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

  /** `await Promise.all([a(), b()])` awaits every element. */
  markAwaitedLists(args: AstNode[]): void {
    for (const arg of args) {
      const list = unwrapExpression(arg);
      if (list?.type === 'ArrayExpression')
        for (const element of getExpressions(list, 'elements')) this.awaited.add(unwrapExpression(element) ?? element);
    }
  }
}

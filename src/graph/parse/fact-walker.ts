import type { ConstantFact, FileFacts, FunctionFact, ParseOptions, Span } from '../../model/facts.js';
import type { LineIndex } from './line-index.js';
import { type FunctionTarget, ModuleLinks } from './module-links.js';
import { getExceptionStatus, getNumericValue, type PendingEntry } from './reference-frames.js';
import { RouteCollector, type RouteHost } from './route-collector.js';
import { HttpCallCollector } from './http-call-collector.js';
import { AuthzCollector } from './authz-collector.js';
import { resolveRoutes } from './route-resolution.js';
import { isArithmeticOperator, readsImportMetaEnv, SignalCollector } from './signal-collector.js';
import { classifyConstructor, getSignalWordMatcher } from './signal-rules.js';
import { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getObject,
  getPropertyName,
  getSpan,
  getStaticString,
  getString,
  isAstNode,
  isFunctionNode,
  isRecord,
  unwrapExpression,
} from './swc-node.js';
import { hashRuntimeText } from './runtime-text.js';
import { TestCollector } from './test-collector.js';
import { type ModuleItemHost, visitModuleItem } from './module-items.js';
import { AwaitTracker } from './await-tracker.js';
import { CallableScopes } from './callable-scopes.js';
import {
  branchingNodes,
  declarationOnlyNodes,
  getParameterPropertyTypes,
  isTypeOnlyMember,
  logicalOperators,
  memberOrFunctionNodes,
  skippedKeys,
  typeKeys,
} from './walker-patterns.js';

/**
 * Text that calls an assertion (`assert(`, `assert.equal(`, `expect(`, chai's `.should.`): a file without one exports no
 * asserting helper. The word alone is in many a comment ("should"), and each file that has it is walked once more.
 */
const ASSERTION_CALL = /\b(?:assert|expect)(?:\.\w+)*\s*\(|\.should\./;

/** Type assertions: TypeScript erases all but their expression. */
const TYPE_ASSERTIONS = new Set(['TsAsExpression', 'TsSatisfiesExpression', 'TsNonNullExpression', 'TsConstAssertion', 'TsTypeAssertion']);

/**
 * Collects every fact of one module in a single pass over swc's AST. The walker keeps the
 * traversal, scopes and reference frames; imports and exports (`ModuleLinks`), tests
 * (`TestCollector`), routes (`RouteCollector`) and signals (`SignalCollector`) record what it meets.
 */
export class FactWalker implements RouteHost, ModuleItemHost {
  readonly positions: SourcePositions;
  readonly links: ModuleLinks;
  private readonly signals: SignalCollector;
  private readonly testing: TestCollector;
  private readonly routes: RouteCollector;
  private readonly httpCalls: HttpCallCollector;
  private readonly authz: AuthzCollector;
  readonly scopes: CallableScopes;
  /** `global.name = value` assignments of the file (recordGlobalHelper). */
  private readonly globalValues: [string, string][] = [];
  private readonly functions: FunctionFact[] = [];
  private readonly functionFrames: FunctionFact[] = [];
  readonly functionTargets = new Map<AstNode, FunctionTarget>();
  private readonly classNames: string[] = [];
  private readonly paramScopes: string[][] = [];
  /**
   * Per function, the names its parameters' object patterns bind (`{app}` of etherpad's `(hookName, {app}) => {…}`):
   * parameters as a receiver of routes is concerned, not as a whole argument a signal reads.
   */
  private readonly destructuredScopes: string[][] = [];
  private readonly awaits = new AwaitTracker();
  readonly typeSpans: Span[] = [];
  /** Byte ranges (from the file's start) of type syntax: annotations, type arguments and parameters, type-only items. */
  readonly typeRanges: [number, number][] = [];
  readonly constants: ConstantFact[] = [];
  private tryDepth = 0;
  /** How many `try` blocks with a `catch` the walker is inside, in the current function. */
  private catchDepth = 0;
  /** The `?.` of a statement that only calls (`cleanups.get(el)?.()`, `timer?.unref()`): its result is dropped. */
  private readonly discardedOptionalCalls = new Set<AstNode>();
  private moduleFunctions: ReadonlySet<string> = new Set();
  private module: AstNode | undefined;
  /** Names the module awaits or returns (`await handled`, `return done`, `await Promise.all([a, b])`), read on first need. */
  private awaitedNames: ReadonlySet<string> | undefined;

  /** `source` (the parsed text) lets `// @ts-expect-error` lines inside a test count as type assertions. */
  constructor(
    lineIndex: LineIndex,
    base: number,
    options: ParseOptions,
    private readonly source?: string,
  ) {
    this.positions = new SourcePositions(lineIndex, base);
    this.signals = new SignalCollector(this.positions, getSignalWordMatcher(options.signalWords));
    this.links = new ModuleLinks(this.positions, this.signals, this.functionTargets);
    this.testing = new TestCollector(this.positions, this.links, options.assertionHelpers, source);
    this.scopes = new CallableScopes(this.positions);
    this.routes = new RouteCollector(this);
    this.httpCalls = new HttpCallCollector(this.positions);
    this.authz = new AuthzCollector(this.positions);
  }

  walkModule(module: AstNode): void {
    this.module = module;
    this.testing.setModule(module);
    this.moduleFunctions = collectModuleFunctions(module);
    for (const item of getNodes(module, 'body')) visitModuleItem(this, item);
  }

  toFacts(lines: number): FileFacts {
    this.links.resolvePendingExports();
    const { routes, mounts, uses, nestModules } = resolveRoutes(this.routes, this.links.imports, this.links.importBindings);
    const httpCalls = this.httpCalls.toFacts(this.constants, new Set(this.links.importBindings.keys()));
    const authz = this.authz.toFacts(this.links.imports.map((entry) => entry.specifier));
    return {
      imports: this.links.imports,
      exports: this.links.exports,
      tests: this.testing.tests,
      mocks: this.testing.mocks,
      routes,
      mounts,
      uses,
      ...(nestModules.length === 0 ? {} : { nestModules }),
      ...(httpCalls.length === 0 ? {} : { httpCalls }),
      ...(authz.length === 0 ? {} : { authz }),
      typeSpans: this.typeSpans,
      ...(this.source === undefined ? {} : { runtimeHash: hashRuntimeText(this.source, this.typeRanges) }),
      lines,
      callables: this.scopes.callables,
      constants: this.constants,
      functions: this.functions,
      signals: this.signals.signals,
      ...this.toGlobalHelpers(),
      ...this.toAssertingExports(),
      ...(this.source?.startsWith('#!') === true ? { program: true as const } : {}),
    };
  }

  private toGlobalHelpers(): Pick<FileFacts, 'globalAssertionHelpers'> {
    if (this.globalValues.length === 0) return {};
    const names = this.globalValues.filter(([, value]) => this.testing.isAssertingHelper(value)).map(([name]) => name);
    return names.length === 0 ? {} : { globalAssertionHelpers: [...new Set(names)].sort() };
  }

  /** Exported functions that assert, looked for only when the text names an assertion at all. */
  private toAssertingExports(): Pick<FileFacts, 'assertingExports'> {
    if (this.links.exports.length === 0 || this.source === undefined) return {};
    // A file that imports an assertion module (`import { ok } from 'node:assert'`) may assert under any name.
    if (this.links.assertNames.size <= 1 && !ASSERTION_CALL.test(this.source)) return {};
    const names = this.links.exports
      .filter((fact) => fact.from === undefined && !fact.typeOnly && this.testing.isAssertingHelper(fact.local ?? fact.name))
      .map((fact) => fact.name);
    return names.length === 0 ? {} : { assertingExports: [...new Set(names)].sort() };
  }

  makeEntry(arg: AstNode): PendingEntry {
    return this.scopes.makeEntry(arg);
  }

  getTopLevelName(): string | undefined {
    return this.scopes.getTopLevelName();
  }

  isParameter(name: string): boolean {
    for (const scope of this.paramScopes) if (scope.includes(name)) return true;
    for (const scope of this.destructuredScopes) if (scope.includes(name)) return true;
    return false;
  }

  isConstantName(name: string): boolean {
    return this.constants.some((constant) => constant.name === name);
  }

  private visit(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) this.visit(item);
      return;
    }
    if (isAstNode(value)) this.visitNode(value);
    else if (isRecord(value)) this.visitChildren(value);
  }

  private visitChildren(node: Readonly<Record<string, unknown>>): void {
    for (const key in node) {
      const value = node[key];
      if (typeof value !== 'object' || value === null || skippedKeys.has(key)) continue;
      this.visit(value);
    }
  }

  /**
   * Records the type syntax of a TypeScript module (`: string`, `<T>`, `implements X`), which the fact walk skips
   * wherever it meets it: one pass over the tree that stops at each type node. What a runtime-equivalent change may
   * differ in (runtime-text.ts).
   */
  collectTypeRanges(module: AstNode): void {
    const stack: unknown[] = [module];
    while (stack.length > 0) {
      const value = stack.pop();
      if (Array.isArray(value)) {
        for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
        continue;
      }
      if (!isRecord(value)) continue;
      // yup's `oneOf(enums: …): this;` overloads above the method, `declare spec: ArraySchemaSpec`: type lines of a class.
      if (isAstNode(value) && isTypeOnlyMember(value)) {
        this.recordTypeRange(value);
        this.typeSpans.push(this.positions.spanOf(value));
        continue;
      }
      // `x as T`, `x satisfies T`, `x!`, `x as const` and `<T>x` run as `x`: the operator goes with its type.
      if (isAstNode(value)) this.recordAssertionRange(value);
      for (const key in value) {
        const child = value[key];
        if (typeof child !== 'object' || child === null || key === 'span' || key === 'ctxt') continue;
        if (typeKeys.has(key)) this.recordTypeRange(child);
        else stack.push(child);
      }
    }
  }

  /** For a type assertion, the byte range of what it adds around its expression (`as T`, `!`, `<T>`). */
  private recordAssertionRange(node: AstNode): void {
    if (!TYPE_ASSERTIONS.has(node.type)) return;
    const span = getSpan(node);
    const inner = getSpan(getNode(node, 'expression') ?? node);
    if (span === undefined || inner === undefined) return;
    const range: [number, number] = node.type === 'TsTypeAssertion' ? [span.start, inner.start] : [inner.end, span.end];
    if (range[1] > range[0]) this.typeRanges.push([range[0] - this.positions.base, range[1] - this.positions.base]);
  }

  /** Records the byte range of one piece of type syntax (or of each in a list). */
  recordTypeRange(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.recordTypeRange(item);
      return;
    }
    const span = isAstNode(value) ? getSpan(value) : undefined;
    if (span !== undefined && span.end > span.start) {
      this.typeRanges.push([span.start - this.positions.base, span.end - this.positions.base]);
    }
  }

  visitNode(node: AstNode): void {
    const frame = this.scopes.getArgFrame(node);
    if (frame === undefined) {
      this.visitNodeInner(node);
      return;
    }
    this.scopes.pushFrame(frame);
    try {
      this.visitNodeInner(node);
    } finally {
      this.scopes.popFrame();
    }
  }

  private visitNodeInner(node: AstNode): void {
    if (branchingNodes.has(node.type)) {
      this.addComplexity();
      // A loop's test is no decision a test makes about a result: only an `if`'s or a `?:`'s is kept.
      this.testing.enterBranch(node.type === 'IfStatement' || node.type === 'ConditionalExpression' ? getNode(node, 'test') : undefined);
      this.visitChildren(node);
      this.testing.leaveBranch();
      return;
    }
    if (memberOrFunctionNodes.has(node.type)) {
      this.visitMemberOrFunction(node);
      return;
    }
    if (declarationOnlyNodes.has(node.type)) return;
    switch (node.type) {
      case 'CallExpression':
        this.visitCall(node);
        return;
      case 'NewExpression':
        this.visitNew(node);
        return;
      case 'ClassDeclaration':
      case 'ClassExpression':
        this.visitClass(node);
        return;
      case 'VariableDeclarator':
        this.visitDeclarator(node);
        return;
      case 'MemberExpression':
        this.visitMember(node);
        return;
      case 'OptionalChainingExpression':
        // A call made only when its target is there, as a statement, has no value to default: no missing-field case.
        // Nor has `import.meta.env?.MODE`: the build's values, not a record that may lack a field.
        if (!this.discardedOptionalCalls.has(node) && !readsImportMetaEnv(node)) this.signals.add('optional-access', node, '?.');
        this.visitChildren(node);
        return;
      case 'BinaryExpression':
        this.visitBinary(node);
        return;
      case 'AssignmentExpression':
        this.visitAssignment(node);
        return;
      case 'SwitchCase':
        if (getNode(node, 'test') !== undefined) this.addComplexity();
        this.visitChildren(node);
        return;
      case 'TryStatement':
        this.visitTry(node);
        return;
      case 'ThrowStatement':
        this.testing.countThrow();
        this.testing.countHandCheck(getNode(node, 'argument'));
        this.signals.add('throw', node, 'throw');
        this.visitChildren(node);
        return;
      case 'AwaitExpression':
      case 'ReturnStatement':
        this.visitAwaitOrReturn(node);
        return;
      case 'ExpressionStatement':
        this.visitExpressionStatement(node);
        return;
      case 'RegExpLiteral':
      case 'StringLiteral':
      case 'TemplateLiteral':
      case 'TaggedTemplateExpression':
        this.visitTextLiteral(node);
        return;
      case 'Identifier':
        this.visitIdentifier(node);
        return;
      default:
        this.visitChildren(node);
    }
  }

  /** Functions, class and object members: each may be a function fact, a callable, or both. */
  private visitMemberOrFunction(node: AstNode): void {
    switch (node.type) {
      case 'FunctionDeclaration': {
        const name = getIdentifierName(getNode(node, 'identifier'));
        const target = this.functionTargets.get(node);
        this.visitFunction(node, target ?? (name === undefined ? undefined : { name, spanNode: node }));
        return;
      }
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        // A named function expression is a function of that name wherever it stands (`app.use(function handler(…)`).
        const name = node.type === 'FunctionExpression' ? getIdentifierName(getNode(node, 'identifier')) : undefined;
        this.visitFunction(node, this.functionTargets.get(node) ?? (name === undefined ? undefined : { name, spanNode: node }));
        return;
      }
      case 'MethodProperty':
      case 'GetterProperty':
      case 'SetterProperty':
      case 'Constructor':
        this.scopes.markKey(node);
        if (node.type === 'Constructor') {
          this.scopes.visitClassMember(node, 'constructor', () =>
            this.visitFunction(node, { name: `${this.currentClassName()}.constructor`, spanNode: node }),
          );
        } else this.visitFunction(node, undefined);
        return;
      case 'ClassMethod':
      case 'PrivateMethod': {
        const fn = getObject(node, 'function');
        const key = getKeyName(getNode(node, 'key'));
        const computed = getNode(node, 'key');
        if (computed?.type === 'Computed') this.visitNode(computed);
        if (fn !== undefined) {
          this.scopes.visitClassMember(node, key, () =>
            this.visitFunction(fn, key === undefined ? undefined : { name: `${this.currentClassName()}.${key}`, spanNode: node }),
          );
        }
        return;
      }
      case 'ClassProperty':
      case 'PrivateProperty': {
        const value = unwrapExpression(getNode(node, 'value'));
        const key = getKeyName(getNode(node, 'key'));
        if (value !== undefined && isFunctionNode(value) && key !== undefined) {
          this.functionTargets.set(value, { name: `${this.currentClassName()}.${key}`, spanNode: node });
        }
        this.scopes.markKey(node);
        this.scopes.visitClassMember(node, key, () => this.visitChildren(node));
        return;
      }
      default: {
        this.scopes.markKey(node);
        const key = getKeyName(getNode(node, 'key'));
        if (key === 'status' || key === 'statusCode') this.scopes.addStatus(getNumericValue(getNode(node, 'value')));
        this.visitChildren(node);
      }
    }
  }

  private visitAwaitOrReturn(node: AstNode): void {
    const argument = unwrapExpression(getNode(node, 'argument'));
    if (argument !== undefined) this.awaits.markAwaited(argument);
    if (node.type === 'AwaitExpression' && this.tryDepth === 0) this.signals.add('async-failure', node, 'await outside try');
    this.visitChildren(node);
  }

  private visitTextLiteral(node: AstNode): void {
    this.signals.addLiteral(node);
    if (node.type === 'TemplateLiteral') this.visit(node.expressions);
    else if (node.type === 'TaggedTemplateExpression') this.visitChildren(node);
  }

  private visitIdentifier(node: AstNode): void {
    const name = getString(node, 'value');
    if (name === undefined) return;
    this.scopes.addIdentifierRef(node, name);
    this.signals.addIdentifier(node, name);
  }

  private addComplexity(): void {
    const frame = this.functionFrames[this.functionFrames.length - 1];
    if (frame !== undefined) frame.complexity++;
  }

  private currentClassName(): string {
    return this.classNames[this.classNames.length - 1] ?? '(anonymous)';
  }

  private visitFunction(fn: Readonly<Record<string, unknown>>, target: FunctionTarget | undefined): void {
    const params = Array.isArray(fn.params) ? fn.params : [];
    const paramNames: string[] = [];
    const destructured: string[] = [];
    for (const param of params) {
      if (!isAstNode(param)) continue;
      const pattern =
        param.type === 'Parameter' ? getNode(param, 'pat') : param.type === 'TsParameterProperty' ? getNode(param, 'param') : param;
      // `init(app: Koa = new Koa())`: a parameter with a default is still the parameter.
      const bound = pattern?.type === 'AssignmentPattern' ? getNode(pattern, 'left') : pattern;
      const name = getIdentifierName(bound);
      if (name !== undefined) paramNames.push(name);
      else if (bound?.type === 'ObjectPattern') destructured.push(...listPatternNames(bound));
    }
    let fact: FunctionFact | undefined;
    if (target !== undefined) {
      const span = this.positions.spanOf(target.spanNode);
      fact = { name: target.name, span, complexity: 1, isAsync: fn.async === true, params: params.length };
      this.functions.push(fact);
      this.functionFrames.push(fact);
    }
    const body = fn.body;
    if (isAstNode(body) && body.type !== 'BlockStatement' && body.type !== 'FunctionBody') {
      const expression = unwrapExpression(body);
      if (expression !== undefined) this.awaits.markAwaited(expression);
    }
    const savedTryDepth = this.tryDepth;
    const savedCatchDepth = this.catchDepth;
    this.tryDepth = 0;
    this.catchDepth = 0;
    this.paramScopes.push(paramNames);
    this.destructuredScopes.push(destructured);
    this.testing.enterFunction();
    this.visitChildren(fn);
    this.testing.leaveFunction();
    this.paramScopes.pop();
    this.destructuredScopes.pop();
    this.tryDepth = savedTryDepth;
    this.catchDepth = savedCatchDepth;
    if (fact !== undefined) this.functionFrames.pop();
  }

  private visitClass(node: AstNode): void {
    const name = getIdentifierName(getNode(node, 'identifier')) ?? this.functionTargets.get(node)?.name ?? 'default';
    this.scopes.enterClass(name, getParameterPropertyTypes(node));
    this.routes.collectNestRoutes(node, name);
    this.routes.collectNestModule(node, name);
    this.classNames.push(name);
    this.visitChildren(node);
    this.classNames.pop();
    this.scopes.leaveClass();
  }

  private visitDeclarator(node: AstNode): void {
    const id = getNode(node, 'id');
    const init = unwrapExpression(getNode(node, 'init'));
    const name = getIdentifierName(id);
    if (init !== undefined) {
      if (name !== undefined && init.type === 'ClassExpression' && !this.functionTargets.has(init)) {
        this.functionTargets.set(init, { name, spanNode: node });
      }
      this.links.recordBindingImport(id, init);
      if (name !== undefined) {
        this.signals.markCount(name, init);
        this.routes.recordRouterDeclaration(name, init);
        this.httpCalls.recordDeclaration(name, init);
        this.authz.recordDeclaration(name, init);
        // `const plan = tspl(t, { plan: 2 })` (@matteo.collina/tspl): `plan.equal(…)` asserts.
        const callee = init.type === 'CallExpression' ? getIdentifierName(unwrapExpression(getNode(init, 'callee'))) : undefined;
        if (callee !== undefined && this.links.importBindings.get(callee)?.specifier === '@matteo.collina/tspl')
          this.links.assertNames.add(name);
        // `const handled = new Promise((resolve) => app.on('error', …))` then `await handled`: the listener's
        // assertions are awaited, as in an awaited `new Promise`.
        if (init.type === 'NewExpression' && getDottedName(getNode(init, 'callee')) === 'Promise' && this.testing.isInsideTest()) {
          this.awaitedNames ??= collectAwaitedNames(this.module);
          if (this.awaitedNames.has(name)) this.awaits.markAwaited(init);
        }
      }
    }
    if (init?.type === 'ObjectExpression' && name !== undefined && this.scopes.isTopLevelFrame(name)) {
      if (id !== undefined) this.visitNode(id);
      this.visitObjectMembers(name, init);
      return;
    }
    this.visitChildren(node);
  }

  /** `const handlers = { list() {…}, create: async () => {…} }`: each member is a callable `handlers.list`. */
  private visitObjectMembers(owner: string, object: AstNode): void {
    this.scopes.enterObject(owner);
    for (const property of getNodes(object, 'properties')) {
      const isMember =
        property.type === 'KeyValueProperty' ||
        property.type === 'MethodProperty' ||
        property.type === 'GetterProperty' ||
        property.type === 'SetterProperty';
      const keyNode = getNode(property, 'key');
      const key = isMember ? getKeyName(keyNode) : undefined;
      // swc gives a `key: value` property no span of its own: it spans its key to its value (else every member of
      // jsonwebtoken's `sign_options_schema` stood on line 1, and a change there touched them all).
      const value = property.type === 'KeyValueProperty' ? getNode(property, 'value') : undefined;
      this.scopes.visitMemberInFrame(
        owner,
        key,
        value ?? property,
        () => this.visitNode(property),
        value === undefined ? property : keyNode,
      );
    }
    this.scopes.leaveObject();
  }

  private visitAssignment(node: AstNode): void {
    const operator = getString(node, 'operator') ?? '=';
    const left = unwrapExpression(getNode(node, 'left'));
    const right = getNode(node, 'right');
    if (operator === '&&=' || operator === '||=' || operator === '??=') {
      this.addComplexity();
      if (operator === '??=') this.signals.add('optional-access', node, '??=');
    }
    if (operator === '=') {
      this.links.recordCommonJsAssignment(node, left, right);
      this.recordGlobalHelper(left, right);
      this.recordAssignedFunction(node, left, right);
    }
    if (operator.length === 2 && isArithmeticOperator(operator.slice(0, 1))) this.signals.addMoneyArithmetic(node, operator, left, right);
    this.visitChildren(node);
  }

  /**
   * A function assigned to a member is a function of the file, spanning the assignment, as a declared one is: express's
   * `res.send = function send(body) {…}`, markdown-it's `module.exports = function autolink(state, silent) {…}`,
   * `exports.parse = (text) => …`. Named by the member, the name its callers say (find-my-way's
   * `Router.prototype.findRoute = function findNode (…)` is `findRoute`, and so is its test, find-route.test.js);
   * `module.exports` by the function's own name, else `default`. Each edge case's enclosing function and the
   * hotspot's complexity then see it.
   */
  private recordAssignedFunction(node: AstNode, left: AstNode | undefined, right: AstNode | undefined): void {
    const value = unwrapExpression(right);
    if (left?.type !== 'MemberExpression' || value === undefined || this.functionTargets.has(value)) return;
    if (value.type !== 'FunctionExpression' && value.type !== 'ArrowFunctionExpression') return;
    const isModuleExports = getDottedName(left) === 'module.exports';
    const own = value.type === 'FunctionExpression' ? getIdentifierName(getNode(value, 'identifier')) : undefined;
    const name = isModuleExports ? (own ?? 'default') : (getPropertyName(left) ?? own);
    if (name !== undefined) this.functionTargets.set(value, { name, spanNode: node });
  }

  /** `global.equal = equal`: a function of this file put on the global object, kept when it asserts (toFacts). */
  private recordGlobalHelper(left: AstNode | undefined, right: AstNode | undefined): void {
    if (left?.type !== 'MemberExpression') return;
    const holder = getIdentifierName(unwrapExpression(getNode(left, 'object')));
    const value = getIdentifierName(unwrapExpression(right));
    const name = getPropertyName(left);
    if (value !== undefined && name !== undefined && (holder === 'global' || holder === 'globalThis'))
      this.globalValues.push([name, value]);
  }

  /** Left-leaning chains (`a + b + c + …`, thousands long in generated code) are walked iteratively. */
  private visitBinary(node: AstNode): void {
    const spine: AstNode[] = [node];
    let leftmost = getNode(node, 'left');
    while (leftmost?.type === 'BinaryExpression') {
      spine.push(leftmost);
      leftmost = getNode(leftmost, 'left');
    }
    if (leftmost !== undefined) this.visitNode(leftmost);
    for (let index = spine.length - 1; index >= 0; index--) {
      const binary = spine[index];
      if (binary === undefined) continue;
      this.checkBinary(binary);
      const right = getNode(binary, 'right');
      if (right !== undefined) this.visitNode(right);
    }
  }

  private checkBinary(node: AstNode): void {
    const operator = getString(node, 'operator') ?? '';
    if (logicalOperators.has(operator)) {
      this.addComplexity();
      if (operator === '??') this.signals.add('optional-access', node, '??');
      return;
    }
    this.signals.addBinary(node, operator, unwrapExpression(getNode(node, 'left')), unwrapExpression(getNode(node, 'right')));
  }

  private visitMember(node: AstNode): void {
    const object = unwrapExpression(getNode(node, 'object'));
    const property = getNode(node, 'property');
    if (property?.type === 'Identifier') {
      this.scopes.markNonRef(property);
      this.scopes.addMemberRef(node, object);
    }
    this.signals.addMemberAccess(node, object, property);
    this.visitChildren(node);
  }

  private visitExpressionStatement(node: AstNode): void {
    let expression = unwrapExpression(getNode(node, 'expression'));
    if (expression?.type === 'AwaitExpression') expression = unwrapExpression(getNode(expression, 'argument')) ?? expression;
    if (expression !== undefined && !this.links.recordSideEffectImport(expression) && expression.type === 'MemberExpression') {
      this.testing.countPropertyAssertion(expression);
    }
    if (getNode(node, 'expression')?.type === 'TsSatisfiesExpression') this.testing.countTypeCheck();
    if (expression?.type === 'OptionalChainingExpression' && getNode(expression, 'base')?.type === 'CallExpression') {
      // Down the called chain only (`a?.b.c?.()`); an argument's `?.` gives the call a value that matters.
      for (let link: AstNode | undefined = expression; link !== undefined; ) {
        if (link.type === 'OptionalChainingExpression') {
          this.discardedOptionalCalls.add(link);
          link = getNode(link, 'base');
        } else if (link.type === 'CallExpression') link = getNode(link, 'callee');
        else if (link.type === 'MemberExpression') link = getNode(link, 'object');
        else link = undefined;
      }
    }
    this.visitChildren(node);
  }

  private visitTry(node: AstNode): void {
    const handler = getNode(node, 'handler');
    this.tryDepth++;
    if (handler !== undefined) this.catchDepth++;
    this.visit(node.block);
    if (handler !== undefined) this.catchDepth--;
    this.tryDepth--;
    if (handler !== undefined) {
      this.addComplexity();
      this.signals.add('catch', handler, 'catch');
      this.testing.visitCatch(() => {
        // `catch (err) { caught = err }` keeps the error for an assertion after the block, `errors.push(err)` or
        // `handleError(err)` hands it on: nothing is swallowed.
        if (keepsCaughtError(handler, this.moduleFunctions)) this.testing.countThrow();
        // `try { throw new Error('x') } catch (error) { log(error) }`: the test raises on purpose to have an error to
        // handle; nothing of the code under test is swallowed.
        else if (isDeliberateThrow(getNode(node, 'block'))) this.testing.countThrow();
        // `try { c = read() } catch { c = fallback() }`: the same value made another way, checked after the block
        // either way (bottle's test_cookie, in Python): a fallback, not a swallowed failure.
        else if (isFallback(getNode(node, 'block'), getNode(handler, 'body'))) this.testing.countThrow();
        // `catch (err) { ctx.status = 500; … }` in a handler the test serves: the failure is the response's status,
        // which the request in the test sees (koa-router's `.expect(200)`), not swallowed.
        else if (answersWithErrorStatus(getNode(handler, 'body'))) this.testing.countThrow();
        this.visitChildren(handler);
        // A `finally` that asserts checks the outcome whatever the catch did with the error.
        this.visit(node.finalizer);
      });
      return;
    }
    this.visit(node.finalizer);
  }

  private visitNew(node: AstNode): void {
    const name = getDottedName(getNode(node, 'callee'));
    if (name !== undefined) {
      const kind = name === 'Date' && isEpochDate(getExpressions(node, 'arguments')) ? undefined : classifyConstructor(name);
      if (kind !== undefined) this.signals.add(kind, node, `new ${name}`);
      if (name === 'RegExp') this.signals.addRegExpConstruction(node, getExpressions(node, 'arguments'));
      this.scopes.addStatus(getExceptionStatus(name));
    }
    for (const arg of getExpressions(node, 'arguments')) this.scopes.addStatus(getNumericValue(arg));
    if (name === 'Promise' && this.awaits.isAwaited(node)) this.awaits.visitPromiseExecutor(() => this.visitChildren(node));
    else this.visitChildren(node);
  }

  private visitCall(node: AstNode): void {
    const rawCallee = getNode(node, 'callee');
    const args = getExpressions(node, 'arguments');
    if (rawCallee?.type === 'Import') {
      if (!this.links.consumedCalls.has(node)) {
        const specifier = getStaticString(unwrapExpression(args[0]));
        if (specifier !== undefined)
          this.links.pushImport(specifier, 'dynamic', false, [{ imported: '*', local: '*', typeOnly: false }], node);
      }
      this.visit(node.arguments);
      return;
    }
    const callee = unwrapExpression(rawCallee);
    if (callee === undefined) return;
    const calleeName = getDottedName(callee);
    if (calleeName === 'require' && args.length === 1 && this.recordRequire(node, args[0])) return;
    const testMatch = this.testing.matchTest(node);
    if (testMatch !== undefined) {
      this.testing.visitTest(node, testMatch, () => this.visit(node.arguments));
      return;
    }
    const method = callee.type === 'MemberExpression' ? getPropertyName(callee) : undefined;
    this.testing.recordCall(node, callee, calleeName, method, args, (name) => this.isParameter(name));
    this.signals.addCall(node, callee, calleeName, method, this.paramScopes[this.paramScopes.length - 1], this.catchDepth > 0);
    if (calleeName === 'RegExp') this.signals.addRegExpConstruction(node, args);
    const callbacksUnawaited = this.testing.isInsideTest() && this.awaits.hasUnawaitedCallbacks(node, callee, calleeName, method);
    if (this.awaits.isAwaited(node) && calleeName?.startsWith('Promise.')) this.awaits.markAwaitedLists(args);
    this.visitNode(callee);
    for (const arg of args) this.scopes.addStatus(getNumericValue(arg));
    if (callee.type === 'MemberExpression' && method !== undefined) this.routes.recordCall(node, callee, method, args);
    this.httpCalls.recordCall(node, callee, calleeName, args);
    this.authz.recordCall(node, callee, args);
    for (const arg of args) {
      const callback = unwrapExpression(arg);
      const isCallback = callbacksUnawaited && isFunctionNode(callback) && !this.awaits.isGuard(method, callback);
      if (isCallback && callback !== undefined) this.testing.visitUnawaited(callback, () => this.visitNode(arg));
      else this.visitNode(arg);
    }
  }

  /** `require('x')` with a static specifier: an import unless its binding already recorded it. */
  private recordRequire(node: AstNode, arg: AstNode | undefined): boolean {
    const specifier = getStaticString(unwrapExpression(arg));
    if (specifier === undefined) return false;
    if (!this.links.consumedCalls.has(node))
      this.links.pushImport(specifier, 'require', false, [{ imported: '*', local: '*', typeOnly: false }], node);
    return true;
  }
}

/** A catch block that assigns its error to a variable (`caught = err`), directly in its body. */
/** Identifiers awaited or returned anywhere in `root`, alone or in the array of a `Promise.all`-style call. */
function collectAwaitedNames(root: AstNode | undefined): Set<string> {
  const names = new Set<string>();
  const add = (argument: AstNode | undefined): void => {
    const expression = unwrapExpression(argument);
    const name = getIdentifierName(expression);
    if (name !== undefined) names.add(name);
    else if (expression?.type === 'CallExpression' && getDottedName(getNode(expression, 'callee'))?.startsWith('Promise.') === true)
      for (const list of getExpressions(expression, 'arguments'))
        if (list.type === 'ArrayExpression') for (const element of getExpressions(list, 'elements')) add(element);
  };
  const stack: unknown[] = root === undefined ? [] : [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (!isAstNode(value)) {
      if (typeof value === 'object' && value !== null && 'expression' in value) stack.push((value as { expression: unknown }).expression);
      continue;
    }
    if (value.type === 'AwaitExpression' || value.type === 'ReturnStatement') add(getNode(value, 'argument'));
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return names;
}

/** Names of the functions a module declares at its top level (`function log(e) {…}`, `const log = (e) => …`). */
function collectModuleFunctions(module: AstNode): Set<string> {
  const names = new Set<string>();
  for (const item of getNodes(module, 'body')) {
    const declaration = item.type === 'ExportDeclaration' ? getNode(item, 'declaration') : item;
    if (declaration?.type === 'FunctionDeclaration') {
      const name = getIdentifierName(getNode(declaration, 'identifier'));
      if (name !== undefined) names.add(name);
    } else if (declaration?.type === 'VariableDeclaration') {
      for (const declarator of getNodes(declaration, 'declarations')) {
        const init = unwrapExpression(getNode(declarator, 'init'));
        const name = getIdentifierName(getNode(declarator, 'id'));
        if (name !== undefined && (init?.type === 'ArrowFunctionExpression' || init?.type === 'FunctionExpression')) names.add(name);
      }
    }
  }
  return names;
}

/**
 * Whether a `catch` keeps its error: assigns it to a variable (asserted after the block), or gives it to a call that
 * hands it on (`errors.push(err)`, `handleError(err)`, `done(err)`), not to a log (`console.*`) nor to a function of
 * this file (whose assertions, if any, are counted where it is called).
 */
function keepsCaughtError(handler: AstNode, moduleFunctions: ReadonlySet<string>): boolean {
  const param = getIdentifierName(getNode(handler, 'param'));
  if (param === undefined) return false;
  const body = getNode(handler, 'body');
  for (const statement of body === undefined ? [] : getNodes(body, 'stmts')) {
    const expression = statement.type === 'ExpressionStatement' ? unwrapExpression(getNode(statement, 'expression')) : undefined;
    if (expression?.type === 'AssignmentExpression' && getIdentifierName(unwrapExpression(getNode(expression, 'right'))) === param)
      return true;
    // The error given to a call other than a log (`errors.push(err)`, `handleError(err)`, `done(err)`).
    const callee = expression?.type === 'CallExpression' ? (getDottedName(getNode(expression, 'callee')) ?? '') : undefined;
    if (expression !== undefined && callee !== undefined && !callee.startsWith('console.') && !moduleFunctions.has(callee)) {
      if (getExpressions(expression, 'arguments').some((argument) => getIdentifierName(unwrapExpression(argument)) === param)) return true;
    }
  }
  return false;
}

/**
 * Whether a catch block answers with an HTTP error status: `ctx.status = 500`, `res.statusCode = 400`,
 * `res.status(500)…`, `res.sendStatus(500)`, `res.writeHead(500)`.
 */
function answersWithErrorStatus(body: AstNode | undefined): boolean {
  const isErrorStatus = (node: AstNode | undefined): boolean => {
    const value = getNumericValue(unwrapExpression(node));
    return value !== undefined && value >= 400 && value < 600;
  };
  return (body === undefined ? [] : getNodes(body, 'stmts')).some((statement) => {
    const expression = statement.type === 'ExpressionStatement' ? unwrapExpression(getNode(statement, 'expression')) : undefined;
    if (expression?.type === 'AssignmentExpression') {
      const target = getDottedName(getNode(expression, 'left')) ?? '';
      return /\.(?:status|statusCode)$/.test(target) && isErrorStatus(getNode(expression, 'right'));
    }
    // The call a chain starts from: `res.status(500)` of `res.status(500).send(err.message)`.
    let call = expression?.type === 'CallExpression' ? expression : undefined;
    while (call !== undefined) {
      const callee = getNode(call, 'callee');
      const name = getDottedName(callee) ?? '';
      if (/\.(?:status|sendStatus|writeHead)$/.test(name) && isErrorStatus(getExpressions(call, 'arguments')[0])) return true;
      const object = callee?.type === 'MemberExpression' ? unwrapExpression(getNode(callee, 'object')) : undefined;
      call = object?.type === 'CallExpression' ? object : undefined;
    }
    return false;
  });
}

/** Whether a catch block assigns a plain name its try block assigns too. */
function isFallback(block: AstNode | undefined, handler: AstNode | undefined): boolean {
  const assigned = (body: AstNode | undefined): string[] =>
    (body === undefined ? [] : getNodes(body, 'stmts')).flatMap((statement) => {
      const expression = statement.type === 'ExpressionStatement' ? unwrapExpression(getNode(statement, 'expression')) : undefined;
      const name =
        expression?.type === 'AssignmentExpression' && getString(expression, 'operator') === '='
          ? getIdentifierName(getNode(expression, 'left'))
          : undefined;
      return name === undefined ? [] : [name];
    });
  const tried = new Set(assigned(block));
  return assigned(handler).some((name) => tried.has(name));
}

/** A try block that throws at its top (`try { throw new Error('x') } catch …`): the error is made to be caught. */
function isDeliberateThrow(block: AstNode | undefined): boolean {
  return block !== undefined && getNodes(block, 'stmts').some((statement) => statement.type === 'ThrowStatement');
}

/**
 * `new Date(seconds * 1000)`, `new Date(0)`, `new Date(Date.now() + ttl)`: an instant made from a number, which no
 * time zone shifts and no text makes invalid (jsonwebtoken's `new TokenExpiredError('maxAge exceeded', new
 * Date(maxAgeTimestamp * 1000))` was asked for DST and for "2024-02-30"). So is `new Date()`, the present instant, as
 * `Date.now()`: a calendar read from it (`setHours`, a date library's `format`) is what a zone shifts.
 */
function isEpochDate(args: readonly AstNode[]): boolean {
  if (args.length === 0) return true;
  const [only] = args;
  const arg = args.length === 1 ? unwrapExpression(only) : undefined;
  if (arg?.type === 'NumericLiteral') return true;
  if (arg?.type !== 'BinaryExpression') return false;
  const operator = getString(arg, 'operator') ?? '';
  const sides = [unwrapExpression(getNode(arg, 'left')), unwrapExpression(getNode(arg, 'right'))];
  if ((operator === '*' || operator === '/') && sides.some((side) => side?.type === 'NumericLiteral')) return true;
  const isNow = (side: AstNode | undefined): boolean =>
    side?.type === 'CallExpression' && /^(?:Date\.now|.+\.getTime)$/.test(getDottedName(getNode(side, 'callee')) ?? '');
  return (operator === '+' || operator === '-') && sides.some(isNow);
}

/** The names an object pattern binds at its top level: `app` of `{app}`, `server` of `{app: server}`, `a` of `{a = 1}`. */
function listPatternNames(pattern: AstNode): string[] {
  const names: string[] = [];
  for (const property of getNodes(pattern, 'properties')) {
    const target = property.type === 'KeyValuePatternProperty' ? getNode(property, 'value') : getNode(property, 'key');
    const name = getIdentifierName(target?.type === 'AssignmentPattern' ? getNode(target, 'left') : target);
    if (name !== undefined) names.push(name);
  }
  return names;
}

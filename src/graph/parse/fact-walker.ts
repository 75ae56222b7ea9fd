import type { CallableFact, ChainEntryFact, ConstantFact, FileFacts, FunctionFact, ParseOptions, Span } from '../../model/facts.js';
import type { LineIndex } from './line-index.js';
import { type FunctionTarget, ModuleLinks } from './module-links.js';
import {
  collectConstantParts,
  getExceptionStatus,
  getNamedStatus,
  getNumericValue,
  limits,
  type PendingEntry,
  RefFrame,
} from './reference-frames.js';
import { getHandlerName } from './route-calls.js';
import { RouteCollector, type RouteHost } from './route-collector.js';
import { resolveRoutes } from './route-resolution.js';
import { isArithmeticOperator, isLengthMember, SignalCollector } from './signal-collector.js';
import { classifyCall, classifyConstructor, classifyIdentifier, isSqlText } from './signal-rules.js';
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
  getStaticString,
  getString,
  isAstNode,
  isFunctionNode,
  isRecord,
  unwrapExpression,
} from './swc-node.js';
import { TestCollector } from './test-collector.js';
import { getBindingNames, getFirstDecorator, getParameterPropertyTypes, isDynamicReference, isTypeOnlyItem } from './walker-patterns.js';

const skippedKeys = new Set([
  'span',
  'ctxt',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'typeParams',
  'superTypeParams',
  'implements',
  'thisParam',
]);
const timerFunctions = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process.nextTick']);
const listenerMethods = new Set(['on', 'once', 'addEventListener', 'addListener', 'subscribe']);
const promiseMethods = new Set(['then', 'catch', 'finally']);
const logicalOperators = new Set(['&&', '||', '??']);

interface ClassContext {
  name: string;
  /** A top-level class: its members are callables of their own (`Class.member`). */
  frame: RefFrame | undefined;
  /** Constructor parameter properties and their declared class (`private svc: UsersService`). */
  paramTypes: Map<string, string>;
}

/**
 * Collects every fact of one module in a single pass over swc's AST. The walker keeps the
 * traversal, scopes and reference frames; imports and exports (`ModuleLinks`), tests
 * (`TestCollector`), routes (`RouteCollector`) and signals (`SignalCollector`) record what it meets.
 */
export class FactWalker implements RouteHost {
  readonly positions: SourcePositions;
  readonly links: ModuleLinks;
  private readonly signals: SignalCollector;
  private readonly testing: TestCollector;
  private readonly routes: RouteCollector;
  private readonly functions: FunctionFact[] = [];
  private readonly functionFrames: FunctionFact[] = [];
  private readonly functionTargets = new Map<AstNode, FunctionTarget>();
  private readonly classNames: string[] = [];
  private readonly paramScopes: string[][] = [];
  private readonly awaited = new Set<AstNode>();
  private readonly callables: CallableFact[] = [];
  private readonly typeSpans: Span[] = [];
  private readonly constants: ConstantFact[] = [];
  private readonly frames: RefFrame[] = [];
  private readonly argFrames = new Map<AstNode, PendingEntry>();
  private readonly nonRefs = new WeakSet<AstNode>();
  private readonly classContexts: ClassContext[] = [];
  private readonly objectContexts: { name: string }[] = [];
  private topLevelName: string | undefined;
  private tryDepth = 0;
  private promiseExecutorDepth = 0;

  /** `source` (the parsed text) lets `// @ts-expect-error` lines inside a test count as type assertions. */
  constructor(lineIndex: LineIndex, base: number, options: ParseOptions, source?: string) {
    this.positions = new SourcePositions(lineIndex, base);
    this.signals = new SignalCollector(this.positions);
    this.links = new ModuleLinks(this.positions, this.signals, this.functionTargets);
    this.testing = new TestCollector(this.positions, this.links, options.assertionHelpers, source);
    this.routes = new RouteCollector(this);
  }

  walkModule(module: AstNode): void {
    this.testing.setModule(module);
    for (const item of getNodes(module, 'body')) this.visitModuleItem(item);
  }

  toFacts(lines: number): FileFacts {
    this.links.resolvePendingExports();
    const { routes, mounts, uses } = resolveRoutes(this.routes, this.links.imports, this.links.importBindings);
    return {
      imports: this.links.imports,
      exports: this.links.exports,
      tests: this.testing.tests,
      mocks: this.testing.mocks,
      routes,
      mounts,
      uses,
      callables: this.callables,
      constants: this.constants,
      typeSpans: this.typeSpans,
      signals: this.signals.signals,
      functions: this.functions,
      lines,
    };
  }

  isParameter(name: string): boolean {
    for (const scope of this.paramScopes) if (scope.includes(name)) return true;
    return false;
  }

  isConstantName(name: string): boolean {
    return this.constants.some((constant) => constant.name === name);
  }

  getTopLevelName(): string | undefined {
    return this.topLevelName;
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

  private addRef(name: string): void {
    this.frames[this.frames.length - 1]?.addRef(name);
  }

  private addStatus(status: number | undefined): void {
    this.frames[this.frames.length - 1]?.addStatus(status);
  }

  private addCallable(frame: RefFrame, span: Span): void {
    const callable = frame.toCallable(span);
    if (callable !== undefined && this.callables.length < limits.MAX_CALLABLES) this.callables.push(callable);
  }

  /** Visits a top-level declaration inside a frame named after it, then records it as a callable. */
  private visitInFrame(name: string | undefined, spanNode: AstNode, spanStart: AstNode, visit: () => void): void {
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
  private visitMemberInFrame(owner: string, key: string | undefined, spanNode: AstNode, visit: () => void): void {
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
    this.addCallable(frame, this.positions.spanOf(spanNode));
  }

  private visitTopLevel(declaration: AstNode, statement: AstNode, spanStart: AstNode, defaultName?: string): void {
    if (declaration.type === 'VariableDeclaration') {
      const declarators = getNodes(declaration, 'declarations');
      const isConst = getString(declaration, 'kind') === 'const';
      for (const declarator of declarators) {
        const id = getNode(declarator, 'id');
        const name = getBindingNames(id)[0];
        if (isConst && id?.type === 'Identifier' && name !== undefined)
          collectConstantParts(name, getNode(declarator, 'init'), this.constants);
        const spanNode = declarators.length === 1 ? statement : declarator;
        this.visitInFrame(name, spanNode, declarators.length === 1 ? spanStart : declarator, () => this.visitNode(declarator));
      }
      return;
    }
    this.visitInFrame(getDeclarationName(declaration, defaultName), statement, spanStart, () => this.visitNode(declaration));
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

  private visitModuleItem(item: AstNode): void {
    if (isTypeOnlyItem(item)) this.typeSpans.push(this.positions.spanOf(item, getFirstDecorator(item) ?? item));
    switch (item.type) {
      case 'ImportDeclaration':
        this.links.recordImportDeclaration(item);
        return;
      case 'ExportAllDeclaration':
        this.links.recordExportAll(item);
        return;
      case 'ExportNamedDeclaration':
        this.links.recordExportNamed(item);
        return;
      case 'ExportDeclaration':
        this.visitExportDeclaration(item);
        return;
      case 'ExportDefaultDeclaration':
        this.visitExportDefaultDeclaration(item);
        return;
      case 'ExportDefaultExpression':
        this.visitExportDefaultExpression(item);
        return;
      case 'TsExportAssignment': {
        const expression = getNode(item, 'expression');
        if (expression !== undefined) {
          this.links.recordCommonJsValue(expression, item);
          this.visitNode(expression);
        }
        return;
      }
      case 'TsImportEqualsDeclaration':
        this.links.recordImportEquals(item);
        return;
      case 'TsNamespaceExportDeclaration':
        return;
      default:
        this.links.recordDeclaration(item, item, getFirstDecorator(item) ?? item);
        this.visitTopLevel(item, item, getFirstDecorator(item) ?? item);
    }
  }

  private visitExportDeclaration(item: AstNode): void {
    const declaration = getNode(item, 'declaration');
    if (declaration === undefined) return;
    const spanStart = getFirstDecorator(declaration) ?? item;
    for (const declared of this.links.recordDeclaration(declaration, item, spanStart)) {
      this.links.addExport({ name: declared.name, kind: declared.kind, span: declared.span, typeOnly: declared.typeOnly });
    }
    this.visitTopLevel(declaration, item, spanStart);
  }

  private visitExportDefaultDeclaration(item: AstNode): void {
    const declaration = getNode(item, 'decl');
    if (declaration === undefined) return;
    const typeOnly = declaration.type === 'TsInterfaceDeclaration';
    const local = getIdentifierName(getNode(declaration, 'identifier'));
    const span = this.positions.spanOf(item, getFirstDecorator(declaration) ?? item);
    this.links.addExport(
      local !== undefined && !typeOnly
        ? { name: 'default', kind: 'default', span, typeOnly, local }
        : { name: 'default', kind: 'default', span, typeOnly },
    );
    if (declaration.type === 'FunctionExpression') {
      this.functionTargets.set(declaration, { name: local ?? 'default', spanNode: item });
    }
    if (!typeOnly) this.visitTopLevel(declaration, item, getFirstDecorator(declaration) ?? item, 'default');
  }

  private visitExportDefaultExpression(item: AstNode): void {
    const expression = unwrapExpression(getNode(item, 'expression'));
    if (expression === undefined) return;
    const local = getIdentifierName(expression);
    if (local !== undefined) this.links.addPendingDefault(local, this.positions.spanOf(item));
    else this.links.addExport({ name: 'default', kind: 'default', span: this.positions.spanOf(item), typeOnly: false });
    if (isFunctionNode(expression)) this.functionTargets.set(expression, { name: 'default', spanNode: item });
    if (local !== undefined) this.visitNode(expression);
    else this.visitTopLevel(expression, item, item, 'default');
  }

  private visitNode(node: AstNode): void {
    const pending = this.argFrames.size === 0 ? undefined : this.argFrames.get(node);
    if (pending === undefined) {
      this.visitNodeInner(node);
      return;
    }
    this.frames.push(pending.frame);
    try {
      this.visitNodeInner(node);
    } finally {
      this.frames.pop();
    }
  }

  private visitNodeInner(node: AstNode): void {
    switch (node.type) {
      case 'CallExpression':
        this.visitCall(node);
        return;
      case 'NewExpression':
        this.visitNew(node);
        return;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'MethodProperty':
      case 'GetterProperty':
      case 'SetterProperty':
      case 'Constructor':
      case 'ClassMethod':
      case 'PrivateMethod':
      case 'ClassProperty':
      case 'PrivateProperty':
      case 'KeyValueProperty':
        this.visitMemberOrFunction(node);
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
        this.signals.add('optional-access', node, '?.');
        this.visitChildren(node);
        return;
      case 'BinaryExpression':
        this.visitBinary(node);
        return;
      case 'AssignmentExpression':
        this.visitAssignment(node);
        return;
      case 'ConditionalExpression':
      case 'IfStatement':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
        this.addComplexity();
        this.visitChildren(node);
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
      case 'TsInterfaceDeclaration':
      case 'TsTypeAliasDeclaration':
      case 'TsEnumDeclaration':
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'TsImportEqualsDeclaration':
      case 'TsDeclareFunction':
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
      case 'ArrowFunctionExpression':
        this.visitFunction(node, this.functionTargets.get(node));
        return;
      case 'MethodProperty':
      case 'GetterProperty':
      case 'SetterProperty':
      case 'Constructor':
        this.markKey(node);
        if (node.type === 'Constructor') {
          this.withClassMember(node, 'constructor', () =>
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
          this.withClassMember(node, key, () =>
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
        this.markKey(node);
        this.withClassMember(node, key, () => this.visitChildren(node));
        return;
      }
      default: {
        this.markKey(node);
        const key = getKeyName(getNode(node, 'key'));
        if (key === 'status' || key === 'statusCode') this.addStatus(getNumericValue(getNode(node, 'value')));
        this.visitChildren(node);
      }
    }
  }

  private visitAwaitOrReturn(node: AstNode): void {
    const argument = unwrapExpression(getNode(node, 'argument'));
    if (argument !== undefined) this.awaited.add(argument);
    if (node.type === 'AwaitExpression' && this.tryDepth === 0) this.signals.add('async-failure', node, 'await outside try');
    this.visitChildren(node);
  }

  private visitTextLiteral(node: AstNode): void {
    switch (node.type) {
      case 'RegExpLiteral':
        this.signals.add('regex', node, `/${getString(node, 'pattern') ?? ''}/${getString(node, 'flags') ?? ''}`);
        return;
      case 'StringLiteral': {
        const value = getString(node, 'value') ?? '';
        if (isSqlText(value)) this.signals.add('sql', node, value.trim());
        return;
      }
      case 'TemplateLiteral': {
        const first = getNodes(node, 'quasis')[0];
        const text = first === undefined ? '' : (getString(first, 'cooked') ?? getString(first, 'raw') ?? '');
        if (isSqlText(text)) this.signals.add('sql', node, text.trim());
        this.visit(node.expressions);
        return;
      }
      default: {
        const tag = getDottedName(getNode(node, 'tag'));
        if (tag === 'sql' || tag === 'Prisma.sql') this.signals.add('sql', node, tag);
        this.visitChildren(node);
      }
    }
  }

  private visitIdentifier(node: AstNode): void {
    const name = getString(node, 'value');
    if (name === undefined) return;
    if (!this.nonRefs.has(node)) this.addRef(name);
    const kind = classifyIdentifier(name);
    if (kind !== undefined) this.signals.add(kind, node, name);
  }

  private addComplexity(): void {
    const frame = this.functionFrames[this.functionFrames.length - 1];
    if (frame !== undefined) frame.complexity++;
  }

  /** Property and member keys are names, not references. */
  private markKey(node: AstNode): void {
    const key = getNode(node, 'key');
    if (key?.type === 'Identifier') this.nonRefs.add(key);
  }

  private withClassMember(node: AstNode, key: string | undefined, visit: () => void): void {
    const context = this.classContexts[this.classContexts.length - 1];
    if (context?.frame === undefined || this.frames[this.frames.length - 1] !== context.frame) {
      visit();
      return;
    }
    this.visitMemberInFrame(context.name, key, node, visit);
  }

  private currentClassName(): string {
    return this.classNames[this.classNames.length - 1] ?? '(anonymous)';
  }

  private visitFunction(fn: Readonly<Record<string, unknown>>, target: FunctionTarget | undefined): void {
    const params = Array.isArray(fn.params) ? fn.params : [];
    const paramNames: string[] = [];
    for (const param of params) {
      if (!isAstNode(param)) continue;
      const pattern =
        param.type === 'Parameter' ? getNode(param, 'pat') : param.type === 'TsParameterProperty' ? getNode(param, 'param') : param;
      const name = getIdentifierName(pattern);
      if (name !== undefined) paramNames.push(name);
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
      if (expression !== undefined) this.awaited.add(expression);
    }
    const savedTryDepth = this.tryDepth;
    this.tryDepth = 0;
    this.paramScopes.push(paramNames);
    this.visitChildren(fn);
    this.paramScopes.pop();
    this.tryDepth = savedTryDepth;
    if (fact !== undefined) this.functionFrames.pop();
  }

  private visitClass(node: AstNode): void {
    const name = getIdentifierName(getNode(node, 'identifier')) ?? this.functionTargets.get(node)?.name ?? 'default';
    const top = this.frames.length === 1 ? this.frames[0] : undefined;
    const frame = top !== undefined && top.name === name ? top : undefined;
    this.classContexts.push({ name, frame, paramTypes: getParameterPropertyTypes(node) });
    this.routes.collectNestRoutes(node, name);
    this.classNames.push(name);
    this.visitChildren(node);
    this.classNames.pop();
    this.classContexts.pop();
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
      if (name !== undefined) this.routes.recordRouterDeclaration(name, init);
    }
    const top = this.frames.length === 1 ? this.frames[0] : undefined;
    if (init?.type === 'ObjectExpression' && name !== undefined && top?.name === name) {
      if (id !== undefined) this.visitNode(id);
      this.visitObjectMembers(name, init);
      return;
    }
    this.visitChildren(node);
  }

  /** `const handlers = { list() {…}, create: async () => {…} }`: each member is a callable `handlers.list`. */
  private visitObjectMembers(owner: string, object: AstNode): void {
    this.objectContexts.push({ name: owner });
    for (const property of getNodes(object, 'properties')) {
      const isMember =
        property.type === 'KeyValueProperty' ||
        property.type === 'MethodProperty' ||
        property.type === 'GetterProperty' ||
        property.type === 'SetterProperty';
      const key = isMember ? getKeyName(getNode(property, 'key')) : undefined;
      this.visitMemberInFrame(owner, key, property, () => this.visitNode(property));
    }
    this.objectContexts.pop();
  }

  private visitAssignment(node: AstNode): void {
    const operator = getString(node, 'operator') ?? '=';
    const left = unwrapExpression(getNode(node, 'left'));
    const right = getNode(node, 'right');
    if (operator === '&&=' || operator === '||=' || operator === '??=') {
      this.addComplexity();
      if (operator === '??=') this.signals.add('optional-access', node, '??=');
    }
    if (operator === '=') this.links.recordCommonJsAssignment(node, left, right);
    if (operator.length === 2 && isArithmeticOperator(operator.slice(0, 1))) this.signals.addMoneyArithmetic(node, operator, left, right);
    this.visitChildren(node);
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
      this.nonRefs.add(property);
      this.recordMemberRef(node, object);
    }
    if (object?.type === 'MemberExpression') {
      const objectName = getDottedName(object);
      if (objectName === 'process.env') this.signals.add('env-config', node, `process.env.${getPropertyName(node) ?? '[…]'}`);
      else if (
        objectName === undefined &&
        getPropertyName(object) === 'env' &&
        unwrapExpression(getNode(object, 'object'))?.type === 'MetaProperty'
      ) {
        this.signals.add('env-config', node, `import.meta.env.${getPropertyName(node) ?? '[…]'}`);
      }
    }
    if (property?.type === 'Computed') {
      const index = unwrapExpression(getNode(property, 'expression'));
      if (index?.type === 'NumericLiteral' && index.value === 0) this.signals.add('collection', node, `${getDottedName(object) ?? ''}[0]`);
      else if (index?.type === 'BinaryExpression' && isLengthMember(unwrapExpression(getNode(index, 'left')))) {
        this.signals.add('collection', node, `${getDottedName(object) ?? ''}[length - 1]`);
      }
    }
    this.visitChildren(node);
  }

  /** `ns.member` for imports and objects, `Class.member` for `this.member`, `Service.member` for `this.service.member`. */
  private recordMemberRef(node: AstNode, object: AstNode | undefined): void {
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

  private visitExpressionStatement(node: AstNode): void {
    let expression = unwrapExpression(getNode(node, 'expression'));
    if (expression?.type === 'AwaitExpression') expression = unwrapExpression(getNode(expression, 'argument')) ?? expression;
    if (expression !== undefined && !this.links.recordSideEffectImport(expression) && expression.type === 'MemberExpression') {
      this.testing.countPropertyAssertion(expression);
    }
    if (getNode(node, 'expression')?.type === 'TsSatisfiesExpression') this.testing.countTypeCheck();
    this.visitChildren(node);
  }

  private visitTry(node: AstNode): void {
    this.tryDepth++;
    this.visit(node.block);
    this.tryDepth--;
    const handler = getNode(node, 'handler');
    if (handler !== undefined) {
      this.addComplexity();
      this.signals.add('catch', handler, 'catch');
      this.testing.visitCatch(() => this.visitChildren(handler));
    }
    this.visit(node.finalizer);
  }

  private visitNew(node: AstNode): void {
    const name = getDottedName(getNode(node, 'callee'));
    if (name !== undefined) {
      const kind = classifyConstructor(name);
      if (kind !== undefined) this.signals.add(kind, node, `new ${name}`);
      this.addStatus(getExceptionStatus(name));
    }
    for (const arg of getExpressions(node, 'arguments')) this.addStatus(getNumericValue(arg));
    const isAwaitedPromise = name === 'Promise' && this.awaited.has(node);
    if (isAwaitedPromise) this.promiseExecutorDepth++;
    this.visitChildren(node);
    if (isAwaitedPromise) this.promiseExecutorDepth--;
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
    this.testing.recordCall(node, callee, calleeName, method, args);
    this.recordCallSignal(node, callee, calleeName, method);
    const callbacksUnawaited = this.testing.isInsideTest() && this.hasUnawaitedCallbacks(node, callee, calleeName, method);
    if (this.awaited.has(node) && calleeName?.startsWith('Promise.')) this.markAwaitedLists(args);
    this.visitNode(callee);
    for (const arg of args) this.addStatus(getNumericValue(arg));
    if (callee.type === 'MemberExpression' && method !== undefined) this.routes.recordCall(node, callee, method, args);
    for (const arg of args) {
      const isCallback = callbacksUnawaited && isFunctionNode(unwrapExpression(arg));
      if (isCallback) this.testing.unawaitedDepth++;
      this.visitNode(arg);
      if (isCallback) this.testing.unawaitedDepth--;
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

  /** Callbacks of an un-awaited `.then`, a timer or a listener run after the test returns; an awaited `.then` awaits its object. */
  private hasUnawaitedCallbacks(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined): boolean {
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
  private markAwaitedLists(args: AstNode[]): void {
    for (const arg of args) {
      const list = unwrapExpression(arg);
      if (list?.type === 'ArrayExpression')
        for (const element of getExpressions(list, 'elements')) this.awaited.add(unwrapExpression(element) ?? element);
    }
  }

  private recordCallSignal(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined): void {
    const name = calleeName ?? (method === undefined ? undefined : `.${method}`);
    if (name === undefined) return;
    const last = method ?? name;
    const root = calleeName === undefined ? '' : (calleeName.split('.')[0] ?? '');
    const kind = classifyCall(calleeName ?? name, last, calleeName?.startsWith('fs.promises.') === true ? 'fs.promises' : root);
    if (kind !== undefined) {
      this.signals.add(kind, node, name);
      return;
    }
    if (method === 'map' || method === 'filter' || method === 'reduce') {
      const object = getIdentifierName(unwrapExpression(getNode(callee, 'object')));
      const params = this.paramScopes[this.paramScopes.length - 1];
      if (object && params?.includes(object)) this.signals.add('collection', node, `${object}.${method}`);
    }
  }
}

function getDeclarationName(declaration: AstNode, defaultName: string | undefined): string | undefined {
  switch (declaration.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
      return getIdentifierName(getNode(declaration, 'identifier'));
    case 'FunctionExpression':
    case 'ClassExpression':
      return getIdentifierName(getNode(declaration, 'identifier')) ?? defaultName;
    case 'TsEnumDeclaration':
    case 'TsModuleDeclaration':
      return getIdentifierName(getNode(declaration, 'id'));
    default:
      return defaultName;
  }
}

import type {
  CallableFact,
  ChainEntryFact,
  ConstantFact,
  ExportFact,
  ExportKind,
  FileFacts,
  FunctionFact,
  ImportedName,
  ImportFact,
  MockFact,
  MountFact,
  ParseOptions,
  PathPart,
  RouteFact,
  RouteFramework,
  SignalFact,
  SignalKind,
  Span,
  TestCaseFact,
  UseFact,
} from '../../model/facts.js';
import { getLineAt, type LineIndex } from './line-index.js';
import {
  applyPrefix,
  getFrameworkOfModule,
  getHandlerName,
  getMethodList,
  getMiddlewareNames,
  getObjectProperty,
  httpMethods,
  isHandlerLike,
  isRouterLikeName,
  joinRoutePaths,
  resolveReceiver,
} from './route-calls.js';
import {
  classifyCall,
  classifyConstructor,
  classifyIdentifier,
  isDateModule,
  isMoneyName,
  isSqlText,
  truncateDetail,
} from './signal-rules.js';
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
  isTrue,
  unwrapExpression,
} from './swc-node.js';
import {
  collectAssertingHelpers,
  findExpectErrorLines,
  type AssertionMatch,
  type LocalHelpers,
  matchAssertionCall,
  matchPropertyAssertion,
  matchTestCall,
} from './test-calls.js';
import {
  collectConstantParts,
  getExceptionStatus,
  getNamedStatus,
  getNumericValue,
  getPathParts,
  isStaticParts,
  limits,
  type PendingEntry,
  RefFrame,
  renderParts,
  toChainEntry,
} from './reference-frames.js';

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
const maxSignals = 200;
const assertModules = new Set(['assert', 'assert/strict', 'node:assert', 'node:assert/strict', 'power-assert', 'uvu/assert']);
const assertExportNames = new Set(['assert', 'strict']);
const timerFunctions = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process.nextTick']);
const listenerMethods = new Set(['on', 'once', 'addEventListener', 'addListener', 'subscribe']);
const promiseMethods = new Set(['then', 'catch', 'finally']);
const doneNames = new Set(['done', 'cb', 'callback', 'next', 'finish', 'end']);
const propagatingCalls = new Set(['done', 'reject', 'fail']);
const nestRouteDecorators = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Options', 'Head']);
const arithmeticOperators = new Set(['+', '-', '*', '/', '%', '**']);
const comparisonOperators = new Set(['===', '==', '!==', '!=', '<', '<=', '>', '>=']);
const logicalOperators = new Set(['&&', '||', '??']);

interface TestFrame {
  fact: TestCaseFact;
  contextName: string | undefined;
  isDoneStyle: boolean;
  unawaitedBase: number;
  /** swc span of the callback: local helpers declared inside it are counted in place, not per call. */
  callbackStart: number;
  callbackEnd: number;
}

/** Array methods whose function argument runs once per item: `cases.forEach(check)` calls the helper. */
const iterationMethods = new Set(['forEach', 'map', 'flatMap', 'every', 'some', 'filter', 'find', 'reduce']);

interface LocalDeclaration {
  kind: ExportKind;
  span: Span;
  typeOnly: boolean;
}

interface PendingExport {
  name: string;
  local: string;
  kind: 'named' | 'default' | 'cjs';
  span: Span;
  typeOnly: boolean;
}

interface CallBase {
  receiver: string;
  isIdentifier: boolean;
  isParameter: boolean;
  line: number;
  offset: number;
  /** The top-level declaration the call sits in (for routes registered on a parameter). */
  scope: string | undefined;
}

interface RouteCandidate extends CallBase {
  methods: string[];
  path: PathPart[];
  span: Span;
  handler: string | undefined;
  middleware: string[];
  handlerEntry: PendingEntry | undefined;
  middlewareEntries: PendingEntry[];
}

interface MountCandidate extends CallBase {
  prefix: PathPart[] | undefined;
  target: string;
  via: 'use' | 'route' | 'register';
  middlewareEntries: PendingEntry[];
  targetEntry: PendingEntry | undefined;
}

interface UseCandidate extends CallBase {
  prefix: PathPart[] | undefined;
  entries: PendingEntry[];
  setting: string | undefined;
}

interface InlinePlugin {
  receiver: string;
  param: string;
  start: number;
  end: number;
  line: number;
  prefix: PathPart[] | undefined;
  base: CallBase;
}

interface ClassContext {
  name: string;
  /** A top-level class: its members are callables of their own (`Class.member`). */
  frame: RefFrame | undefined;
  /** Constructor parameter properties and their declared class (`private svc: UsersService`). */
  paramTypes: Map<string, string>;
}

interface ObjectContext {
  name: string;
}

const settingMethods = new Set(['set', 'disable', 'enable', 'engine', 'setGlobalPrefix']);

interface RouterDeclaration {
  factory: string;
  isNew: boolean;
  prefix: string;
  parent: string | undefined;
}

interface FunctionTarget {
  name: string;
  spanNode: AstNode;
}

/** Collects every fact of one module in a single pass over swc's AST. */
export class FactWalker {
  readonly imports: ImportFact[] = [];
  readonly exports: ExportFact[] = [];
  readonly tests: TestCaseFact[] = [];
  readonly mocks: MockFact[] = [];
  readonly signals: SignalFact[] = [];
  readonly functions: FunctionFact[] = [];

  private readonly signalKeys = new Set<string>();
  private readonly testFrames: TestFrame[] = [];
  private readonly contextNames = new Set<string>();
  private readonly functionFrames: FunctionFact[] = [];
  private readonly functionTargets = new Map<AstNode, FunctionTarget>();
  private readonly classNames: string[] = [];
  private readonly paramScopes: string[][] = [];
  private readonly awaited = new Set<AstNode>();
  private readonly consumedCalls = new Set<AstNode>();
  private readonly importBindings = new Map<string, { specifier: string; imported: string }>();
  private readonly assertNames = new Set<string>(['assert']);
  private readonly helpers: ReadonlySet<string>;
  private readonly declarations = new Map<string, LocalDeclaration>();
  private readonly pendingExports: PendingExport[] = [];
  private readonly routeCandidates: RouteCandidate[] = [];
  private readonly mountCandidates: MountCandidate[] = [];
  private readonly useCandidates: UseCandidate[] = [];
  private readonly inlinePlugins: InlinePlugin[] = [];
  private readonly callables: CallableFact[] = [];
  private readonly typeSpans: Span[] = [];
  private readonly constants: ConstantFact[] = [];
  private readonly frames: RefFrame[] = [];
  private readonly argFrames = new Map<AstNode, PendingEntry>();
  private readonly nonRefs = new WeakSet<AstNode>();
  private readonly classContexts: ClassContext[] = [];
  private readonly objectContexts: ObjectContext[] = [];
  private topLevelName: string | undefined;
  private readonly routerDeclarations = new Map<string, RouterDeclaration>();
  private readonly prefixCalls = new Map<string, string[]>();
  private readonly nestRoutes: RouteFact[] = [];
  private readonly nestEntries = new Map<RouteFact, { handler: PendingEntry | undefined; guards: PendingEntry[] }>();
  private readonly pluginFrameworks = new Map<string, RouteFramework>();
  private tryDepth = 0;
  private unawaitedDepth = 0;
  private promiseExecutorDepth = 0;
  private assertOrThrowCount = 0;
  private moduleNode: AstNode | undefined;
  private localHelpers: LocalHelpers | undefined;
  private expectErrorOffsets: number[] | undefined;
  private readonly claimedExpectErrors = new Set<number>();
  /** `ctx.expect(x)` calls already counted through the matcher chained on them. */
  private readonly expectSubjects = new WeakSet<AstNode>();

  /** `source` (the parsed text) lets `// @ts-expect-error` lines inside a test count as type assertions. */
  constructor(
    private readonly lineIndex: LineIndex,
    private readonly base: number,
    options: ParseOptions,
    private readonly source?: string,
  ) {
    this.helpers = new Set(options.assertionHelpers);
  }

  walkModule(module: AstNode): void {
    this.moduleNode = module;
    for (const item of getNodes(module, 'body')) this.visitModuleItem(item);
  }

  toFacts(lines: number): FileFacts {
    this.resolvePendingExports();
    const { routes, mounts, uses } = this.resolveRoutes();
    return {
      imports: this.imports,
      exports: this.exports,
      tests: this.tests,
      mocks: this.mocks,
      routes,
      mounts,
      uses,
      callables: this.callables,
      constants: this.constants,
      typeSpans: this.typeSpans,
      signals: this.signals,
      functions: this.functions,
      lines,
    };
  }

  private offsetOf(node: AstNode): number {
    const span = getSpan(node);
    return span === undefined ? 0 : span.start - this.base;
  }

  private addRef(name: string): void {
    this.frames[this.frames.length - 1]?.addRef(name);
  }

  private addStatus(status: number | undefined): void {
    this.frames[this.frames.length - 1]?.addStatus(status);
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
    const callable = frame.toCallable(this.spanOf(spanNode, spanStart));
    if (callable !== undefined && this.callables.length < limits.MAX_CALLABLES) this.callables.push(callable);
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
    const callable = frame.toCallable(this.spanOf(spanNode));
    if (callable !== undefined && this.callables.length < limits.MAX_CALLABLES) this.callables.push(callable);
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
    let name: string | undefined;
    switch (declaration.type) {
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
        name = getIdentifierName(getNode(declaration, 'identifier'));
        break;
      case 'FunctionExpression':
      case 'ClassExpression':
        name = getIdentifierName(getNode(declaration, 'identifier')) ?? defaultName;
        break;
      case 'TsEnumDeclaration':
      case 'TsModuleDeclaration':
        name = getIdentifierName(getNode(declaration, 'id'));
        break;
      default:
        name = defaultName;
    }
    this.visitInFrame(name, statement, spanStart, () => this.visitNode(declaration));
  }

  private lineOf(offset: number): number {
    return getLineAt(this.lineIndex, offset - this.base);
  }

  private startLine(node: AstNode): number {
    const span = getSpan(node);
    return span === undefined ? 1 : this.lineOf(span.start);
  }

  private spanOf(node: AstNode, startNode: AstNode = node): Span {
    const span = getSpan(node);
    const start = getSpan(startNode);
    if (span === undefined) return { start: 1, end: 1 };
    const end = span.end > span.start ? span.end - 1 : span.start;
    return { start: this.lineOf(Math.min(start?.start ?? span.start, span.start)), end: this.lineOf(end) };
  }

  private addSignal(kind: SignalKind, node: AstNode, detail: string): void {
    if (this.signals.length >= maxSignals) return;
    const line = this.startLine(node);
    const key = `${kind}:${line}`;
    if (this.signalKeys.has(key)) return;
    this.signalKeys.add(key);
    this.signals.push({ kind, line, detail: truncateDetail(detail) });
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
    if (isTypeOnlyItem(item)) this.typeSpans.push(this.spanOf(item, getFirstDecorator(item) ?? item));
    switch (item.type) {
      case 'ImportDeclaration':
        this.recordImportDeclaration(item);
        return;
      case 'ExportAllDeclaration':
        this.recordExportAll(item);
        return;
      case 'ExportNamedDeclaration':
        this.recordExportNamed(item);
        return;
      case 'ExportDeclaration': {
        const declaration = getNode(item, 'declaration');
        if (declaration === undefined) return;
        const spanStart = getFirstDecorator(declaration) ?? item;
        for (const declared of this.recordDeclaration(declaration, item, spanStart)) {
          this.exports.push({ name: declared.name, kind: declared.kind, span: declared.span, typeOnly: declared.typeOnly });
        }
        this.visitTopLevel(declaration, item, spanStart);
        return;
      }
      case 'ExportDefaultDeclaration': {
        const declaration = getNode(item, 'decl');
        if (declaration === undefined) return;
        const typeOnly = declaration.type === 'TsInterfaceDeclaration';
        const local = getIdentifierName(getNode(declaration, 'identifier'));
        const fact: ExportFact = {
          name: 'default',
          kind: 'default',
          span: this.spanOf(item, getFirstDecorator(declaration) ?? item),
          typeOnly,
        };
        if (local !== undefined && !typeOnly) fact.local = local;
        this.exports.push(fact);
        if (declaration.type === 'FunctionExpression') {
          this.functionTargets.set(declaration, { name: local ?? 'default', spanNode: item });
        }
        if (!typeOnly) this.visitTopLevel(declaration, item, getFirstDecorator(declaration) ?? item, 'default');
        return;
      }
      case 'ExportDefaultExpression': {
        const expression = unwrapExpression(getNode(item, 'expression'));
        if (expression === undefined) return;
        const local = getIdentifierName(expression);
        if (local !== undefined) {
          this.pendingExports.push({ name: 'default', local, kind: 'default', span: this.spanOf(item), typeOnly: false });
        } else {
          this.exports.push({ name: 'default', kind: 'default', span: this.spanOf(item), typeOnly: false });
        }
        if (isFunctionNode(expression)) this.functionTargets.set(expression, { name: 'default', spanNode: item });
        if (local !== undefined) this.visitNode(expression);
        else this.visitTopLevel(expression, item, item, 'default');
        return;
      }
      case 'TsExportAssignment': {
        const expression = getNode(item, 'expression');
        if (expression !== undefined) {
          this.recordCommonJsValue(expression, item);
          this.visitNode(expression);
        }
        return;
      }
      case 'TsImportEqualsDeclaration':
        this.recordImportEquals(item);
        return;
      case 'TsNamespaceExportDeclaration':
        return;
      default:
        this.recordDeclaration(item, item, getFirstDecorator(item) ?? item);
        this.visitTopLevel(item, item, getFirstDecorator(item) ?? item);
    }
  }

  private recordDeclaration(
    declaration: AstNode,
    statement: AstNode,
    spanStart: AstNode,
  ): { name: string; kind: ExportKind; span: Span; typeOnly: boolean }[] {
    const declared: { name: string; kind: ExportKind; span: Span; typeOnly: boolean }[] = [];
    const add = (name: string | undefined, kind: ExportKind, span: Span, typeOnly: boolean): void => {
      if (name === undefined) return;
      declared.push({ name, kind, span, typeOnly });
      if (!this.declarations.has(name)) this.declarations.set(name, { kind, span, typeOnly });
    };
    const statementSpan = this.spanOf(statement, spanStart);
    switch (declaration.type) {
      case 'FunctionDeclaration':
        add(getIdentifierName(getNode(declaration, 'identifier')), 'function', statementSpan, false);
        break;
      case 'ClassDeclaration':
        add(getIdentifierName(getNode(declaration, 'identifier')), 'class', statementSpan, false);
        break;
      case 'TsInterfaceDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'interface', statementSpan, true);
        break;
      case 'TsTypeAliasDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'type', statementSpan, true);
        break;
      case 'TsEnumDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'enum', statementSpan, false);
        break;
      case 'TsModuleDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'namespace', statementSpan, false);
        break;
      case 'VariableDeclaration': {
        const declarators = getNodes(declaration, 'declarations');
        for (const declarator of declarators) {
          const span = declarators.length === 1 ? statementSpan : this.spanOf(declarator);
          const id = getNode(declarator, 'id');
          for (const name of getBindingNames(id)) add(name, 'variable', span, false);
          const init = unwrapExpression(getNode(declarator, 'init'));
          const name = getIdentifierName(id);
          if (name !== undefined && init !== undefined && isFunctionNode(init)) {
            this.functionTargets.set(init, { name, spanNode: declarators.length === 1 ? statement : declarator });
          }
        }
        break;
      }
    }
    return declared;
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
      case 'KeyValueProperty': {
        this.markKey(node);
        const key = getKeyName(getNode(node, 'key'));
        if (key === 'status' || key === 'statusCode') this.addStatus(getNumericValue(getNode(node, 'value')));
        this.visitChildren(node);
        return;
      }
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
        this.addSignal('optional-access', node, '?.');
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
        this.assertOrThrowCount++;
        this.addSignal('throw', node, 'throw');
        this.visitChildren(node);
        return;
      case 'AwaitExpression': {
        const argument = unwrapExpression(getNode(node, 'argument'));
        if (argument !== undefined) this.awaited.add(argument);
        if (this.tryDepth === 0) this.addSignal('async-failure', node, 'await outside try');
        this.visitChildren(node);
        return;
      }
      case 'ReturnStatement': {
        const argument = unwrapExpression(getNode(node, 'argument'));
        if (argument !== undefined) this.awaited.add(argument);
        this.visitChildren(node);
        return;
      }
      case 'ExpressionStatement':
        this.visitExpressionStatement(node);
        return;
      case 'RegExpLiteral':
        this.addSignal('regex', node, `/${getString(node, 'pattern') ?? ''}/${getString(node, 'flags') ?? ''}`);
        return;
      case 'StringLiteral': {
        const value = getString(node, 'value') ?? '';
        if (isSqlText(value)) this.addSignal('sql', node, value.trim());
        return;
      }
      case 'TemplateLiteral': {
        const first = getNodes(node, 'quasis')[0];
        const text = first === undefined ? '' : (getString(first, 'cooked') ?? getString(first, 'raw') ?? '');
        if (isSqlText(text)) this.addSignal('sql', node, text.trim());
        this.visit(node.expressions);
        return;
      }
      case 'TaggedTemplateExpression': {
        const tag = getDottedName(getNode(node, 'tag'));
        if (tag === 'sql' || tag === 'Prisma.sql') this.addSignal('sql', node, tag);
        this.visitChildren(node);
        return;
      }
      case 'Identifier': {
        const name = getString(node, 'value');
        if (name === undefined) return;
        if (!this.nonRefs.has(node)) this.addRef(name);
        const kind = classifyIdentifier(name);
        if (kind !== undefined) this.addSignal(kind, node, name);
        return;
      }
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
      fact = { name: target.name, span: this.spanOf(target.spanNode), complexity: 1, isAsync: fn.async === true, params: params.length };
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
    this.collectNestRoutes(node, name);
    this.classNames.push(name);
    this.visitChildren(node);
    this.classNames.pop();
    this.classContexts.pop();
  }

  private collectNestRoutes(node: AstNode, className: string): void {
    const controller = findDecoratorCall(getNodes(node, 'decorators'), 'Controller');
    if (controller === undefined) return;
    const firstArg = unwrapExpression(getExpressions(controller, 'arguments')[0]);
    const prefixParts =
      (firstArg?.type === 'ObjectExpression' ? getPathParts(getObjectProperty(firstArg, 'path')) : getPathParts(firstArg)) ?? [];
    const prefix = renderParts(prefixParts);
    const classGuardArgs = getGuardArguments(getNodes(node, 'decorators'));
    const classGuards = getMiddlewareNames(classGuardArgs);
    for (const member of getNodes(node, 'body')) {
      if (member.type !== 'ClassMethod') continue;
      const fn = getObject(member, 'function');
      const decoratorList = fn === undefined || !Array.isArray(fn.decorators) ? [] : fn.decorators.filter(isAstNode);
      const handler = getKeyName(getNode(member, 'key'));
      const methodGuardArgs = getGuardArguments(decoratorList);
      const guards = [...classGuards, ...getMiddlewareNames(methodGuardArgs)];
      const guardEntries = [...classGuardArgs, ...methodGuardArgs].map((arg) => this.makeEntry(arg));
      const memberSpan = this.spanOf(member, decoratorList[0] ?? member);
      for (const decorator of decoratorList) {
        const call = unwrapExpression(getNode(decorator, 'expression'));
        const callee = call?.type === 'CallExpression' ? getIdentifierName(unwrapExpression(getNode(call, 'callee'))) : undefined;
        if (call === undefined || callee === undefined || !nestRouteDecorators.has(callee)) continue;
        const arg = unwrapExpression(getExpressions(call, 'arguments')[0]);
        const paths =
          arg?.type === 'ArrayExpression'
            ? getExpressions(arg, 'elements').map((element) => getPathParts(element))
            : [arg === undefined ? [] : getPathParts(arg)];
        for (const pathParts of paths) {
          if (pathParts === undefined) continue;
          const route: RouteFact = {
            method: callee.toUpperCase(),
            path: joinRoutePaths(prefix, renderParts(pathParts)),
            framework: 'nestjs',
            kind: 'api',
            line: this.startLine(decorator),
            router: className,
            span: memberSpan,
            offset: this.offsetOf(member),
          };
          if (!isStaticParts(prefixParts) || !isStaticParts(pathParts)) route.pathParts = [...prefixParts, { text: '/' }, ...pathParts];
          if (handler !== undefined) route.handler = handler;
          if (guards.length > 0) route.middleware = guards;
          const handlerEntry: PendingEntry | undefined =
            handler === undefined
              ? undefined
              : {
                  entry: { name: `${className}.${handler}`, inline: false, span: memberSpan, refs: [`${className}.${handler}`] },
                  frame: new RefFrame(undefined),
                };
          this.nestEntries.set(route, { handler: handlerEntry, guards: guardEntries });
          this.nestRoutes.push(route);
        }
      }
    }
  }

  private visitDeclarator(node: AstNode): void {
    const id = getNode(node, 'id');
    const init = unwrapExpression(getNode(node, 'init'));
    const name = getIdentifierName(id);
    if (init !== undefined) {
      if (name !== undefined && init.type === 'ClassExpression' && !this.functionTargets.has(init)) {
        this.functionTargets.set(init, { name, spanNode: node });
      }
      this.recordBindingImport(id, init);
      if (name !== undefined) this.recordRouterDeclaration(name, init);
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

  /** `const {a} = require('x')`, `const m = await import('x')`, `const b = require('x').b`. */
  private recordBindingImport(id: AstNode | undefined, init: AstNode): void {
    let value = init;
    let member: string | undefined;
    if (value.type === 'AwaitExpression') value = unwrapExpression(getNode(value, 'argument')) ?? value;
    if (value.type === 'MemberExpression') {
      member = getPropertyName(value);
      value = unwrapExpression(getNode(value, 'object')) ?? value;
    }
    const call = this.matchModuleCall(value);
    if (call === undefined || id === undefined) return;
    let names: ImportedName[];
    if (member !== undefined) {
      names = [{ imported: member, local: getIdentifierName(id) ?? member, typeOnly: false }];
    } else if (id.type === 'ObjectPattern') {
      names = getPatternImports(id);
    } else {
      names = [{ imported: '*', local: getIdentifierName(id) ?? '*', typeOnly: false }];
    }
    this.consumedCalls.add(value);
    this.pushImport(call.specifier, call.kind, false, names, value);
  }

  private matchModuleCall(node: AstNode): { specifier: string; kind: 'require' | 'dynamic' } | undefined {
    if (node.type !== 'CallExpression') return undefined;
    const callee = getNode(node, 'callee');
    const args = getExpressions(node, 'arguments');
    const specifier = getStaticString(unwrapExpression(args[0]));
    if (specifier === undefined) return undefined;
    if (callee?.type === 'Import') return { specifier, kind: 'dynamic' };
    if (getIdentifierName(unwrapExpression(callee)) === 'require' && args.length === 1) return { specifier, kind: 'require' };
    return undefined;
  }

  private pushImport(specifier: string, kind: ImportFact['kind'], typeOnly: boolean, names: ImportedName[], node: AstNode): void {
    const allTypes = names.length > 0 && names.every((name) => name.typeOnly);
    this.imports.push({ specifier, kind, typeOnly: typeOnly || allTypes, names, line: this.startLine(node) });
    for (const name of names) {
      if (name.local === '*' || kind === 'reexport' || kind === 'reexport-all') continue;
      this.importBindings.set(name.local, { specifier, imported: name.imported });
      const isAssertModule = assertModules.has(specifier);
      const isAssertExport = (specifier === 'chai' || specifier === 'vitest') && assertExportNames.has(name.imported);
      if (isAssertModule || isAssertExport) this.assertNames.add(name.local);
    }
    if (isDateModule(specifier)) this.addSignal('date-time', node, specifier);
  }

  private recordImportDeclaration(node: AstNode): void {
    const specifier = getString(getNode(node, 'source') ?? node, 'value');
    if (specifier === undefined) return;
    const typeOnly = isTrue(node, 'typeOnly');
    const names: ImportedName[] = [];
    for (const spec of getNodes(node, 'specifiers')) {
      const local = getIdentifierName(getNode(spec, 'local'));
      if (local === undefined) continue;
      if (spec.type === 'ImportDefaultSpecifier') names.push({ imported: 'default', local, typeOnly });
      else if (spec.type === 'ImportNamespaceSpecifier') names.push({ imported: '*', local, typeOnly });
      else {
        const imported = getModuleExportName(getNode(spec, 'imported')) ?? local;
        names.push({ imported, local, typeOnly: typeOnly || isTrue(spec, 'isTypeOnly') });
      }
    }
    this.pushImport(specifier, 'static', typeOnly, names, node);
  }

  private recordExportAll(node: AstNode): void {
    const specifier = getString(getNode(node, 'source') ?? node, 'value');
    if (specifier === undefined) return;
    const typeOnly = isTrue(node, 'typeOnly');
    this.pushImport(specifier, 'reexport-all', typeOnly, [{ imported: '*', local: '*', typeOnly }], node);
  }

  private recordExportNamed(node: AstNode): void {
    const source = getNode(node, 'source');
    const specifier = source === undefined ? undefined : getString(source, 'value');
    const typeOnly = isTrue(node, 'typeOnly');
    const span = this.spanOf(node);
    const names: ImportedName[] = [];
    for (const spec of getNodes(node, 'specifiers')) {
      let imported: string | undefined;
      let exported: string | undefined;
      let specTypeOnly = typeOnly;
      if (spec.type === 'ExportSpecifier') {
        imported = getModuleExportName(getNode(spec, 'orig'));
        exported = getModuleExportName(getNode(spec, 'exported')) ?? imported;
        specTypeOnly = typeOnly || isTrue(spec, 'isTypeOnly');
      } else if (spec.type === 'ExportNamespaceSpecifier') {
        imported = '*';
        exported = getModuleExportName(getNode(spec, 'name'));
      } else if (spec.type === 'ExportDefaultSpecifier') {
        imported = 'default';
        exported = getModuleExportName(getNode(spec, 'exported'));
      }
      if (imported === undefined || exported === undefined) continue;
      if (specifier === undefined) {
        this.pendingExports.push({ name: exported, local: imported, kind: 'named', span, typeOnly: specTypeOnly });
        continue;
      }
      names.push({ imported, local: exported, typeOnly: specTypeOnly });
      this.exports.push({ name: exported, kind: 'reexport', span, typeOnly: specTypeOnly, from: specifier, imported });
    }
    if (specifier !== undefined) this.pushImport(specifier, 'reexport', typeOnly, names, node);
  }

  private recordImportEquals(node: AstNode): void {
    const reference = getNode(node, 'moduleRef');
    if (reference?.type !== 'TsExternalModuleReference') return;
    const specifier = getStaticString(getNode(reference, 'expression'));
    const local = getIdentifierName(getNode(node, 'id'));
    if (specifier === undefined || local === undefined) return;
    const typeOnly = isTrue(node, 'isTypeOnly');
    this.pushImport(specifier, 'import-equals', typeOnly, [{ imported: '*', local, typeOnly }], node);
  }

  /** `module.exports = {a, b}` exports `a` and `b`; any other value is the `default` export. */
  private recordCommonJsValue(value: AstNode, statement: AstNode): void {
    const target = unwrapExpression(value);
    if (target?.type === 'ObjectExpression') {
      for (const property of getNodes(target, 'properties')) {
        if (property.type === 'SpreadElement') continue;
        const key = getKeyName(property.type === 'Identifier' ? property : getNode(property, 'key'));
        if (key === undefined) continue;
        const local = property.type === 'Identifier' ? key : getIdentifierName(unwrapExpression(getNode(property, 'value')));
        const value = getNode(property, 'value');
        const span =
          property.type === 'KeyValueProperty' && value !== undefined
            ? this.spanOf(value, getNode(property, 'key'))
            : this.spanOf(property);
        this.pushCommonJsExport(key, local, span);
      }
      return;
    }
    this.pushCommonJsExport('default', getIdentifierName(target), this.spanOf(statement));
  }

  private pushCommonJsExport(name: string, local: string | undefined, span: Span): void {
    if (this.exports.some((fact) => fact.kind === 'cjs' && fact.name === name)) return;
    if (this.pendingExports.some((pending) => pending.kind === 'cjs' && pending.name === name)) return;
    if (local !== undefined) this.pendingExports.push({ name, local, kind: 'cjs', span, typeOnly: false });
    else this.exports.push({ name, kind: 'cjs', span, typeOnly: false });
  }

  private visitAssignment(node: AstNode): void {
    const operator = getString(node, 'operator') ?? '=';
    const left = unwrapExpression(getNode(node, 'left'));
    const right = getNode(node, 'right');
    if (operator === '&&=' || operator === '||=' || operator === '??=') {
      this.addComplexity();
      if (operator === '??=') this.addSignal('optional-access', node, '??=');
    }
    if (operator === '=' && left?.type === 'MemberExpression' && right !== undefined) {
      const target = getDottedName(left);
      if (target === 'module.exports') this.recordCommonJsValue(right, node);
      else if (target !== undefined && /^(module\.)?exports\.[^.]+$/.test(target)) {
        const name = target.slice(target.lastIndexOf('.') + 1);
        this.pushCommonJsExport(name, getIdentifierName(unwrapExpression(right)), this.spanOf(node));
      }
    }
    if (operator.length === 2 && arithmeticOperators.has(operator.slice(0, 1))) {
      const name = getMoneyOperandName(left) ?? getMoneyOperandName(right);
      if (name !== undefined) this.addSignal('money', node, `${name} ${operator}`);
    }
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
    const left = unwrapExpression(getNode(node, 'left'));
    const right = unwrapExpression(getNode(node, 'right'));
    if (logicalOperators.has(operator)) {
      this.addComplexity();
      if (operator === '??') this.addSignal('optional-access', node, '??');
    } else if (arithmeticOperators.has(operator)) {
      const name = getMoneyOperandName(left) ?? getMoneyOperandName(right);
      if (name !== undefined) this.addSignal('money', node, `${name} ${operator}`);
    } else if (comparisonOperators.has(operator)) {
      const lengthSide = isLengthMember(left) ? left : isLengthMember(right) ? right : undefined;
      const other = lengthSide === left ? right : left;
      if (lengthSide !== undefined && other?.type === 'NumericLiteral' && (other.value === 0 || other.value === 1)) {
        this.addSignal('collection', node, `${getDottedName(lengthSide) ?? '.length'} ${operator} ${String(other.value)}`);
      }
    }
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
      if (objectName === 'process.env') this.addSignal('env-config', node, `process.env.${getPropertyName(node) ?? '[…]'}`);
      else if (
        objectName === undefined &&
        getPropertyName(object) === 'env' &&
        unwrapExpression(getNode(object, 'object'))?.type === 'MetaProperty'
      ) {
        this.addSignal('env-config', node, `import.meta.env.${getPropertyName(node) ?? '[…]'}`);
      }
    }
    if (property?.type === 'Computed') {
      const index = unwrapExpression(getNode(property, 'expression'));
      if (index?.type === 'NumericLiteral' && index.value === 0) this.addSignal('collection', node, `${getDottedName(object) ?? ''}[0]`);
      else if (index?.type === 'BinaryExpression' && isLengthMember(unwrapExpression(getNode(index, 'left')))) {
        this.addSignal('collection', node, `${getDottedName(object) ?? ''}[length - 1]`);
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
      const owner = this.classContexts[this.classContexts.length - 1]?.name ?? this.objectContexts[this.objectContexts.length - 1]?.name;
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
    if (expression !== undefined) {
      const moduleCall = this.matchModuleCall(expression);
      if (moduleCall !== undefined) {
        this.consumedCalls.add(expression);
        this.pushImport(moduleCall.specifier, moduleCall.kind, false, [], expression);
      } else if (expression.type === 'MemberExpression') {
        this.countPropertyAssertion(expression);
      }
    }
    // `z.string() satisfies z.ZodString;`: a statement that is only a type check asserts a type.
    const frame = this.currentTestFrame();
    if (frame !== undefined && getNode(node, 'expression')?.type === 'TsSatisfiesExpression') this.countAssertion(frame, false, false);
    this.visitChildren(node);
  }

  private visitTry(node: AstNode): void {
    this.tryDepth++;
    this.visit(node.block);
    this.tryDepth--;
    const handler = getNode(node, 'handler');
    if (handler !== undefined) {
      this.addComplexity();
      this.addSignal('catch', handler, 'catch');
      const before = this.assertOrThrowCount;
      this.visitChildren(handler);
      const frame = this.currentTestFrame();
      if (frame !== undefined && this.assertOrThrowCount === before) frame.fact.swallowedErrors++;
    }
    this.visit(node.finalizer);
  }

  private currentTestFrame(): TestFrame | undefined {
    const frame = this.testFrames[this.testFrames.length - 1];
    return frame?.fact.kind === 'test' ? frame : undefined;
  }

  private countAssertion(frame: TestFrame, trivial: boolean, snapshot: boolean): void {
    frame.fact.assertions++;
    if (trivial) frame.fact.trivialAssertions++;
    if (snapshot) frame.fact.snapshotAssertions++;
    if (this.unawaitedDepth > frame.unawaitedBase && !frame.isDoneStyle) frame.fact.unawaitedAssertions++;
    this.assertOrThrowCount++;
  }

  private countMatch(frame: TestFrame, match: AssertionMatch): void {
    if (match.subject !== undefined) this.expectSubjects.add(match.subject);
    this.countAssertion(frame, match.trivial, match.snapshot);
  }

  /** Chai-style `expect(x).to.be.true;` in the current test. */
  private countPropertyAssertion(member: AstNode): void {
    const frame = this.currentTestFrame();
    const match = frame === undefined ? undefined : matchPropertyAssertion(member);
    if (frame !== undefined && match !== undefined) this.countMatch(frame, match);
  }

  /**
   * A call of a function declared in this file whose body asserts (`check(input)`), or such a
   * function handed to `cases.forEach(check)`. Helpers declared inside the test itself were already
   * counted where they are written.
   */
  private countHelperCall(frame: TestFrame, callee: AstNode, method: string | undefined, args: AstNode[]): void {
    const candidates: AstNode[] = [callee];
    if (method !== undefined && iterationMethods.has(method)) candidates.push(...args);
    for (const candidate of candidates) {
      const name = getIdentifierName(unwrapExpression(candidate));
      const helper = name === undefined ? undefined : this.getLocalHelpers().get(name);
      if (helper === undefined || (helper.start >= frame.callbackStart && helper.end <= frame.callbackEnd)) continue;
      this.countAssertion(frame, helper.trivial, helper.snapshot);
      return;
    }
  }

  private getLocalHelpers(): LocalHelpers {
    this.localHelpers ??=
      this.moduleNode === undefined
        ? new Map<string, never>()
        : collectAssertingHelpers(this.moduleNode, { assertNames: this.assertNames, helpers: this.helpers });
    return this.localHelpers;
  }

  /** `// @ts-expect-error` lines inside the callback not already claimed by a nested test, as swc offsets. */
  private countExpectErrors(frame: TestFrame): void {
    if (this.source === undefined) return;
    this.expectErrorOffsets ??= findExpectErrorLines(this.source).map((line) => (this.lineIndex.lineStarts[line] ?? 0) + this.base);
    this.expectErrorOffsets.forEach((offset, index) => {
      if (offset < frame.callbackStart || offset >= frame.callbackEnd || this.claimedExpectErrors.has(index)) return;
      this.claimedExpectErrors.add(index);
      frame.fact.assertions++;
    });
  }

  private visitNew(node: AstNode): void {
    const name = getDottedName(getNode(node, 'callee'));
    if (name !== undefined) {
      const kind = classifyConstructor(name);
      if (kind !== undefined) this.addSignal(kind, node, `new ${name}`);
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
      if (!this.consumedCalls.has(node)) {
        const specifier = getStaticString(unwrapExpression(args[0]));
        if (specifier !== undefined) this.pushImport(specifier, 'dynamic', false, [{ imported: '*', local: '*', typeOnly: false }], node);
      }
      this.visit(node.arguments);
      return;
    }
    const callee = unwrapExpression(rawCallee);
    if (callee === undefined) return;
    const calleeName = getDottedName(callee);
    if (calleeName === 'require' && args.length === 1) {
      const specifier = getStaticString(unwrapExpression(args[0]));
      if (specifier !== undefined) {
        if (!this.consumedCalls.has(node))
          this.pushImport(specifier, 'require', false, [{ imported: '*', local: '*', typeOnly: false }], node);
        return;
      }
    }
    const testMatch = matchTestCall(node, this.contextNames);
    if (testMatch !== undefined) {
      this.visitTestCall(node, testMatch.kind, testMatch.title, testMatch.modifiers, testMatch.callback);
      return;
    }
    const method = callee.type === 'MemberExpression' ? getPropertyName(callee) : undefined;
    const frame = this.currentTestFrame();
    if (calleeName !== undefined) {
      this.recordMock(calleeName, args, node);
      if (frame !== undefined && method !== undefined && (method === 'skip' || method === 'todo')) {
        const object = calleeName.slice(0, calleeName.length - method.length - 1);
        if (object === 'this' || object === frame.contextName) addModifier(frame.fact, method);
      }
      if (propagatingCalls.has(calleeName)) this.assertOrThrowCount++;
    }
    if (frame !== undefined && !this.expectSubjects.has(node)) {
      const match = matchAssertionCall(node, { assertNames: this.assertNames, contextName: frame.contextName, helpers: this.helpers });
      if (match !== undefined) this.countMatch(frame, match);
      else this.countHelperCall(frame, callee, method, args);
    }
    this.recordCallSignal(node, callee, calleeName, method);

    let callbacksUnawaited = false;
    if (frame !== undefined || this.testFrames.length > 0) {
      if (method !== undefined && promiseMethods.has(method)) {
        if (this.awaited.has(node)) {
          const object = unwrapExpression(getNode(callee, 'object'));
          if (object !== undefined) this.awaited.add(object);
        } else callbacksUnawaited = true;
      } else if (
        ((calleeName !== undefined && timerFunctions.has(calleeName)) || (method !== undefined && listenerMethods.has(method))) &&
        this.promiseExecutorDepth === 0
      ) {
        callbacksUnawaited = true;
      }
    }
    if (this.awaited.has(node) && calleeName?.startsWith('Promise.')) {
      for (const arg of args) {
        const list = unwrapExpression(arg);
        if (list?.type === 'ArrayExpression')
          for (const element of getExpressions(list, 'elements')) this.awaited.add(unwrapExpression(element) ?? element);
      }
    }
    this.visitNode(callee);
    for (const arg of args) this.addStatus(getNumericValue(arg));
    if (callee.type === 'MemberExpression' && method !== undefined) this.recordRouteCall(node, callee, method, args);
    for (const arg of args) {
      const isCallback = callbacksUnawaited && isFunctionNode(unwrapExpression(arg));
      if (isCallback) this.unawaitedDepth++;
      this.visitNode(arg);
      if (isCallback) this.unawaitedDepth--;
    }
  }

  private visitTestCall(
    node: AstNode,
    kind: 'suite' | 'test',
    title: string,
    modifiers: TestCaseFact['modifiers'],
    callback: AstNode | undefined,
  ): void {
    const parent = this.testFrames[this.testFrames.length - 1];
    const params = callback === undefined ? [] : getCallbackParams(callback);
    const contextName = params[0]?.name;
    const isDoneStyle =
      kind === 'test' &&
      (params.some((param) => param.name !== undefined && doneNames.has(param.name)) || (params.length >= 2 && this.isNodeTestFile()));
    const fact: TestCaseFact = {
      kind,
      titlePath: [...(parent?.fact.titlePath ?? []), title],
      span: this.spanOf(node),
      modifiers,
      assertions: 0,
      trivialAssertions: 0,
      snapshotAssertions: 0,
      unawaitedAssertions: 0,
      swallowedErrors: 0,
      isAsync: kind === 'test' && (callback?.async === true || isDoneStyle),
    };
    this.tests.push(fact);
    const callbackSpan = callback === undefined ? undefined : getSpan(callback);
    const frame: TestFrame = {
      fact,
      contextName: kind === 'test' ? contextName : undefined,
      isDoneStyle,
      unawaitedBase: this.unawaitedDepth,
      callbackStart: callbackSpan?.start ?? 0,
      callbackEnd: callbackSpan?.end ?? 0,
    };
    this.testFrames.push(frame);
    const addedContext = frame.contextName !== undefined && !this.contextNames.has(frame.contextName);
    if (addedContext && frame.contextName !== undefined) this.contextNames.add(frame.contextName);
    // `it('x', () => expect(p).to.be.fulfilled)`: a property assertion as the arrow's whole body.
    const body = kind === 'test' && callback !== undefined ? unwrapExpression(getNode(callback, 'body')) : undefined;
    if (body?.type === 'MemberExpression') this.countPropertyAssertion(body);
    this.visit(node.arguments);
    if (kind === 'test') this.countExpectErrors(frame);
    if (addedContext && frame.contextName !== undefined) this.contextNames.delete(frame.contextName);
    this.testFrames.pop();
  }

  private isNodeTestFile(): boolean {
    for (const binding of this.importBindings.values()) if (binding.specifier === 'node:test' || binding.specifier === 'test') return true;
    return false;
  }

  private recordMock(calleeName: string, args: AstNode[], node: AstNode): void {
    let framework: MockFact['framework'] | undefined;
    if (calleeName === 'vi.mock' || calleeName === 'vi.doMock') framework = 'vitest';
    else if (calleeName === 'jest.mock' || calleeName === 'jest.doMock' || calleeName === 'jest.unstable_mockModule') framework = 'jest';
    else if (calleeName === 'mock.module' || calleeName.endsWith('.mock.module')) framework = 'node';
    if (framework === undefined) return;
    const first = unwrapExpression(args[0]);
    let specifier = getStaticString(first);
    if (specifier === undefined && first?.type === 'CallExpression' && getNode(first, 'callee')?.type === 'Import') {
      specifier = getStaticString(unwrapExpression(getExpressions(first, 'arguments')[0]));
    }
    if (specifier !== undefined) this.mocks.push({ specifier, framework, line: this.startLine(node) });
  }

  private recordCallSignal(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined): void {
    const name = calleeName ?? (method === undefined ? undefined : `.${method}`);
    if (name === undefined) return;
    const last = method ?? name;
    const root = calleeName === undefined ? '' : (calleeName.split('.')[0] ?? '');
    const kind = classifyCall(calleeName ?? name, last, calleeName?.startsWith('fs.promises.') === true ? 'fs.promises' : root);
    if (kind !== undefined) {
      this.addSignal(kind, node, name);
      return;
    }
    if (method === 'map' || method === 'filter' || method === 'reduce') {
      const object = getIdentifierName(unwrapExpression(getNode(callee, 'object')));
      const params = this.paramScopes[this.paramScopes.length - 1];
      if (object && params?.includes(object)) this.addSignal('collection', node, `${object}.${method}`);
    }
  }

  private isParameter(name: string): boolean {
    for (const scope of this.paramScopes) if (scope.includes(name)) return true;
    return false;
  }

  private recordRouteCall(node: AstNode, callee: AstNode, method: string, args: AstNode[]): void {
    const receiver = resolveReceiver(getNode(callee, 'object'));
    if (receiver === undefined) return;
    const isParameter = receiver.isIdentifier && this.isParameter(receiver.root);
    const base: CallBase = {
      receiver: receiver.root,
      isIdentifier: receiver.isIdentifier,
      isParameter,
      line: this.startLine(node),
      offset: this.offsetOf(node),
      scope: isParameter ? this.topLevelName : undefined,
    };
    if (httpMethods.has(method)) {
      const methods = [method === 'del' ? 'DELETE' : method.toUpperCase()];
      if (receiver.routePath !== undefined) {
        this.pushRouteCandidate(base, methods, [{ text: receiver.routePath }], args);
        return;
      }
      const path = getStaticString(unwrapExpression(args[0]));
      const namedPath = getStaticString(unwrapExpression(args[1]));
      if (path !== undefined && namedPath?.startsWith('/') === true && !path.startsWith('/') && args.length >= 3) {
        this.pushRouteCandidate(base, methods, [{ text: namedPath }], args.slice(2));
      } else if (args.length >= 2) {
        const parts = getPathParts(args[0]);
        if (parts !== undefined && isPathExpression(args[0])) this.pushRouteCandidate(base, methods, parts, args.slice(1));
      }
      return;
    }
    if (settingMethods.has(method)) {
      const prefix = method === 'setGlobalPrefix' ? getPathParts(args[0]) : undefined;
      this.useCandidates.push({ ...base, prefix, entries: [], setting: method });
      return;
    }
    switch (method) {
      case 'on': {
        const methods = getMethodList(args[0]);
        const pathArg = unwrapExpression(args[1]);
        const paths =
          pathArg?.type === 'ArrayExpression'
            ? getExpressions(pathArg, 'elements').map((element) => getPathParts(element))
            : [getPathParts(pathArg)];
        for (const path of paths) if (path !== undefined && methods.length > 0) this.pushRouteCandidate(base, methods, path, args.slice(2));
        return;
      }
      case 'route': {
        const first = unwrapExpression(args[0]);
        if (first?.type === 'ObjectExpression') {
          const url = getPathParts(getObjectProperty(first, 'url') ?? getObjectProperty(first, 'path'));
          const methods = getMethodList(getObjectProperty(first, 'method'));
          if (url === undefined || methods.length === 0) return;
          const handler = getObjectProperty(first, 'handler');
          const middleware = ['onRequest', 'preValidation', 'preHandler']
            .map((key) => getObjectProperty(first, key))
            .filter((value): value is AstNode => value !== undefined);
          this.routeCandidates.push({
            ...base,
            methods,
            path: url,
            span: this.spanOf(first),
            handler: getHandlerName(handler),
            middleware: getMiddlewareNames(middleware),
            handlerEntry: handler === undefined ? undefined : this.makeEntry(handler),
            middlewareEntries: middleware
              .flatMap((value) => (value.type === 'ArrayExpression' ? getExpressions(value, 'elements') : [value]))
              .map((value) => this.makeEntry(value)),
          });
          return;
        }
        const prefix = getPathParts(first);
        const target = getMountTarget(args[1]);
        if (prefix !== undefined && isPathExpression(args[0]) && target !== undefined && args.length === 2) {
          this.mountCandidates.push({ ...base, prefix, target, via: 'route', middlewareEntries: [], targetEntry: undefined });
        }
        return;
      }
      case 'use': {
        const first = unwrapExpression(args[0]);
        const hasPrefix = args.length >= 2 && isPrefixExpression(first, (name) => this.isConstantName(name));
        const prefix = hasPrefix ? getPathParts(first) : undefined;
        const rest = hasPrefix ? args.slice(1) : args;
        const last = rest[rest.length - 1];
        if (last === undefined) return;
        const target = getMountTarget(last);
        const inline = unwrapExpression(last);
        if (target !== undefined && !isFunctionNode(inline)) {
          this.mountCandidates.push({
            ...base,
            prefix,
            target,
            via: 'use',
            middlewareEntries: rest.slice(0, -1).map((arg) => this.makeEntry(arg)),
            targetEntry: this.makeEntry(last),
          });
          return;
        }
        this.useCandidates.push({ ...base, prefix, entries: rest.map((arg) => this.makeEntry(arg)), setting: undefined });
        return;
      }
      case 'register': {
        const plugin = unwrapExpression(args[0]);
        const options = unwrapExpression(args[1]);
        const prefix = options?.type === 'ObjectExpression' ? getPathParts(getObjectProperty(options, 'prefix')) : undefined;
        if (plugin !== undefined && isFunctionNode(plugin)) {
          const param = getCallbackParams(plugin)[0]?.name;
          const span = getSpan(plugin);
          if (param !== undefined && span !== undefined) {
            this.inlinePlugins.push({
              receiver: receiver.root,
              param,
              start: span.start - this.base,
              end: span.end - this.base,
              line: base.line,
              prefix,
              base,
            });
          }
          return;
        }
        const target = getMountTarget(args[0]);
        if (target !== undefined)
          this.mountCandidates.push({
            ...base,
            prefix: prefix ?? [{ text: '/' }],
            target,
            via: 'register',
            middlewareEntries: [],
            targetEntry: undefined,
          });
        return;
      }
      case 'prefix': {
        const prefix = getStaticString(unwrapExpression(args[0]));
        if (prefix !== undefined && args.length === 1) {
          const list = this.prefixCalls.get(receiver.root) ?? [];
          list.push(prefix);
          this.prefixCalls.set(receiver.root, list);
        }
        return;
      }
    }
  }

  private isConstantName(name: string): boolean {
    return this.constants.some((constant) => constant.name === name);
  }

  /** A handler or middleware argument; its references are collected while the walker visits it. */
  private makeEntry(arg: AstNode): PendingEntry {
    const known = this.argFrames.get(arg);
    if (known !== undefined) return known;
    const value = unwrapExpression(arg) ?? arg;
    const entry: ChainEntryFact = { inline: isFunctionNode(value), span: this.spanOf(value), refs: [] };
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
    const owner = this.classContexts[this.classContexts.length - 1]?.name ?? this.objectContexts[this.objectContexts.length - 1]?.name;
    const member = name.slice(5).split('.')[0];
    return owner === undefined || member === undefined ? undefined : `${owner}.${member}`;
  }

  private pushRouteCandidate(base: CallBase, methods: string[], path: PathPart[], rest: AstNode[]): void {
    const last = rest[rest.length - 1];
    if (!isHandlerLike(last) || last === undefined) return;
    const middlewareArgs = rest.slice(0, -1);
    const first = getSpan(rest[0] ?? last);
    const lastSpan = getSpan(last);
    const span =
      first === undefined || lastSpan === undefined
        ? { start: base.line, end: base.line }
        : { start: Math.min(base.line, this.lineOf(first.start)), end: this.lineOf(Math.max(lastSpan.start, lastSpan.end - 1)) };
    this.routeCandidates.push({
      ...base,
      methods,
      path,
      span,
      handler: getHandlerName(last),
      middleware: getMiddlewareNames(middlewareArgs),
      handlerEntry: this.makeEntry(last),
      middlewareEntries: middlewareArgs
        .flatMap((arg) => {
          const value = unwrapExpression(arg);
          return value?.type === 'ArrayExpression' ? getExpressions(value, 'elements') : [arg];
        })
        .map((arg) => this.makeEntry(arg)),
    });
  }

  private recordRouterDeclaration(name: string, init: AstNode): void {
    let value = init;
    if (value.type === 'AwaitExpression') value = unwrapExpression(getNode(value, 'argument')) ?? value;
    if (value.type === 'CallExpression') {
      const callee = unwrapExpression(getNode(value, 'callee'));
      const args = getExpressions(value, 'arguments');
      if (callee?.type === 'MemberExpression' && getPropertyName(callee) === 'basePath') {
        const prefix = getStaticString(unwrapExpression(args[0])) ?? '';
        const object = unwrapExpression(getNode(callee, 'object'));
        if (object?.type === 'NewExpression') {
          const factory = getDottedName(getNode(object, 'callee'));
          if (factory !== undefined) this.routerDeclarations.set(name, { factory, isNew: true, prefix, parent: undefined });
        } else {
          const parent = getIdentifierName(object);
          if (parent !== undefined) this.routerDeclarations.set(name, { factory: '', isNew: false, prefix, parent });
        }
        return;
      }
      const factory = getDottedName(callee);
      if (factory !== undefined)
        this.routerDeclarations.set(name, { factory, isNew: false, prefix: getOptionsPrefix(args[0]), parent: undefined });
      return;
    }
    if (value.type === 'NewExpression') {
      const factory = getDottedName(getNode(value, 'callee'));
      if (factory !== undefined) {
        this.routerDeclarations.set(name, {
          factory,
          isNew: true,
          prefix: getOptionsPrefix(getExpressions(value, 'arguments')[0]),
          parent: undefined,
        });
      }
    }
  }

  private getRouterFramework(name: string, depth = 0): RouteFramework | undefined {
    const plugin = this.pluginFrameworks.get(name);
    if (plugin !== undefined) return plugin;
    const declaration = this.routerDeclarations.get(name);
    if (declaration === undefined || depth > 8) return undefined;
    if (declaration.parent !== undefined) return this.getRouterFramework(declaration.parent, depth + 1);
    const [root = '', member] = declaration.factory.split('.');
    const binding = this.importBindings.get(root);
    if (binding === undefined) return undefined;
    const framework = getFrameworkOfModule(binding.specifier);
    if (framework === 'express') {
      if (
        member === undefined &&
        !declaration.isNew &&
        (binding.imported === 'default' || binding.imported === '*' || binding.imported === 'Router')
      )
        return framework;
      if (member === 'Router' && (binding.imported === 'default' || binding.imported === '*')) return framework;
      return undefined;
    }
    if (framework === 'fastify') return member === undefined && !declaration.isNew ? framework : undefined;
    if (framework === 'hono') return declaration.isNew ? framework : undefined;
    if (framework === 'koa') return declaration.isNew ? framework : undefined;
    return undefined;
  }

  private getRouterPrefix(name: string, depth = 0): string {
    const declaration = this.routerDeclarations.get(name);
    const calls = this.prefixCalls.get(name) ?? [];
    const own = joinRoutePaths(declaration?.prefix ?? '', calls[calls.length - 1] ?? '');
    if (declaration?.parent === undefined || depth > 8) return own === '/' ? '' : own;
    const joined = joinRoutePaths(this.getRouterPrefix(declaration.parent, depth + 1), own);
    return joined === '/' ? '' : joined;
  }

  private getFileFramework(): RouteFramework | undefined {
    const found = new Set<RouteFramework>();
    for (const fact of this.imports) {
      const framework = getFrameworkOfModule(fact.specifier);
      if (framework !== undefined && !fact.typeOnly) found.add(framework);
    }
    if (found.size === 0)
      for (const fact of this.imports) {
        const framework = getFrameworkOfModule(fact.specifier);
        if (framework !== undefined) found.add(framework);
      }
    for (const framework of ['express', 'fastify', 'hono', 'koa'] as const) if (found.has(framework)) return framework;
    return undefined;
  }

  /** Known routers first; otherwise a router-like parameter or import, in a file that imports a framework or with an absolute path. */
  private getReceiverFramework(
    candidate: { receiver: string; isIdentifier: boolean; isParameter: boolean },
    path: string | undefined,
  ): RouteFramework | undefined {
    const known = this.getRouterFramework(candidate.receiver);
    if (known !== undefined) return known;
    if (!isRouterLikeName(candidate.receiver)) return undefined;
    const isBinding = !candidate.isIdentifier || candidate.isParameter || this.importBindings.has(candidate.receiver);
    if (!isBinding) return undefined;
    const fileFramework = this.getFileFramework();
    if (fileFramework === undefined && path?.startsWith('/') !== true) return undefined;
    if (candidate.receiver === 'fastify') return 'fastify';
    return fileFramework ?? 'express';
  }

  private resolveRoutes(): { routes: RouteFact[]; mounts: MountFact[]; uses: UseFact[] } {
    const routes: RouteFact[] = [];
    const mounts: MountFact[] = [];
    for (const plugin of this.inlinePlugins) {
      const framework = this.getReceiverFramework(plugin.base, '/');
      if (framework === undefined) continue;
      const target = `<plugin:${plugin.line}>`;
      for (const candidate of this.routeCandidates) {
        if (
          candidate.receiver === plugin.param &&
          candidate.isParameter &&
          candidate.offset >= plugin.start &&
          candidate.offset < plugin.end
        ) {
          candidate.receiver = target;
          candidate.isParameter = false;
          candidate.scope = undefined;
          this.routerDeclarations.set(target, { factory: '', isNew: false, prefix: '', parent: undefined });
          this.pluginFrameworks.set(target, framework);
        }
      }
      mounts.push(
        this.toMountFact({
          ...plugin.base,
          prefix: plugin.prefix ?? [{ text: '/' }],
          target,
          via: 'register',
          middlewareEntries: [],
          targetEntry: undefined,
        }),
      );
    }
    for (const candidate of this.routeCandidates) {
      const rendered = renderParts(candidate.path);
      const framework = this.getReceiverFramework(candidate, rendered);
      if (framework === undefined) continue;
      const prefix = this.getRouterPrefix(candidate.receiver);
      const path = applyPrefix(prefix, rendered);
      for (const method of candidate.methods) {
        const route: RouteFact = {
          method,
          path,
          framework,
          kind: 'api',
          line: candidate.line,
          router: candidate.receiver,
          span: candidate.span,
          offset: candidate.offset,
        };
        if (!isStaticParts(candidate.path)) route.pathParts = prefix === '' ? candidate.path : [{ text: `${prefix}/` }, ...candidate.path];
        if (candidate.scope !== undefined) route.scope = candidate.scope;
        if (candidate.handler !== undefined) route.handler = candidate.handler;
        if (candidate.middleware.length > 0) route.middleware = [...candidate.middleware];
        if (candidate.handlerEntry !== undefined) route.handlerEntry = toChainEntry(candidate.handlerEntry);
        if (candidate.middlewareEntries.length > 0) route.middlewareEntries = candidate.middlewareEntries.map(toChainEntry);
        routes.push(route);
      }
    }
    routes.push(...this.nestRoutes.map((route) => this.finishNestRoute(route)));
    for (const candidate of this.mountCandidates) {
      const framework = this.getReceiverFramework(candidate, candidate.prefix === undefined ? '/' : renderParts(candidate.prefix));
      if (framework === undefined) continue;
      if (candidate.via === 'register' && framework !== 'fastify') continue;
      mounts.push(this.toMountFact(candidate));
    }
    const uses: UseFact[] = [];
    for (const candidate of this.useCandidates) {
      if (candidate.setting !== 'setGlobalPrefix' && this.getReceiverFramework(candidate, '/') === undefined) continue;
      const use: UseFact = {
        receiver: candidate.receiver,
        entries: candidate.entries.map(toChainEntry),
        line: candidate.line,
        offset: candidate.offset,
      };
      if (candidate.prefix !== undefined) use.prefix = renderParts(candidate.prefix);
      if (candidate.setting !== undefined) use.setting = candidate.setting;
      if (candidate.scope !== undefined) use.scope = candidate.scope;
      if (this.isApplication(candidate.receiver)) use.appLevel = true;
      uses.push(use);
    }
    return { routes, mounts, uses };
  }

  private toMountFact(candidate: MountCandidate): MountFact {
    const own = candidate.prefix ?? [{ text: '/' }];
    const routerPrefix = this.getRouterPrefix(candidate.receiver);
    const prefix = applyPrefix(routerPrefix, renderParts(own));
    const mount: MountFact = {
      prefix,
      target: candidate.target,
      line: candidate.line,
      receiver: candidate.receiver,
      offset: candidate.offset,
    };
    if (!isStaticParts(own)) mount.prefixParts = routerPrefix === '' ? own : [{ text: `${routerPrefix}/` }, ...own];
    if (candidate.prefix === undefined) mount.bare = true;
    if (candidate.scope !== undefined) mount.scope = candidate.scope;
    if (candidate.middlewareEntries.length > 0) mount.middlewareEntries = candidate.middlewareEntries.map(toChainEntry);
    if (candidate.targetEntry !== undefined) mount.targetEntry = toChainEntry(candidate.targetEntry);
    if (this.isApplication(candidate.receiver)) mount.appLevel = true;
    return mount;
  }

  /** `express()`, `Fastify()`, `new Hono()`, `new Koa()`: an application rather than a router. */
  private isApplication(name: string): boolean {
    const declaration = this.routerDeclarations.get(name);
    if (declaration === undefined || declaration.parent !== undefined) return false;
    return this.getRouterFramework(name) !== undefined && !/Router$/.test(declaration.factory);
  }

  private finishNestRoute(route: RouteFact): RouteFact {
    const entries = this.nestEntries.get(route);
    if (entries === undefined) return route;
    if (entries.handler !== undefined) route.handlerEntry = toChainEntry(entries.handler);
    if (entries.guards.length > 0) route.middlewareEntries = entries.guards.map(toChainEntry);
    return route;
  }

  private resolvePendingExports(): void {
    for (const pending of this.pendingExports) {
      const declaration = this.declarations.get(pending.local);
      const withLocal = (fact: ExportFact): ExportFact =>
        declaration !== undefined && pending.local !== fact.name ? { ...fact, local: pending.local } : fact;
      if (pending.kind === 'cjs') {
        this.exports.push(withLocal({ name: pending.name, kind: 'cjs', span: declaration?.span ?? pending.span, typeOnly: false }));
        continue;
      }
      if (pending.kind === 'default') {
        this.exports.push(
          withLocal({
            name: 'default',
            kind: 'default',
            span: declaration?.span ?? pending.span,
            typeOnly: declaration?.typeOnly ?? false,
          }),
        );
        continue;
      }
      if (declaration !== undefined) {
        this.exports.push(
          withLocal({
            name: pending.name,
            kind: declaration.kind,
            span: declaration.span,
            typeOnly: pending.typeOnly || declaration.typeOnly,
          }),
        );
        continue;
      }
      const binding = this.importBindings.get(pending.local);
      if (binding !== undefined) {
        this.exports.push({
          name: pending.name,
          kind: 'reexport',
          span: pending.span,
          typeOnly: pending.typeOnly,
          from: binding.specifier,
          imported: binding.imported,
        });
        continue;
      }
      this.exports.push({ name: pending.name, kind: 'variable', span: pending.span, typeOnly: pending.typeOnly });
    }
  }
}

function addModifier(fact: TestCaseFact, modifier: 'skip' | 'todo'): void {
  if (!fact.modifiers.includes(modifier)) {
    fact.modifiers.push(modifier);
    fact.modifiers.sort();
  }
}

function getFirstDecorator(declaration: AstNode): AstNode | undefined {
  return getNodes(declaration, 'decorators')[0];
}

function getModuleExportName(node: AstNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  return getIdentifierName(node) ?? (node.type === 'StringLiteral' ? getString(node, 'value') : undefined);
}

export function getBindingNames(pattern: AstNode | undefined, names: string[] = [], depth = 0): string[] {
  if (pattern === undefined || depth > 50) return names;
  switch (pattern.type) {
    case 'Identifier':
    case 'BindingIdentifier': {
      const name = getString(pattern, 'value');
      if (name !== undefined) names.push(name);
      break;
    }
    case 'ObjectPattern':
      for (const property of getNodes(pattern, 'properties')) {
        if (property.type === 'KeyValuePatternProperty') getBindingNames(getNode(property, 'value'), names, depth + 1);
        else if (property.type === 'AssignmentPatternProperty') getBindingNames(getNode(property, 'key'), names, depth + 1);
        else if (property.type === 'RestElement') getBindingNames(getNode(property, 'argument'), names, depth + 1);
      }
      break;
    case 'ArrayPattern':
      for (const element of getNodes(pattern, 'elements')) getBindingNames(element, names, depth + 1);
      break;
    case 'RestElement':
      getBindingNames(getNode(pattern, 'argument'), names, depth + 1);
      break;
    case 'AssignmentPattern':
      getBindingNames(getNode(pattern, 'left'), names, depth + 1);
      break;
  }
  return names;
}

function getPatternImports(pattern: AstNode): ImportedName[] {
  const names: ImportedName[] = [];
  for (const property of getNodes(pattern, 'properties')) {
    if (property.type === 'KeyValuePatternProperty') {
      const imported = getKeyName(getNode(property, 'key'));
      const value = getNode(property, 'value');
      const local = getIdentifierName(value?.type === 'AssignmentPattern' ? getNode(value, 'left') : value) ?? imported;
      if (imported !== undefined && local !== undefined) names.push({ imported, local, typeOnly: false });
    } else if (property.type === 'AssignmentPatternProperty') {
      const name = getIdentifierName(getNode(property, 'key'));
      if (name !== undefined) names.push({ imported: name, local: name, typeOnly: false });
    } else if (property.type === 'RestElement') {
      const local = getIdentifierName(getNode(property, 'argument'));
      if (local !== undefined) names.push({ imported: '*', local, typeOnly: false });
    }
  }
  return names;
}

function getCallbackParams(callback: AstNode): { name: string | undefined }[] {
  const params = Array.isArray(callback.params) ? callback.params.filter(isAstNode) : [];
  return params.map((param) => ({ name: getIdentifierName(param.type === 'Parameter' ? getNode(param, 'pat') : param) }));
}

function findDecoratorCall(decorators: AstNode[], name: string): AstNode | undefined {
  for (const decorator of decorators) {
    const call = unwrapExpression(getNode(decorator, 'expression'));
    if (call?.type === 'CallExpression' && getIdentifierName(unwrapExpression(getNode(call, 'callee'))) === name) return call;
  }
  return undefined;
}

/** A top-level statement that has no run-time effect: types, `declare`, overload signatures, type-only imports and exports. */
function isTypeOnlyItem(item: AstNode): boolean {
  switch (item.type) {
    case 'TsInterfaceDeclaration':
    case 'TsTypeAliasDeclaration':
      return true;
    case 'ImportDeclaration': {
      if (isTrue(item, 'typeOnly')) return true;
      const specifiers = getNodes(item, 'specifiers');
      return specifiers.length > 0 && specifiers.every((spec) => isTrue(spec, 'isTypeOnly'));
    }
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
      return isTrue(item, 'typeOnly');
    case 'ExportDeclaration': {
      const declaration = getNode(item, 'declaration');
      return declaration !== undefined && isTypeOnlyItem(declaration);
    }
    case 'FunctionDeclaration':
      return isTrue(item, 'declare') || item.body === null;
    case 'VariableDeclaration':
    case 'ClassDeclaration':
    case 'TsEnumDeclaration':
    case 'TsModuleDeclaration':
      return isTrue(item, 'declare');
    default:
      return false;
  }
}

function getGuardArguments(decorators: AstNode[]): AstNode[] {
  const call = findDecoratorCall(decorators, 'UseGuards');
  return call === undefined ? [] : getExpressions(call, 'arguments');
}

/** Constructor parameter properties with a class type: `constructor(private readonly users: UsersService)`. */
function getParameterPropertyTypes(node: AstNode): Map<string, string> {
  const types = new Map<string, string>();
  for (const member of getNodes(node, 'body')) {
    if (member.type !== 'Constructor') continue;
    for (const param of getNodes(member, 'params')) {
      if (param.type !== 'TsParameterProperty') continue;
      const inner = getNode(param, 'param');
      const pattern = inner?.type === 'AssignmentPattern' ? getNode(inner, 'left') : inner;
      const name = getIdentifierName(pattern);
      const annotation = pattern === undefined ? undefined : getNode(getNode(pattern, 'typeAnnotation') ?? pattern, 'typeAnnotation');
      const typeName = annotation?.type === 'TsTypeReference' ? getIdentifierName(getNode(annotation, 'typeName')) : undefined;
      if (name !== undefined && typeName !== undefined) types.set(name, typeName);
    }
  }
  return types;
}

/** `handlers[name]`, `flag ? a : b`, `a || b`: which function runs is decided at run time. */
function isDynamicReference(node: AstNode): boolean {
  if (
    node.type === 'ConditionalExpression' ||
    (node.type === 'BinaryExpression' && ['||', '??', '&&'].includes(getString(node, 'operator') ?? ''))
  )
    return true;
  if (node.type !== 'MemberExpression') return false;
  if (getNode(node, 'property')?.type === 'Computed') return true;
  const object = unwrapExpression(getNode(node, 'object'));
  return object !== undefined && isDynamicReference(object);
}

/** A route path argument: a string, template, concatenation, constant reference or call (a dynamic path). */
function isPathExpression(node: AstNode | undefined): boolean {
  const value = unwrapExpression(node);
  if (value === undefined) return false;
  return ['StringLiteral', 'TemplateLiteral', 'BinaryExpression', 'Identifier', 'MemberExpression', 'CallExpression'].includes(value.type);
}

const constantLikeName = /^[A-Z][A-Z0-9_]*$|(?:path|prefix|base|url|endpoint|route)s?$/i;

/** The first `use` argument is a prefix: a string or template, or a constant (`API_PREFIX`, `paths.admin`). */
function isPrefixExpression(node: AstNode | undefined, isConstant: (name: string) => boolean): boolean {
  if (node === undefined) return false;
  if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral' || node.type === 'BinaryExpression') return true;
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') return false;
  const name = getDottedName(node);
  if (name === undefined) return false;
  const last = name.slice(name.lastIndexOf('.') + 1);
  return isConstant(name) || constantLikeName.test(last);
}

function getMountTarget(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  if (value.type === 'Identifier' || value.type === 'MemberExpression') return getDottedName(value);
  if (value.type === 'CallExpression') {
    const callee = unwrapExpression(getNode(value, 'callee'));
    if (callee?.type === 'MemberExpression' && getPropertyName(callee) === 'routes') return getDottedName(getNode(callee, 'object'));
    if (getIdentifierName(callee) === 'require') {
      const specifier = getStaticString(unwrapExpression(getExpressions(value, 'arguments')[0]));
      if (specifier !== undefined) return `require:${specifier}`;
    }
  }
  return undefined;
}

function getOptionsPrefix(node: AstNode | undefined): string {
  const value = unwrapExpression(node);
  if (value?.type !== 'ObjectExpression') return '';
  return getStaticString(getObjectProperty(value, 'prefix')) ?? '';
}

function isLengthMember(node: AstNode | undefined): boolean {
  return node?.type === 'MemberExpression' && getPropertyName(node) === 'length';
}

function getMoneyOperandName(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  const name =
    value.type === 'Identifier' ? getString(value, 'value') : value.type === 'MemberExpression' ? getPropertyName(value) : undefined;
  return isMoneyName(name) ? name : undefined;
}

import type { SignalFact, SignalKind } from '../../../model/facts.js';
import { isSqlText, truncateDetail } from '../signal-rules.js';
import { type GoLines, type GoNode, getChild, getChildren, toStringValue } from './go-tree.js';

const MAX_SIGNALS = 200;
const SQL_WRITE = /^\s*(?:INSERT|UPDATE)\s/i;

/** `package path → function → kind`: calls whose package says what they do. */
const PACKAGE_CALLS: ReadonlyMap<string, ReadonlyMap<string, SignalKind> | SignalKind> = new Map<
  string,
  ReadonlyMap<string, SignalKind> | SignalKind
>([
  [
    'strconv',
    new Map<string, SignalKind>([
      ['Atoi', 'parse-number'],
      ['ParseInt', 'parse-number'],
      ['ParseUint', 'parse-number'],
      ['ParseFloat', 'parse-number'],
    ]),
  ],
  [
    'encoding/json',
    new Map<string, SignalKind>([
      ['Unmarshal', 'parse-json'],
      ['NewDecoder', 'parse-json'],
    ]),
  ],
  // Calendar time only: a Duration, a Sleep, a timer or time.Since is an amount of time, the same in every zone
  // (cast's `time.Duration(0)` was asked about daylight saving and about "2024-02-30").
  [
    'time',
    new Map<string, SignalKind>(
      ['Now', 'Date', 'Parse', 'ParseInLocation', 'LoadLocation', 'FixedZone', 'Unix', 'UnixMilli', 'UnixMicro'].map((name) => [
        name,
        'date-time',
      ]),
    ),
  ],
  ['regexp', 'regex'],
  [
    'os',
    new Map<string, SignalKind>([
      ['Getenv', 'env-config'],
      ['LookupEnv', 'env-config'],
      ['Open', 'file-io'],
      ['OpenFile', 'file-io'],
      ['Create', 'file-io'],
      ['ReadFile', 'file-io'],
      ['WriteFile', 'file-io'],
      ['ReadDir', 'file-io'],
      ['Remove', 'file-io'],
      ['RemoveAll', 'file-io'],
      ['MkdirAll', 'file-io'],
    ]),
  ],
  [
    'io/ioutil',
    new Map<string, SignalKind>([
      ['ReadFile', 'file-io'],
      ['WriteFile', 'file-io'],
      ['ReadDir', 'file-io'],
    ]),
  ],
  [
    'net/http',
    new Map<string, SignalKind>([
      ['Get', 'network'],
      ['Post', 'network'],
      ['PostForm', 'network'],
      ['Head', 'network'],
    ]),
  ],
  ['golang.org/x/sync/errgroup', 'promise-concurrency'],
]);
/** Methods that run SQL on a database handle, a transaction or a prepared statement. */
const SQL_METHODS: ReadonlySet<string> = new Set([
  'Query',
  'QueryRow',
  'QueryContext',
  'QueryRowContext',
  'Exec',
  'ExecContext',
  'Prepare',
  'PrepareContext',
  'Select',
  'Get',
]);
/** A handler's request or framework context: net/http's `r`, gin's and echo's `c`, `c.Request`. */
const GO_REQUEST = /^(?:r|req|request|c|ctx|context|c\.Request|ctx\.Request)$/;
/** Methods that read a request's body into a value or a form (gin's and echo's binders, net/http's form parsing). */
const GO_BODY_METHODS: ReadonlySet<string> = new Set([
  'Bind',
  'BindJSON',
  'BindWith',
  'ShouldBind',
  'ShouldBindJSON',
  'ShouldBindWith',
  'ShouldBindBodyWith',
  'ParseForm',
  'ParseMultipartForm',
  'FormValue',
  'PostFormValue',
  'PostForm',
  'FormFile',
  'MultipartForm',
]);
const SQL_RECEIVER = /^(?:db|tx|conn|stmt|pool|sqlDB|database)$|(?:DB|Tx|Conn|Stmt|Pool)$/;
const CLIENT_RECEIVER = /^(?:client|httpClient|c\.client|s\.client)$|Client$/;
/** Types whose use runs code concurrently. */
const CONCURRENCY_TYPES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['sync', new Set(['WaitGroup'])],
  ['golang.org/x/sync/errgroup', new Set(['Group'])],
]);

/**
 * Names the file declares with a fixed-length array type (`rb [4]byte` as a parameter, `var buf [8]byte`): indexing one
 * can never meet an empty list. Per file, not per scope: a name reused as a slice elsewhere in the file loses its case.
 */
function findArrayNames(root: GoNode, source: string): Set<string> {
  const names = new Set<string>();
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'parameter_declaration' || node.type === 'var_spec') {
      if (getChild(node, 'type')?.type === 'array_type')
        for (const name of getChildren(node, 'name')) names.add(source.slice(name.start, name.end));
    }
    for (const child of node.children) stack.push(child);
  }
  return names;
}

/** Edge-case signals of a Go file: each rests on a call, a statement or a literal, never on a name alone. */
export function collectSignals(root: GoNode, source: string, lines: GoLines, importPaths: ReadonlyMap<string, string>): SignalFact[] {
  const signals: SignalFact[] = [];
  const seen = new Set<string>();
  const text = (node: GoNode): string => source.slice(node.start, node.end);
  const add = (kind: SignalKind, node: GoNode, detail: string): void => {
    if (signals.length >= MAX_SIGNALS) return;
    const line = lines.lineOf(node.start);
    const key = `${kind}:${line}`;
    if (seen.has(key)) return;
    seen.add(key);
    signals.push({ kind, line, detail: truncateDetail(detail.replace(/\s+/g, ' ')) });
  };
  let arrayNames: Set<string> | undefined;
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    switch (node.type) {
      case 'import_declaration':
        continue;
      case 'call_expression':
        addCallSignals(node, source, importPaths, add);
        break;
      case 'go_statement': {
        const callee = node.children[0] === undefined ? undefined : getChild(node.children[0], 'function');
        add('promise-concurrency', node, callee === undefined || callee.type === 'func_literal' ? 'go func()' : `go ${text(callee)}`);
        break;
      }
      case 'index_expression': {
        const index = getChild(node, 'index');
        const operand = getChild(node, 'operand');
        arrayNames ??= findArrayNames(root, source);
        const isArray = operand?.type === 'identifier' && arrayNames.has(text(operand));
        if (
          !isArray &&
          !isReflectCallResult(operand, source) &&
          (index?.type === 'int_literal' || (index !== undefined && /\blen\(/.test(text(index))))
        )
          add('collection', node, text(node));
        break;
      }
      case 'selector_expression': {
        const operand = getChild(node, 'operand');
        const field = getChild(node, 'field');
        if (operand !== undefined && field !== undefined && text(field) === 'Body' && GO_REQUEST.test(text(operand)))
          add('body-read', node, text(node));
        break;
      }
      case 'slice_expression':
        add('collection', node, text(node));
        break;
      case 'qualified_type': {
        const owner = getChild(node, 'package');
        const name = getChild(node, 'name');
        const path = owner === undefined ? undefined : importPaths.get(text(owner));
        if (path !== undefined && name !== undefined && CONCURRENCY_TYPES.get(path)?.has(text(name)) === true)
          add('promise-concurrency', node, text(node));
        break;
      }
      case 'interpreted_string_literal':
      case 'raw_string_literal': {
        const value = toStringValue(node, source) ?? '';
        if (isSqlText(value)) add('sql', node, value.trim());
        if (SQL_WRITE.test(value)) add('write', node, value.trim());
        continue;
      }
    }
    for (let index = node.children.length - 1; index >= 0; index--) {
      const child = node.children[index];
      if (child !== undefined) stack.push(child);
    }
  }
  return signals.sort((left, right) => left.line - right.line || (left.kind < right.kind ? -1 : left.kind > right.kind ? 1 : 0));
}

function addCallSignals(
  call: GoNode,
  source: string,
  importPaths: ReadonlyMap<string, string>,
  add: (kind: SignalKind, node: GoNode, detail: string) => void,
): void {
  const callee = getChild(call, 'function');
  if (callee === undefined) return;
  const calleeText = source.slice(callee.start, callee.end);
  if (callee.type === 'identifier') {
    if (calleeText === 'panic') add('throw', call, source.slice(call.start, call.end));
    else if (calleeText === 'recover') add('catch', call, 'recover()');
    return;
  }
  if (callee.type !== 'selector_expression') return;
  const operand = getChild(callee, 'operand');
  const field = getChild(callee, 'field');
  if (operand === undefined || field === undefined) return;
  const owner = source.slice(operand.start, operand.end);
  const method = source.slice(field.start, field.end);
  const path = operand.type === 'identifier' ? importPaths.get(owner) : undefined;
  if (path !== undefined) {
    const rule = PACKAGE_CALLS.get(path);
    const kind = typeof rule === 'string' ? rule : rule?.get(method);
    if (kind !== undefined) add(kind, call, calleeText);
    return;
  }
  if (GO_BODY_METHODS.has(method) && GO_REQUEST.test(owner)) add('body-read', call, calleeText);
  if (SQL_METHODS.has(method) && (SQL_RECEIVER.test(owner) || hasSqlArgument(call, source))) add('sql', call, calleeText);
  else if (method === 'Do' && (CLIENT_RECEIVER.test(owner) || owner === 'http.DefaultClient')) add('network', call, calleeText);
}

function hasSqlArgument(call: GoNode, source: string): boolean {
  for (const arg of getChild(call, 'arguments')?.children ?? []) {
    const value = toStringValue(arg, source);
    if (value !== undefined && isSqlText(value)) return true;
  }
  return false;
}

/**
 * The results of a call through reflection (`v.MethodByName("IsZero").Call(nil)[0]`, gorilla/schema): as many as the
 * method returns, whatever the input, so no empty list reaches the read.
 */
function isReflectCallResult(operand: GoNode | undefined, source: string): boolean {
  if (operand?.type !== 'call_expression') return false;
  const callee = getChild(operand, 'function');
  const field = callee?.type === 'selector_expression' ? getChild(callee, 'field') : undefined;
  const name = field === undefined ? '' : source.slice(field.start, field.end);
  return name === 'Call' || name === 'CallSlice';
}

import type { SignalFact, SignalKind } from '../../../model/facts.js';
import { findCatastrophicBacktracking } from '../regex-backtracking.js';
import { getSignalWordMatcher, isSqlText, truncateDetail } from '../signal-rules.js';
import {
  getCallParts,
  getDottedName,
  getLine,
  getParts,
  getPositional,
  getStringValue,
  getText,
  isRawString,
  type PyFile,
  type PyNode,
  visit,
} from './python-tree.js';

const maxSignals = 200;
const words = getSignalWordMatcher(undefined);
const dateRoots = new Set(['datetime', 'date', 'timezone', 'timedelta', 'dateutil', 'arrow', 'pendulum', 'zoneinfo', 'pytz']);
const dateMethods = new Set([
  'strftime',
  'strptime',
  'isoformat',
  'fromisoformat',
  'fromtimestamp',
  'utcfromtimestamp',
  'astimezone',
  'utcnow',
]);
/**
 * The `time` functions that deal in calendar time: zones, formats, parsing. `time.time()` is seconds since the epoch,
 * as JavaScript's `Date.now()` is (healthchecks' signing timestamp was asked for DST and for "2024-02-30"); `time.sleep`
 * and `time.perf_counter` are clocks.
 */
const timeFunctions = new Set(['gmtime', 'localtime', 'mktime', 'strftime', 'strptime', 'ctime', 'asctime']);
const regexFunctions = new Set(['compile', 'match', 'fullmatch', 'search', 'sub', 'subn', 'split', 'findall', 'finditer']);
const networkRoots = new Set(['requests', 'httpx', 'aiohttp', 'urllib3', 'socket']);
const fileFunctions = new Set([
  'open',
  'io.open',
  'os.remove',
  'os.unlink',
  'os.rename',
  'os.replace',
  'os.makedirs',
  'os.mkdir',
  'os.rmdir',
  'os.listdir',
  'os.scandir',
  'os.walk',
]);
const fileMethods = new Set(['read_text', 'write_text', 'read_bytes', 'write_bytes']);
/** ORM and driver calls that store something each time they run. */
const writeMethods = new Set([
  'save',
  'create',
  'bulk_create',
  'bulk_update',
  'get_or_create',
  'update_or_create',
  'insert_one',
  'insert_many',
  'update_one',
  'update_many',
  'replace_one',
  'upsert',
]);
/** Methods that write only on a query or table (`Model.objects.filter(…).update(…)`), not on a dict or a list. */
const queryWriteMethods = new Set(['update', 'insert']);
const queryReceiver = /(?:^|\.)(?:objects|query|session|table|collection|db|cursor)$/;
const sqlMethods = new Set(['execute', 'executemany', 'executescript', 'raw']);
const pagingMethods = new Set(['limit', 'offset', 'paginate', 'slice']);
const pagingKeywords = new Set(['limit', 'offset', 'page', 'per_page', 'page_size', 'cursor']);
const sqlWrite = /^\s*(?:INSERT|UPDATE)\s/i;
const sqlPaging = /\b(?:LIMIT|OFFSET)\s+(?:\?|%s|%\(\w+\)s|\$\d+|:\w+)/i;
const arithmeticOperators = /^[-+*/%]|\*\*/;
/**
 * What reads a request's body: Flask's `request.get_json()`, `.json`, `.form`, `.data`, `.files`, `.values`;
 * Starlette's `await request.json()`, `.body()`, `.form()`, `.stream()`; Django's `request.POST`, `.FILES`, `.body`,
 * and REST framework's `request.data`.
 */
const bodyAttribute = /^(?:self\.)?request\.(?:get_json|get_data|json|form|data|files|values|body|stream|POST|FILES)$/;
/** FastAPI's declarations of a body parameter (`item: Item = Body(...)`, `Form()`, `File()`). */
const bodyParameters = new Set(['Body', 'Form', 'File', 'fastapi.Body', 'fastapi.Form', 'fastapi.File']);

/** Code that suggests an edge case: at most one signal per kind and line, at most 200 a file; each rests on code. */
export function collectSignals(file: PyFile): SignalFact[] {
  const signals: SignalFact[] = [];
  const keys = new Set<string>();
  const add = (kind: SignalKind, node: PyNode, detail: string): void => {
    if (signals.length >= maxSignals) return;
    const line = getLine(file, node);
    const key = `${kind}:${line}`;
    if (keys.has(key)) return;
    keys.add(key);
    signals.push({ kind, line, detail: truncateDetail(detail) });
  };
  visit(file.root, (node) => {
    switch (node.type) {
      case 'call':
        addCall(file, node, add);
        break;
      case 'raise_statement':
        add('throw', node, getText(file, node).split('\n')[0] ?? 'raise');
        break;
      case 'except_clause':
        add('catch', node, (getText(file, node).split(':')[0] ?? 'except').trim());
        break;
      case 'subscript':
        addSubscript(file, node, add);
        break;
      case 'attribute': {
        const name = getDottedName(file, node);
        if (name === 'os.environ') add('env-config', node, 'os.environ');
        else if (name !== undefined && bodyAttribute.test(name)) add('body-read', node, name);
        break;
      }
      case 'binary_operator':
        addMoneyArithmetic(file, node, add);
        break;
      case 'comparison_operator':
        addEmptinessCheck(file, node, add);
        break;
      case 'string': {
        const value = getStringValue(file, node);
        if (value !== undefined && isSqlText(value)) {
          add('sql', node, value.trim());
          if (sqlWrite.test(value)) add('write', node, value.trim());
          if (sqlPaging.test(value)) add('pagination', node, value.trim());
        }
        return false;
      }
    }
    return undefined;
  });
  return signals.sort((left, right) => left.line - right.line);
}

type AddSignal = (kind: SignalKind, node: PyNode, detail: string) => void;

function addCall(file: PyFile, node: PyNode, add: AddSignal): void {
  const { callee, args } = getCallParts(node);
  const name = getDottedName(file, callee);
  const method = callee?.type === 'attribute' ? getText(file, getParts(callee)[1] ?? callee) : (name ?? '');
  const root = name?.split('.')[0] ?? '';
  const shown = name ?? `.${method}`;
  const positional = getPositional(args);
  if (
    (name === 'int' || name === 'float') &&
    positional[0] !== undefined &&
    !isNumberLiteral(positional[0]) &&
    !isArithmetic(file, positional[0])
  )
    add('parse-number', node, getText(file, node));
  if (name === 'json.loads' || name === 'json.load' || name === 'loads') add('parse-json', node, shown);
  if (name !== undefined && isDateCall(name, root, method) && !isZoneFree(file, method, args)) add('date-time', node, shown);
  else if (name === undefined && dateMethods.has(method)) add('date-time', node, shown);
  if (name === 'Decimal' || name === 'decimal.Decimal' || method === 'quantize') add('money', node, shown);
  if (name === 'round' && positional[0] !== undefined && words.isMoneyName(getMoneyOperand(file, positional[0])))
    add('money', node, getText(file, node));
  if (root === 're' && regexFunctions.has(method)) {
    add('regex', node, shown);
    const pattern = positional[0];
    const source = pattern === undefined ? undefined : getStringValue(file, pattern);
    if (pattern !== undefined && source !== undefined && (isRawString(file, pattern) || !source.includes('\\'))) {
      const why = findCatastrophicBacktracking(source, '');
      if (why !== undefined) add('regex-backtracking', node, `${shown}(${JSON.stringify(source)}): ${why}`);
    }
  }
  if (name === 'os.getenv' || name === 'getenv' || name === 'os.environ.get' || name === 'environ.get')
    add('env-config', node, getText(file, node));
  if (sqlMethods.has(method) && callee?.type === 'attribute') add('sql', node, shown);
  if (name !== undefined && (fileFunctions.has(name) || (root === 'shutil' && name !== root))) add('file-io', node, shown);
  else if (fileMethods.has(method) && callee?.type === 'attribute') add('file-io', node, `.${method}`);
  if (networkRoots.has(root) && name !== root) add('network', node, shown);
  else if (name === 'urlopen' || name === 'urllib.request.urlopen') add('network', node, shown);
  if (name !== undefined && bodyParameters.has(name)) add('body-read', node, `${name}()`);
  addWrite(file, node, callee, method, add);
  addPaging(file, node, method, args, add);
}

function isDateCall(name: string, root: string, method: string): boolean {
  if (root === 'time') return name !== 'time' && timeFunctions.has(method);
  if (dateRoots.has(root)) return true;
  return dateMethods.has(method) && name !== method;
}

/**
 * The current instant in UTC (`datetime.utcnow()`, `datetime.now(timezone.utc)`, `datetime.now(tz=UTC)`), or a
 * duration: no zone shifts it and no text makes it invalid (CTFd's attempt timeout, `datetime.utcnow() -
 * timedelta(seconds=…)`, was asked for DST and for "2024-02-30").
 */
function isZoneFree(file: PyFile, method: string, args: readonly PyNode[]): boolean {
  // A duration (`timedelta(seconds=…)`) is no instant either: the instant it is added to says whether a zone matters.
  if (method === 'timedelta') return true;
  if (method === 'utcnow') return args.length === 0;
  const [zone] = args;
  return method === 'now' && args.length === 1 && zone !== undefined && /\butc\b/i.test(getText(file, zone));
}

function isNumberLiteral(node: PyNode): boolean {
  return node.type === 'integer' || node.type === 'float';
}

/** Methods of the standard library's values that answer a number: a date's timestamp, a timedelta's seconds, a count. */
const NUMBER_METHODS = /^(?:timestamp|total_seconds|toordinal|weekday|isoweekday|bit_length|count|index|find|rfind)$/;

/**
 * Arithmetic that yields a number (`(cut / cell_length) * len(text)`, `-x`, `len(items)`): `int()` of it truncates,
 * it parses no text (rich's segment.py was asked for "12abc"). `+` and `%` are left out: they join and format strings.
 */
function isArithmetic(file: PyFile, node: PyNode): boolean {
  if (node.type === 'parenthesized_expression') return getParts(node).some((part) => isArithmetic(file, part));
  if (node.type === 'unary_operator') return true;
  if (node.type === 'call') {
    const { callee } = getCallParts(node);
    // A method that answers a number (loguru's `int(dt.timestamp())`): a float truncated, no text parsed.
    if (callee?.type === 'attribute' && NUMBER_METHODS.test(getText(file, getParts(callee)[1] ?? callee))) return true;
    return /^(?:len|round|abs|sum|min|max|math\.\w+|time\.(?:time|monotonic|perf_counter)(?:_ns)?)$/.test(
      getDottedName(file, callee) ?? '',
    );
  }
  if (node.type !== 'binary_operator') return false;
  const [left, right] = getParts(node);
  if (left === undefined || right === undefined) return false;
  // `format % (abs_bytes / base**exp)` (humanize's naturalsize) formats a number; a remainder is one: no text parsed.
  return /^(?:\*\*?|\/\/?|-|%)$/.test(file.source.slice(left.end, right.start).trim());
}

function addWrite(file: PyFile, node: PyNode, callee: PyNode | undefined, method: string, add: AddSignal): void {
  if (callee?.type !== 'attribute') return;
  const receiver = getParts(callee)[0];
  const receiverName = receiver?.type === 'call' ? getDottedName(file, getCallParts(receiver).callee) : getDottedName(file, receiver);
  if (
    writeMethods.has(method) ||
    (queryWriteMethods.has(method) && (receiver?.type === 'call' || queryReceiver.test(receiverName ?? '')))
  ) {
    add('write', node, `${receiverName ?? ''}.${method}`);
  }
}

/** A pagination name passed to a paging method (`.offset(offset)`), or paging keywords from variables (`find(limit=limit, offset=o)`). */
function addPaging(file: PyFile, node: PyNode, method: string, args: readonly PyNode[], add: AddSignal): void {
  if (pagingMethods.has(method)) {
    const named = args.flatMap((arg) => collectNames(file, arg)).find((name) => words.isPaginationName(name));
    if (named !== undefined) {
      add('pagination', node, `.${method}(…${named}…)`);
      return;
    }
  }
  const keys: string[] = [];
  for (const arg of args) {
    if (arg.type !== 'keyword_argument') continue;
    const [key, value] = getParts(arg);
    const keyName = key === undefined ? '' : getText(file, key);
    if (pagingKeywords.has(keyName) && value !== undefined && !isNumberLiteral(value) && value.type !== 'none') keys.push(keyName);
  }
  if (keys.length >= 2 || keys.includes('offset') || keys.includes('cursor')) add('pagination', node, `${method}(${keys.join(', ')})`);
}

/** `items[0]`, `items[-1]`; a slice by a pagination name (`items[offset:offset + limit]`) is pagination. */
function addSubscript(file: PyFile, node: PyNode, add: AddSignal): void {
  const [value, ...indexes] = getParts(node);
  const index = indexes.length === 1 ? indexes[0] : undefined;
  if (value === undefined || index === undefined) return;
  const target = getDottedName(file, value) ?? '';
  // `sys.version_info[:2] >= (3, 13)` checks the interpreter's version: never empty, never input.
  if (target === 'sys.version_info') return;
  // A slice never raises: an empty list or string gives an empty one (loguru's `color[1:]` was asked an empty list).
  if (index.type === 'slice') {
    const named = collectNames(file, index).find((name) => words.isPaginationName(name));
    if (named !== undefined) add('pagination', node, `${target}[…${named}…]`);
    return;
  }
  const text = getText(file, index).replace(/\s/g, '');
  // A split by a separator gives one part at least (`raw_path.split(b"?", 1)[0]`), a partition always three.
  if (value.type === 'call') {
    const { callee, args } = getCallParts(value);
    const name = callee?.type === 'attribute' ? getParts(callee)[1] : undefined;
    const method = name === undefined ? '' : getText(file, name);
    if (/^r?partition$/.test(method) || (/^r?split$/.test(method) && args.length > 0)) return;
  }
  if (text === '0' || text === '-1') add('collection', node, `${target}[${text}]`);
}

function addMoneyArithmetic(file: PyFile, node: PyNode, add: AddSignal): void {
  const [left, right] = getParts(node);
  if (left === undefined || right === undefined) return;
  const operator = file.source.slice(left.end, right.start).trim();
  if (!arithmeticOperators.test(operator)) return;
  const name = [getMoneyOperand(file, left), getMoneyOperand(file, right)].find(
    (candidate) => words.isMoneyName(candidate) && !isCountName(file, candidate),
  );
  if (name !== undefined) add('money', node, `${name} ${operator}`);
}

/**
 * A name the file assigns a length (`total = len(instance)`, jsonschema's items check): a count, whatever its word
 * says, so `total - prefix` is no money.
 */
function isCountName(file: PyFile, name: string | undefined): boolean {
  return name !== undefined && new RegExp(`^[ \\t]*${name}[ \\t]*=[ \\t]*len\\(`, 'm').test(file.source);
}

function getMoneyOperand(file: PyFile, node: PyNode): string | undefined {
  if (node.type === 'identifier') return getText(file, node);
  if (node.type === 'attribute') return getText(file, getParts(node)[1] ?? node);
  return undefined;
}

/** `len(items) == 0`, `len(items) > 1`: a list checked for being empty or single. */
function addEmptinessCheck(file: PyFile, node: PyNode, add: AddSignal): void {
  const [left, right] = getParts(node);
  if (left === undefined || right === undefined) return;
  const length = [left, right].find((side) => side.type === 'call' && getDottedName(file, getCallParts(side).callee) === 'len');
  const other = length === left ? right : left;
  if (length !== undefined && other.type === 'integer' && /^[01]$/.test(getText(file, other))) add('collection', node, getText(file, node));
}

/** The identifier and attribute names an argument mentions (`offset + limit` → offset, limit), a few levels deep. */
function collectNames(file: PyFile, node: PyNode, depth = 0): string[] {
  if (depth > 4) return [];
  if (node.type === 'identifier') return [getText(file, node)];
  if (node.type === 'attribute') return [getText(file, getParts(node)[1] ?? node)];
  if (node.type === 'keyword_argument') {
    const value = getParts(node)[1];
    return value === undefined ? [] : collectNames(file, value, depth + 1);
  }
  if (node.type === 'string') return [];
  return node.children.flatMap((child) => collectNames(file, child, depth + 1));
}

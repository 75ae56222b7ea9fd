import type { SignalFact, SignalKind } from '../../model/facts.js';
import { findCatastrophicBacktracking } from './regex-backtracking.js';
import { classifyCall, isSqlText, type SignalWordMatcher, truncateDetail } from './signal-rules.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getPropertyName,
  getString,
  isAstNode,
  isRecord,
  unwrapExpression,
} from './swc-node.js';

const maxSignals = 200;
/** Methods that cut a page out of a list or a query (`items.slice(offset, offset + limit)`, `query.skip(n).take(size)`). */
const pagingMethods = new Set(['slice', 'skip', 'take', 'limit', 'offset', 'range', 'paginate']);
/** Option keys of query calls that page (`findMany({ skip, take })`, `find({ limit, offset })`). */
const pagingKeys = new Set(['skip', 'take', 'offset', 'cursor', 'page', 'perPage', 'per_page', 'pageSize', 'page_size', 'limit']);
/**
 * Calls that store something new or change stored state each time they run (ORM and driver methods): a request that
 * reaches one twice writes twice. Reads, deletes and plain setters are not among them.
 */
const writeMethods = new Set([
  'create',
  'createMany',
  'bulkCreate',
  'findOrCreate',
  'insert',
  'insertOne',
  'insertMany',
  'save',
  'upsert',
  'update',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'increment',
  'decrement',
  '$executeRaw',
]);
/** Receivers whose `update` feeds a digest, not a store (`createHash('sha256').update(text)`). */
const digestReceiver = /(?:hash|hmac|digest|cipher|sign|verify)$/i;
/** The names a handler gives its request (`req`, `c.req`, `ctx.request`, Outline's `ctx.input`). */
const requestName = /^(?:req|request|input)$/;
/** A request's methods that read its body (`await request.json()`, Hono's `c.req.parseBody()`). */
const bodyMethods = new Set(['json', 'formData', 'text', 'arrayBuffer', 'blob', 'parseBody']);
/** SQL that writes rows. */
const sqlWrite = /^\s*(?:INSERT|UPDATE)\s/i;
/** Rounding a money-named value (`Math.round(cents)`) is money handling, as arithmetic on one is. */
const roundingFunctions = new Set(['Math.round', 'Math.floor', 'Math.ceil', 'Math.trunc']);
/** Keys that page wherever they are passed; `page` or `limit` alone page only a query call's options. */
const strongPagingKeys = new Set(['skip', 'take', 'offset', 'cursor']);
/** Callee methods that run a query: a `limit` alone in their options pages; elsewhere it is as often a retry count. */
const queryMethod = /^(?:find\w*|select\w*|query\w*|list\w*|search\w*|scan|aggregate|paginate|fetch(?:All|Many|Page)\w*)$/;
/** SQL that pages by a value the code supplies: LIMIT or OFFSET followed by a placeholder. */
const sqlPaging = /\b(?:LIMIT|OFFSET)\s+(?:\?|\$\d+|:\w+|@\w+)/i;
const arithmeticOperators = new Set(['+', '-', '*', '/', '%', '**']);
const comparisonOperators = new Set(['===', '==', '!==', '!=', '<', '<=', '>', '>=']);

/**
 * Calls of a date library that neither read a calendar nor parse text: an instant moved by a fixed amount of time, two
 * instants compared or measured apart (date-fns's `subSeconds(new Date(), 10)`). Their answer is the same in every time
 * zone and builds no date from input, as `Date.now()` (signal-rules.ts).
 */
const ZONE_FREE_DATE_CALL =
  /^(?:(?:add|sub|differenceIn)(?:Milliseconds|Seconds|Minutes|Hours)|isBefore|isAfter|isEqual|compareAsc|compareDesc|min|max|getTime|getUnixTime|isValid)$/;

function isZoneFreeDateCall(name: string): boolean {
  return ZONE_FREE_DATE_CALL.test(name);
}

/** Signals of one file: at most one per kind and line, at most `maxSignals` in all. */
export class SignalCollector {
  readonly signals: SignalFact[] = [];
  private readonly keys = new Set<string>();
  /** Names declared as a length or size (`const total = items.length`): counts, whatever their word says. */
  private readonly counts = new Set<string>();
  /** Local names a date library's import binds (`subSeconds`, `format` from date-fns; `dayjs`; a namespace). */
  private readonly dateBindings = new Set<string>();

  constructor(
    private readonly positions: SourcePositions,
    private readonly words: SignalWordMatcher,
  ) {}

  add(kind: SignalKind, node: AstNode, detail: string): void {
    if (this.signals.length >= maxSignals) return;
    const line = this.positions.startLine(node);
    const key = `${kind}:${line}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.signals.push({ kind, line, detail: truncateDetail(detail) });
  }

  /**
   * A name a date library's import binds: its calls are date code (ModuleLinks.pushImport). The import itself is no
   * evidence of date handling: outline imported `subSeconds` for a ten-second window and got time-zone cases.
   */
  addDateBinding(local: string): void {
    this.dateBindings.add(local);
  }

  /** An identifier whose words are auth or pagination words (`authToken`, `pageSize`). */
  addIdentifier(node: AstNode, name: string): void {
    const kind = this.words.classifyIdentifier(name);
    if (kind !== undefined) this.add(kind, node, name);
  }

  /** Records a name declared from a length or size (`const total = rows.length`): no money operand. */
  markCount(name: string, init: AstNode): void {
    if (init.type === 'MemberExpression' && /^(?:length|size)$/.test(getPropertyName(init) ?? '')) this.counts.add(name);
  }

  /** `price + tax`, `total *= rate`: arithmetic on a money-named operand. */
  addMoneyArithmetic(node: AstNode, operator: string, left: AstNode | undefined, right: AstNode | undefined): void {
    const name = this.getMoneyOperandName(left) ?? this.getMoneyOperandName(right);
    if (name !== undefined) this.add('money', node, `${name} ${operator}`);
  }

  private getMoneyOperandName(node: AstNode | undefined): string | undefined {
    const value = unwrapExpression(node);
    if (value === undefined) return undefined;
    const name =
      value.type === 'Identifier' ? getString(value, 'value') : value.type === 'MemberExpression' ? getPropertyName(value) : undefined;
    return name !== undefined && !this.counts.has(name) && this.words.isMoneyName(name) ? name : undefined;
  }

  /** Arithmetic on money and `.length` compared with 0 or 1 in one binary expression. */
  addBinary(node: AstNode, operator: string, left: AstNode | undefined, right: AstNode | undefined): void {
    if (arithmeticOperators.has(operator)) {
      this.addMoneyArithmetic(node, operator, left, right);
      return;
    }
    if (!comparisonOperators.has(operator)) return;
    const lengthSide = isLengthMember(left) ? left : isLengthMember(right) ? right : undefined;
    const other = lengthSide === left ? right : left;
    if (lengthSide !== undefined && other?.type === 'NumericLiteral' && (other.value === 0 || other.value === 1)) {
      this.add('collection', node, `${getDottedName(lengthSide) ?? '.length'} ${operator} ${String(other.value)}`);
    }
  }

  /** Regular expressions, and SQL in strings, templates and `sql` tagged templates. */
  addLiteral(node: AstNode): void {
    switch (node.type) {
      case 'RegExpLiteral': {
        const pattern = getString(node, 'pattern') ?? '';
        const flags = getString(node, 'flags') ?? '';
        this.add('regex', node, `/${pattern}/${flags}`);
        this.addBacktracking(node, pattern, flags, `/${pattern}/${flags}`);
        return;
      }
      case 'StringLiteral': {
        const value = getString(node, 'value') ?? '';
        if (isSqlText(value)) this.add('sql', node, value.trim());
        if (sqlWrite.test(value)) this.add('write', node, value.trim());
        if (isSqlText(value) && sqlPaging.test(value)) this.add('pagination', node, value.trim());
        return;
      }
      case 'TemplateLiteral': {
        const first = getNodes(node, 'quasis')[0];
        const text = first === undefined ? '' : (getString(first, 'cooked') ?? getString(first, 'raw') ?? '');
        if (isSqlText(text)) this.add('sql', node, text.trim());
        if (sqlWrite.test(text)) this.add('write', node, text.trim());
        const quasis = getNodes(node, 'quasis').map((quasi) => getString(quasi, 'raw') ?? '');
        // `LIMIT ${size}`: a quasi that ends with LIMIT or OFFSET is followed by a value the code supplies.
        if (isSqlText(text) && quasis.slice(0, -1).some((quasi) => /\b(?:LIMIT|OFFSET)\s*$/i.test(quasi))) {
          this.add('pagination', node, text.trim());
        }
        return;
      }
      case 'TaggedTemplateExpression': {
        const tag = getDottedName(getNode(node, 'tag'));
        if (tag === 'sql' || tag === 'Prisma.sql') this.add('sql', node, tag);
        return;
      }
    }
  }

  /** `new RegExp('(a+)+$')` and `RegExp(…)` with a literal pattern: analysed as a literal is. */
  addRegExpConstruction(node: AstNode, args: readonly AstNode[]): void {
    const [pattern, flags] = args.map((arg) => unwrapExpression(arg));
    if (pattern?.type !== 'StringLiteral') return;
    const source = getString(pattern, 'value') ?? '';
    const flagText = flags?.type === 'StringLiteral' ? (getString(flags, 'value') ?? '') : '';
    this.addBacktracking(node, source, flagText, `RegExp(${JSON.stringify(source)})`);
  }

  /** A pattern that can backtrack catastrophically (regex-backtracking.ts), with the part that does. */
  private addBacktracking(node: AstNode, pattern: string, flags: string, shown: string): void {
    const why = findCatastrophicBacktracking(pattern, flags);
    if (why !== undefined) this.add('regex-backtracking', node, `${shown}: ${why}`);
  }

  /**
   * `process.env.X`, `import.meta.env.X`, `list[0]` and `list[list.length - 1]`. The build's mode (`process.env.NODE_ENV`,
   * Vite's `import.meta.env.MODE`, `DEV`, `PROD`, `SSR`) is no configuration a deployment can lack: bundlers write it in.
   */
  addMemberAccess(node: AstNode, object: AstNode | undefined, property: AstNode | undefined): void {
    if (getPropertyName(node) === 'body' && isRequest(object)) this.add('body-read', node, `${getDottedName(object) ?? ''}.body`);
    if (object?.type === 'MemberExpression') {
      const objectName = getDottedName(object);
      const name = getPropertyName(node);
      if (objectName === 'process.env') {
        if (name !== 'NODE_ENV') this.add('env-config', node, `process.env.${name ?? '[…]'}`);
      } else if (objectName === undefined && getPropertyName(object) === 'env' && isImportMeta(getNode(object, 'object'))) {
        if (name === undefined || !BUILD_MODE_KEYS.has(name)) this.add('env-config', node, `import.meta.env.${name ?? '[…]'}`);
      }
    }
    // `text.split(',')[0]`: a split always gives at least one part, so its first is never missing.
    if (property?.type === 'Computed' && !isSplitCall(object)) {
      const index = unwrapExpression(getNode(property, 'expression'));
      if (index?.type === 'NumericLiteral' && index.value === 0) this.add('collection', node, `${getDottedName(object) ?? ''}[0]`);
      else if (index?.type === 'BinaryExpression' && isLengthMember(unwrapExpression(getNode(index, 'left')))) {
        this.add('collection', node, `${getDottedName(object) ?? ''}[length - 1]`);
      }
    }
  }

  /**
   * A call the signal rules classify, pagination with evidence, or `.map`/`.filter`/`.reduce` on a parameter of the
   * enclosing function (`params`): a list whose size the caller decides. `caught`: the call sits in a `try` block whose
   * `catch` takes its failure, so malformed JSON there is handled, not a crash.
   */
  addCall(
    node: AstNode,
    callee: AstNode,
    calleeName: string | undefined,
    method: string | undefined,
    params: string[] | undefined,
    caught = false,
  ): void {
    const name = calleeName ?? (method === undefined ? undefined : `.${method}`);
    if (name === undefined) return;
    const last = method ?? name;
    const root = calleeName === undefined ? '' : (calleeName.split('.')[0] ?? '');
    this.addPaging(node, callee, method);
    this.addWrite(node, callee, method);
    this.addBodyRead(node, callee, calleeName, method);
    if (roundingFunctions.has(calleeName ?? '')) {
      const operand = getExpressions(node, 'arguments')[0];
      const money = this.getMoneyOperandName(operand);
      if (money !== undefined) this.add('money', node, `${calleeName}(${money})`);
    }
    const kind =
      classifyCall(calleeName ?? name, last, calleeName?.startsWith('fs.promises.') === true ? 'fs.promises' : root) ??
      (this.dateBindings.has(root) && !isZoneFreeDateCall(last) ? 'date-time' : undefined);
    // Strings slice too: `req.path.slice(1)` is no list that could be empty or hold 100,000 items. A `.slice()` of
    // nothing copies the list whole: it keeps an empty list empty, as the code without it would.
    if (
      kind === 'collection' &&
      method === 'slice' &&
      (isText(getNode(callee, 'object')) || getExpressions(node, 'arguments').length === 0)
    )
      return;
    if (kind === 'parse-json' && caught) return;
    if (kind !== undefined) {
      this.add(kind, node, name);
      return;
    }
    if (method === 'map' || method === 'filter' || method === 'reduce') {
      const object = getIdentifierName(unwrapExpression(getNode(callee, 'object')));
      if (!object || !params?.includes(object)) return;
      const [callback, initial] = getExpressions(node, 'arguments');
      // An empty list through a map or a filter gives an empty list; a reduce with no initial value throws on one.
      if (method === 'reduce' && initial === undefined) this.add('collection', node, `${object}.reduce`);
      // A long list is a question only where each item costs more than a step: an await, or a walk of another list.
      if (callback !== undefined && growsPerItem(callback)) this.add('input-collection', node, `${object}.${method}`);
    }
  }

  /** A call that writes stored state (`db.user.create(…)`, `order.save()`): what makes a request unsafe to repeat. */
  private addWrite(node: AstNode, callee: AstNode, method: string | undefined): void {
    if (method === undefined || callee.type !== 'MemberExpression' || !writeMethods.has(method)) return;
    const receiver = unwrapExpression(getNode(callee, 'object'));
    const receiverName =
      receiver?.type === 'CallExpression'
        ? getDottedName(getNode(receiver, 'callee'))
        : (getDottedName(receiver) ?? getPropertyName(receiver ?? callee));
    if (method === 'update' && digestReceiver.test(receiverName ?? '')) return;
    this.add('write', node, `${receiverName ?? ''}.${method}`);
  }

  /** A call that reads the request's body: `await request.json()`, `c.req.valid('json')`, Nest's `@Body()`. */
  private addBodyRead(node: AstNode, callee: AstNode, calleeName: string | undefined, method: string | undefined): void {
    if (calleeName === 'Body' && callee.type === 'Identifier') {
      this.add('body-read', node, '@Body()');
      return;
    }
    if (method === undefined || callee.type !== 'MemberExpression' || !isRequest(getNode(callee, 'object'))) return;
    const [first] = getExpressions(node, 'arguments').map((arg) => unwrapExpression(arg));
    const isValidBody = method === 'valid' && first?.type === 'StringLiteral' && ['json', 'form'].includes(getString(first, 'value') ?? '');
    if (bodyMethods.has(method) || isValidBody)
      this.add('body-read', node, `${getDottedName(getNode(callee, 'object')) ?? ''}.${method}()`);
  }

  /** Pagination with evidence: a pagination name (`offset`, `pageSize`) passed to a paging method or as a query call's paging option. */
  private addPaging(node: AstNode, callee: AstNode, method: string | undefined): void {
    const args = getExpressions(node, 'arguments');
    if (method !== undefined && pagingMethods.has(method) && !(method === 'slice' && isText(getNode(callee, 'object')))) {
      const receiver = getDottedName(unwrapExpression(getNode(callee, 'object'))) ?? '';
      const names = args.flatMap((arg) => collectNames(arg)).filter((name) => this.words.isPaginationName(name));
      const named = names[0];
      // `zone.offset(zoneOffsetTs)` (luxon): an offset of time, not of rows. `match0.slice(0, offset)` (marked's
      // lexer): an offset into a text; a slice pages with a page word, a limit beside the offset, or rows to cut.
      const isTextOffset =
        method === 'slice' && names.every((name) => OFFSET_ONLY.test(name)) && !PLURAL_RECEIVER.test(receiver.split('.').at(-1) ?? '');
      if (named !== undefined && !saysTime(named) && !saysTime(receiver) && !isTextOffset) {
        this.add('pagination', node, `.${method}(…${named}…)`);
        return;
      }
    }
    for (const arg of args) {
      const options = unwrapExpression(arg);
      if (options?.type !== 'ObjectExpression') continue;
      const keys: string[] = [];
      let isFromInput = false;
      for (const property of getNodes(options, 'properties')) {
        const key = property.type === 'Identifier' ? getString(property, 'value') : getKeyName(getNode(property, 'key'));
        if (key === undefined || !pagingKeys.has(key)) continue;
        keys.push(key);
        const value = property.type === 'Identifier' ? property : unwrapExpression(getNode(property, 'value'));
        if (value !== undefined && value.type !== 'NumericLiteral' && value.type !== 'StringLiteral') isFromInput = true;
      }
      const isPaging = keys.length >= 2 || keys.some((key) => strongPagingKeys.has(key)) || queryMethod.test(method ?? '');
      if (keys.length > 0 && isFromInput && isPaging) {
        this.add('pagination', node, `${method === undefined ? '' : `.${method}`}({ ${keys.join(', ')} })`);
        return;
      }
    }
  }
}

/** A name that is only an offset (`offset`, `startOffset`, `offsets`), with no page, limit or cursor word. */
const OFFSET_ONLY = /^(?:[a-z]+)?offsets?$/i;
/** A receiver named as rows (`items`, `results`, `rows`, `values`, `list`, `data`): what a page is cut from. */
const PLURAL_RECEIVER = /(?:[a-z]s|list|data|rows|entries|collection|array)$/i;

/** Words of a time offset (`zoneOffset`, `utcOffsetMinutes`, `offsetTs`, `dt.offset(…)`): no page is turned there. */
const TIME_WORDS = new Set(
  'zone timezone tz utc gmt time timestamp ts ms millis date datetime dt minute minutes hour hours second seconds'.split(' '),
);

function saysTime(name: string): boolean {
  return name.split(/[._$]|(?<=[a-z0-9])(?=[A-Z])/).some((word) => TIME_WORDS.has(word.toLowerCase()));
}

/** Calls that walk a list of their own (`rows.find(…)` inside a map's callback: a list times a list). */
const ITERATING_METHODS = new Set([
  'find',
  'findIndex',
  'findLast',
  'filter',
  'some',
  'every',
  'map',
  'flatMap',
  'forEach',
  'reduce',
  'sort',
]);
/** A loop over another list, or an await (a request or a query per item). */
const PER_ITEM_WORK = new Set([
  'ForStatement',
  'ForOfStatement',
  'ForInStatement',
  'WhileStatement',
  'DoWhileStatement',
  'AwaitExpression',
]);
/** Nodes looked at inside one callback before giving up (a callback that long is no step per item either way). */
const MAX_CALLBACK_NODES = 2000;

/**
 * Whether a map, filter or reduce callback does work that grows per item: it awaits (a request or a query per item), or
 * it walks another list (a loop, or a call that iterates). A callback given by name is not read: no evidence.
 */
function growsPerItem(callback: AstNode): boolean {
  if (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') return false;
  const pending: unknown[] = [getNode(callback, 'body')];
  for (let seen = 0; pending.length > 0 && seen < MAX_CALLBACK_NODES; seen++) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...value);
      continue;
    }
    if (!isRecord(value)) continue;
    if (isAstNode(value)) {
      if (PER_ITEM_WORK.has(value.type)) return true;
      if (value.type === 'CallExpression') {
        const called = getNode(value, 'callee');
        const property = called?.type === 'MemberExpression' ? getNode(called, 'property') : undefined;
        if (ITERATING_METHODS.has(getIdentifierName(property) ?? '')) return true;
      }
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'span' && typeof child === 'object') pending.push(child);
  }
  return false;
}

/** The identifier and property names an argument expression mentions (`offset + limit` → offset, limit), a few levels deep. */
function collectNames(node: AstNode | undefined, depth = 0): string[] {
  const target = unwrapExpression(node);
  if (target === undefined || depth > 4) return [];
  switch (target.type) {
    case 'Identifier':
      return [getString(target, 'value') ?? ''];
    case 'MemberExpression':
      return [getPropertyName(target) ?? '', ...collectNames(getNode(target, 'object'), depth + 1)];
    case 'BinaryExpression':
      return [...collectNames(getNode(target, 'left'), depth + 1), ...collectNames(getNode(target, 'right'), depth + 1)];
    case 'CallExpression':
      return getExpressions(target, 'arguments').flatMap((arg) => collectNames(arg, depth + 1));
    default:
      return [];
  }
}

/** A handler's request: `req`, `request`, `c.req`, `ctx.request`, `ctx.input` (the last name of a member chain). */
function isRequest(node: AstNode | undefined): boolean {
  const target = unwrapExpression(node);
  if (target?.type === 'Identifier') return requestName.test(getString(target, 'value') ?? '');
  return target?.type === 'MemberExpression' && requestName.test(getPropertyName(target) ?? '');
}

/** Methods that return a string: what `x.trim().slice(1)` cuts is text. */
const stringMethods = new Set([
  'toString',
  'trim',
  'trimStart',
  'trimEnd',
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'padStart',
  'padEnd',
  'replace',
  'replaceAll',
  'normalize',
  'repeat',
  'substring',
  'join',
  'toFixed',
  'toISOString',
  'stringify',
]);
/**
 * Names that hold text by convention (`req.path`, `fileName`, `url`); plurals (`lines`, `ids`) are lists, and so is a
 * name either could be (`input`, `value`, `data`).
 */
const textName =
  /^(?:path|pathname|url|href|search|hash|host|hostname|origin|protocol|message|stack|name|text|id|key|slug|title|email|label|prefix|suffix|line|str|string|filename|extension|ext|sha|token|word|source)$|[a-z](?:Path|Url|URL|Name|Text|Id|ID|Key|Line|String|Str|Prefix|Suffix|Hash|Message|Title|Label|Slug|Email|Token)$/;

/** An expression that evidently holds a string: a literal, a string method's result, or a value named like text. */
function isText(node: AstNode | undefined): boolean {
  const target = unwrapExpression(node);
  if (target === undefined) return false;
  switch (target.type) {
    case 'StringLiteral':
    case 'TemplateLiteral':
      return true;
    case 'Identifier':
      return textName.test(getString(target, 'value') ?? '');
    case 'MemberExpression':
      return textName.test(getPropertyName(target) ?? '');
    case 'CallExpression': {
      const callee = unwrapExpression(getNode(target, 'callee'));
      if (callee?.type === 'Identifier') return getString(callee, 'value') === 'String';
      return callee?.type === 'MemberExpression' && stringMethods.has(getPropertyName(callee) ?? '');
    }
    default:
      return false;
  }
}

/** `x.split(…)`: a list of one part at least. */
function isSplitCall(node: AstNode | undefined): boolean {
  const target = unwrapExpression(node);
  if (target?.type !== 'CallExpression') return false;
  const callee = unwrapExpression(getNode(target, 'callee'));
  return callee?.type === 'MemberExpression' && getPropertyName(callee) === 'split';
}

export function isArithmeticOperator(operator: string): boolean {
  return arithmeticOperators.has(operator);
}

function isLengthMember(node: AstNode | undefined): boolean {
  return node?.type === 'MemberExpression' && getPropertyName(node) === 'length';
}

/** The keys of `import.meta.env` that Vite sets from the build's mode. */
const BUILD_MODE_KEYS = new Set(['MODE', 'DEV', 'PROD', 'SSR']);

/** `import.meta`, however an optional chain wraps it. */
function isImportMeta(node: AstNode | undefined): boolean {
  let current = unwrapExpression(node);
  while (current?.type === 'OptionalChainingExpression') current = unwrapExpression(getNode(current, 'base'));
  return current?.type === 'MetaProperty';
}

/** Whether an optional chain reads `import.meta.env` (`import.meta.env?.MODE`): the build's values, not a record's fields. */
export function readsImportMetaEnv(node: AstNode): boolean {
  let current: AstNode | undefined = node;
  for (let depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (current.type === 'OptionalChainingExpression') current = unwrapExpression(getNode(current, 'base'));
    else if (current.type === 'MemberExpression') {
      const object = unwrapExpression(getNode(current, 'object'));
      if (getPropertyName(current) === 'env' && isImportMeta(object)) return true;
      current = object;
    } else return false;
  }
  return false;
}

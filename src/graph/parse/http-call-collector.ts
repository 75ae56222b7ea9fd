import type { ConstantFact, HttpCallFact, HttpClient, PathPart } from '../../model/facts.js';
import { getPathParts } from './reference-frames.js';
import { getObjectProperty } from './route-calls.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  getString,
  isFunctionNode,
  unwrapExpression,
} from './swc-node.js';

/** The methods clients name as members (`axios.post`, `ky.delete`, `request(app).get`). */
const METHODS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
/** Functions that take a URL first and an options object with `method` second. */
const FETCH_FUNCTIONS: ReadonlyMap<string, HttpClient> = new Map([
  ['fetch', 'fetch'],
  ['window.fetch', 'fetch'],
  ['globalThis.fetch', 'fetch'],
  ['self.fetch', 'fetch'],
  ['$fetch', 'nuxt'],
  ['useFetch', 'nuxt'],
  ['useLazyFetch', 'nuxt'],
  ['ofetch', 'ofetch'],
]);
/** Factories of client instances, with the option that holds the instance's base URL. */
const INSTANCE_FACTORIES: ReadonlyMap<string, { client: HttpClient; baseKey: string }> = new Map([
  ['axios.create', { client: 'axios', baseKey: 'baseURL' }],
  ['ky.create', { client: 'ky', baseKey: 'prefixUrl' }],
  ['ky.extend', { client: 'ky', baseKey: 'prefixUrl' }],
  ['ofetch.create', { client: 'ofetch', baseKey: 'baseURL' }],
  ['$fetch.create', { client: 'nuxt', baseKey: 'baseURL' }],
]);
/** Angular's injected HttpClient, by the names it is injected as. */
const ANGULAR_RECEIVERS: ReadonlySet<string> = new Set(['this.http', 'this.httpClient', 'this._http']);
/**
 * A supertest or superagent agent, by the name its documentation gives it (`const agent = request.agent(app)`), made
 * where the file cannot see (etherpad's `agent = await common.init()`): `agent.get('/favicon.ico')` requests the path.
 */
const SUPERTEST_AGENT = /^(?:agent|[a-z]\w*Agent)$/;
/**
 * A helper named for making a test server or client (`const server = getTestServer()`, `await createTestClient(app)`),
 * imported or declared in the file: `server.post('/api/files.create', user, { body })` requests the path, as a
 * supertest agent does (outline's route tests all go through one).
 */
export const TEST_CLIENT_FACTORY_NAME = '(?:get|create|make|build|start|setup|init|new)?Test(?:Server|Client|Agent|App|Api|Request)';
const TEST_CLIENT_FACTORY = new RegExp(`^${TEST_CLIENT_FACTORY_NAME}$`);
/** The supertest entry points: `request(app).get('/x')`, `supertest(app).post('/x')`. */
const SUPERTEST_FUNCTIONS: ReadonlySet<string> = new Set(['request', 'supertest']);
/**
 * A leading reference that stands for an origin (`${API_URL}/items`, `process.env.BASE_URL + '/x'`,
 * `window.location.origin`): dropped from the path. Any other leading reference is an unknown path prefix, and the call
 * is not recorded (a call without the route's prefix must not link to it).
 */
const ORIGIN_NAME = /(?:url|uri|origin|host|endpoint)$/i;
const SCHEME_AND_HOST = /^(?:[a-z][a-z\d+.-]*:)?\/\/([^/?#]*)/i;
const OTHER_SCHEME = /^[a-z][a-z\d+.-]*:/i;
/** At most this many calls a file: the candidates kept until the walk ends (any `x.get('…')` may be an instance's), and the facts. */
const MAX_PENDING = 2000;
const MAX_CALLS = 500;
const MAX_CONSTANT_DEPTH = 4;

interface PendingCall {
  client: HttpClient;
  /** Upper-case method, or `*` when the call gives one that is not a literal. */
  method: string;
  parts: PathPart[];
  /** The instance the call is made on (`api` of `api.get`), whose base URL is applied once the file is walked. */
  instance?: string;
  line: number;
}

interface Instance {
  client: HttpClient;
  base?: PathPart[];
}

/**
 * HTTP calls with a static path (model/facts.ts `HttpCallFact`). Calls are kept with their path parts until the file is
 * walked: the instances they are made on and the constants their paths name may be declared after them.
 */
export class HttpCallCollector {
  private readonly pending: PendingCall[] = [];
  private readonly instances = new Map<string, Instance>();

  constructor(private readonly positions: SourcePositions) {}

  /** `const api = axios.create({ baseURL: '/api' })`: an instance whose calls get the base URL. */
  recordDeclaration(name: string, init: AstNode): void {
    const made = init.type === 'AwaitExpression' ? unwrapExpression(getNode(init, 'argument')) : init;
    if (made?.type === 'CallExpression' && TEST_CLIENT_FACTORY.test(getDottedName(getNode(made, 'callee'))?.split('.').at(-1) ?? '')) {
      this.instances.set(name, { client: 'test-client' });
      return;
    }
    if (init.type !== 'CallExpression') return;
    const factory = INSTANCE_FACTORIES.get(getDottedName(getNode(init, 'callee')) ?? '');
    if (factory === undefined) return;
    const options = unwrapExpression(getExpressions(init, 'arguments')[0]);
    const base = options?.type === 'ObjectExpression' ? getObjectProperty(options, factory.baseKey) : undefined;
    const parts = base === undefined ? undefined : getPathParts(base);
    this.instances.set(name, { client: factory.client, ...(parts === undefined ? {} : { base: parts }) });
  }

  recordCall(node: AstNode, callee: AstNode, calleeName: string | undefined, args: AstNode[]): void {
    if (this.pending.length >= MAX_PENDING) return;
    const first = unwrapExpression(args[0]);
    if (first === undefined) return;
    const line = this.positions.startLine(node);
    const fetchClient = calleeName === undefined ? undefined : FETCH_FUNCTIONS.get(calleeName);
    if (fetchClient !== undefined) {
      this.push(fetchClient, first, getOptionsMethod(args[1], 'GET'), line);
      return;
    }
    if (calleeName === 'axios' || calleeName === 'ky' || (calleeName !== undefined && this.isInstanceName(calleeName))) {
      this.recordClientCall(calleeName, first, args[1], line);
      return;
    }
    if (callee.type !== 'MemberExpression') return;
    const property = getIdentifierName(getNode(callee, 'property'));
    const object = unwrapExpression(getNode(callee, 'object'));
    if (property === undefined || object === undefined) return;
    const method = property.toUpperCase();
    if (property === 'request' && object.type === 'Identifier') {
      const name = getIdentifierName(object) ?? '';
      if (name === 'axios' || this.isInstanceName(name)) this.recordClientCall(name, first, undefined, line);
      return;
    }
    if (!METHODS.has(property)) return;
    const receiver = getDottedName(object);
    if (receiver === 'axios' || receiver === 'ky') this.push(receiver, first, method, line);
    else if (receiver !== undefined && ANGULAR_RECEIVERS.has(receiver)) this.push('angular', first, method, line);
    else if (receiver !== undefined && object.type === 'Identifier' && SUPERTEST_AGENT.test(receiver))
      this.push('supertest', first, method, line);
    // A handler after the path registers a route (`app.get('/x', (req, res) => …)`), it requests none.
    else if (receiver !== undefined && object.type === 'Identifier' && !args.slice(1).some((arg) => isFunctionNode(unwrapExpression(arg))))
      this.push('axios', first, method, line, receiver);
    else if (object.type === 'CallExpression' && SUPERTEST_FUNCTIONS.has(getDottedName(getNode(object, 'callee')) ?? '')) {
      this.push('supertest', first, method, line);
    }
  }

  /** The calls, once the file is walked: instance calls get their base URL, or are dropped when no instance of that name exists. */
  toFacts(constants: readonly ConstantFact[], imported: ReadonlySet<string>): HttpCallFact[] {
    const byName = new Map(constants.map((constant) => [constant.name, constant.parts]));
    const facts: HttpCallFact[] = [];
    for (const call of this.pending) {
      if (facts.length >= MAX_CALLS) break;
      const instance = call.instance === undefined ? undefined : this.instances.get(call.instance);
      if (call.instance !== undefined && instance === undefined) continue;
      const target = toTarget(call.parts, byName);
      if (target === undefined) {
        // `${PUBLIC_API_PREFIX}/notes/${alias}` with the prefix imported: the graph resolves it (build-routes.ts).
        const prefixed = instance === undefined ? toImportedPrefixTarget(call.parts, byName, imported) : undefined;
        if (prefixed !== undefined) facts.push({ method: call.method, client: call.client, line: call.line, ...prefixed });
        continue;
      }
      const base = instance?.base === undefined || target.host !== undefined ? undefined : toTarget(instance.base, byName);
      if (instance?.base !== undefined && target.host === undefined && base === undefined) continue;
      const path = base === undefined ? target.path : joinBase(base.path, target.path);
      const host = target.host ?? base?.host;
      facts.push({
        method: call.method,
        path,
        client: instance?.client ?? call.client,
        ...(host === undefined ? {} : { host }),
        line: call.line,
      });
    }
    return facts;
  }

  private isInstanceName(name: string): boolean {
    return this.instances.has(name) || this.pending.some((call) => call.instance === name);
  }

  /** `axios(url, config)`, `axios({ url, method })`, `ky(url, { method })`, and the same on an instance. */
  private recordClientCall(name: string, first: AstNode, second: AstNode | undefined, line: number): void {
    const client: HttpClient = name === 'ky' ? 'ky' : 'axios';
    const instance = name === 'axios' || name === 'ky' ? undefined : name;
    if (first.type === 'ObjectExpression') {
      const url = getObjectProperty(first, 'url');
      if (url !== undefined) this.push(client, url, getOptionsMethod(first, 'GET'), line, instance);
      return;
    }
    this.push(client, first, getOptionsMethod(second, 'GET'), line, instance);
  }

  private push(client: HttpClient, url: AstNode, method: string, line: number, instance?: string): void {
    const parts = getPathParts(url);
    const [head, ...rest] = parts ?? [];
    if (head === undefined) return;
    // `import.meta.env.VITE_API_URL` has no dotted name: the origin is told by its last property.
    const origin = 'ref' in head && isOriginMember(getLeadingExpression(url)) ? [{ ref: 'origin' }, ...rest] : (parts ?? []);
    this.pending.push({ client, method, parts: origin, line, ...(instance === undefined ? {} : { instance }) });
  }
}

/** The expression a URL starts with: the first of a template literal opening with one, the leftmost of a `+` chain. */
function getLeadingExpression(url: AstNode): AstNode | undefined {
  let current: AstNode | undefined = unwrapExpression(url);
  for (let depth = 0; current !== undefined && depth < 20; depth++) {
    if (current.type === 'BinaryExpression') current = unwrapExpression(getNode(current, 'left'));
    else if (current.type === 'TemplateLiteral' && isEmptyText(getNodes(current, 'quasis')[0])) {
      current = unwrapExpression(getExpressions(current, 'expressions')[0]);
    } else return current;
  }
  return current;
}

function isEmptyText(quasi: AstNode | undefined): boolean {
  return quasi !== undefined && (getString(quasi, 'cooked') ?? getString(quasi, 'raw')) === '';
}

function isOriginMember(node: AstNode | undefined): boolean {
  return node?.type === 'MemberExpression' && ORIGIN_NAME.test(getPropertyName(node) ?? '');
}

/** The `method` of an options object: upper-cased when a literal, `*` when not, `fallback` when absent. */
function getOptionsMethod(options: AstNode | undefined, fallback: string): string {
  const value = unwrapExpression(options);
  if (value?.type !== 'ObjectExpression') return fallback;
  const method = getObjectProperty(value, 'method');
  if (method === undefined) return fallback;
  return getStaticString(method)?.toUpperCase() ?? '*';
}

/**
 * The path and host a URL's parts request: same-file constants expanded, a leading origin reference dropped, other
 * references as `{name}`. Undefined when the URL starts with an unknown reference or is no HTTP URL.
 */
function toTarget(parts: readonly PathPart[], constants: ReadonlyMap<string, PathPart[]>): { path: string; host?: string } | undefined {
  const expanded = expandConstants(parts, constants, 0);
  const [head] = expanded;
  if (head === undefined) return undefined;
  let leadingOrigin = false;
  if ('ref' in head) {
    // An origin needs a path after it: `fetch(url)` alone requests a URL not known here.
    const next = expanded[1];
    if (!ORIGIN_NAME.test(head.ref) || next === undefined || !('text' in next)) return undefined;
    leadingOrigin = true;
  }
  let text = expanded
    .slice(leadingOrigin ? 1 : 0)
    .map((part) => ('text' in part ? part.text : `{${part.ref}}`))
    .join('');
  let host: string | undefined;
  const origin = leadingOrigin ? null : SCHEME_AND_HOST.exec(text);
  if (origin !== null) {
    host = origin[1]?.replace(/:\d+$/, '') ?? '';
    text = text.slice(origin[0].length);
  } else if (OTHER_SCHEME.test(text) || text.startsWith('.') || text.startsWith('{')) return undefined;
  const end = text.search(/[?#]/);
  const path = end === -1 ? text : text.slice(0, end);
  if (/\s/.test(path)) return undefined;
  return { path: path.startsWith('/') ? path : `/${path}`, ...(host === undefined ? {} : { host }) };
}

/**
 * A URL that starts with an imported name and goes on with a path (`${PUBLIC_API_PREFIX}/notes`, `API_BASE + '/x'`): the
 * path after it, and the name, whose value the graph reads where it is declared. Undefined for any other URL.
 */
function toImportedPrefixTarget(
  parts: readonly PathPart[],
  constants: ReadonlyMap<string, PathPart[]>,
  imported: ReadonlySet<string>,
): { path: string; prefixRef: string } | undefined {
  const [head, ...rest] = expandConstants(parts, constants, 0);
  if (head === undefined || !('ref' in head) || !imported.has(head.ref.split('.')[0] ?? '')) return undefined;
  const next = rest[0];
  if (next !== undefined && !('text' in next && next.text.startsWith('/'))) return undefined;
  const target = rest.length === 0 ? { path: '/' } : toTarget(rest, constants);
  if (target === undefined || target.host !== undefined) return undefined;
  return { path: target.path, prefixRef: head.ref };
}

function expandConstants(parts: readonly PathPart[], constants: ReadonlyMap<string, PathPart[]>, depth: number): PathPart[] {
  return parts.flatMap((part) => {
    if ('text' in part) return [part];
    const value = depth < MAX_CONSTANT_DEPTH ? constants.get(part.ref) : undefined;
    return value === undefined ? [part] : expandConstants(value, constants, depth + 1);
  });
}

/** A base URL and a call path: one `/` between them (`/api` + `/items`, `/api/` + `items`). */
function joinBase(base: string, path: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (path === '/') return trimmed === '' ? '/' : trimmed;
  return `${trimmed}/${path.replace(/^\/+/, '')}`;
}

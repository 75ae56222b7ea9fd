import { classifyRole } from '../roles.js';
import { TEST_CLIENT_FACTORY_NAME } from './http-call-collector.js';

/**
 * What any call the fact walker turns into a route, mount, middleware or setting starts with: a chain method called on
 * a router-like receiver (`app`, `router`, `server`, `api`, `fastify`, `this.app`, `usersRouter`, … route-calls.ts'
 * `routerLikeNames`), or on a receiver of any name declared from a framework factory (the framework's import then names
 * it, FRAMEWORK_MODULE). The method is found first (it is rarer), then the receiver is read just before it.
 */
const CHAIN_METHOD =
  /(?:\?\.|\.)\s*(?:get|post|put|patch|delete|del|options|head|all|use|on|route|register|prefix|set|disable|enable|engine|basePath)\s*[(<]/g;
const ROUTER_RECEIVER =
  /(?:^|[^\w$])(?:app|router|server|api|fastify|routes?|instance|subApp|apiApp|apiRouter|[\w$]*(?:Router|Routes|App|Server|Api))\s*$/;
/** How far before a chain method its receiver is looked for: the longest router-like name plus spaces. */
const RECEIVER_WINDOW = 80;

function hasRouterCall(code: string): boolean {
  CHAIN_METHOD.lastIndex = 0;
  for (let match = CHAIN_METHOD.exec(code); match !== null; match = CHAIN_METHOD.exec(code)) {
    const before = code.slice(Math.max(0, match.index - RECEIVER_WINDOW), match.index);
    if (ROUTER_RECEIVER.test(before)) return true;
  }
  return false;
}

/** The modules route-calls.ts' `getFrameworkOfModule` knows, as a string anywhere in the file. */
const FRAMEWORK_MODULE = /['"`](?:express|fastify|hono(?:\/[^'"`]*)?|koa|@koa\/router|koa-router)['"`]/;
/** NestJS: controllers and their method decorators, and the global prefix (taken on any receiver). */
const NEST = /@\s*Controller\b|\.\s*setGlobalPrefix\s*\(/;
/**
 * The roots test-calls.ts recognises (`describe`, `it`, `xit`, …, and tape's own name for `test`) called (`it(`, `it<T>(`, `it?.(`) or followed by one
 * of its chain properties (`it.skip`, `test.each`, `test.describe`), and not as a member (`regex.test`) or a declaration
 * (`function describe<T>(`, `describe(description: string)`, `describe(description) {`: a call with one bare name in
 * it has no callback and no static title, so it is no test either).
 */
const TEST_CALL =
  /(?:^|[^\w$.])(?<!function\s+)(?:describe|suite|context|it|test|specify|xit|xtest|xspecify|xdescribe|xcontext|xsuite|fit|fdescribe|tape)(?:\s*(?:\?\.\s*)?\((?!\s*[\w$]+\s*(?:\??\s*:|\)))|<|\s*\??\.\s*(?:skip|only|todo|fixme|concurrent|sequential|serial|parallel|fails|each|for|skipIf|runIf|shuffle|describe)\b)/;
/** `vi.mock`, `vi.doMock`, `jest.mock`, `jest.doMock`, `jest.unstable_mockModule`, `mock.module`. */
const MOCK_CALL = /\.\s*(?:mock|doMock|unstable_mockModule)\s*\(|\bmock\s*\.\s*module\s*\(/;
/**
 * What every HTTP call http-call-collector.ts records starts with: a fetch-like function (`fetch`, `$fetch`, `useFetch`,
 * `ofetch`, and `ofetch.create` for an instance), axios or ky (their calls, members and `create`), Angular's
 * `this.http`, a supertest `request(`/`supertest(` not called as a member, a member of a supertest agent (`agent.`), or
 * a helper that makes a test server or client (`getTestServer(`).
 */
const HTTP_CALL = new RegExp(
  [
    /(?:fetch|Fetch)\s*[(<.]|\b(?:axios|ky)\b|\bthis\s*\.\s*(?:http|httpClient|_http)\s*\./.source,
    /(?:^|[^\w$.])(?:request|supertest)\s*\(|(?:^|[^\w$.])(?:agent|[a-z][\w$]*Agent)\s*\./.source,
    // A test server or client a helper makes (`const server = getTestServer()`), whose members request paths.
    `\\b${TEST_CLIENT_FACTORY_NAME}\\s*\\(`,
  ].join('|'),
);
/**
 * Whole lines of comment: `// …`, and ` * …` inside a block comment (JSDoc) when the comment does not end on it. Prose in
 * them would otherwise read as calls (`it. The …`). A line opening a comment may go on with code after it (`/* c *\/ app.get(…)`)
 * and stays.
 */
const COMMENT_LINE = /^[ \t]*(?:\/\/.*|\*(?!.*\*\/).*)$/gm;

/**
 * Whether a file's facts may hold what the graph reads of every file, whether or not the change reaches it: routes,
 * mounts and middleware (every route is a node), HTTP calls (each links its file to the routes it calls), mocks (a mock of a missing module is an unresolved import), and test
 * cases in a file that is not a test file by its path (they make it one). A test file's cases are read only when it
 * reaches the change, and a file that reaches the change is parsed in full anyway (src/graph/focus.ts). A superset by
 * construction, each pattern a necessary part of the facts it stands for, and checked on real packages in
 * test/graph/parse/link-facts.slow.test.ts.
 */
export function mayHoldFrameworkFacts(path: string, text: string): boolean {
  if (FRAMEWORK_MODULE.test(text) || NEST.test(text)) return true;
  const testCalls = classifyRole(path) !== 'test';
  const mayCall = (code: string): boolean =>
    hasRouterCall(code) || MOCK_CALL.test(code) || HTTP_CALL.test(code) || (testCalls && TEST_CALL.test(code));
  // Most files have none of the calls even in their comments: the comment lines are dropped only for those that do.
  return mayCall(text) && mayCall(text.replace(COMMENT_LINE, ''));
}

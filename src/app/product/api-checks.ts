import type { RouteNode } from '../../model/graph.js';
import type { ApiCheckSpec, ApiConcern, ApiExpectation, ApiRequest } from '../../model/product-check.js';
import { compareText } from '../../text/compare-text.js';
import { redactSecrets } from '../../text/redact/redact.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** Larger than the default body limit of Express, Fastify, Koa and Next (100 KB to 1 MB). */
const OVERSIZED_BYTES = 2 * 1024 * 1024;
const UNKNOWN_ID = 'checker-unknown-0';
const UNKNOWN_NUMBER = '999999999';
const SAMPLE = '1';

/** A path parameter in any syntax the graph keeps: `:id`, `:id?`, `:id(\d+)`, `{id}`, `[id]`, `[...slug]`, `*`. */
const PARAM = /:([A-Za-z_$][\w$]*)(\([^)]*\))?\??|\{([^}]+)\}|\[(?:\.\.\.)?([^\]]+)\]|\*/g;

/**
 * The API checks of spec item 4 for a target, from the graph's API routes: a plain request is not answered 5xx; a
 * body route refuses a missing, a malformed and an oversized body with a 4xx, not a 5xx; a route with a parameter
 * answers an unknown id with 404, not 2xx or 5xx; a route behind auth middleware refuses a request without
 * credentials (401/403), not 2xx. Error bodies must leak no stack trace or secret. Requests only ever go to the
 * target's baseUrl. Ordered by path, method and concern, so ids and order are stable across runs.
 */
export function generateApiChecks(target: string, routes: readonly RouteNode[]): ApiCheckSpec[] {
  const checks: ApiCheckSpec[] = [];
  const seen = new Set<string>();
  const apiRoutes = routes
    .filter((route) => route.routeKind === 'api')
    .sort((a, b) => compareText(a.path, b.path) || compareText(a.method, b.method));
  for (const route of apiRoutes) {
    const method = toHttpMethod(route.method);
    const slug = `${method.toLowerCase()}.${toPathSlug(route.path)}`;
    if (seen.has(slug)) continue;
    seen.add(slug);
    const hasParams = new RegExp(PARAM.source).test(route.path);
    const validPath = fillParams(route.path, () => SAMPLE);
    const add = (concern: ApiConcern, title: string, request: ApiRequest, expect: ApiExpectation, steps: string[]): void => {
      checks.push({
        id: `api:${target}:${slug}:${concern}`,
        kind: 'api',
        concern,
        title,
        route: { method, path: route.path, file: route.file, line: route.line },
        files: toServingFiles(route),
        request,
        expect,
        steps,
        ...(route.contract === undefined ? {} : { contract: route.contract }),
      });
    };
    const json = { 'content-type': 'application/json' };
    const plain = { method, path: validPath, headers: {}, ...(BODY_METHODS.has(method) ? { headers: json, body: '{}' } : {}) };
    add(
      'valid-not-5xx',
      `${method} ${route.path} answers a plain request without a server error`,
      plain,
      { failOn: ['5xx'], expected: 'a 2xx, 3xx or 4xx answer, never 5xx', noLeak: true },
      [`send ${method} ${validPath}${plain.body === undefined ? '' : ' with {}'}`, 'the status is below 500'],
    );
    if (BODY_METHODS.has(method)) {
      add(
        'missing-body-4xx',
        `${method} ${route.path} refuses a request without a body with a 4xx`,
        { method, path: validPath, headers: {} },
        { failOn: ['5xx'], expected: 'a 4xx (400 or 422) for the missing body, never 5xx', noLeak: true },
        [`send ${method} ${validPath} without a body`, 'the status is 4xx, not 5xx'],
      );
      add(
        'invalid-body-4xx',
        `${method} ${route.path} refuses malformed JSON with a 4xx`,
        { method, path: validPath, headers: json, body: '{"checker": ' },
        { failOn: ['5xx'], expected: 'a 400 for the malformed JSON body, never 5xx', noLeak: true },
        [`send ${method} ${validPath} with the malformed JSON {"checker": `, 'the status is 4xx, not 5xx'],
      );
      add(
        'oversized-body-4xx',
        `${method} ${route.path} refuses a 2 MB body with 413 or another 4xx`,
        { method, path: validPath, headers: json, bodyBytes: OVERSIZED_BYTES },
        { failOn: ['5xx'], expected: 'a 413 (or another 4xx) for a 2 MB body, never 5xx', noLeak: true },
        [`send ${method} ${validPath} with a 2 MB JSON body`, 'the status is 4xx, not 5xx'],
      );
    }
    if (hasParams) {
      const unknownPath = fillParams(route.path, (pattern) =>
        pattern !== undefined && /\\d|\[0-9\]/.test(pattern) ? UNKNOWN_NUMBER : UNKNOWN_ID,
      );
      add(
        'unknown-id-404',
        `${method} ${route.path} answers an unknown id with 404`,
        { method, path: unknownPath, headers: plain.headers, ...(plain.body === undefined ? {} : { body: plain.body }) },
        { failOn: ['5xx', '2xx'], expected: 'a 404 (or another 4xx) for an id that does not exist, never 2xx or 5xx', noLeak: true },
        [`send ${method} ${unknownPath}`, 'the status is 4xx (404 expected), not 2xx or 5xx'],
      );
    }
    const auth = (route.guards ?? []).filter((guard) => guard.role === 'auth');
    const declared = route.contract?.security === 'required' ? `${route.contract.document} requires credentials` : undefined;
    if (auth.length > 0 || declared !== undefined) {
      const behind = auth.length > 0 ? `behind ${auth.map((guard) => guard.name).join(', ')}` : declared;
      add(
        'no-credentials-401',
        `${method} ${route.path} refuses a request without credentials (${behind})`,
        { method, path: validPath, headers: plain.headers, ...(plain.body === undefined ? {} : { body: plain.body }) },
        { failOn: ['5xx', '2xx', '3xx'], expected: 'a 401 or 403 without credentials, never 2xx, 3xx or 5xx', noLeak: true },
        [`send ${method} ${validPath} without cookies or an Authorization header`, 'the status is 401 or 403'],
      );
    }
  }
  return checks;
}

/**
 * Why a failed check's expectation contradicts what the route's OpenAPI operation declares, or undefined when it does
 * not: then the generated check is what is wrong (generated-test-weakness), not the app. A 2xx without credentials on
 * an operation declared public; a 2xx for an unknown id on an operation that declares that 2xx and no 404 or 4XX. A
 * 5xx is never excused, even when declared: a documented crash is still a crash a reviewer wants to see.
 */
export function contradictsContract(check: ApiCheckSpec, status: number | undefined): string | undefined {
  const contract = check.contract;
  if (contract === undefined || status === undefined) return undefined;
  const declares = (key: string): boolean => contract.responses.includes(key);
  const declaredStatus = declares(String(status))
    ? String(status)
    : declares(`${Math.floor(status / 100)}XX`)
      ? `${Math.floor(status / 100)}XX`
      : undefined;
  const where = `${contract.document} declares ${check.route.method} ${check.route.path}`;
  if (check.concern === 'no-credentials-401' && status < 400 && contract.security === 'none')
    return `${where} public (its security allows no credentials), so ${status} without credentials is its contract`;
  if (check.concern === 'unknown-id-404' && status < 300 && declaredStatus !== undefined && !declares('404') && !declares('4XX'))
    return `${where} with the answer ${declaredStatus} and no 404 or 4XX, so ${status} for an id that does not exist is its contract`;
  return undefined;
}

export interface ApiAnswer {
  status: number;
  body: string;
}

export interface ApiVerdict {
  passed: boolean;
  actual: string;
  /** What an error body gave away: stack frames, secrets (redacted kinds only, never the values). */
  leaks: string[];
}

const STACK_FRAME = /\n\s+at [^\n]*(?:\(|\s)(?:\/|[A-Za-z]:\\|file:|node:)[^\n]*:\d+:\d+\)?/;

/** Judges one answer against its check: the failing status classes, and for a 4xx/5xx answer, leaks in the body. */
export function judgeApiAnswer(check: ApiCheckSpec, answer: ApiAnswer): ApiVerdict {
  const statusClass = `${Math.floor(answer.status / 100)}xx` as '2xx' | '3xx' | '4xx' | '5xx';
  const leaks: string[] = [];
  if (answer.status >= 400) {
    if (STACK_FRAME.test(answer.body)) leaks.push('a stack trace');
    const secrets = redactSecrets(answer.body).redactions.map((item) => item.rule);
    for (const kind of [...new Set(secrets)].sort(compareText)) leaks.push(`a secret (${kind})`);
  }
  const badStatus = statusClass === '5xx' || check.expect.failOn.includes(statusClass as '2xx' | '3xx' | '5xx');
  const actual = `${answer.status}${leaks.length > 0 ? `; the body gives away ${leaks.join(', ')}` : ''}`;
  return { passed: !badStatus && leaks.length === 0, actual, leaks };
}

/**
 * The generated checks as a node:test file a user can keep (`node --test`): the same requests with fetch against
 * BASE_URL (default: the target's baseUrl), the same expectations.
 */
export function renderApiTestSource(target: string, baseUrl: string, checks: readonly ApiCheckSpec[]): string {
  const lines = [
    `// Generated by checker product for target ${JSON.stringify(target)}: one test per generated API check. Keep it, edit it, run it:`,
    `//   BASE_URL=${baseUrl} node --test <this file>`,
    "//   one check only: node --test --test-name-pattern='^<check id>: ' <this file>",
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    '',
    `const BASE_URL = process.env.BASE_URL ?? ${JSON.stringify(baseUrl)};`,
    'const STACK_FRAME = /\\n\\s+at [^\\n]*:\\d+:\\d+/;',
    '',
  ];
  for (const check of checks) {
    const body =
      check.request.bodyBytes !== undefined
        ? `JSON.stringify({ padding: 'x'.repeat(${check.request.bodyBytes}) })`
        : check.request.body === undefined
          ? 'undefined'
          : JSON.stringify(check.request.body);
    const failing = check.expect.failOn.map((item) => Number(item[0]));
    lines.push(
      `test(${JSON.stringify(`${check.id}: ${check.title}`)}, async () => {`,
      `  const response = await fetch(new URL(${JSON.stringify(check.request.path)}, BASE_URL), {`,
      `    method: ${JSON.stringify(check.request.method)},`,
      `    headers: ${JSON.stringify(check.request.headers)},`,
      `    body: ${body},`,
      '  });',
      '  const text = await response.text();',
      `  assert.ok(![${[...new Set([5, ...failing])].join(', ')}].includes(Math.floor(response.status / 100)), \`expected ${check.expect.expected.replace(/`/g, "'")}, got \${response.status}\`);`,
      '  if (response.status >= 400) assert.doesNotMatch(text, STACK_FRAME, "the error body gives away a stack trace");',
      '});',
      '',
    );
  }
  return lines.join('\n');
}

function toHttpMethod(method: string): string {
  const upper = method.toUpperCase();
  return upper === 'ALL' || upper === 'USE' || upper === 'ANY' || upper === '*' ? 'GET' : upper;
}

function fillParams(path: string, value: (pattern: string | undefined) => string): string {
  return path.replace(new RegExp(PARAM.source, 'g'), (_match, _name, pattern: string | undefined) => value(pattern));
}

/** `/users/:id/orders` → `users._id.orders`; `/` → `root`: only the characters a check id allows. */
export function toPathSlug(path: string): string {
  const slug = path
    .replace(new RegExp(PARAM.source, 'g'), (match, colon?: string, _pattern?: string, brace?: string, bracket?: string) => {
      const name = colon ?? brace ?? bracket ?? (match === '*' ? 'all' : 'param');
      return `_${name}`;
    })
    .split('/')
    .filter((segment) => segment !== '')
    .join('.')
    .replace(/[^A-Za-z0-9._-]/g, '-');
  return slug === '' ? 'root' : slug.slice(0, 80);
}

/** The declaring file, then the files of the handler links of every registration and the modules they call. */
function toServingFiles(route: RouteNode): string[] {
  const handlers = (route.registrations ?? []).flatMap((registration) =>
    registration.chain
      .filter((link) => link.role === 'handler')
      .flatMap((link) => [
        link.file,
        ...link.targets.map((target) => target.slice(0, target.indexOf('#') < 0 ? undefined : target.indexOf('#'))),
      ]),
  );
  return [...new Set([route.file, ...handlers.filter((file) => file !== '')])];
}

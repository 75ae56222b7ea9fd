import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { extractLinkFacts } from '../../../src/graph/parse/link-facts.js';
import { createHttpCallMatcher, isHttpCallMatch } from '../../../src/graph/routes/match-http-calls.js';
import type { HttpCallFact } from '../../../src/model/facts.js';

const callsOf = (text: string, path = 'web/src/client.ts'): HttpCallFact[] | undefined =>
  extractFacts(path, text, { assertionHelpers: [] }).httpCalls;

/** `METHOD path client[@host]:line`, one call a line. */
const callLines = (text: string, path?: string): string[] =>
  (callsOf(text, path) ?? []).map(
    (call) => `${call.method} ${call.path} ${call.client}${call.host === undefined ? '' : `@${call.host}`}:${call.line}`,
  );

describe('HTTP calls in client code', () => {
  test('fetch: the path as written, the method from its options, GET by default, query and hash dropped', () => {
    assert.deepEqual(
      callLines(
        [
          "fetch('/api/items');",
          "fetch('/api/orders', { method: 'post', body: '{}' });",
          'fetch(`/api/items/${item.id}?expand=1#top`, { method: "DELETE" });',
          'window.fetch(`/api/items/${encodeURIComponent(id)}`, { method });',
          "fetch('api/relative');",
        ].join('\n'),
      ),
      [
        'GET /api/items fetch:1',
        'POST /api/orders fetch:2',
        'DELETE /api/items/{item.id} fetch:3',
        '* /api/items/{encodeURIComponent()} fetch:4',
        'GET /api/relative fetch:5',
      ],
    );
  });

  test('the origin: a URL’s host is kept apart, an origin variable is dropped, an unknown prefix drops the call', () => {
    assert.deepEqual(
      callLines(
        [
          'const BASE = "/api/v1";',
          "fetch('https://api.example.com/repos/x');",
          "fetch('http://localhost:3000/api/ping');",
          'fetch(`${process.env.API_URL}/api/health`);',
          'fetch(`${import.meta.env.VITE_API_URL}/api/status`);',
          'fetch(BASE + "/users");',
          'fetch(`${prefix}/unknown`);',
          'fetch(url);',
          "fetch('./data.json');",
          "fetch('data:text/plain,hi');",
        ].join('\n'),
      ),
      [
        'GET /repos/x fetch@api.example.com:2',
        'GET /api/ping fetch@localhost:3',
        'GET /api/health fetch:4',
        'GET /api/status fetch:5',
        'GET /api/v1/users fetch:6',
      ],
    );
  });

  test('a prefix imported from another file is kept by name for the graph to resolve; a local unknown one drops the call', () => {
    const calls = callsOf(
      [
        "import { PUBLIC_API_PREFIX, api } from '../src/app.module';",
        "import request from 'supertest';",
        'request(app).get(`${PUBLIC_API_PREFIX}/notes/${alias}`);',
        "request(app).post(PUBLIC_API_PREFIX + '/notes');",
        'request(app).get(`${api.PREFIX}/me`);',
        'request(app).get(`${PUBLIC_API_PREFIX}notes`);',
        'request(app).get(`${prefix}/unknown`);',
        'request(app).get(`${PUBLIC_API_PREFIX}`);',
      ].join('\n'),
      'test/notes.e2e-spec.ts',
    );
    assert.deepEqual(
      calls?.map((call) => `${call.method} ${call.prefixRef ?? '-'} ${call.path}:${call.line}`),
      ['GET PUBLIC_API_PREFIX /notes/{alias}:3', 'POST PUBLIC_API_PREFIX /notes:4', 'GET api.PREFIX /me:5', 'GET PUBLIC_API_PREFIX /:8'],
    );
  });

  test('axios: members, the config form, and an instance of the same file with its base URL, declared before or after', () => {
    assert.deepEqual(
      callLines(
        [
          "import axios from 'axios';",
          'export const load = (id: string) => api.get(`/items/${id}`);',
          "const api = axios.create({ baseURL: '/api/' });",
          "axios.post('/api/orders', { items: [] });",
          "axios({ url: '/api/config', method: 'put' });",
          "axios.request({ url: '/api/request' });",
          "api.delete('items/1');",
          "api('/raw', { method: 'PATCH' });",
          "cache.get('/not-a-client');",
          "api.get('https://other.example.com/x');",
        ].join('\n'),
      ),
      [
        'GET /api/items/{id} axios:2',
        'POST /api/orders axios:4',
        'PUT /api/config axios:5',
        'GET /api/request axios:6',
        'DELETE /api/items/1 axios:7',
        'PATCH /api/raw axios:8',
        'GET /x axios@other.example.com:10',
      ],
    );
  });

  test('ky, Nuxt, ofetch, Angular and supertest', () => {
    assert.deepEqual(
      callLines(
        [
          "import ky from 'ky';",
          "const client = ky.create({ prefixUrl: '/api' });",
          "ky.get('api/items');",
          "ky('api/k', { method: 'patch' });",
          "client.post('orders');",
          "const { data } = await useFetch('/api/cart');",
          "await $fetch<Item[]>('/api/nuxt', { method: 'POST' });",
          "await ofetch('/api/o');",
          'class Items { list() { return this.http.get<Item[]>(`/api/items`); } }',
          "request(app).get('/api/items').expect(200);",
          "supertest(createServer()).post('/api/orders').send({});",
        ].join('\n'),
        'web/src/client.test.ts',
      ),
      [
        'GET /api/items ky:3',
        'PATCH /api/k ky:4',
        'POST /api/orders ky:5',
        'GET /api/cart nuxt:6',
        'POST /api/nuxt nuxt:7',
        'GET /api/o ofetch:8',
        'GET /api/items angular:9',
        'GET /api/items supertest:10',
        'POST /api/orders supertest:11',
      ],
    );
  });

  // outline's route tests: `const server = getTestServer();` then `server.post('/api/files.create', user, { body })`.
  test('a test server or client a helper named for one makes; a route registered on one is no call', () => {
    assert.deepEqual(
      callLines(
        [
          "import { getTestServer } from '@server/test/support';",
          'const server = getTestServer();',
          'const client = await createTestClient(app);',
          'const other = getServer();',
          "await server.post('/api/files.create', user, { body: { key } });",
          'await client.get(`/api/files.get?key=${key}`);',
          "other.post('/api/other');",
          "server.get('/api/fixture', (ctx) => { ctx.body = 1; });",
        ].join('\n'),
        'server/files.test.ts',
      ),
      ['POST /api/files.create test-client:5', 'GET /api/files.get test-client:6'],
    );
    const text = "import { getTestServer } from './support';\nconst server = getTestServer();\nserver.post('/api/a');\n";
    assert.equal(extractLinkFacts('server/a.test.ts', text), undefined);
  });

  test('no calls, no field; a file with calls gets the full walk, not the link scanner', () => {
    assert.equal(callsOf("export const a = map.get('/x');\n"), undefined);
    assert.equal(callsOf("import axios from 'axios';\nexport const a = axios;\n"), undefined);
    for (const text of [
      "export const load = () => fetch('/api/items');\n",
      "export const load = () => $fetch('/api/items');\n",
      "export const load = () => useFetch('/api/items');\n",
      "import axios from 'axios';\nexport const load = () => axios.get('/api/items');\n",
      "import ky from 'ky';\nexport const load = () => ky.get('api/items');\n",
      "export class A { load() { return this.http.get('/api/items'); } }\n",
      "import request from 'supertest';\nrequest(app).get('/api/items');\n",
    ]) {
      assert.ok((callsOf(text)?.length ?? 0) > 0, text);
      assert.equal(extractLinkFacts('web/src/client.ts', text), undefined, text);
    }
  });
});

describe('matching a call to a route', () => {
  const call = (method: string, path: string, host?: string): Pick<HttpCallFact, 'method' | 'path' | 'host'> =>
    host === undefined ? { method, path } : { method, path, host };
  const route = (method: string, path: string): { method: string; path: string } => ({ method, path });

  test('the method: equal, a route for ALL, a call whose method is not known, HEAD to GET', () => {
    assert.equal(isHttpCallMatch(call('POST', '/api/orders'), route('POST', '/api/orders')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/orders'), route('POST', '/api/orders')), false);
    assert.equal(isHttpCallMatch(call('DELETE', '/api/orders'), route('ALL', '/api/orders')), true);
    assert.equal(isHttpCallMatch(call('*', '/api/orders'), route('PUT', '/api/orders')), true);
    assert.equal(isHttpCallMatch(call('HEAD', '/api/orders'), route('GET', '/api/orders')), true);
    assert.equal(isHttpCallMatch(call('GET', '/'), route('PAGE', '/')), false);
  });

  test('the path: segments equal, a parameter any segment, a placeholder a parameter or any segment, a trailing slash ignored', () => {
    assert.equal(isHttpCallMatch(call('GET', '/api/items/'), route('GET', '/api/items')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/42'), route('GET', '/api/items/:id')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/{id}'), route('GET', '/api/items/:id')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/{id}'), route('GET', '/api/items/new')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/{id}.json'), route('GET', '/api/items/list.json')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/{id}.json'), route('GET', '/api/items/list.xml')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/42.json'), route('GET', '/api/items/:id.json')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items/42/parts'), route('GET', '/api/items/:id')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/items'), route('GET', '/api/items/:id')), false);
    assert.equal(isHttpCallMatch(call('GET', '/files/a/b/c'), route('GET', '/files/*path')), true);
    assert.equal(isHttpCallMatch(call('GET', '/files'), route('GET', '/files/*path')), false);
    assert.equal(isHttpCallMatch(call('GET', '/files'), route('GET', '/files/*path?')), true);
  });

  test('a call without the route’s prefix, to another host, or to an unresolved route path does not match', () => {
    assert.equal(isHttpCallMatch(call('GET', '/items'), route('GET', '/api/items')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/items'), route('GET', '/items')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/items', 'api.github.com'), route('GET', '/api/items')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/items', 'localhost'), route('GET', '/api/items')), true);
    assert.equal(isHttpCallMatch(call('GET', '/api/items'), route('GET', '{?API}/items')), false);
  });

  test('an unresolved global prefix stands for one segment (and a URI version) before a route that names two or more', () => {
    const login = route('POST', '/{?configService.getOrThrow()}/v1/auth/email/login');
    assert.equal(isHttpCallMatch(call('POST', '/api/v1/auth/email/login'), login), true);
    assert.equal(isHttpCallMatch(call('POST', '/v1/auth/email/login'), login), false);
    assert.equal(isHttpCallMatch(call('POST', '/api/x/v1/auth/email/login'), login), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/v1/auth/email/login'), login), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/users/7'), route('GET', '{?API}/users/:id')), false);
    assert.equal(isHttpCallMatch(call('GET', '/api/v1/{?X}/items'), route('GET', '/api/v1/{?X}/items')), false);
    // A URI version after the prefix, where the controller names none (nestjs-boilerplate's PATCH /api/v1/auth/me).
    const me = route('PATCH', '/{?configService.get()}/auth/me');
    assert.equal(isHttpCallMatch(call('PATCH', '/api/v1/auth/me'), me), true);
    assert.equal(isHttpCallMatch(call('PATCH', '/api/auth/me'), me), true);
    assert.equal(isHttpCallMatch(call('PATCH', '/api/beta/auth/me'), me), false);
  });

  test('a catch-all route is matched only when no other route is, and a route that is only a catch-all never', () => {
    const match = createHttpCallMatcher([
      { id: 'route:GET /api/items/:id', method: 'GET', path: '/api/items/:id' },
      { id: 'route:GET /api/items/export', method: 'GET', path: '/api/items/export' },
      { id: 'route:GET /api/*', method: 'GET', path: '/api/*' },
      { id: 'route:GET *', method: 'GET', path: '/*' },
    ]);
    const ids = (path: string): string[] => match({ method: 'GET', path, client: 'fetch', line: 1 }).map((route) => route.id);
    assert.deepEqual(ids('/api/items/7'), ['route:GET /api/items/:id']);
    assert.deepEqual(ids('/api/items/{id}').sort(), ['route:GET /api/items/:id', 'route:GET /api/items/export']);
    assert.deepEqual(ids('/api/health'), ['route:GET /api/*']);
    assert.deepEqual(ids('/about'), []);
  });
});

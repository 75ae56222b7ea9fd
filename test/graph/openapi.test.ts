import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import type { RouteFact } from '../../src/model/facts.js';
import { extractOpenApiRoutes } from '../../src/graph/openapi.js';

const route = (method: string, path: string, contract: RouteFact['contract'] = { security: 'unspecified', responses: [] }): RouteFact => ({
  method,
  path,
  framework: 'openapi',
  kind: 'api',
  line: 1,
  contract,
});

describe('extractOpenApiRoutes', () => {
  test('OpenAPI 3 document: one route per path and operation', () => {
    const doc = parseYaml(
      [
        'openapi: 3.1.0',
        'info: { title: Shop, version: "1" }',
        'servers: [{ url: https://api.example.test/v1 }]',
        'paths:',
        '  /users/{userId}/orders/{orderId}:',
        '    parameters: [{ name: userId, in: path }]',
        '    get: { responses: {} }',
        '    delete: { responses: {} }',
        '  /users:',
        '    summary: Users',
        '    post: { responses: {} }',
        '    trace: { responses: {} }',
        '    x-internal: { responses: {} }',
      ].join('\n'),
    );
    assert.deepEqual(extractOpenApiRoutes(doc), [
      route('POST', '/users'),
      route('TRACE', '/users'),
      route('GET', '/users/:userId/orders/:orderId'),
      route('DELETE', '/users/:userId/orders/:orderId'),
    ]);
  });

  test('Swagger 2 document', () => {
    const doc = { swagger: '2.0', basePath: '/api', paths: { '/pets/{id}': { get: {}, put: {}, patch: {}, head: {}, options: {} } } };
    assert.deepEqual(
      extractOpenApiRoutes(doc),
      ['GET', 'PUT', 'OPTIONS', 'HEAD', 'PATCH'].map((m) => route(m, '/pets/:id')),
    );
  });

  test('the contract: operation security over the document security, [] or {} as public, declared response keys', () => {
    const doc = parseYaml(
      [
        'openapi: 3.0.3',
        'info: { title: Shop, version: "1" }',
        'security: [{ bearer: [] }]',
        'paths:',
        '  /me:',
        '    get: { responses: { "200": { description: me }, "401": { description: login }, 4xx: {}, default: {}, x-note: {} } }',
        '  /health:',
        '    get: { security: [], responses: { "200": { description: ok } } }',
        '  /items/{id}:',
        '    get: { security: [{}, { bearer: [] }], responses: { "200": { description: item } } }',
        '    put: { security: [{ oauth: [write] }], responses: "none" }',
      ].join('\n'),
    );
    assert.deepEqual(extractOpenApiRoutes(doc), [
      route('GET', '/health', { security: 'none', responses: ['200'] }),
      route('GET', '/items/:id', { security: 'none', responses: ['200'] }),
      route('PUT', '/items/:id', { security: 'required', responses: [] }),
      route('GET', '/me', { security: 'required', responses: ['200', '401', '4XX', 'default'] }),
    ]);
  });

  test('anything else gives no routes and never throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
      },
    );
    const inputs: unknown[] = [
      null,
      undefined,
      42,
      'openapi: 3.0.0',
      [],
      { openapi: '2.0', paths: { '/a': { get: {} } } },
      { openapi: 3, paths: { '/a': { get: {} } } },
      { name: 'package', version: '1.0.0' },
      { openapi: '3.0.3', paths: null },
      { openapi: '3.0.3', paths: [{ get: {} }] },
      { openapi: '3.0.3', paths: { a: { get: {} }, '/b': 'x', '/c': { get: 'no', post: null } } },
      { openapi: '3.0.3', paths: hostile },
      hostile,
      JSON.parse('{"openapi":"3.0.0","paths":{"__proto__":{"get":{}}}}'),
    ];
    for (const input of inputs) assert.deepEqual(extractOpenApiRoutes(input), []);
  });
});

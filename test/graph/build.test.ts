import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFacts, type FileFacts, type ImportFact, type ImportKind } from '../../src/model/facts.js';
import type { Resolution } from '../../src/model/resolve.js';
import type { EdgeAttributes, EdgeKind, GraphInput } from '../../src/model/graph.js';
import { buildKnowledgeGraph, type KnowledgeGraph } from '../../src/graph/build.js';
import { joinRoutePaths } from '../../src/graph/parse/route-calls.js';
import { getGraphCounts } from '../../src/graph/queries/graph-counts.js';
import { withoutDocuments } from '../helpers/graph-input.js';
import { graphologyOf } from '../helpers/graph-store.js';

function makeFacts(partial: Partial<FileFacts>): FileFacts {
  return { ...emptyFacts(10), ...partial };
}

function named(specifier: string, kind: ImportKind, line: number, names: string[], typeOnly = false): ImportFact {
  return {
    specifier,
    kind,
    typeOnly,
    line,
    names: names.map((name) => {
      const [imported = name, local = imported] = name.split(' as ');
      return { imported, local, typeOnly };
    }),
  };
}

const relative = (specifier: string, target: string): Resolution => ({ specifier, kind: 'relative', target });

function buildShopInput(): GraphInput {
  const files: GraphInput['files'] = [
    {
      path: 'src/app.ts',
      size: 100,
      hash: 'h-app',
      facts: makeFacts({
        imports: [
          named('express', 'static', 1, ['default as express']),
          named('./routes/users.js', 'static', 2, ['default as usersRouter']),
          named('./nope.js', 'static', 3, []),
        ],
        routes: [{ method: 'GET', path: '/health', framework: 'express', kind: 'api', line: 4, router: 'app' }],
        mounts: [{ prefix: '/api', target: 'usersRouter', line: 5, receiver: 'app', offset: 200 }],
      }),
    },
    {
      path: 'src/routes/users.ts',
      size: 200,
      hash: 'h-routes',
      facts: makeFacts({
        imports: [named('../controllers/users.js', 'static', 1, ['listUsers']), named('../model/user.js', 'static', 2, ['User'], true)],
        exports: [{ name: 'default', kind: 'default', span: { start: 8, end: 8 }, typeOnly: false, local: 'router' }],
        routes: [
          {
            method: 'GET',
            path: '/users',
            framework: 'express',
            kind: 'api',
            line: 5,
            router: 'router',
            handler: 'listUsers',
            handlerEntry: { name: 'listUsers', inline: false, span: { start: 5, end: 5 }, refs: ['listUsers'] },
          },
          { method: 'POST', path: '/users', framework: 'express', kind: 'api', line: 6, router: 'router', handler: 'createUser' },
        ],
      }),
    },
    {
      path: 'src/controllers/users.ts',
      size: 150,
      hash: 'h-controllers',
      facts: makeFacts({
        imports: [named('../db/index.js', 'static', 1, ['findUsers', 'connect'])],
        exports: [{ name: 'listUsers', kind: 'function', span: { start: 3, end: 9 }, typeOnly: false }],
        callables: [{ name: 'listUsers', span: { start: 3, end: 9 }, refs: ['findUsers'] }],
      }),
    },
    {
      path: 'src/db/index.ts',
      size: 60,
      hash: 'h-db-index',
      facts: makeFacts({
        imports: [named('./users-table.js', 'reexport-all', 1, []), named('./connection.js', 'reexport', 2, ['connect'])],
        exports: [
          { name: 'connect', kind: 'reexport', span: { start: 2, end: 2 }, typeOnly: false, from: './connection.js', imported: 'connect' },
        ],
      }),
    },
    {
      path: 'src/db/users-table.ts',
      size: 80,
      hash: 'h-table',
      facts: makeFacts({ exports: [{ name: 'findUsers', kind: 'function', span: { start: 1, end: 4 }, typeOnly: false }] }),
    },
    {
      path: 'src/db/connection.ts',
      size: 70,
      hash: 'h-connection',
      facts: makeFacts({ exports: [{ name: 'connect', kind: 'function', span: { start: 1, end: 5 }, typeOnly: false }] }),
    },
    {
      path: 'src/model/user.ts',
      size: 40,
      hash: 'h-user',
      facts: makeFacts({ exports: [{ name: 'User', kind: 'interface', span: { start: 1, end: 3 }, typeOnly: true }] }),
    },
    {
      path: 'test/users.test.ts',
      size: 300,
      hash: 'h-test',
      facts: makeFacts({
        imports: [named('../src/controllers/users.js', 'static', 1, ['listUsers']), named('../src/db/index.js', 'static', 2, ['* as db'])],
        mocks: [
          { specifier: '../src/db/index.js', framework: 'vitest', line: 3 },
          { specifier: '../src/db/connection.js', framework: 'vitest', line: 4 },
          { specifier: './missing.js', framework: 'vitest', line: 5 },
        ],
        tests: [
          {
            kind: 'suite',
            titlePath: ['users'],
            span: { start: 6, end: 20 },
            modifiers: [],
            assertions: 0,
            trivialAssertions: 0,
            snapshotAssertions: 0,
            unawaitedAssertions: 0,
            swallowedErrors: 0,
            isAsync: false,
          },
          {
            kind: 'test',
            titlePath: ['users', 'lists users'],
            span: { start: 7, end: 10 },
            modifiers: [],
            assertions: 2,
            trivialAssertions: 0,
            snapshotAssertions: 0,
            unawaitedAssertions: 0,
            swallowedErrors: 0,
            isAsync: true,
          },
          {
            kind: 'test',
            titlePath: ['users', 'lists users'],
            span: { start: 11, end: 14 },
            modifiers: ['skip'],
            assertions: 1,
            trivialAssertions: 1,
            snapshotAssertions: 0,
            unawaitedAssertions: 0,
            swallowedErrors: 0,
            isAsync: false,
          },
        ],
      }),
    },
    { path: 'openapi.yaml', size: 500, hash: 'h-openapi' },
    { path: 'docs/adr/0001-use-express.md', size: 90, hash: 'h-adr' },
    { path: 'package.json', size: 50, hash: 'h-pkg' },
  ];
  const resolutions = new Map<string, Resolution[]>([
    [
      'src/app.ts',
      [
        { specifier: 'express', kind: 'external', packageName: 'express' },
        relative('./routes/users.js', 'src/routes/users.ts'),
        { specifier: './nope.js', kind: 'unresolved', reason: 'file not found' },
      ],
    ],
    [
      'src/routes/users.ts',
      [relative('../controllers/users.js', 'src/controllers/users.ts'), relative('../model/user.js', 'src/model/user.ts')],
    ],
    ['src/controllers/users.ts', [relative('../db/index.js', 'src/db/index.ts')]],
    ['src/db/index.ts', [relative('./users-table.js', 'src/db/users-table.ts'), relative('./connection.js', 'src/db/connection.ts')]],
    [
      'test/users.test.ts',
      [
        relative('../src/controllers/users.js', 'src/controllers/users.ts'),
        relative('../src/db/index.js', 'src/db/index.ts'),
        relative('../src/db/connection.js', 'src/db/connection.ts'),
      ],
    ],
  ]);
  return {
    files,
    resolutions,
    openApiRoutes: [
      {
        path: 'openapi.yaml',
        routes: [
          { method: 'GET', path: '/api/users', framework: 'openapi', kind: 'api', line: 10 },
          { method: 'GET', path: '/api/orders', framework: 'openapi', kind: 'api', line: 20 },
        ],
      },
    ],
    codeowners: { path: '.github/CODEOWNERS', text: '* @org/core\n/src/db/ @dba-lead\n' },
    decisions: [
      {
        path: 'docs/adr/0001-use-express.md',
        title: 'Use Express for the HTTP layer',
        text: '# Use Express for the HTTP layer\n\nThe app in src/app.ts mounts routers. GET /api/users calls `listUsers`.\n',
      },
    ],
    memory: [
      {
        path: '.checker/memory/db.yml',
        id: 'db-single-connection',
        kind: 'invariant',
        text: 'One connection per process.',
        paths: ['src/db/**'],
        terms: [],
      },
    ],
    skills: [{ name: 'release', description: 'Cut a release.', path: '.agents/skills/release/SKILL.md' }],
    checks: [{ name: 'unit', command: 'npm test', source: '.checker/config.yml' }],
    packages: [{ name: 'shop', folder: '', version: '1.0.0', dependencies: ['express'] }],
  };
}

function getEdges(knowledge: KnowledgeGraph, kind: EdgeKind): string[] {
  const edges: string[] = [];
  knowledge.graph.forEachEdge((_key, attributes, source, target) => {
    if (attributes.kind === kind) edges.push(`${source} -> ${target}`);
  });
  return edges.sort();
}

/** The attributes of the one `kind` edge from `source` to `target`. */
function getEdge(knowledge: KnowledgeGraph, kind: EdgeKind, source: string, target: string): EdgeAttributes | undefined {
  const found = graphologyOf(knowledge).filterEdges(source, target, (_key, attributes) => attributes.kind === kind);
  assert.equal(found.length, 1, `one ${kind} edge ${source} -> ${target}`);
  return graphologyOf(knowledge).getEdgeAttributes(found[0] ?? '');
}

function getNodes(knowledge: KnowledgeGraph, kind: string): string[] {
  return graphologyOf(knowledge)
    .filterNodes((_id, attributes) => attributes.kind === kind)
    .sort();
}

test('builds nodes of every kind with the documented ids', () => {
  const knowledge = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(getNodes(knowledge, 'file'), [
    'file:docs/adr/0001-use-express.md',
    'file:openapi.yaml',
    'file:package.json',
    'file:src/app.ts',
    'file:src/controllers/users.ts',
    'file:src/db/connection.ts',
    'file:src/db/index.ts',
    'file:src/db/users-table.ts',
    'file:src/model/user.ts',
    'file:src/routes/users.ts',
    'file:test/users.test.ts',
  ]);
  assert.deepEqual(getNodes(knowledge, 'export'), [
    'export:src/controllers/users.ts#listUsers',
    'export:src/db/connection.ts#connect',
    'export:src/db/index.ts#connect',
    'export:src/db/users-table.ts#findUsers',
    'export:src/model/user.ts#User',
    'export:src/routes/users.ts#default',
  ]);
  assert.deepEqual(getNodes(knowledge, 'test'), [
    'test:test/users.test.ts#users',
    'test:test/users.test.ts#users > lists users',
    'test:test/users.test.ts#users > lists users [2]',
  ]);
  assert.deepEqual(getNodes(knowledge, 'route'), [
    'route:GET /api/orders',
    'route:GET /api/users',
    'route:GET /health',
    'route:POST /api/users',
  ]);
  assert.deepEqual(getNodes(knowledge, 'owner'), ['owner:@dba-lead', 'owner:@org/core']);
  assert.deepEqual(getNodes(knowledge, 'package'), ['package:express', 'package:shop']);
  assert.deepEqual(getNodes(knowledge, 'decision'), ['decision:docs/adr/0001-use-express.md']);
  assert.deepEqual(getNodes(knowledge, 'memory'), ['memory:.checker/memory/db.yml#db-single-connection']);
  assert.deepEqual(getNodes(knowledge, 'skill'), ['skill:release']);
  assert.deepEqual(getNodes(knowledge, 'check'), ['check:unit']);

  assert.deepEqual(knowledge.graph.getNodeAttributes('file:test/users.test.ts'), {
    kind: 'file',
    path: 'test/users.test.ts',
    language: 'ts',
    size: 300,
    hash: 'h-test',
    role: 'test',
    lines: 10,
  });
  const roles = graphologyOf(knowledge)
    .mapNodes((_id, attributes) => (attributes.kind === 'file' ? `${attributes.path}=${attributes.role}` : ''))
    .filter(Boolean)
    .sort();
  assert.deepEqual(roles, [
    'docs/adr/0001-use-express.md=doc',
    'openapi.yaml=config',
    'package.json=manifest',
    'src/app.ts=source',
    'src/controllers/users.ts=source',
    'src/db/connection.ts=source',
    'src/db/index.ts=source',
    'src/db/users-table.ts=source',
    'src/model/user.ts=source',
    'src/routes/users.ts=source',
    'test/users.test.ts=test',
  ]);
  assert.deepEqual(knowledge.graph.getNodeAttributes('test:test/users.test.ts#users > lists users [2]'), {
    kind: 'test',
    file: 'test/users.test.ts',
    testKind: 'test',
    titlePath: ['users', 'lists users'],
    span: { start: 11, end: 14 },
    modifiers: ['skip'],
    assertions: 1,
    trivialAssertions: 1,
    snapshotAssertions: 0,
    unawaitedAssertions: 0,
    swallowedErrors: 0,
    isAsync: false,
  });
});

test('builds import, re-export, declares and uses edges, type-only marked', () => {
  const knowledge = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(getEdges(knowledge, 'imports'), [
    'file:src/app.ts -> file:src/routes/users.ts',
    'file:src/controllers/users.ts -> file:src/db/index.ts',
    'file:src/routes/users.ts -> file:src/controllers/users.ts',
    'file:src/routes/users.ts -> file:src/model/user.ts',
    'file:test/users.test.ts -> file:src/controllers/users.ts',
    'file:test/users.test.ts -> file:src/db/index.ts',
  ]);
  assert.deepEqual(getEdge(knowledge, 'imports', 'file:src/routes/users.ts', 'file:src/model/user.ts'), {
    kind: 'imports',
    specifier: '../model/user.js',
    line: 2,
    names: ['User'],
    typeOnly: true,
    dynamic: false,
    require: false,
  });
  assert.deepEqual(getEdges(knowledge, 'reexports'), [
    'file:src/db/index.ts -> file:src/db/connection.ts',
    'file:src/db/index.ts -> file:src/db/users-table.ts',
  ]);
  assert.deepEqual(getEdge(knowledge, 'reexports', 'file:src/db/index.ts', 'file:src/db/users-table.ts'), {
    kind: 'reexports',
    specifier: './users-table.js',
    line: 1,
    names: [],
    typeOnly: false,
    all: true,
  });
  assert.deepEqual(getEdges(knowledge, 'declares'), [
    'file:src/controllers/users.ts -> export:src/controllers/users.ts#listUsers',
    'file:src/db/connection.ts -> export:src/db/connection.ts#connect',
    'file:src/db/index.ts -> export:src/db/index.ts#connect',
    'file:src/db/users-table.ts -> export:src/db/users-table.ts#findUsers',
    'file:src/model/user.ts -> export:src/model/user.ts#User',
    'file:src/routes/users.ts -> export:src/routes/users.ts#default',
    'file:test/users.test.ts -> test:test/users.test.ts#users',
    'file:test/users.test.ts -> test:test/users.test.ts#users > lists users',
    'file:test/users.test.ts -> test:test/users.test.ts#users > lists users [2]',
  ]);
  assert.deepEqual(getEdges(knowledge, 'uses'), [
    'file:src/app.ts -> export:src/routes/users.ts#default',
    'file:src/controllers/users.ts -> export:src/db/connection.ts#connect',
    'file:src/controllers/users.ts -> export:src/db/index.ts#connect',
    'file:src/controllers/users.ts -> export:src/db/users-table.ts#findUsers',
    'file:src/routes/users.ts -> export:src/controllers/users.ts#listUsers',
    'file:src/routes/users.ts -> export:src/model/user.ts#User',
    'file:test/users.test.ts -> export:src/controllers/users.ts#listUsers',
  ]);
  assert.deepEqual(getEdge(knowledge, 'uses', 'file:src/controllers/users.ts', 'export:src/db/users-table.ts#findUsers'), {
    kind: 'uses',
    locals: ['findUsers'],
    typeOnly: false,
    line: 1,
    through: ['src/db/index.ts'],
  });
  assert.deepEqual(getEdge(knowledge, 'uses', 'file:src/routes/users.ts', 'export:src/model/user.ts#User'), {
    kind: 'uses',
    locals: ['User'],
    typeOnly: true,
    line: 2,
    through: [],
  });
  assert.deepEqual(knowledge.unresolvedImports, [
    { from: 'src/app.ts', specifier: './nope.js', line: 3, reason: 'file not found' },
    {
      from: 'test/users.test.ts',
      specifier: './missing.js',
      line: 5,
      reason: 'mocked specifier has no resolution (the file does not import it)',
    },
  ]);
  assert.deepEqual(knowledge.externalImports, [{ from: 'src/app.ts', specifier: 'express', line: 1, packageName: 'express' }]);
});

test('builds tests and mocks edges, resolving mocks by specifier', () => {
  const knowledge = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(getEdges(knowledge, 'tests'), [
    'file:test/users.test.ts -> file:src/controllers/users.ts',
    'file:test/users.test.ts -> file:src/db/index.ts',
  ]);
  assert.deepEqual(getEdges(knowledge, 'mocks'), [
    'file:test/users.test.ts -> file:src/db/connection.ts',
    'file:test/users.test.ts -> file:src/db/index.ts',
  ]);
  assert.deepEqual(getEdge(knowledge, 'mocks', 'file:test/users.test.ts', 'file:src/db/connection.ts'), {
    kind: 'mocks',
    specifier: '../src/db/connection.js',
    line: 4,
    framework: 'vitest',
  });
});

test('prefixes routes mounted from another file and merges OpenAPI declarations', () => {
  const knowledge = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(knowledge.graph.getNodeAttributes('route:GET /api/users'), {
    kind: 'route',
    method: 'GET',
    path: '/api/users',
    framework: 'express',
    routeKind: 'api',
    file: 'src/routes/users.ts',
    line: 5,
    handler: 'listUsers',
    sources: [
      { file: 'openapi.yaml', line: 10, framework: 'openapi', declaredPath: '/api/users' },
      { file: 'src/routes/users.ts', line: 5, framework: 'express', declaredPath: '/users' },
    ],
    registrations: [
      {
        file: 'src/routes/users.ts',
        line: 5,
        span: { start: 5, end: 5 },
        chain: [
          {
            role: 'handler',
            name: 'listUsers',
            file: 'src/routes/users.ts',
            span: { start: 5, end: 5 },
            targets: ['src/controllers/users.ts#listUsers'],
            dynamic: false,
          },
        ],
        mounts: [{ file: 'src/app.ts', line: 5, span: { start: 5, end: 5 } }],
      },
    ],
  });
  assert.deepEqual(getEdges(knowledge, 'handles'), [
    'route:GET /api/users -> file:src/controllers/users.ts',
    'route:GET /api/users -> file:src/routes/users.ts',
    'route:GET /health -> file:src/app.ts',
    'route:POST /api/users -> file:src/routes/users.ts',
  ]);
  assert.deepEqual(knowledge.unmatchedMounts, []);
});

test('follows nested mounts and keeps unmatched mounts unprefixed', () => {
  const input: GraphInput = {
    files: [
      {
        path: 'server.js',
        size: 1,
        hash: 'a',
        facts: makeFacts({
          imports: [named('./routes/index.js', 'require', 1, ['* as routes']), named('./admin.js', 'static', 2, ['default as admin'])],
          mounts: [
            { prefix: '/v1', target: 'routes', line: 3, receiver: 'app' },
            { prefix: '/admin', target: 'admin', line: 4, receiver: 'app' },
            { prefix: '/ghost', target: 'ghost', line: 5, receiver: 'app' },
          ],
        }),
      },
      {
        path: 'routes/index.js',
        size: 1,
        hash: 'b',
        facts: makeFacts({
          imports: [named('./orders.js', 'static', 1, ['ordersRouter'])],
          mounts: [{ prefix: '/orders', target: 'ordersRouter', line: 2, receiver: 'router' }],
        }),
      },
      {
        path: 'routes/orders.js',
        size: 1,
        hash: 'c',
        facts: makeFacts({
          routes: [
            { method: 'GET', path: '/:id', framework: 'express', kind: 'api', line: 3, router: 'ordersRouter' },
            { method: 'GET', path: '/internal', framework: 'express', kind: 'api', line: 4, router: 'debugRouter' },
          ],
        }),
      },
      {
        path: 'admin.js',
        size: 1,
        hash: 'd',
        facts: makeFacts({
          routes: [
            { method: 'GET', path: '/stats', framework: 'express', kind: 'api', line: 3, router: 'a' },
            { method: 'GET', path: '/users', framework: 'express', kind: 'api', line: 4, router: 'b' },
          ],
        }),
      },
    ],
    resolutions: new Map([
      ['server.js', [relative('./routes/index.js', 'routes/index.js'), relative('./admin.js', 'admin.js')]],
      ['routes/index.js', [relative('./orders.js', 'routes/orders.js')]],
    ]),
    ...withoutDocuments(),
  };
  const knowledge = buildKnowledgeGraph(input);
  assert.deepEqual(getNodes(knowledge, 'route'), [
    'route:GET /internal',
    'route:GET /stats',
    'route:GET /users',
    'route:GET /v1/orders/:id',
  ]);
  assert.deepEqual(knowledge.unmatchedMounts, [
    {
      file: 'server.js',
      prefix: '/admin',
      target: 'admin',
      line: 4,
      reason: 'admin.js declares routes on several routers (a, b) and the mounted one cannot be told apart',
    },
    {
      file: 'server.js',
      prefix: '/ghost',
      target: 'ghost',
      line: 5,
      reason: '"ghost" is neither imported nor declared at the top of server.js',
    },
  ]);
  assert.equal(joinRoutePaths('/api/', '/'), '/api');
  assert.equal(joinRoutePaths('', 'users'), '/users');
  assert.equal(joinRoutePaths('/api', 'users/'), '/api/users');
  assert.equal(joinRoutePaths('', '/'), '/');
});

test('builds owners, packages and mentions edges', () => {
  const knowledge = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(getEdges(knowledge, 'owns'), [
    'owner:@dba-lead -> file:src/db/connection.ts',
    'owner:@dba-lead -> file:src/db/index.ts',
    'owner:@dba-lead -> file:src/db/users-table.ts',
    'owner:@org/core -> file:docs/adr/0001-use-express.md',
    'owner:@org/core -> file:openapi.yaml',
    'owner:@org/core -> file:package.json',
    'owner:@org/core -> file:src/app.ts',
    'owner:@org/core -> file:src/controllers/users.ts',
    'owner:@org/core -> file:src/model/user.ts',
    'owner:@org/core -> file:src/routes/users.ts',
    'owner:@org/core -> file:test/users.test.ts',
  ]);
  assert.deepEqual(getEdges(knowledge, 'depends'), ['package:shop -> package:express']);
  assert.equal(getEdges(knowledge, 'belongs').length, 11);
  assert.deepEqual(
    getEdges(knowledge, 'belongs').filter((edge) => !edge.endsWith('-> package:shop')),
    [],
  );
  assert.deepEqual(getEdges(knowledge, 'mentions'), [
    'decision:docs/adr/0001-use-express.md -> export:src/controllers/users.ts#listUsers',
    'decision:docs/adr/0001-use-express.md -> file:src/app.ts',
    'decision:docs/adr/0001-use-express.md -> route:GET /api/users',
    'memory:.checker/memory/db.yml#db-single-connection -> file:src/db/connection.ts',
    'memory:.checker/memory/db.yml#db-single-connection -> file:src/db/index.ts',
    'memory:.checker/memory/db.yml#db-single-connection -> file:src/db/users-table.ts',
  ]);
  const decision = knowledge.graph.getNodeAttributes('decision:docs/adr/0001-use-express.md');
  assert.equal(decision.kind, 'decision');
  if (decision.kind === 'decision') assert.deepEqual(decision.terms.slice(0, 3), ['app', 'express', 'http']);
  assert.deepEqual(getGraphCounts(knowledge), {
    nodes: 32,
    edges: 61,
    nodesByKind: { file: 11, export: 6, route: 4, test: 3, owner: 2, decision: 1, memory: 1, contract: 0, package: 2, skill: 1, check: 1 },
    edgesByKind: {
      imports: 6,
      reexports: 2,
      declares: 9,
      uses: 7,
      tests: 2,
      mocks: 2,
      handles: 4,
      owns: 11,
      mentions: 6,
      belongs: 11,
      depends: 1,
      guards: 0,
      calls: 0,
    },
  });
});

function shuffle<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    const current = copy[index];
    const swapped = copy[other];
    if (current === undefined || swapped === undefined) continue;
    copy[index] = swapped;
    copy[other] = current;
  }
  return copy;
}

test('yields the same ids, attributes and insertion order for shuffled input', () => {
  const first = buildKnowledgeGraph(buildShopInput());
  const input = buildShopInput();
  const shuffled: GraphInput = {
    ...input,
    files: shuffle(input.files, 7),
    resolutions: new Map(shuffle([...input.resolutions], 3)),
    memory: shuffle(input.memory, 5),
  };
  assert.notDeepEqual(
    shuffled.files.map((file) => file.path),
    input.files.map((file) => file.path),
  );
  const second = buildKnowledgeGraph(shuffled);
  assert.deepEqual(exportWithoutEdgeKeys(second), exportWithoutEdgeKeys(first));
  assert.deepEqual(second.unresolvedImports, first.unresolvedImports);
});

/** Nodes and edges in insertion order; edge keys are graphology's own, numbered per graph instance. */
function exportWithoutEdgeKeys(knowledge: KnowledgeGraph): unknown {
  const exported = graphologyOf(knowledge).export();
  return { ...exported, edges: exported.edges.map(({ key: _key, ...edge }) => edge) };
}

test('records parse failures on the file node', () => {
  const knowledge = buildKnowledgeGraph({
    files: [
      { path: 'src/broken.ts', size: 5, hash: 'x', facts: emptyFacts(3, { code: 'parse/syntax', message: 'Unexpected token', line: 2 }) },
    ],
    resolutions: new Map(),
    ...withoutDocuments(),
  });
  assert.deepEqual(knowledge.parseFailures, [
    { path: 'src/broken.ts', failure: { code: 'parse/syntax', message: 'Unexpected token', line: 2 } },
  ]);
  const node = knowledge.graph.getNodeAttributes('file:src/broken.ts');
  assert.equal(node.kind === 'file' ? node.parseFailure?.code : undefined, 'parse/syntax');
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildImpactFixture, json, type ImpactFixture } from '../helpers/impact-fixtures.js';

/** The route nodes of the graph, as `METHOD path (file)`, sorted. */
function listRoutes(fixture: ImpactFixture): string[] {
  const routes: string[] = [];
  fixture.built.kg.graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'route') routes.push(`${attributes.method} ${attributes.path} (${attributes.file})`);
  });
  return routes.sort();
}

const page = (name: string): string => `export default function ${name}(): string {\n  return '${name}';\n}\n`;

// A workspace whose Next.js app and whose Vite console both keep components under `src/pages/`, as logto's console does.
const FILES = {
  'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
  'packages/web/package.json': json({ name: 'web', dependencies: { next: '15.0.0', react: '19.0.0' } }),
  'packages/web/src/pages/orders/[id].tsx': page('Order'),
  'packages/web/src/pages/api/orders.ts': page('handler'),
  'packages/console/package.json': json({ name: 'console', dependencies: { react: '19.0.0', vite: '6.0.0' } }),
  'packages/console/src/pages/SignIn/index.tsx': page('SignIn'),
  'packages/console/src/pages/api/Keys.tsx': page('Keys'),
  'packages/admin/package.json': json({ name: 'admin', dependencies: { react: '19.0.0' } }),
  'packages/admin/next.config.mjs': 'export default {};\n',
  'packages/admin/src/app/users/page.tsx': page('Users'),
};

describe('Next.js routes only where the package serves Next.js', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('a package that declares next or keeps a next.config has its routes; a Vite console under src/pages/ has none', () => {
    assert.deepEqual(listRoutes(fixture), [
      'ALL /api/orders (packages/web/src/pages/api/orders.ts)',
      'PAGE /orders/:id (packages/web/src/pages/orders/[id].tsx)',
      'PAGE /users (packages/admin/src/app/users/page.tsx)',
    ]);
  });
});

describe('Next.js routes in a tree without a manifest', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture({ 'pages/about.tsx': page('About') });
  });
  after(() => fixture.repo.cleanup());

  test('keep the file conventions: nothing says the tree is not a Next.js app', () => {
    assert.deepEqual(listRoutes(fixture), ['PAGE /about (pages/about.tsx)']);
  });
});

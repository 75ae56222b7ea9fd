import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFacts, type FileFacts } from '../../src/model/facts.js';
import type { Resolution } from '../../src/model/resolve.js';
import { createLinkIndex, listImporters, selectFocusedFiles } from '../../src/graph/focus.js';

/**
 * app.ts mounts routes/users.ts, whose handler imports services/users.ts, which imports lib/db.ts and lib/strings.ts;
 * lib/strings.ts is also imported by tools/cli.ts (no route) and by index.ts; test/users.test.ts imports the service;
 * unrelated/a.ts imports unrelated/b.ts. Every file but the route file and the test was read for its links alone.
 */
const EDGES: [string, string][] = [
  ['app.ts', 'routes/users.ts'],
  ['routes/users.ts', 'services/users.ts'],
  ['services/users.ts', 'lib/db.ts'],
  ['services/users.ts', 'lib/strings.ts'],
  ['tools/cli.ts', 'lib/strings.ts'],
  ['index.ts', 'lib/strings.ts'],
  ['test/users.test.ts', 'services/users.ts'],
  ['unrelated/a.ts', 'unrelated/b.ts'],
];
const PATHS = [...new Set(EDGES.flat())];
const FULL = new Set(['routes/users.ts', 'test/users.test.ts']);

function select(changed: string[], withRoutes = true): string[] {
  const facts = new Map<string, { facts: FileFacts }>();
  for (const path of PATHS) {
    const own: FileFacts = emptyFacts(1);
    if (withRoutes && path === 'routes/users.ts')
      own.routes.push({ method: 'GET', path: '/users', framework: 'express', kind: 'api', line: 1 });
    facts.set(path, { facts: own });
  }
  const resolutions = new Map<string, Resolution[]>(PATHS.map((path) => [path, []]));
  for (const [from, to] of EDGES) resolutions.get(from)?.push({ specifier: `./${to}`, kind: 'relative', target: to });
  // A self-import and an external import lead nowhere.
  resolutions.get('lib/db.ts')?.push({ specifier: './db', kind: 'relative', target: 'lib/db.ts' }, { specifier: 'pg', kind: 'external' });
  const linkOnly = new Set(PATHS.filter((path) => !FULL.has(path)));
  const links = createLinkIndex();
  for (const [path, list] of resolutions) links.set(path, list);
  return selectFocusedFiles({ facts, linkOnly, links, changed });
}

test('a changed leaf needs every importer however indirect, and what the route file imports however indirectly', () => {
  assert.deepEqual(select(['lib/strings.ts']), ['app.ts', 'index.ts', 'lib/db.ts', 'lib/strings.ts', 'services/users.ts', 'tools/cli.ts']);
});

test('without routes only the importers are needed: a file the change does not reach stays links-only', () => {
  assert.deepEqual(select(['lib/strings.ts'], false), ['app.ts', 'index.ts', 'lib/strings.ts', 'services/users.ts', 'tools/cli.ts']);
  assert.deepEqual(select(['unrelated/b.ts'], false), ['unrelated/a.ts', 'unrelated/b.ts']);
});

test('only links-only files are listed, sorted; a path the tree does not hold (a deleted file) adds nothing', () => {
  assert.deepEqual(select(['services/users.ts'], false), ['app.ts', 'services/users.ts']);
  assert.deepEqual(select(['gone.ts'], false), []);
});

test('a route file the change does not reach is not followed: its imports stay links-only', () => {
  assert.deepEqual(select(['unrelated/b.ts']), ['unrelated/a.ts', 'unrelated/b.ts']);
  assert.deepEqual(select(['tools/cli.ts']), ['tools/cli.ts']);
});

test('the link index replaces what a file imports when it is read again in full', () => {
  const links = createLinkIndex();
  links.set('a.ts', [{ specifier: './b', kind: 'relative', target: 'b.ts' }]);
  links.set('a.ts', [{ specifier: './c', kind: 'relative', target: 'c.ts' }]);
  assert.deepEqual([...(links.importers.get('b.ts') ?? [])], []);
  assert.deepEqual([...(links.importers.get('c.ts') ?? [])], ['a.ts']);
  assert.deepEqual(listImporters(links, ['c.ts']).sort(), ['a.ts', 'c.ts']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFacts, type ImportFact, type ImportKind } from '../../src/model/facts.js';
import type { Resolution } from '../../src/model/resolve.js';
import { buildKnowledgeGraph, type KnowledgeGraph } from '../../src/graph/build.js';
import { findReachingFiles, findReverseReach } from '../../src/graph/queries/reverse-reach.js';
import { compareText } from '../../src/text/compare-text.js';
import { withoutDocuments } from '../helpers/graph-input.js';

type Edge = [from: string, to: string, options?: { typeOnly?: boolean; kind?: ImportKind }];

function buildGraphFrom(paths: string[], edges: Edge[]): KnowledgeGraph {
  const imports = new Map<string, ImportFact[]>();
  const resolutions = new Map<string, Resolution[]>();
  for (const [from, to, options] of edges) {
    const specifier = `./${to}`;
    const list = imports.get(from) ?? [];
    list.push({ specifier, kind: options?.kind ?? 'static', typeOnly: options?.typeOnly ?? false, names: [], line: list.length + 1 });
    imports.set(from, list);
    const resolved = resolutions.get(from) ?? [];
    resolved.push({ specifier, kind: 'relative', target: to });
    resolutions.set(from, resolved);
  }
  return buildKnowledgeGraph({
    files: paths.map((path) => ({ path, size: 1, hash: path, facts: { ...emptyFacts(1), imports: imports.get(path) ?? [] } })),
    resolutions,
    ...withoutDocuments(),
  });
}

const FILES = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'index.ts', 't.ts', 'u.ts', 'lonely.ts'];
const EDGES: Edge[] = [
  ['b.ts', 'a.ts'],
  ['c.ts', 'b.ts'],
  ['t.ts', 'a.ts', { typeOnly: true }],
  ['u.ts', 't.ts'],
  ['d.ts', 'a.ts', { typeOnly: true }],
  ['d.ts', 'c.ts', { kind: 'dynamic' }],
  ['e.ts', 'f.ts'],
  ['f.ts', 'e.ts'],
  ['f.ts', 'b.ts'],
  ['index.ts', 'a.ts', { kind: 'reexport-all' }],
];

test('reports distances, via chains and type-only reach, seeds excluded', () => {
  const knowledge = buildGraphFrom(FILES, EDGES);
  assert.deepEqual(findReverseReach(knowledge, ['a.ts']), [
    { path: 'b.ts', distance: 1, via: ['a.ts'], typeOnly: false },
    { path: 'index.ts', distance: 1, via: ['a.ts'], typeOnly: false },
    { path: 't.ts', distance: 1, via: ['a.ts'], typeOnly: true },
    { path: 'c.ts', distance: 2, via: ['a.ts', 'b.ts'], typeOnly: false },
    { path: 'f.ts', distance: 2, via: ['a.ts', 'b.ts'], typeOnly: false },
    { path: 'u.ts', distance: 2, via: ['a.ts', 't.ts'], typeOnly: true },
    { path: 'd.ts', distance: 3, via: ['a.ts', 'b.ts', 'c.ts'], typeOnly: false },
    { path: 'e.ts', distance: 3, via: ['a.ts', 'b.ts', 'f.ts'], typeOnly: false },
  ]);
});

test('honours maxDistance and includeTypeOnly', () => {
  const knowledge = buildGraphFrom(FILES, EDGES);
  assert.deepEqual(
    findReverseReach(knowledge, ['a.ts'], { maxDistance: 1 }).map(
      (file) => `${file.path}@${file.distance}${file.typeOnly ? ' type-only' : ''}`,
    ),
    ['b.ts@1', 'd.ts@1 type-only', 'index.ts@1', 't.ts@1 type-only'],
  );
  assert.deepEqual(
    findReverseReach(knowledge, ['a.ts'], { includeTypeOnly: false }).map((file) => `${file.path}@${file.distance}`),
    ['b.ts@1', 'index.ts@1', 'c.ts@2', 'f.ts@2', 'd.ts@3', 'e.ts@3'],
  );
  assert.deepEqual(findReverseReach(knowledge, ['a.ts'], { maxDistance: 0 }), []);
});

test('walks from several seeds at once and terminates on cycles', () => {
  const knowledge = buildGraphFrom(FILES, EDGES);
  assert.deepEqual(findReverseReach(knowledge, ['e.ts', 't.ts', 'e.ts', 'missing.ts']), [
    { path: 'f.ts', distance: 1, via: ['e.ts'], typeOnly: false },
    { path: 'u.ts', distance: 1, via: ['t.ts'], typeOnly: false },
  ]);
  assert.deepEqual(findReverseReach(knowledge, ['lonely.ts']), []);
  assert.deepEqual(findReverseReach(knowledge, []), []);
});

test('gives the same answer for the same graph built from shuffled input', () => {
  const first = findReverseReach(buildGraphFrom(FILES, EDGES), ['a.ts']);
  const second = findReverseReach(buildGraphFrom([...FILES].reverse(), [...EDGES].reverse()), ['a.ts']);
  assert.deepEqual(second, first);
});

test('findReachingFiles lists every reacher of one file by path, type-only included, the file itself and non-files left out', () => {
  const knowledge = buildGraphFrom(FILES, EDGES);
  assert.deepEqual(findReachingFiles(knowledge, 'a.ts'), ['b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'index.ts', 't.ts', 'u.ts']);
  assert.deepEqual(findReachingFiles(knowledge, 'e.ts'), ['f.ts'], 'a cycle back to the seed does not list the seed');
  assert.deepEqual(findReachingFiles(knowledge, 'lonely.ts'), []);
  assert.deepEqual(findReachingFiles(knowledge, 'missing.ts'), []);
  for (const path of FILES) {
    const expected = findReverseReach(knowledge, [path])
      .map((entry) => entry.path)
      .sort(compareText);
    assert.deepEqual(findReachingFiles(knowledge, path), expected, path);
  }
});

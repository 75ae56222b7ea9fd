import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findReachingTests } from '../../src/graph/queries/find-reaching-tests.js';
import { findRouteImpacts } from '../../src/graph/queries/find-route-impacts.js';
import { findReverseReach } from '../../src/graph/queries/reverse-reach.js';
import { buildImpactFixture, json, reachOf, type ImpactFixture } from '../helpers/impact-fixtures.js';

const CALLS = 60;
const LINKS = 40;

/** `stepN` calls `stepN+1` inside one file; the deepest is the change. */
const renderCallChain = (): string =>
  Array.from({ length: CALLS }, (_, index) =>
    index === CALLS - 1
      ? `export function step${index}(value: number): number {\n  return value * 2;\n}\n`
      : `export function step${index}(value: number): number {\n  return step${index + 1}(value) + 1;\n}\n`,
  ).join('');

const linkPath = (index: number): string => `src/links/l${index}.ts`;

const FILES: Record<string, string> = {
  'package.json': json({ name: 'deep-calls', type: 'module', dependencies: { express: '^4.21.0' }, devDependencies: { vitest: '^2.1.0' } }),
  'tsconfig.json': json({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
  'src/calls.ts': renderCallChain(),
  'src/server.ts':
    "import express from 'express';\nimport { step0 } from './calls';\n\nexport const app = express();\n\napp.get('/deep', (req, res) => {\n  res.json({ value: step0(1) });\n});\n",
  ...Object.fromEntries(
    Array.from({ length: LINKS }, (_, index) => [
      linkPath(index),
      index === LINKS - 1
        ? `export const value${index} = 1;\n`
        : `import { value${index + 1} } from './l${index + 1}';\nexport const value${index} = value${index + 1} + 1;\n`,
    ]),
  ),
  'test/mocks-middle.test.ts':
    "import { it, vi } from 'vitest';\nimport '../src/links/l0';\nvi.mock('../src/links/l20');\nit('runs', () => {});\n",
  'test/mocks-aside.test.ts':
    "import { it, vi } from 'vitest';\nimport '../src/links/l0';\nvi.mock('../src/server');\nit('runs', () => {});\n",
};

describe('deep chains inside one file and under mocks', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('a call chain of 60 functions in one file: 16 steps at each end, the file listed once', () => {
    const changed = [{ path: 'src/calls.ts', changedLines: [3 * CALLS - 1] }];
    const routes = findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, ['src/calls.ts']));
    assert.equal(routes.length, 1);
    const route = routes[0];
    assert.equal(route?.reach, 'handler');
    assert.deepEqual(route?.chain, ['src/calls.ts', 'src/server.ts']);
    const calls = Array.from({ length: CALLS - 1 }, (_, index) => `calls step${index} (src/calls.ts)`);
    assert.deepEqual(route?.steps, [
      'handler GET /deep (src/server.ts:6)',
      ...calls.slice(0, 16),
      `… ${CALLS - 32} more calls …`,
      ...calls.slice(CALLS - 32 + 16),
      `changed step${CALLS - 1} (src/calls.ts:${3 * CALLS - 1})`,
    ]);
    assert.ok(route?.reason.includes(`→ … ${CALLS - 32} more calls … →`), route?.reason);
  });

  test('a test that mocks a file on its only chain is mocked away; one that mocks a file aside is not', () => {
    const tests = findReachingTests(fixture.built.kg, linkPath(LINKS - 1));
    assert.deepEqual(
      tests.map((item) => [item.testFile, item.distance, item.via.length, item.mocksChangedModule]),
      [
        ['test/mocks-aside.test.ts', LINKS, 33, false],
        ['test/mocks-middle.test.ts', LINKS, 33, true],
      ],
    );
    assert.equal(tests[0]?.via[16], `… ${LINKS - 32} more files …`);
  });

  test('reverse reach past 33 hops: the whole chain reached, via shortened in the middle', () => {
    const reached = findReverseReach(fixture.built.kg, [linkPath(LINKS - 1)]);
    const first = reached.find((file) => file.path === linkPath(0));
    assert.equal(first?.distance, LINKS - 1);
    const chain = Array.from({ length: LINKS - 1 }, (_, index) => linkPath(LINKS - 1 - index));
    assert.deepEqual(first?.via, [...chain.slice(0, 16), `… ${LINKS - 1 - 32} more files …`, ...chain.slice(LINKS - 1 - 16)]);
    const whole = reached.find((file) => file.path === linkPath(LINKS - 34));
    assert.equal(whole?.distance, 33);
    assert.deepEqual(whole?.via, chain.slice(0, 33));
  });

  test('reverse reach without via: the same files and distances, every via empty', () => {
    const withVia = findReverseReach(fixture.built.kg, [linkPath(LINKS - 1)]);
    const without = findReverseReach(fixture.built.kg, [linkPath(LINKS - 1)], { includeVia: false });
    assert.deepEqual(
      without,
      withVia.map((file) => ({ ...file, via: [] })),
    );
  });
});

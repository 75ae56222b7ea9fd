import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import type { Env } from '../../src/model/env.js';
import type { ReadTextOptions } from '../../src/model/repo-files.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/** `env` with every readText recorded as `path` → the options it was read with. */
function recordingReads(env: Env): { env: Env; reads: Map<string, ReadTextOptions[]> } {
  const reads = new Map<string, ReadTextOptions[]>();
  const files = {
    ...env.files,
    readText: (path: string, options: ReadTextOptions) => {
      reads.set(path, [...(reads.get(path) ?? []), options]);
      return env.files.readText(path, options);
    },
  };
  return { env: { ...env, files }, reads };
}

test('a JSON or YAML file is read whole for its routes only when its start says it is an OpenAPI description', async () => {
  const padding = 'x'.repeat(40_000);
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0' }),
    'src/index.ts': 'export const ready = true;\n',
    // A translation file of 40 kB, as outline has twenty: its start decides, it is never read whole.
    'locales/fr.json': JSON.stringify({ greeting: 'Bonjour', long: padding }),
    // A description longer than the start that is read: its routes come from the whole text.
    'docs/api.json': JSON.stringify(
      {
        openapi: '3.0.0',
        info: { title: 'shop', version: '1', description: padding },
        paths: { '/orders/list': { get: { responses: { '200': { description: 'ok' } } } } },
      },
      null,
      2,
    ),
    // The key past the first 4,096 characters is not looked for (as before the start was read alone).
    'docs/late.yaml': `info:\n  description: ${padding}\nopenapi: 3.0.0\npaths:\n  /late:\n    get:\n      responses: {}\n`,
  });
  const { env, reads } = recordingReads(createTestEnv(repo.dir, { useCache: false }));
  try {
    const repository = await buildRepositoryGraph(env);
    assert.ok(repository.kg.graph.hasNode('route:GET /orders/list'));
    assert.ok(!repository.kg.graph.hasNode('route:GET /late'));
    const whole = (path: string): boolean => (reads.get(path) ?? []).some((options) => options.head !== true);
    assert.deepEqual(
      ['locales/fr.json', 'docs/api.json', 'docs/late.yaml'].map((path) => [path, whole(path)]),
      [
        ['locales/fr.json', false],
        ['docs/api.json', true],
        ['docs/late.yaml', false],
      ],
    );
  } finally {
    repo.cleanup();
  }
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import { configSchema } from '../../src/model/config.js';

const full = {
  schemaVersion: 1,
  safety: { allowCommands: true },
  toolAdapters: {
    agentProcess: { command: 'agent', args: ['--quiet'], timeoutMs: 600000, profile: 'claude-code', bundleFormat: 'json' },
    coverage: { enabled: false, command: 'c8' },
  },
  checks: { lint: { command: 'npm run lint', paths: ['src/**'] }, unit: { argv: ['node', '--test'] } },
  products: {
    targets: { web: { baseUrl: 'http://localhost:3000', kind: 'ui', start: { command: 'npm run dev' }, healthcheck: { path: '/health' } } },
  },
  investigation: { provider: { kind: 'byok', endpoint: 'https://llm.example.invalid/v1', apiKeyEnv: 'CHECKER_KEY' } },
  analysis: {
    assertionHelpers: ['t.assertSnapshot'],
    maxFileBytes: 2048,
    ignore: ['fixtures/**'],
    defaultBranch: 'main',
    maxPromptTasks: 5,
  },
  context: { maxNodes: 120 },
};

const manyChecks = (count: number) => ({
  checks: Object.fromEntries(Array.from({ length: count }, (_, i) => [`c${i}`, { command: 'x' }])),
});

const cases: { name: string; data: unknown; ok: boolean }[] = [
  { name: 'every field', data: full, ok: true },
  { name: 'empty object', data: {}, ok: true },
  { name: 'unknown top-level key', data: { telemetry: true }, ok: false },
  { name: 'allowCommands as a string', data: { safety: { allowCommands: 'true' } }, ok: false },
  { name: 'schema version 2', data: { schemaVersion: 2 }, ok: false },
  { name: 'adapter without enabled', data: { toolAdapters: { coverage: { command: 'c8' } } }, ok: false },
  { name: 'unknown profile', data: { toolAdapters: { agentProcess: { command: 'a', profile: 'gpt' } } }, ok: false },
  { name: 'check with both forms', data: { checks: { lint: { command: 'a', argv: ['b'] } } }, ok: false },
  { name: 'check with neither form', data: { checks: { lint: { description: 'x' } } }, ok: false },
  { name: 'check with an empty argv', data: { checks: { lint: { argv: [] } } }, ok: false },
  { name: 'check name with a slash', data: { checks: { '../x': { command: 'a' } } }, ok: false },
  { name: '200 checks', data: manyChecks(200), ok: true },
  { name: '201 checks', data: manyChecks(201), ok: false },
  { name: 'file URL', data: { products: { targets: { web: { baseUrl: 'file:///etc/passwd', kind: 'ui' } } } }, ok: false },
  { name: 'http URL with a space', data: { products: { targets: { web: { baseUrl: 'http://a b', kind: 'ui' } } } }, ok: false },
  {
    name: 'healthcheck path without slash',
    data: { products: { targets: { w: { baseUrl: 'http://a', kind: 'api', healthcheck: { path: 'h' } } } } },
    ok: false,
  },
  { name: 'lower-case key variable', data: { investigation: { provider: { kind: 'local', apiKeyEnv: 'key' } } }, ok: false },
  { name: 'fractional maxNodes', data: { context: { maxNodes: 1.5 } }, ok: false },
  { name: 'maxNodes above 1000', data: { context: { maxNodes: 1001 } }, ok: false },
  { name: 'assertion helper with a semicolon', data: { analysis: { assertionHelpers: ['expect; rm'] } }, ok: false },
  { name: 'small maxFileBytes', data: { analysis: { maxFileBytes: 10 } }, ok: false },
];

describe('config contract', () => {
  it('the zod source and schemas/config.schema.json accept and refuse the same documents', () => {
    const validate = getValidator('config');
    for (const { name, data, ok } of cases) {
      assert.equal(configSchema.safeParse(data).success, ok, `zod: ${name}`);
      assert.equal(validate(data), ok, `ajv: ${name}`);
    }
  });
});

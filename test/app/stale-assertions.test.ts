import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import type { AgentBundle, BundleTask } from '../../src/model/bundle.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const MANIFEST = { 'package.json': JSON.stringify({ name: 'auth-lib', version: '1.0.0', type: 'module' }) };

const authSource = (message: string): string =>
  [
    'export function bearerAuth(options) {',
    '  if (!options || !options.token) {',
    `    throw new Error('${message}');`,
    '  }',
    '  return (req) => req.headers.authorization === `Bearer ${options.token}`;',
    '}',
    '',
  ].join('\n');

const OLD_MESSAGE = 'bearer auth middleware requires options for "token"';
const NEW_MESSAGE = 'bearerAuth needs a "token" or a "verifyToken" option';

const authTest = (assertion: string): string =>
  [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { bearerAuth } from '../src/auth.js';",
    '',
    "test('bearerAuth refuses a call without options', () => {",
    `  ${assertion}`,
    '});',
    '',
  ].join('\n');

const fixtures: ChangeFixture[] = [];
function createFixture(base: Record<string, string>, change: Record<string, string>): ChangeFixture {
  const fixture = createChangeFixture({ ...MANIFEST, ...base }, change);
  fixtures.push(fixture);
  return fixture;
}

async function readBundle(fixture: ChangeFixture): Promise<AgentBundle> {
  return (await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle')).report;
}

function findStaleTasks(bundle: AgentBundle): BundleTask[] {
  return [...bundle.tasks, ...bundle.taskOverflow].filter((task) => task.kind === 'stale-assertion');
}

describe('tasks for tests that assert a literal the change replaces', () => {
  after(() => {
    for (const fixture of fixtures) fixture.repo.cleanup();
  });

  test('a changed error message that a test asserts verbatim: one task naming the test file, line, old and new text', async () => {
    const fixture = createFixture(
      {
        'src/auth.js': authSource(OLD_MESSAGE),
        'test/auth.test.js': authTest(`assert.throws(() => bearerAuth(), { message: '${OLD_MESSAGE}' });`),
      },
      { 'src/auth.js': authSource(NEW_MESSAGE) },
    );
    const { report } = await runJsonReport<unknown>(fixture, ['ai'], 'agent-bundle');
    const validate = getValidator('agent-bundle');
    assert.ok(validate(report), JSON.stringify(validate.errors?.slice(0, 3)));
    const bundle = report as AgentBundle;
    const tasks = findStaleTasks(bundle);
    assert.equal(tasks.length, 1, JSON.stringify(tasks));
    const [task] = tasks;
    assert.match(task?.title ?? '', /test\/auth\.test\.js:6/);
    assert.ok(task?.title.includes(OLD_MESSAGE), task?.title);
    assert.ok(`${task?.title} ${task?.detail}`.includes(NEW_MESSAGE), task?.detail);
    const [evidence] = bundle.evidence.staleAssertions;
    assert.deepEqual(
      { testFile: evidence?.testFile, testLine: evidence?.testLine, path: evidence?.path, line: evidence?.line, before: evidence?.before },
      { testFile: 'test/auth.test.js', testLine: 6, path: 'src/auth.js', line: 3, before: OLD_MESSAGE },
    );
    assert.ok(task?.evidenceIds.includes(evidence?.id ?? ''), 'the task cites the evidence');
  });

  test('a text the change removes from one file that other source still says: no task (outline moved an authorize action)', async () => {
    const fixture = createFixture(
      {
        'src/auth.js': authSource(OLD_MESSAGE),
        'src/messages.js': `export const MISSING_TOKEN = '${OLD_MESSAGE}';\n`,
        'test/auth.test.js': authTest(`assert.throws(() => bearerAuth(), { message: '${OLD_MESSAGE}' });`),
      },
      { 'src/auth.js': authSource(NEW_MESSAGE) },
    );
    const bundle = await readBundle(fixture);
    assert.deepEqual(findStaleTasks(bundle), []);
    assert.deepEqual(bundle.evidence.staleAssertions, []);
  });

  test('the same change where no test holds the old text: no task', async () => {
    const fixture = createFixture(
      { 'src/auth.js': authSource(OLD_MESSAGE), 'test/auth.test.js': authTest('assert.throws(() => bearerAuth(), /token/);') },
      { 'src/auth.js': authSource(NEW_MESSAGE) },
    );
    const bundle = await readBundle(fixture);
    assert.deepEqual(findStaleTasks(bundle), []);
    assert.deepEqual(bundle.evidence.staleAssertions, []);
  });

  test('a message moved to another function of the same file, its text unchanged: no task', async () => {
    const moved = [
      'function requireToken(options) {',
      `  if (!options || !options.token) throw new Error('${OLD_MESSAGE}');`,
      '}',
      '',
      'export function bearerAuth(options) {',
      '  requireToken(options);',
      '  return (req) => req.headers.authorization === `Bearer ${options.token}`;',
      '}',
      '',
    ].join('\n');
    const fixture = createFixture(
      {
        'src/auth.js': authSource(OLD_MESSAGE),
        'test/auth.test.js': authTest(`assert.throws(() => bearerAuth(), { message: '${OLD_MESSAGE}' });`),
      },
      { 'src/auth.js': moved },
    );
    const bundle = await readBundle(fixture);
    assert.deepEqual(findStaleTasks(bundle), []);
    assert.deepEqual(bundle.evidence.staleAssertions, []);
  });

  test('a changed default that a test asserts next to the option name: a task', async () => {
    const client = (retries: number): string =>
      [`export function createClient({ retries = ${retries}, timeoutMs = 1000 } = {}) {`, '  return { retries, timeoutMs };', '}', ''].join(
        '\n',
      );
    const clientTest = [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      "import { createClient } from '../src/client.js';",
      '',
      "test('a client retries twice by default', () => {",
      '  const client = createClient();',
      '  assert.equal(client.retries, 2);',
      '  assert.equal(client.timeoutMs, 1000);',
      '});',
      '',
    ].join('\n');
    const fixture = createFixture({ 'src/client.js': client(2), 'test/client.test.js': clientTest }, { 'src/client.js': client(3) });
    const bundle = await readBundle(fixture);
    const tasks = findStaleTasks(bundle);
    assert.equal(tasks.length, 1, JSON.stringify(tasks));
    assert.match(tasks[0]?.title ?? '', /test\/client\.test\.js:7/);
    assert.match(`${tasks[0]?.title} ${tasks[0]?.detail}`, /retries/);
    const [evidence] = bundle.evidence.staleAssertions;
    assert.deepEqual(
      { kind: evidence?.literalKind, name: evidence?.name, before: evidence?.before, after: evidence?.after },
      { kind: 'default', name: 'retries', before: '2', after: '3' },
    );
  });

  test('an interpolated message whose static part a test asserts: a task', async () => {
    const store = (template: string): string =>
      [
        'export function findRecord(records, id) {',
        '  const found = records.get(id);',
        `  if (found === undefined) throw new Error(\`${template}\`);`,
        '  return found;',
        '}',
        '',
      ].join('\n');
    const storeTest = [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      "import { findRecord } from '../src/store.js';",
      '',
      "test('an unknown id throws', () => {",
      '  assert.throws(() => findRecord(new Map(), 7), /unknown id/);',
      '});',
      '',
    ].join('\n');
    const fixture = createFixture(
      { 'src/store.js': store('unknown id ${id}'), 'test/store.test.js': storeTest },
      { 'src/store.js': store('no record ${id}') },
    );
    const bundle = await readBundle(fixture);
    const tasks = findStaleTasks(bundle);
    assert.equal(tasks.length, 1, JSON.stringify(tasks));
    assert.match(tasks[0]?.title ?? '', /test\/store\.test\.js:6/);
    assert.match(`${tasks[0]?.title} ${tasks[0]?.detail}`, /unknown id \$\{id\}/);
    assert.match(`${tasks[0]?.title} ${tasks[0]?.detail}`, /no record \$\{id\}/);
  });
});

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import type { AgentBundle, BundleTask } from '../../src/model/bundle.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

// Check 138 (path-to-regexp): the fix renamed `tokensToRegExp` to `tokensToRegexp`; the spec, untouched, still called
// `pathToRegexp.tokensToRegExp(tokens)` through `import * as pathToRegexp`, and no task said so (the proof task even
// said the spec "imports tokensToRegexp").

const MANIFEST = { 'package.json': JSON.stringify({ name: 'paths', version: '1.0.0', type: 'module' }) };

const lib = (name: string): string =>
  [
    `export function ${name}(tokens) {`,
    "  return new RegExp(tokens.join('/'));",
    '}',
    '',
    'export function parse(path) {',
    "  return path.split('/');",
    '}',
    '',
    'export interface Options {',
    '  strict?: boolean;',
    '}',
    '',
  ].join('\n');

const BASE = {
  ...MANIFEST,
  'src/index.ts': lib('tokensToRegExp'),
  'test/named.test.ts': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { tokensToRegExp } from '../src/index.ts';",
    '',
    "test('named', () => assert.ok(tokensToRegExp(['a'])));",
    '',
  ].join('\n'),
  'test/namespace.test.ts': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import * as paths from '../src/index.ts';",
    '',
    "test('namespace', () => {",
    "  assert.ok(paths.tokensToRegExp(paths.parse('a/b')));",
    '});',
    '',
  ].join('\n'),
  'test/other.test.ts': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import * as paths from '../src/index.ts';",
    '',
    "test('other', () => assert.deepEqual(paths.parse('a/b'), ['a', 'b']));",
    '',
  ].join('\n'),
};

const fixtures: ChangeFixture[] = [];
after(() => {
  for (const fixture of fixtures) fixture.repo.cleanup();
});

async function readBundle(change: Record<string, string>): Promise<AgentBundle> {
  const fixture = createChangeFixture(BASE, change);
  fixtures.push(fixture);
  const { report } = await runJsonReport<unknown>(fixture, ['ai'], 'agent-bundle');
  const validate = getValidator('agent-bundle');
  assert.ok(validate(report), JSON.stringify(validate.errors?.slice(0, 3)));
  return report as AgentBundle;
}

function findStaleUseTasks(bundle: AgentBundle): BundleTask[] {
  return [...bundle.tasks, ...bundle.taskOverflow].filter((task) => task.id.startsWith('task:stale-use:'));
}

describe('an export the change removes that another file still uses', () => {
  test('a rename: the named importer and the namespace member, with lines and the new name; a namespace that names it not is left out', async () => {
    const bundle = await readBundle({ 'src/index.ts': lib('tokensToRegexp') });
    const removed = bundle.evidence.symbolImpacts.find((impact) => impact.name === 'tokensToRegExp');
    assert.equal(removed?.change, 'removed');
    assert.equal(removed?.renamedTo, 'tokensToRegexp');
    assert.deepEqual(
      removed?.importers.map((importer) => [importer.path, importer.staleLine]),
      [
        ['test/named.test.ts', 3],
        ['test/namespace.test.ts', 6],
        ['test/other.test.ts', undefined],
      ],
    );
    const tasks = findStaleUseTasks(bundle);
    assert.deepEqual(
      tasks.map((task) => [task.kind, task.title]),
      [['review', 'test/named.test.ts:3, test/namespace.test.ts:6 still use tokensToRegExp, which this change removes from src/index.ts']],
    );
    assert.match(tasks[0]?.detail ?? '', /adds tokensToRegexp in its place\. Update those files to tokensToRegexp/);
    assert.ok(tasks[0]?.evidenceIds.includes('export:src/index.ts#tokensToRegExp'), tasks[0]?.evidenceIds.join(' '));
    // The namespace importer is the test to extend, and it imports the module whole, not the new name.
    const proof = bundle.tasks.find((task) => task.kind === 'proof');
    assert.doesNotMatch(proof?.detail ?? '', /it imports tokensToRegexp/);
  });

  test('a removed type is a type-check failure; an export nobody names gets no task', async () => {
    const typeGone = await readBundle({
      'src/index.ts': lib('tokensToRegExp').replace('export interface Options {\n  strict?: boolean;\n}\n', ''),
      'test/types.test.ts': [
        "import { test } from 'node:test';",
        "import type { Options } from '../src/index.ts';",
        '',
        "test('types', () => { const options: Options = {}; void options; });",
        '',
      ].join('\n'),
    });
    // test/types.test.ts is new in the change and imports the gone type: its task says the type check fails.
    const [task, ...rest] = findStaleUseTasks(typeGone);
    assert.equal(rest.length, 0);
    assert.equal(task?.title, 'test/types.test.ts:2 still uses Options, which this change removes from src/index.ts');
    assert.match(task?.detail ?? '', /^The type check fails on it\./);

    const unused = await readBundle({
      'src/index.ts': lib('tokensToRegExp').replace('export interface Options {\n  strict?: boolean;\n}\n', ''),
    });
    assert.equal(unused.evidence.symbolImpacts.find((impact) => impact.name === 'Options')?.change, 'removed');
    assert.deepEqual(findStaleUseTasks(unused), []);
  });
  // The labelled sample (commander c876dee8a5): `module.exports = new Command()` became an object of exports, and
  // esm.mjs's `import commander from './index.js'` was said to use a removed default. A CommonJS module has one always.
  test('the default of a CommonJS module is never removed for its importers', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'cli', version: '1.0.0' }),
        'index.js': 'class Command {}\nmodule.exports = new Command();\nmodule.exports.Command = Command;\n',
        'esm.mjs': "import cli from './index.js';\nexport const { Command } = cli;\n",
      },
      { 'index.js': 'class Command {}\nexports.program = new Command();\nexports.Command = Command;\n' },
    );
    fixtures.push(fixture);
    const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.equal(report.evidence.symbolImpacts.find((impact) => impact.name === 'default')?.change, 'removed');
    assert.deepEqual(findStaleUseTasks(report), []);
  });
});

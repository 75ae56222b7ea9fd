import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const digits = (pattern: string): string => `export function isDigits(input: string): boolean {\n  return ${pattern}.test(input);\n}\n`;

/** Issue 41: a local function named `test` and a listener that only fails, each read as a weak test before. */
const DIGITS_TEST = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { isDigits } from '../src/digits.ts';
import { check } from './helpers/check-digits.ts';

describe('digits', () => {
  function test(input: string, expected: boolean): void {
    assert.equal(isDigits(input), expected);
  }
  it('accepts digits only', () => {
    test('123', true);
    test('12a', false);
  });
  it('reads digits from a stream', async (t) => {
    const stream = Readable.from(['1', '2']);
    stream.once('error', () => t.assert.fail());
    stream.on('error', (error) => {
      throw error;
    });
    const chunks = await stream.toArray();
    assert.deepEqual(chunks.filter((chunk) => isDigits(chunk)), ['1', '2']);
  });
  it('emits digits', () => {
    const emitter = new EventEmitter();
    emitter.on('digit', (value) => assert.equal(isDigits(value), true));
    emitter.emit('digit', '7');
  });
  it('checks through the helper', () => {
    assert.equal(check('42'), true);
  });
});
`;

const HELPER = `import { isDigits } from '../../src/digits.ts';

const test = (input: string): boolean => isDigits(input);

export function check(input: string): boolean {
  return test(input);
}

export const SAMPLE = test('0');
`;

describe('weak tests misread (issue 41): a local `test` function, a listener that only fails', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'digits', type: 'module', scripts: { test: 'node --test' } }),
        'src/digits.ts': digits('/^\\d+$/'),
        'test/digits.test.ts': DIGITS_TEST,
        'test/helpers/check-digits.ts': HELPER,
        // A benchmark times a call and asserts nothing by design (yarl's tests/test_url_benchmarks.py): no weak test.
        'test/digits-benchmarks.test.ts': [
          "import { it } from 'node:test';",
          "import { isDigits } from '../src/digits.ts';",
          "it('times isDigits', () => {",
          "  for (let i = 0; i < 1000; i++) isDigits('123');",
          '});',
          '',
        ].join('\n'),
        // A type test (tsd's `.test-d.ts`) is compiled, never run: its listener's assertion is not a weak test.
        'test/digits.test-d.ts': DIGITS_TEST.replace("from './helpers/check-digits.ts'", "from './helpers/check-digits.ts';\nexport {}"),
      },
      { 'src/digits.ts': digits('/^[0-9]+$/') },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('only the listener that asserts a value is a weak test, told to await it', () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds, weak.repairTask]),
      [
        [
          'test:test/digits.test.ts#digits > emits digits',
          ['weak-test/unawaited-assertions'],
          'await (or return) the promise whose callback asserts in "digits > emits digits" in test/digits.test.ts',
        ],
      ],
    );
  });
});

/**
 * parse-server's shape: spec/helper.js, which jasmine loads before every spec, declares `equal(a, b)` (it calls
 * `expect`) and puts it on `global`; the specs call it without importing it. `run()` is put on `global` too but asserts
 * nothing, so a spec that only runs it asserts nothing.
 */
describe('weak tests misread (issue 41): an asserting helper a setup file puts on the global object', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'server', version: '1.0.0', devDependencies: { jasmine: '^5.0.0' } }),
        'spec/support/jasmine.json': JSON.stringify({ spec_dir: 'spec', spec_files: ['*.spec.js'], helpers: ['helper.js'] }),
        'spec/helper.js': [
          "const { add } = require('../src/add');",
          'function equal(a, b, message) {',
          '  expect(a).toEqual(b, message);',
          '}',
          'function run(value) {',
          '  return add(value, 0);',
          '}',
          'global.equal = equal;',
          'global.run = run;',
          '',
        ].join('\n'),
        'spec/add.spec.js': [
          "const { add } = require('../src/add');",
          "describe('add', () => {",
          "  it('adds', () => {",
          '    equal(add(1, 1), 2);',
          '  });',
          "  it('runs', () => {",
          '    run(add(1, 2));',
          '  });',
          '});',
          '',
        ].join('\n'),
        'src/add.js': 'exports.add = (a, b) => a + b;\n',
      },
      { 'src/add.js': 'exports.add = (a, b) => b + a;\n' },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('the spec that calls the global equal() asserts; the one that only runs a global helper does not', () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds]),
      [['test:spec/add.spec.js#add > runs', ['weak-test/no-assertions']]],
    );
  });
});

/**
 * Check 88 (validatorjs/validator.js): every test calls `test({ validator, valid, invalid })`, the default export of
 * test/testFunctions.js, which asserts each value. The name is the runner's, the function is the repository's: each test
 * touching the change was told it "asserts nothing". A helper imported from a file whose export does not assert proves
 * nothing, as before.
 */
describe('weak tests misread (issue 41): an asserting helper a test imports', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'validate', version: '1.0.0', scripts: { test: 'mocha --recursive' } }),
        'src/slug.js': 'export default function isSlug(value) {\n  return /^[a-z-]+$/.test(value);\n}\n',
        'test/testFunctions.js': [
          "import assert from 'assert';",
          "import isSlug from '../src/slug';",
          'export default function test(options) {',
          '  for (const valid of options.valid) assert.ok(isSlug(valid), valid);',
          '}',
          'export const run = (value) => isSlug(value);',
          '',
        ].join('\n'),
        'test/slug.test.js': [
          "import test, { run } from './testFunctions';",
          "describe('slug', () => {",
          "  it('accepts slugs', () => {",
          "    test({ valid: ['a-b'] });",
          '  });',
          "  it('runs', () => {",
          "    run('a-b');",
          '  });',
          '});',
          '',
        ].join('\n'),
      },
      { 'src/slug.js': 'export default function isSlug(value) {\n  return /^[a-z0-9-]+$/.test(value);\n}\n' },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('the test that calls the imported asserting test() asserts; the one that only runs an import does not', () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds]),
      [['test:test/slug.test.js#slug > runs', ['weak-test/no-assertions']]],
    );
  });
});

/**
 * Check 276 (mozilla/nunjucks): tests/compiler.js declares `var util; var equal;`, then `util = require('./util')` and
 * `equal = util.equal`, and its cases call `equal(template, expected)`; tests/util.js's `equal` asserts. No import binds
 * `equal`, and a case that only called it was told it "asserts nothing". A free call named for no asserting export of an
 * imported file still asserts nothing.
 */
describe('weak tests misread (issue 41): an asserting helper taken from a required module by name', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'templates', version: '1.0.0', scripts: { test: 'mocha tests' } }),
        'src/render.js': "exports.render = (text) => text.replace('{{ x }}', 'x');\n",
        'tests/util.js': [
          "var expect = require('expect.js');",
          "var render = require('../src/render').render;",
          'function equal(template, expected) {',
          '  expect(render(template)).to.be(expected);',
          '}',
          'function show(template) {',
          '  return render(template);',
          '}',
          'module.exports.equal = equal;',
          'module.exports.show = show;',
          '',
        ].join('\n'),
        'tests/render.js': [
          '(function () {',
          '  var util;',
          '  var equal;',
          '  var show;',
          "  if (typeof require !== 'undefined') {",
          "    util = require('./util');",
          '  }',
          '  equal = util.equal;',
          '  show = util.show;',
          "  describe('render', function () {",
          "    it('renders a value', function () {",
          "      equal('{{ x }}', 'x');",
          '    });',
          "    it('shows a value', function () {",
          "      show('{{ x }}');",
          '    });',
          '  });',
          '})();',
          '',
        ].join('\n'),
      },
      { 'src/render.js': "exports.render = (text) => text.replace('{{ x }}', 'y');\n" },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test("the case that calls the required module's asserting equal() asserts; the one that only shows does not", () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds]),
      [['test:tests/render.js#render > shows a value', ['weak-test/no-assertions']]],
    );
  });
});

/**
 * Check 49 (psf/requests): tests/test_utils.py patches `requests.utils.proxy_bypass` in one test. The patch was read as
 * a mock of the whole of utils.py: every test of the file "mocks the unit it tests", and the file, the one named for
 * the changed module, was passed over as a test to extend, as if utils.py never ran in it.
 */
describe('a Python patch of one name of a module (check 49: psf/requests)', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    const utils = (parse: string) => `def helper():\n    return 1\n\n\ndef parse(value):\n    return ${parse}\n`;
    fixture = createChangeFixture(
      {
        'pyproject.toml': '[project]\nname = "pkg"\nversion = "1.0.0"\n',
        'pkg/__init__.py': '',
        'pkg/utils.py': utils('value.split(";")[0]'),
        'tests/test_app.py': 'from pkg import utils\n\n\ndef test_app():\n    assert utils.parse("a") == "a"\n',
        'tests/test_utils.py': [
          'from unittest import mock',
          'from pkg.utils import helper, parse',
          '',
          '',
          'def test_parse():',
          '    assert parse("a;b") == "a"',
          '',
          '',
          'def test_helper():',
          '    with mock.patch("pkg.utils.helper") as patched:',
          '        patched.return_value = 2',
          '        assert helper() == 1',
          '',
          '',
          '# Patches `help`, a name this test is not named for (its title only has it inside `helpers`).',
          'def test_helpers_list():',
          '    with mock.patch("pkg.utils.help"):',
          '        assert parse("h;i") == "h"',
          '',
        ].join('\n'),
      },
      { 'pkg/utils.py': utils('value.split(";")[0].strip()') },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('only the test named for the patched name mocks the unit; the file named for the module is the one to extend', () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds]),
      [['test:tests/test_utils.py#test_helper', ['weak-test/mocks-unit-under-test']]],
    );
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'pkg/utils.py');
    assert.deepEqual(proof?.reachingTests, ['tests/test_utils.py', 'tests/test_app.py']);
    assert.match(proof?.repairTask ?? '', /extend tests\/test_utils\.py /);
  });
});

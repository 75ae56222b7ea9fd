import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestPlacer } from '../../src/ranking/test-placement.js';

describe('createTestPlacer: a new test goes where the repository keeps the tests of its sources', () => {
  test('a test tree beside the sources (dayjs): the mirrored folder, for plain files and for index files', () => {
    const place = createTestPlacer([
      'src/locale/ru.js',
      'src/locale/it.js',
      'test/locale/ru.test.js',
      'src/plugin/utc/index.js',
      'src/plugin/duration/index.js',
      'test/plugin/utc.test.js',
      'test/plugin/duration.test.js',
      'src/plugin/week/index.js',
    ]);
    assert.equal(place('src/locale/it.js'), 'test/locale/it.test.js');
    // The rule is kept per folder; each file keeps its own name.
    assert.equal(place('src/locale/de.ts'), 'test/locale/de.test.ts');
    assert.equal(place('src/plugin/week/index.js'), 'test/plugin/week.test.js');
  });

  // Check 85 (thelounge): server/index.ts tested by test/server.ts read as "tests in a test folder under each source
  // folder", so defaults/config.js got defaults/test/config.js.
  test('a top folder tested in a folder of its own makes a mirror, not a folder under every source folder', () => {
    const place = createTestPlacer(['server/index.ts', 'test/server.ts', 'defaults/config.js', 'client/js/colors.ts']);
    assert.equal(place('defaults/config.js'), 'test/defaults/config.js');
    assert.equal(place('client/js/colors.ts'), 'test/client/js/colors.ts');
  });

  // Check 86 (healthchecks): each integration's tests/__init__.py was paired with its __init__.py, and transport.py's
  // new test became tests/__transport.py.
  test("a test package's __init__.py and a conftest.py teach no place", () => {
    const place = createTestPlacer([
      'hc/email/__init__.py',
      'hc/email/tests/__init__.py',
      'hc/email/tests/conftest.py',
      'hc/email/views.py',
      'hc/email/tests/test_views.py',
      'hc/email/transport.py',
    ]);
    assert.equal(place('hc/email/transport.py'), 'hc/email/tests/test_transport.py');
  });

  test('beside the file, or in a __tests__ folder under it, with the new file extension', () => {
    assert.equal(createTestPlacer(['src/a.ts', 'src/a.test.ts', 'src/b.ts'])('src/b.ts'), 'src/b.test.ts');
    assert.equal(createTestPlacer(['src/x/a.ts', 'src/x/__tests__/a.test.ts', 'src/x/b.tsx'])('src/x/b.tsx'), 'src/x/__tests__/b.test.tsx');
  });

  test('pytest modules in a tests folder beside the package, in the src layout and for private modules too', () => {
    const place = createTestPlacer(['shop/cart.py', 'shop/pricing.py', 'tests/test_cart.py']);
    assert.equal(place('shop/pricing.py'), 'tests/test_pricing.py');
    // attrs: tests/test_make.py is the test of src/attr/_make.py.
    const attrs = createTestPlacer(['src/attr/_make.py', 'src/attr/_funcs.py', 'src/attr/filters.py', 'tests/test_make.py']);
    assert.equal(attrs('src/attr/_funcs.py'), 'tests/test_funcs.py');
    assert.equal(attrs('src/attr/filters.py'), 'tests/test_filters.py');
  });

  // Check 65 (fastapi/typer): typer/cli.py's tests live in tests/test_cli/; the bundle asked for a tests/test_cli.py,
  // which pytest cannot import beside that package.
  test('a pytest module whose name a test package already takes goes into that package', () => {
    const place = createTestPlacer([
      'typer/cli.py',
      'typer/core.py',
      'tests/test_core.py',
      'tests/test_cli/__init__.py',
      'tests/test_cli/test_doc.py',
    ]);
    assert.equal(place('typer/cli.py'), 'tests/test_cli/test_cli.py');
    assert.equal(place('typer/core.py'), 'tests/test_core.py');
  });

  test('the nearest pairs decide: each package of a monorepo keeps its own layout', () => {
    const place = createTestPlacer(['packages/a/src/x.ts', 'packages/a/test/x.test.ts', 'packages/b/src/y.ts', 'packages/b/src/y.test.ts']);
    assert.equal(place('packages/a/src/z.ts'), 'packages/a/test/z.test.ts');
    assert.equal(place('packages/b/src/w.ts'), 'packages/b/src/w.test.ts');
  });

  // Check 172 (jazzband/tablib): tests/test_tablib.py tests every format through the package, so no pair names
  // src/tablib/formats/_ods.py; its new test was src/tablib/formats/test__ods.py, beside the module.
  test('a Python module no pair names: the folder of most pytest modules, the private prefix left out', () => {
    const place = createTestPlacer([
      'src/tablib/__init__.py',
      'src/tablib/core.py',
      'src/tablib/formats/_ods.py',
      'tests/test_tablib.py',
      'tests/test_tablib_dbfpy.py',
      'tests/conftest.py',
      'docs/test_build.py',
    ]);
    assert.equal(place('src/tablib/formats/_ods.py'), 'tests/test_ods.py');
    // No pytest module anywhere: beside the module.
    assert.equal(createTestPlacer(['pkg/_codec.py', 'pkg/core.py'])('pkg/_codec.py'), 'pkg/test_codec.py');
  });

  test('the sibling without any pair, and always for Go', () => {
    assert.equal(createTestPlacer(['src/a.ts', 'test/helpers.ts'])('src/a.ts'), 'src/a.test.ts');
    assert.equal(createTestPlacer(['pkg/a.go', 'tests/a_test.go', 'lib/b.ts', 'test/b.test.ts'])('pkg/a.go'), 'pkg/a_test.go');
  });
});

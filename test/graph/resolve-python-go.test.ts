import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResolver } from '../../src/graph/resolve/index.js';
import { findSysPathRoots } from '../../src/graph/resolve/python-sys-path.js';
import type { Resolution } from '../../src/model/resolve.js';

function createFromFiles(files: Record<string, string>): ReturnType<typeof createResolver> {
  const paths = Object.keys(files);
  return createResolver({
    files: new Set(paths),
    tsconfigs: new Map(),
    packageJsons: new Map(),
    goModules: new Map(paths.filter((path) => path.endsWith('go.mod')).map((path) => [path, files[path] ?? ''])),
  });
}

/** The resolution without its specifier, for compact expectations. */
function resolve(resolver: ReturnType<typeof createResolver>, from: string, specifier: string): Omit<Resolution, 'specifier'> {
  const { specifier: _, ...rest } = resolver.resolve(from, specifier);
  return rest;
}

describe('Python imports', () => {
  const resolver = createFromFiles({
    'pyproject.toml': '',
    'src/shop/__init__.py': '',
    'src/shop/pricing.py': '',
    'src/shop/api/__init__.py': '',
    'src/shop/api/views.py': '',
    'src/shop/models/__init__.py': '',
    'src/shop/models/order.py': '',
    'tests/conftest.py': '',
    'tests/test_pricing.py': '',
    'services/billing/pyproject.toml': '',
    'services/billing/billing/__init__.py': '',
    'services/billing/billing/tax.py': '',
    'scripts/tool.py': '',
    'scripts/helpers.py': '',
  });

  test('relative imports: a module, a name of the package, a parent package', () => {
    assert.deepEqual(resolve(resolver, 'src/shop/api/views.py', '.views'), { kind: 'relative', target: 'src/shop/api/views.py' });
    assert.deepEqual(resolve(resolver, 'src/shop/api/views.py', '..pricing.total'), { kind: 'relative', target: 'src/shop/pricing.py' });
    assert.deepEqual(resolve(resolver, 'src/shop/api/views.py', '..models'), { kind: 'relative', target: 'src/shop/models/__init__.py' });
    assert.deepEqual(resolve(resolver, 'src/shop/api/views.py', '.'), { kind: 'relative', target: 'src/shop/api/__init__.py' });
    assert.equal(resolve(resolver, 'src/shop/api/views.py', '.missing.name').kind, 'unresolved');
    assert.equal(resolve(resolver, 'scripts/tool.py', '...x').kind, 'unresolved');
  });

  test('absolute imports under the src layout, from the tests folder and inside a package', () => {
    assert.deepEqual(resolve(resolver, 'tests/test_pricing.py', 'shop.pricing.total'), {
      kind: 'module-root',
      target: 'src/shop/pricing.py',
    });
    assert.deepEqual(resolve(resolver, 'tests/test_pricing.py', 'shop.models.order'), {
      kind: 'module-root',
      target: 'src/shop/models/order.py',
    });
    assert.deepEqual(resolve(resolver, 'src/shop/api/views.py', 'shop.models.Order'), {
      kind: 'module-root',
      target: 'src/shop/models/__init__.py',
    });
  });

  test('a project folder of its own, and a script beside its helper', () => {
    assert.deepEqual(resolve(resolver, 'services/billing/billing/__init__.py', 'billing.tax.rate'), {
      kind: 'module-root',
      target: 'services/billing/billing/tax.py',
    });
    assert.deepEqual(resolve(resolver, 'scripts/tool.py', 'helpers.run'), { kind: 'module-root', target: 'scripts/helpers.py' });
  });

  test('the standard library is a builtin; other packages are external; a missing module of a repository package is unresolved', () => {
    assert.deepEqual(resolve(resolver, 'src/shop/pricing.py', 'os.path'), { kind: 'builtin' });
    assert.deepEqual(resolve(resolver, 'src/shop/pricing.py', 'typing.Optional'), { kind: 'builtin' });
    assert.deepEqual(resolve(resolver, 'src/shop/pricing.py', 'flask.Flask'), { kind: 'external', packageName: 'flask' });
    assert.equal(resolve(resolver, 'src/shop/pricing.py', 'shop.api.gone.thing').kind, 'unresolved');
  });

  test('a module named by a pattern is every module of its package that matches, the package itself left out', () => {
    const backends = createFromFiles({
      'src/anyio/__init__.py': '',
      'src/anyio/_core/_eventloop.py': '',
      'src/anyio/_core/__init__.py': '',
      'src/anyio/_backends/__init__.py': '',
      'src/anyio/_backends/_asyncio.py': '',
      'src/anyio/_backends/_trio.py': '',
      'src/anyio/_backends/helpers.py': '',
      'src/anyio/_backends/_uv/__init__.py': '',
    });
    assert.deepEqual(resolve(backends, 'src/anyio/_core/_eventloop.py', 'anyio._backends._*'), {
      kind: 'module-root',
      target: 'src/anyio/_backends/_asyncio.py',
      packageFiles: ['src/anyio/_backends/_trio.py', 'src/anyio/_backends/_uv/__init__.py'],
    });
    assert.equal(resolve(backends, 'src/anyio/_core/_eventloop.py', 'anyio._backends.x*').kind, 'unresolved');
    assert.equal(resolve(backends, 'src/anyio/_core/_eventloop.py', 'anyio.*._x').kind, 'unresolved');
    assert.deepEqual(resolve(backends, 'src/anyio/_core/_eventloop.py', 'sqlalchemy.dialects.*'), {
      kind: 'external',
      packageName: 'sqlalchemy',
    });
  });
});

describe('Go imports', () => {
  const resolver = createFromFiles({
    'go.mod': 'module example.com/shop\n\ngo 1.22\n',
    'main.go': '',
    'internal/orders/orders.go': '',
    'internal/orders/store.go': '',
    'internal/orders/orders_test.go': '',
    'internal/orders/export_test.go': '',
    'internal/single/single.go': '',
    'tools/gen/go.mod': 'module "example.com/shop/tools/gen"\n',
    'tools/gen/gen.go': '',
    'vendor/github.com/acme/log/log.go': '',
  });

  test('a package of the module is its folder without its tests', () => {
    assert.deepEqual(resolve(resolver, 'main.go', 'example.com/shop/internal/orders'), {
      kind: 'module-root',
      target: 'internal/orders/orders.go',
      packageFiles: ['internal/orders/store.go'],
    });
    assert.deepEqual(resolve(resolver, 'main.go', 'example.com/shop/tools/gen'), { kind: 'module-root', target: 'tools/gen/gen.go' });
    assert.equal(resolve(resolver, 'main.go', 'example.com/shop/internal/gone').kind, 'unresolved');
  });

  test("a file's own package: its siblings, with the test files for a test file", () => {
    assert.deepEqual(resolve(resolver, 'internal/orders/orders.go', '.'), { kind: 'relative', target: 'internal/orders/store.go' });
    assert.deepEqual(resolve(resolver, 'internal/orders/orders_test.go', '.'), {
      kind: 'relative',
      target: 'internal/orders/export_test.go',
      packageFiles: ['internal/orders/orders.go', 'internal/orders/store.go'],
    });
    assert.deepEqual(resolve(resolver, 'internal/single/single.go', '.'), { kind: 'builtin' });
  });

  test('the standard library, vendored and external modules', () => {
    assert.deepEqual(resolve(resolver, 'main.go', 'net/http'), { kind: 'builtin' });
    assert.deepEqual(resolve(resolver, 'main.go', 'github.com/acme/log'), {
      kind: 'module-root',
      target: 'vendor/github.com/acme/log/log.go',
    });
    assert.deepEqual(resolve(resolver, 'main.go', 'github.com/go-chi/chi/v5'), {
      kind: 'external',
      packageName: 'github.com/go-chi/chi/v5',
    });
  });
});

describe('Python imports through the folders a conftest.py puts on sys.path', () => {
  const files = {
    'tests/conftest.py': [
      'import os, sys',
      'from pathlib import Path',
      'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))',
      "sys.path.append(str(Path(__file__).resolve().parent.parent / 'vendor' / 'libs'))",
      'sys.path.insert(0, os.environ["EXTRA"])',
      "sys.path.append('/usr/lib/python3/dist-packages')",
    ].join('\n'),
    'tests/test_build.py': '',
    'tools/builder.py': '',
    'vendor/libs/yamlish/__init__.py': '',
  };

  test('lists the static folders in order, and leaves computed and absolute ones out', () => {
    assert.deepEqual(findSysPathRoots('tests/conftest.py', files['tests/conftest.py']), ['tools', 'vendor/libs']);
    assert.deepEqual(
      findSysPathRoots(
        'conftest.py',
        "sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\nsys.path.append(str(Path(__file__).parents[0] / 'src'))\nsys.path.insert(0, 'lib')",
      ),
      ['src', 'lib'],
    );
  });

  test('resolves a module under such a folder, which is external without the conftest', () => {
    const paths = Object.keys(files);
    const base = { files: new Set(paths), tsconfigs: new Map(), packageJsons: new Map() };
    const withConftest = createResolver({
      ...base,
      conftests: new Map(Object.entries(files).filter(([path]) => path.endsWith('conftest.py'))),
    });
    assert.deepEqual(resolve(withConftest, 'tests/test_build.py', 'builder.build'), { kind: 'module-root', target: 'tools/builder.py' });
    assert.deepEqual(resolve(withConftest, 'tests/test_build.py', 'yamlish'), {
      kind: 'module-root',
      target: 'vendor/libs/yamlish/__init__.py',
    });
    assert.deepEqual(resolve(createResolver(base), 'tests/test_build.py', 'builder.build'), { kind: 'external', packageName: 'builder' });
  });
});

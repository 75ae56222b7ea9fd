import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectConftestImports } from '../../../src/graph/parse/python/python-conftest.js';
import { createPythonResolver } from '../../../src/graph/resolve/python.js';

const specifiers = (path: string): string[] => collectConftestImports(path).map((fact) => fact.specifier);

test('a test module imports the conftest of its folder and of each folder above; a conftest those above its own; other modules none', () => {
  assert.deepEqual(specifiers('tests/api/test_orders.py'), ['conftest:.', 'conftest:..', 'conftest:...']);
  assert.deepEqual(specifiers('test_root.py'), ['conftest:.']);
  assert.deepEqual(specifiers('pkg/orders_test.py'), ['conftest:.', 'conftest:..']);
  assert.deepEqual(specifiers('tests/api/conftest.py'), ['conftest:..', 'conftest:...']);
  assert.deepEqual(specifiers('conftest.py'), []);
  assert.deepEqual(specifiers('tests/helpers.py'), []);
  assert.deepEqual(specifiers('shop/orders.py'), []);
  assert.deepEqual(collectConftestImports('tests/test_a.py')[0], {
    specifier: 'conftest:.',
    kind: 'static',
    typeOnly: false,
    names: [],
    line: 1,
  });
});

test('a conftest import lands on the folder conftest.py when there is one, else resolves quietly to nothing', () => {
  const files = ['conftest.py', 'tests/api/conftest.py', 'tests/api/test_orders.py', 'tests/unit/test_pricing.py'];
  const resolve = createPythonResolver({ files: new Set(files), dirs: new Set(['tests', 'tests/api', 'tests/unit']) });
  assert.deepEqual(resolve('tests/api/test_orders.py', 'conftest:.'), {
    specifier: 'conftest:.',
    kind: 'relative',
    target: 'tests/api/conftest.py',
  });
  assert.deepEqual(resolve('tests/api/test_orders.py', 'conftest:..'), { specifier: 'conftest:..', kind: 'builtin' });
  assert.deepEqual(resolve('tests/api/test_orders.py', 'conftest:...'), {
    specifier: 'conftest:...',
    kind: 'relative',
    target: 'conftest.py',
  });
  assert.deepEqual(resolve('tests/unit/test_pricing.py', 'conftest:....'), { specifier: 'conftest:....', kind: 'builtin' });
});

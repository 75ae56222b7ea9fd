import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findReachingTests } from '../../src/graph/queries/find-reaching-tests.js';
import { buildImpactFixture, json, type ImpactFixture } from '../helpers/impact-fixtures.js';

/**
 * Issue 41: a package shipping hand-written `index.js` with its `index.d.ts`. Node runs index.js for `require('./index')`
 * from a JavaScript test; only TypeScript (the tsd type test) reads the declaration.
 */
const FILES = {
  'package.json': json({ name: 'slugify', version: '1.0.0', main: 'index.js', types: 'index.d.ts', devDependencies: { tsd: '^0.31.0' } }),
  'index.js': "module.exports = function slugify(text) {\n  return text.toLowerCase().replace(/\\s+/g, '-');\n};\n",
  'index.d.ts': 'declare function slugify(text: string): string;\nexport = slugify;\n',
  'test.js': "const assert = require('node:assert');\nconst slugify = require('./index');\nassert.equal(slugify('A b'), 'a-b');\n",
  'index.test-d.ts': "import { expectType } from 'tsd';\nimport slugify = require('./index');\nexpectType<string>(slugify('A b'));\n",
};

const reachingFiles = (fixture: ImpactFixture, path: string): string[] =>
  findReachingTests(fixture.built.kg, path, { includeTypeOnly: true }).map((test) => test.testFile);

describe('a declaration beside hand-written JavaScript', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('is reached by the type test only, never by the JavaScript that requires the same specifier', () => {
    assert.deepEqual(reachingFiles(fixture, 'index.d.ts'), ['index.test-d.ts']);
  });

  test('the runtime file is reached by the JavaScript test', () => {
    assert.ok(reachingFiles(fixture, 'index.js').includes('test.js'), json(reachingFiles(fixture, 'index.js')));
  });
});

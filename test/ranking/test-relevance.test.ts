import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scoreTestRelevance, type TestText } from '../../src/ranking/test-relevance.js';

const order = (scores: Map<string, number>): string[] =>
  [...scores.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([path]) => path);

describe('scoreTestRelevance: which reaching tests name the change', () => {
  test('a path or title naming the changed callable outranks code that merely uses it; a word every test says tells none apart', () => {
    const tests: TestText[] = [
      { path: 'test/res.redirect.js', titles: ['res', '.redirect(url)'], words: { code: 'redirect res start', names: '' } },
      { path: 'test/res.send.js', titles: ['res', '.send(body)'], words: { code: 'redirect res send start', names: '' } },
      { path: 'test/app.router.js', titles: ['app', 'router'], words: { code: 'res start', names: '' } },
    ];
    const scores = scoreTestRelevance(tests, { path: 'lib/response.js', names: ['res.redirect'] });
    assert.deepEqual(order(scores), ['test/res.redirect.js', 'test/res.send.js', 'test/app.router.js']);
    assert.equal(scores.get('test/app.router.js'), 0);
    assert.ok((scores.get('test/res.redirect.js') ?? 0) > 2 * (scores.get('test/res.send.js') ?? 0), JSON.stringify([...scores]));
  });

  test("the file's own name counts (its folder's for an index), and multi-word names match whole", () => {
    const tests: TestText[] = [
      { path: '__tests__/response/body.test.js', titles: ['res.body='], words: { code: 'body', names: '' } },
      { path: '__tests__/etag/index.test.ts', titles: ['etag'], words: { code: '', names: '' } },
      { path: 'test/retry.ts', titles: ['retry'], words: { code: 'extend', names: 'deepmerge' } },
      { path: 'test/other.ts', titles: ['other'], words: { code: 'deep merge', names: '' } },
    ];
    assert.ok((scoreTestRelevance(tests, { path: 'lib/response.js', names: [] }).get('__tests__/response/body.test.js') ?? 0) > 0);
    const etag = scoreTestRelevance(tests, { path: 'src/etag/index.ts', names: ['default'] });
    assert.deepEqual(order(etag)[0], '__tests__/etag/index.test.ts');
    const merge = scoreTestRelevance(tests, { path: 'source/utils/merge.ts', names: ['deepMerge'] });
    assert.ok((merge.get('test/retry.ts') ?? 0) > (merge.get('test/other.ts') ?? 0), JSON.stringify([...merge]));
  });

  test('plumbing and stop words name nothing: index, default, handler, utils score no test', () => {
    const tests: TestText[] = [
      { path: 'test/index.test.js', titles: ['default handler'], words: { code: 'index default handler utils', names: '' } },
    ];
    assert.equal(scoreTestRelevance(tests, { path: 'src/utils/index.js', names: ['default', 'handler'] }).get('test/index.test.js'), 0);
  });
});

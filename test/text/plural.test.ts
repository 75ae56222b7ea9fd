import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countOf, pluralize } from '../../src/text/plural.js';

test('pluralize: the last word of a noun phrase, English rules for -y, -s, -x, -ch, -sh', () => {
  assert.deepEqual(['route', 'catch block', 'policy', 'key', 'class', 'box', 'match', 'hash', 'recorded invariant'].map(pluralize), [
    'routes',
    'catch blocks',
    'policies',
    'keys',
    'classes',
    'boxes',
    'matches',
    'hashes',
    'recorded invariants',
  ]);
  assert.equal(countOf(1, 'policy', pluralize('policy')), '1 policy');
  assert.equal(countOf(0, 'policy', pluralize('policy')), '0 policies');
});

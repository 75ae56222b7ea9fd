import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PEER_NAMES, toPeerNames } from '../../bench/peers.js';

test('--peers takes known tools once each, comma-separated, and names the flag and the known tools otherwise', () => {
  assert.deepEqual(PEER_NAMES, ['madge', 'dependency-cruiser']);
  assert.deepEqual(toPeerNames(''), []);
  assert.deepEqual(toPeerNames(' madge , dependency-cruiser '), ['madge', 'dependency-cruiser']);
  assert.throws(() => toPeerNames('madge,knip'), { message: '--peers: unknown tool "knip"; known: madge, dependency-cruiser' });
  assert.throws(() => toPeerNames('madge,madge'), { message: '--peers names a tool twice: "madge,madge"' });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONTRACTS_FILE, readContracts } from '../../../src/app/load/contracts.js';
import type { Diagnostic } from '../../../src/model/diagnostic.js';
import { memEnv } from '../../helpers/memory-env.js';

test('contracts are read from .checker/contracts.yml', async () => {
  const env = memEnv({
    files: { [CONTRACTS_FILE]: 'contracts:\n  - id: ui-not-db\n    from: [src/ui/**]\n    to: [src/db/**]\n' },
  });
  const limitations: Diagnostic[] = [];
  assert.deepEqual(await readContracts(env, limitations), [{ id: 'ui-not-db', from: ['src/ui/**'], to: ['src/db/**'] }]);
  assert.deepEqual(limitations, []);
});

test('no contracts file means no contracts and no limitation', async () => {
  const limitations: Diagnostic[] = [];
  assert.deepEqual(await readContracts(memEnv(), limitations), []);
  assert.deepEqual(limitations, []);
});

test('a malformed or invalid contracts file is a limitation, never fatal', async () => {
  for (const text of ['contracts: [\n', 'contracts:\n  - id: Bad Id\n    from: [a]\n    to: [b]\n']) {
    const limitations: Diagnostic[] = [];
    assert.deepEqual(await readContracts(memEnv({ files: { [CONTRACTS_FILE]: text } }), limitations), []);
    assert.deepEqual(
      limitations.map((limitation) => [limitation.code, limitation.location?.file]),
      [['contracts/invalid', CONTRACTS_FILE]],
    );
  }
});

test('memEnv keeps artifacts in memory and refuses to overwrite in create mode', async () => {
  const env = memEnv({ now: new Date('2026-02-03T04:05:06.000Z') });
  await env.writeArtifact('sessions/a.json', '{}', { mode: 'create' });
  await assert.rejects(env.writeArtifact('sessions/a.json', '{}', { mode: 'create' }), { code: 'artifact/exists' });
  assert.equal(await env.readArtifact('sessions/a.json'), '{}');
  assert.equal(env.now().toISOString(), '2026-02-03T04:05:06.000Z');
  await assert.rejects(env.openGit(), { code: 'git/not-a-repository' });
});

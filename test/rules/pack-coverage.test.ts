import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { assertPackCoverage } from '../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './packs/cases/index.js';

describe('built-in pack coverage', () => {
  it('every built-in pack has a case table and a test file', async () => {
    const packs = await loadBuiltinPacks();
    assert.deepEqual(packs.map((loaded) => loaded.pack.id).sort(), Object.keys(CASES_BY_PACK).sort());
  });

  it('every rule of every built-in pack has a valid and an invalid case', async () => {
    for (const loaded of await loadBuiltinPacks()) {
      assertPackCoverage(loaded.pack, CASES_BY_PACK[loaded.pack.id] ?? {});
    }
  });

  it('every built-in pack is schemaVersion 1, no rule is newer than its pack, and every rule explains itself', async () => {
    const toNumbers = (version: string): number[] => version.split('.').map(Number);
    const compare = (left: string, right: string): number => {
      const a = toNumbers(left);
      const b = toNumbers(right);
      for (let index = 0; index < 3; index++) if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) - (b[index] ?? 0);
      return 0;
    };
    for (const { pack } of await loadBuiltinPacks()) {
      assert.equal(pack.schemaVersion, 1);
      assert.match(pack.version, /^\d+\.\d+\.\d+$/, pack.id);
      for (const rule of pack.rules) {
        assert.ok(
          compare(rule.since ?? '0.0.0', pack.version) <= 0,
          `${rule.id} since ${rule.since} is newer than ${pack.id}@${pack.version}`,
        );
        assert.ok(rule.rationale.length > 10 && rule.description.length > 10, rule.id);
        assert.equal(typeof rule.event.params.weight, 'number', rule.id);
        assert.ok(rule.event.params.message !== undefined, `${rule.id} has a message`);
      }
    }
  });
});

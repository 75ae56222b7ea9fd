import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGitIndex } from '../../src/io/git-index.js';
import { createRepo } from '../helpers/git-repo.js';

const stagedOids = (repo: { git(...args: string[]): string }): string[] =>
  repo
    .git('ls-files', '--stage')
    .split('\n')
    .map((line) => line.split(/\s+/)[1] ?? '');

test('the index read again after git rewrites it with the same size gives the new entries', async (t) => {
  const repo = createRepo({ 'a.ts': 'one\n', 'b.ts': 'two\n' });
  t.after(() => repo.cleanup());
  const gitdir = join(repo.dir, '.git');
  // A first staged edit drops the commit's cached tree from the index; the next one leaves its size as it is.
  repo.write({ 'a.ts': 'One\n' });
  repo.git('add', 'a.ts');
  const first = await readGitIndex(gitdir);
  assert.deepEqual(
    first.entries.map((entry) => entry.oid),
    stagedOids(repo),
  );
  const sizeBefore = readFileSync(join(gitdir, 'index')).length;
  repo.write({ 'a.ts': 'ONE\n' });
  repo.git('add', 'a.ts');
  assert.equal(readFileSync(join(gitdir, 'index')).length, sizeBefore);
  const second = await readGitIndex(gitdir);
  assert.deepEqual(
    second.entries.map((entry) => entry.oid),
    stagedOids(repo),
  );
  assert.notEqual(second.entries[0]?.oid, first.entries[0]?.oid);
});

test('an unchanged index is parsed once and shared frozen; an index without its trailing hash is parsed every time', async (t) => {
  const repo = createRepo({ 'a.ts': 'one\n', 'src/b.ts': 'two\n' });
  t.after(() => repo.cleanup());
  const gitdir = join(repo.dir, '.git');
  const first = await readGitIndex(gitdir);
  const second = await readGitIndex(gitdir);
  assert.equal(second.entries, first.entries);
  assert.ok(Object.isFrozen(first.entries) && first.entries.every((entry) => Object.isFrozen(entry)));
  assert.throws(() => (first.entries as unknown[]).push({}), TypeError);

  // `index.skipHash`: git writes zeros where the checksum goes; nothing proves two such files equal.
  const path = join(gitdir, 'index');
  const bytes = readFileSync(path);
  bytes.fill(0, bytes.length - 20);
  writeFileSync(path, bytes);
  const unhashed = await readGitIndex(gitdir);
  assert.notEqual(unhashed.entries, first.entries);
  assert.deepEqual(unhashed.entries, first.entries);
  const again = await readGitIndex(gitdir);
  assert.notEqual(again.entries, unhashed.entries);
  assert.equal(Object.isFrozen(again.entries), false);
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import git from 'isomorphic-git';
import { applyDelta, createObjectReader, parseTreeObject } from '../../src/io/git-objects.js';
import { openRepository } from '../../src/io/git-repository.js';
import { resolveRevision } from '../../src/io/git-revision.js';
import { readBlobBytes, readCommitTree, readTreeEntries } from '../../src/io/git-tree.js';
import { diffWorktree } from '../../src/io/git-worktree.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

/** A history whose files change a little each commit, so packing stores most versions as deltas. */
function buildHistory(): TestRepo {
  const lines = Array.from({ length: 400 }, (_, index) => `export const value${index} = ${index};`);
  const repo = createRepo({ 'src/a.ts': `${lines.join('\n')}\n`, 'src/deep/b.ts': 'export const b = 1;\n', 'README.md': '# r\n' });
  for (let round = 1; round <= 12; round += 1) {
    lines[round * 7] = `export const value${round * 7} = ${round * 1000}; // round ${round}`;
    lines.splice(round * 11, 0, `export const inserted${round} = '${'x'.repeat(round * 40)}';`);
    repo.write({ 'src/a.ts': `${lines.join('\n')}\n`, [`src/deep/c${round}.ts`]: `export const c = ${round};\n` });
    repo.commit(`round ${round}`);
  }
  repo.git('tag', '-a', 'v1', '-m', 'release v1');
  return repo;
}

/** Every object git has, as `git cat-file --batch` gives it. */
function catAll(repo: TestRepo): { oid: string; type: string; bytes: Buffer }[] {
  const listed = repo
    .git('cat-file', '--batch-all-objects', '--batch-check')
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: repo.dir,
    input: `${listed.map(([oid]) => oid).join('\n')}\n`,
    maxBuffer: 1 << 30,
  });
  const objects: { oid: string; type: string; bytes: Buffer }[] = [];
  let at = 0;
  for (const [oid = '', type = '', size = '0'] of listed) {
    at = out.indexOf(10, at) + 1;
    objects.push({ oid, type, bytes: out.subarray(at, at + Number(size)) });
    at += Number(size) + 1;
  }
  return objects;
}

function assertReadsAll(repo: TestRepo, what: string): number {
  const reader = createObjectReader(join(repo.dir, '.git'));
  const objects = catAll(repo);
  for (const object of objects) {
    const read = reader.read(object.oid);
    assert.ok(read !== undefined, `${what}: ${object.oid} (${object.type}) not read`);
    assert.equal(read.type, object.type, `${what}: type of ${object.oid}`);
    assert.ok(read.bytes.equals(object.bytes), `${what}: bytes of ${object.oid}`);
  }
  return objects.length;
}

describe('git objects read from packs one at a time', () => {
  it('reads every object as git does: loose, packed whole, offset deltas and deltas named by oid', (t) => {
    const repo = buildHistory();
    t.after(() => repo.cleanup());
    const count = assertReadsAll(repo, 'loose');
    assert.ok(count > 60);

    repo.git('repack', '-a', '-d', '-f', '--depth=50', '--window=50');
    const verify = repo.git(
      'verify-pack',
      '-v',
      ...readdirSync(join(repo.dir, '.git/objects/pack'))
        .filter((name) => name.endsWith('.idx'))
        .map((name) => `.git/objects/pack/${name}`),
    );
    assert.match(verify, /chain length = [2-9]/, 'the repack made delta chains');
    assert.equal(assertReadsAll(repo, 'repacked with offset deltas'), count);

    // pack-objects without --delta-base-offset names each delta's base by oid (REF_DELTA).
    const oids = repo
      .git('rev-list', '--objects', '--all')
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[0])
      .join('\n');
    const name = execFileSync('git', ['pack-objects', '--window=50', '--depth=50', '.git/refpack'], { cwd: repo.dir, input: `${oids}\n` })
      .toString()
      .trim();
    for (const old of readdirSync(join(repo.dir, '.git/objects/pack'))) repo.remove(`.git/objects/pack/${old}`);
    for (const ext of ['pack', 'idx'])
      renameSync(join(repo.dir, `.git/refpack-${name}.${ext}`), join(repo.dir, `.git/objects/pack/pack-${name}.${ext}`));
    const unpacked = repo.git('count-objects', '-v');
    assert.match(unpacked, /in-pack: [1-9]/);
    assert.equal(assertReadsAll(repo, 'packed with deltas by oid'), count);
  });

  it('leaves what it cannot read to isomorphic-git: unknown oids, damaged objects, trees it would refuse', (t) => {
    const repo = createRepo({ 'a.ts': 'export const a = 1;\n' });
    t.after(() => repo.cleanup());
    const reader = createObjectReader(join(repo.dir, '.git'));
    assert.equal(reader.read('0'.repeat(40)), undefined);
    assert.equal(reader.read('not an oid'), undefined);
    const blob = repo.git('rev-parse', 'HEAD:a.ts').trim();
    writeFileSync(join(repo.dir, '.git/objects', blob.slice(0, 2), blob.slice(2)), 'damaged');
    assert.equal(reader.read(blob), undefined);

    const entry = (mode: string, name: string): Buffer => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.alloc(20, 7)]);
    assert.deepEqual(parseTreeObject(Buffer.concat([entry('100644', 'b.ts'), entry('40000', 'a')])), [
      { mode: '040000', path: 'a', oid: '07'.repeat(20), type: 'tree' },
      { mode: '100644', path: 'b.ts', oid: '07'.repeat(20), type: 'blob' },
    ]);
    for (const name of ['.git', '.GIT.', '..', 'a/b', 'git~1', 'x\u200Cy', 'caf\uFFFD']) {
      assert.equal(parseTreeObject(entry('100644', name)), undefined, name);
    }
    assert.equal(parseTreeObject(entry('100664', 'odd-mode.ts')), undefined);
    assert.equal(parseTreeObject(Buffer.from('100644 truncated\0abc')), undefined);
  });

  it('a pack that is a FIFO or a symlink, or an index that lies, is not read and does not hang', (t) => {
    const repo = createRepo({ 'a.ts': 'export const a = 1;\n' });
    t.after(() => repo.cleanup());
    repo.git('repack', '-a', '-d');
    const packDir = join(repo.dir, '.git/objects/pack');
    const [idx = ''] = readdirSync(packDir).filter((name) => name.endsWith('.idx'));
    const pack = idx.replace(/\.idx$/, '.pack');
    const blob = repo.git('rev-parse', 'HEAD:a.ts').trim();
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob)?.bytes.toString(), 'export const a = 1;\n');

    renameSync(join(packDir, pack), join(repo.dir, 'moved.pack'));
    execFileSync('mkfifo', [join(packDir, pack)]);
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob), undefined, 'a FIFO pack');
    repo.remove(`.git/objects/pack/${pack}`);
    symlinkSync(join(repo.dir, 'moved.pack'), join(packDir, pack));
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob), undefined, 'a symlinked pack');
    repo.remove(`.git/objects/pack/${pack}`);
    renameSync(join(repo.dir, 'moved.pack'), join(packDir, pack));

    // Offsets past the pack's end and a fanout that counts more names than the index holds.
    const index = readFileSync(join(packDir, idx));
    const forged = Buffer.from(index);
    const count = forged.readUInt32BE(8 + 255 * 4);
    for (let entry = 0; entry < count; entry += 1) forged.writeUInt32BE(0x7ffffff0, 8 + 1024 + count * 24 + entry * 4);
    writeFileSync(join(packDir, idx), forged);
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob), undefined, 'offsets past the end');
    const inflated = Buffer.from(index);
    for (let slot = 0; slot < 256; slot += 1) inflated.writeUInt32BE(count + 1000, 8 + slot * 4);
    writeFileSync(join(packDir, idx), inflated.subarray(0, 8 + 1024 + count * 20));
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob), undefined, 'a fanout past the names');
  });

  it('finds an object through its index’s 64-bit offsets, and refuses an entry past them', (t) => {
    const repo = createRepo({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    t.after(() => repo.cleanup());
    repo.git('repack', '-a', '-d');
    const packDir = join(repo.dir, '.git/objects/pack');
    const [idx = ''] = readdirSync(packDir).filter((name) => name.endsWith('.idx'));
    const blob = repo.git('rev-parse', 'HEAD:b.ts').trim();
    const index = readFileSync(join(packDir, idx));
    const count = index.readUInt32BE(8 + 255 * 4);
    const names = 8 + 1024;
    const position = Array.from({ length: count }, (_, entry) => entry).find(
      (entry) => index.toString('hex', names + entry * 20, names + entry * 20 + 20) === blob,
    );
    assert.ok(position !== undefined, 'the blob is in the pack');
    // A pack over 2 GiB keeps such offsets in a table after the 32-bit ones: the entry names its place there.
    const offsets = names + count * 24;
    const wide = Buffer.alloc(16);
    wide.writeBigUInt64BE(BigInt(index.readUInt32BE(offsets + position * 4)), 8);
    const forged = Buffer.concat([index.subarray(0, offsets + count * 4), wide, index.subarray(offsets + count * 4)]);
    forged.writeUInt32BE(0x80000001, offsets + position * 4);
    writeFileSync(join(packDir, idx), forged);
    const reader = createObjectReader(join(repo.dir, '.git'));
    assert.equal(reader.read(blob)?.bytes.toString(), 'export const b = 2;\n');
    assert.equal(reader.read(repo.git('rev-parse', 'HEAD:a.ts').trim())?.bytes.toString(), 'export const a = 1;\n');
    forged.writeUInt32BE(0x80000000 + 1_000_000, offsets + position * 4);
    writeFileSync(join(packDir, idx), forged);
    assert.equal(createObjectReader(join(repo.dir, '.git')).read(blob), undefined, 'an entry past the 64-bit offsets');
  });

  it('a reader that outlives a repack finds the objects of the new packs', (t) => {
    const repo = createRepo({ 'a.ts': 'export const a = 1;\n' });
    t.after(() => repo.cleanup());
    repo.git('repack', '-a', '-d');
    const reader = createObjectReader(join(repo.dir, '.git'));
    assert.equal(reader.read(repo.git('rev-parse', 'HEAD:a.ts').trim())?.type, 'blob');
    repo.write({ 'b.ts': 'export const b = 2;\n' });
    repo.commit('b');
    // The old pack is replaced and the new objects are packed: none of them is loose any more.
    repo.git('repack', '-a', '-d');
    assert.match(repo.git('count-objects', '-v'), /^count: 0$/m);
    assert.equal(reader.read(repo.git('rev-parse', 'HEAD:b.ts').trim())?.bytes.toString(), 'export const b = 2;\n');
    assert.equal(reader.read(repo.git('rev-parse', 'HEAD:a.ts').trim())?.bytes.toString(), 'export const a = 1;\n');
  });

  it('keeps a pack open between reads and closes it once reads stop; a later read opens it again', {
    skip: !existsSync('/proc/self/fd'),
  }, async (t) => {
    const repo = buildHistory();
    t.after(() => repo.cleanup());
    repo.git('repack', '-a', '-d');
    const packDir = join(repo.dir, '.git/objects/pack');
    const openPacks = (): number =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(packDir);
        } catch {
          return false;
        }
      }).length;
    const reader = createObjectReader(join(repo.dir, '.git'));
    // Blobs, each read once (the reader keeps what it read): half now, half once the pack was closed.
    const blobs = catAll(repo).filter((object) => object.type === 'blob');
    const later = blobs.splice(0, blobs.length >> 1);
    for (const object of blobs) assert.ok(reader.read(object.oid)?.bytes.equals(object.bytes));
    assert.equal(openPacks(), 1, 'one descriptor for all the reads');
    // Closed by a timer once idle: waited for, however busy the machine.
    while (openPacks() > 0) await sleep(50);
    for (const object of later) assert.ok(reader.read(object.oid)?.bytes.equals(object.bytes));
    assert.equal(openPacks(), 1);
  });

  it('knows which objects it holds without reading them, and looks at the packs again after a repack', (t) => {
    const repo = createRepo({ 'a.ts': 'export const a = 1;\n' });
    t.after(() => repo.cleanup());
    const reader = createObjectReader(join(repo.dir, '.git'));
    const loose = repo.git('rev-parse', 'HEAD:a.ts').trim();
    assert.equal(reader.has(loose), true, 'a loose object');
    assert.equal(reader.has('0'.repeat(40)), false);
    assert.equal(reader.has('not an oid'), false);
    assert.equal(reader.has(loose.toUpperCase()), false, 'oids are lower-case hex');
    repo.git('repack', '-a', '-d');
    assert.match(repo.git('count-objects', '-v'), /^count: 0$/m);
    assert.equal(reader.has(loose), true, 'now only in a pack');
    repo.write({ 'b.ts': 'export const b = 2;\n' });
    repo.commit('b');
    repo.git('repack', '-a', '-d');
    assert.equal(reader.has(repo.git('rev-parse', 'HEAD:b.ts').trim()), true, 'in a pack made after the first look');
    assert.equal(reader.has('1'.repeat(40)), false);
  });

  it('applies a delta only when it fits its base and result sizes', () => {
    const base = Buffer.from('hello world');
    // base size 11, result size 9: copy 5 bytes from offset 6 ("world"), insert " ok!".
    const delta = Buffer.from([11, 9, 0x80 | 0x01 | 0x10, 6, 5, 4, ...Buffer.from(' ok!')]);
    assert.equal(applyDelta(base, delta)?.toString(), 'world ok!');
    assert.equal(applyDelta(Buffer.from('short'), delta), undefined);
    assert.equal(applyDelta(base, Buffer.from([11, 9, 0x80 | 0x01 | 0x10, 8, 5])), undefined);
    assert.equal(applyDelta(base, Buffer.from([11, 2, 0])), undefined);
  });

  it('a change between packed commits is answered without isomorphic-git loading a pack', async (t) => {
    const repo = buildHistory();
    t.after(() => repo.cleanup());
    repo.git('repack', '-a', '-d', '-f');
    repo.write({ 'src/deep/b.ts': 'export const b = 2;\n' });
    const gitRepo = await openRepository(repo.dir);

    const head = await resolveRevision(gitRepo, 'HEAD~2');
    assert.equal(head.oid, repo.git('rev-parse', 'HEAD~2').trim());
    assert.equal((await resolveRevision(gitRepo, 'v1')).oid, repo.git('rev-parse', 'HEAD').trim());
    const tree = await readCommitTree(gitRepo, head.oid);
    assert.equal(tree, repo.git('rev-parse', 'HEAD~2^{tree}').trim());
    const src = (await readTreeEntries(gitRepo, tree)).find((entry) => entry.path === 'src');
    assert.deepEqual(
      (await readTreeEntries(gitRepo, src?.oid ?? '')).map((entry) => entry.path),
      repo.git('ls-tree', '--name-only', 'HEAD~2:src').trim().split('\n'),
    );
    const blob = await readBlobBytes(gitRepo, repo.git('rev-parse', 'HEAD~2:src/a.ts').trim());
    assert.ok(Buffer.from(blob ?? []).equals(execFileSync('git', ['cat-file', 'blob', 'HEAD~2:src/a.ts'], { cwd: repo.dir })));
    const deltas = await diffWorktree(gitRepo, await readCommitTree(gitRepo, repo.git('rev-parse', 'HEAD').trim()), []);
    assert.deepEqual(
      deltas.map((delta) => delta.path),
      ['src/deep/b.ts'],
    );
    const full = repo.git('rev-parse', 'HEAD~1').trim();
    assert.equal((await resolveRevision(gitRepo, full)).oid, full);
    // isomorphic-git keeps each pack it loads under a symbol of the cache: none was loaded.
    assert.deepEqual(Object.getOwnPropertySymbols(gitRepo.cache), []);

    // Its own read of the same blob does load the pack, which is what this reader avoids.
    await git.readBlob({
      fs: gitRepo.fs,
      gitdir: gitRepo.gitdir,
      oid: repo.git('rev-parse', 'HEAD:src/a.ts').trim(),
      cache: gitRepo.cache,
    });
    assert.notDeepEqual(Object.getOwnPropertySymbols(gitRepo.cache), []);
  });
});

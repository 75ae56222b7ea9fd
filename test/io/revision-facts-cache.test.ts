import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createNodeEnv } from '../../src/io/node-env.js';
import type { ParsePool } from '../../src/io/parse-pool.js';
import { PARSER_VERSION } from '../../src/io/parse-cache.js';
import { createRepo } from '../helpers/git-repo.js';
import { sharedParsePool } from '../helpers/test-env.js';

/** The shared real pool, counting the files each parse call sends to it. */
function countingPool(): { pool: ParsePool; sent: string[][] } {
  const real = sharedParsePool();
  const sent: string[][] = [];
  const pool: ParsePool = {
    get size() {
      return real.size;
    },
    parse: (jobs, options, onParsed) => {
      sent.push(jobs.map((job) => job.path));
      return real.parse(jobs, options, onParsed);
    },
    read: (source, jobs, options, onParsed) => {
      sent.push(jobs.map((job) => job.path));
      return real.read(source, jobs, options, onParsed);
    },
    warm: (count) => real.warm(count),
    release: () => real.release(),
    processIds: () => real.processIds(),
    close: async () => undefined,
  };
  return { pool, sent };
}

const OPTIONS = { assertionHelpers: [] };

describe('revision facts cache (base sides parsed once)', () => {
  const repo = createRepo({ 'README.md': '# r\n' });
  after(() => repo.cleanup());

  it('a text parsed once is served from .checker/local/cache next time; another text or path is parsed', async () => {
    const { pool, sent } = countingPool();
    const job = { path: 'src/a.ts', text: 'export const a = 1;\nexport function b() { return a; }\n' };
    const first = await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.deepEqual(
      first.get('src/a.ts')?.exports.map((item) => item.name),
      ['a', 'b'],
    );
    // A new env (a new run) reads the cache file: nothing is sent to the pool.
    const second = await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.deepEqual(second.get('src/a.ts'), first.get('src/a.ts'));
    assert.deepEqual(sent, [['src/a.ts']]);
    // The same text under another path (facts depend on the path) and another text are parsed.
    await createNodeEnv(repo.dir, { pool }).parseTexts(
      [
        { path: 'src/b.ts', text: job.text },
        { path: 'src/a.ts', text: 'export const a = 2;\n' },
      ],
      OPTIONS,
    );
    assert.deepEqual(sent, [['src/a.ts'], ['src/b.ts', 'src/a.ts']]);
    // Other parse options (an assertion helper) make the entries stale.
    await createNodeEnv(repo.dir, { pool }).parseTexts([job], { assertionHelpers: ['expectOk'] });
    assert.equal(sent.length, 3);
  });

  it('useCache: false parses every time; a damaged cache file is parsed again and rewritten, never an error', async () => {
    const { pool, sent } = countingPool();
    const job = { path: 'src/c.ts', text: 'export const c = 3;\n' };
    await createNodeEnv(repo.dir, { pool, useCache: false }).parseTexts([job], OPTIONS);
    await createNodeEnv(repo.dir, { pool, useCache: false }).parseTexts([job], OPTIONS);
    assert.equal(sent.length, 2);
    // A line that is no entry, and an entry whose facts are malformed (under the key the job's text has: read, refused).
    const file = join(repo.dir, `.checker/local/cache/revision-facts-v${PARSER_VERSION}.jsonl`);
    const [header, line] = readFileSync(file, 'latin1').split('\n');
    assert.equal(header, `{"parserVersion":${PARSER_VERSION}}`);
    const key = (line ?? '').slice('{"key":"'.length, '{"key":"'.length + 64);
    writeFileSync(file, `${header}\nnot json\n{"key":"${key}","facts":{"lines":"no"}}\n`);
    const facts = await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.deepEqual(
      facts.get('src/c.ts')?.exports.map((item) => item.name),
      ['c'],
    );
    await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.equal(sent.length, 3);
  });

  it('keeps one entry a line: a save writes the entries it did not read as they were, and removes the old file', async () => {
    const { pool, sent } = countingPool();
    const cache = join(repo.dir, '.checker/local/cache');
    writeFileSync(join(cache, `revision-facts-v${PARSER_VERSION}.json`), '{"parserVersion":6,"entries":{}}');
    const jobs = ['d', 'e', 'f'].map((name) => ({ path: `src/${name}.ts`, text: `export const ${name} = 1;\n` }));
    await createNodeEnv(repo.dir, { pool }).parseTexts(jobs, OPTIONS);
    assert.equal(existsSync(join(cache, `revision-facts-v${PARSER_VERSION}.json`)), false, 'the single-document file is gone');
    const file = join(cache, `revision-facts-v${PARSER_VERSION}.jsonl`);
    const before = readFileSync(file, 'latin1').split('\n');
    // Mark the line of src/e.ts: a run that reads only src/d.ts and parses src/g.ts writes it back untouched.
    const marked = before.map((line) => (line.includes('"e"') ? line.replace('"lines":1', '"lines":1 ') : line));
    writeFileSync(file, marked.join('\n'));
    await createNodeEnv(repo.dir, { pool }).parseTexts(
      [jobs[0] as { path: string; text: string }, { path: 'src/g.ts', text: 'export const g = 1;\n' }],
      OPTIONS,
    );
    assert.deepEqual(sent.at(-1), ['src/g.ts']);
    const after = readFileSync(file, 'latin1').split('\n');
    assert.ok(
      after.some((line) => line.includes('"e"') && line.includes('"lines":1 ')),
      'an entry not read is written as it was read',
    );
    // Most recently used last: src/d.ts (read), then src/g.ts (parsed) follow the others.
    const names = after.slice(1, -1).map((line) => /"exports":\[\{"name":"(\w+)"/.exec(line)?.[1]);
    assert.deepEqual(names.slice(-2), ['d', 'g']);
  });
});

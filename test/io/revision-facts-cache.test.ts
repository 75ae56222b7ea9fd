import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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
    writeFileSync(
      join(repo.dir, `.checker/local/cache/revision-facts-v${PARSER_VERSION}.json`),
      `{"parserVersion":${PARSER_VERSION},"entries":{"x":{"lines":"no"}}`,
    );
    const facts = await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.deepEqual(
      facts.get('src/c.ts')?.exports.map((item) => item.name),
      ['c'],
    );
    await createNodeEnv(repo.dir, { pool }).parseTexts([job], OPTIONS);
    assert.equal(sent.length, 3);
  });
});

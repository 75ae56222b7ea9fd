import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { PARSER_VERSION } from '../../src/io/parse-cache.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/** How many texts the analysis parsed outside the graph: each parsed side is kept in the revision facts cache. */
function countParsedSides(dir: string): number {
  // One entry a line, after the header line.
  return (
    readFileSync(join(dir, `.checker/local/cache/revision-facts-v${PARSER_VERSION}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n').length - 1
  );
}

describe('the head side of a committed range', () => {
  const repo = createRepo({
    'src/price.ts': 'export const price = 1;\n',
    'src/tax.ts': '\ufeffexport const tax = 1;\n',
  });
  repo.write({
    'src/price.ts': 'export const price = 2;\nexport const discount = 1;\n',
    'src/tax.ts': '\ufeffexport const tax = 2;\nexport const vat = 1;\n',
  });
  repo.commit('prices and taxes');
  after(() => repo.cleanup());

  const analyse = async (): Promise<Record<string, string[]>> => {
    const env = createTestEnv(repo.dir);
    try {
      const analysis = await analyzeChange(env, { base: 'HEAD~1', head: 'HEAD' });
      return Object.fromEntries(
        analysis.changedFiles.map((file) => [file.path, file.changedExports.map((item) => `${item.change} ${item.name}`).sort()]),
      );
    } finally {
      await env.close();
    }
  };

  it('takes the graph facts of a clean checkout of the head (a byte-order mark included), parsing only the base sides', async () => {
    assert.deepEqual(await analyse(), {
      'src/price.ts': ['added discount', 'modified price'],
      'src/tax.ts': ['added vat', 'modified tax'],
    });
    assert.equal(countParsedSides(repo.dir), 2);
  });

  it('parses the head side of a file the working tree changed since, and reports the commit, not the working tree', async () => {
    repo.write({ 'src/price.ts': 'export const price = 3;\nexport const coupon = 1;\n' });
    assert.deepEqual((await analyse())['src/price.ts'], ['added discount', 'modified price']);
    assert.equal(countParsedSides(repo.dir), 3);
  });
});

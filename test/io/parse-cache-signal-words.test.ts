import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BUILTIN_SIGNAL_WORDS } from '../../src/graph/parse/builtin-signal-words.js';
import { parseRepositoryFiles } from '../../src/io/parse-files.js';
import { createParsePool, type ParsePool } from '../../src/io/parse-pool.js';
import { scanRepository } from '../../src/io/scan.js';
import type { SignalWordLists } from '../../src/model/facts.js';
import { createRepo } from '../helpers/git-repo.js';

let pool: ParsePool;
before(() => {
  pool = createParsePool({ size: 1 });
});
after(() => pool.close());

test('changed pack signal words invalidate cached facts, and the workers parse with them', async (t) => {
  const repo = createRepo({ 'src/ledger.ts': 'export function settle(tally: number) {\n  return tally * 2;\n}\n' });
  t.after(() => repo.cleanup());
  const run = async (signalWords: SignalWordLists) =>
    parseRepositoryFiles(repo.dir, (await scanRepository(repo.dir)).files, { assertionHelpers: [], pool, signalWords });
  const moneySignals = (result: Awaited<ReturnType<typeof run>>) =>
    result.facts
      .get('src/ledger.ts')
      ?.facts.signals.filter((signal) => signal.kind === 'money')
      .map((signal) => signal.detail);

  const builtin = await run(structuredClone(BUILTIN_SIGNAL_WORDS));
  assert.deepEqual(builtin.stats.parsed, 1);
  assert.deepEqual(moneySignals(builtin), []);

  const same = await run(structuredClone(BUILTIN_SIGNAL_WORDS));
  assert.deepEqual([same.stats.cached, same.stats.parsed], [1, 0]);

  const words = structuredClone(BUILTIN_SIGNAL_WORDS);
  words.money.words.push('tally');
  const extended = await run(words);
  assert.deepEqual([extended.stats.cached, extended.stats.parsed], [0, 1]);
  assert.deepEqual(moneySignals(extended), ['tally *']);
});

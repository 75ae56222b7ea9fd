import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUILTIN_SIGNAL_WORDS } from '../../../src/graph/parse/builtin-signal-words.js';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { loadBuiltinPacks } from '../../helpers/packs.js';
import type { SignalWordLists } from '../../../src/model/facts.js';
import { mergeClassifiers } from '../../../src/rules/classifiers.js';

const code = [
  'export function settle(tally: number, pageSize: number, authToken: string, price: number, rows: number[]) {',
  '  const fee = tally * 2;',
  '  const net = price - fee;',
  '  return [rows.slice(0, pageSize), authToken, net];',
  '}',
].join('\n');

function signalsWith(signalWords?: SignalWordLists): string[] {
  const facts = extractFacts('src/settle.ts', code, { assertionHelpers: [], ...(signalWords === undefined ? {} : { signalWords }) });
  return facts.signals.map((signal) => `${signal.line} ${signal.kind} ${signal.detail}`);
}

const withWords = (change: (words: SignalWordLists) => void): SignalWordLists => {
  const words = structuredClone(BUILTIN_SIGNAL_WORDS);
  change(words);
  return words;
};

describe('signal words', () => {
  test('the generated built-in words equal the built-in classifiers pack (node --import tsx scripts/generate-signal-words.ts)', async () => {
    assert.deepEqual(BUILTIN_SIGNAL_WORDS, mergeClassifiers(await loadBuiltinPacks()).signals);
  });

  test('without words the parser uses the built-in ones, and passing them changes nothing', () => {
    assert.deepEqual(signalsWith(), [
      '1 auth authToken',
      '3 money price -',
      '4 pagination .slice(…pageSize…)',
      '4 collection rows.slice',
      '4 auth authToken',
    ]);
    assert.deepEqual(signalsWith(structuredClone(BUILTIN_SIGNAL_WORDS)), signalsWith());
  });

  test('a money word from the packs makes arithmetic on it a money signal', () => {
    const words = withWords((lists) => lists.money.words.push('tally'));
    assert.deepEqual(signalsWith(words), [
      '1 auth authToken',
      '2 money tally *',
      '3 money price -',
      '4 pagination .slice(…pageSize…)',
      '4 collection rows.slice',
      '4 auth authToken',
    ]);
  });

  test('removed words and prefixes drop identifier signals; added words and prefixes match in any case', () => {
    const withoutAuth = withWords((lists) => {
      lists.pagination.words = lists.pagination.words.filter((word) => word !== 'page');
      lists.auth.words = lists.auth.words.filter((word) => word !== 'token');
      lists.auth.prefixes = [];
      lists.money.prefixes.push('TAL');
    });
    assert.deepEqual(signalsWith(withoutAuth), ['2 money tally *', '3 money price -', '4 collection rows.slice']);
    const upperCase = withWords((lists) => {
      lists.auth.words = ['TOKEN'];
      lists.auth.prefixes = [];
    });
    assert.deepEqual(signalsWith(upperCase), [
      '1 auth authToken',
      '3 money price -',
      '4 pagination .slice(…pageSize…)',
      '4 collection rows.slice',
      '4 auth authToken',
    ]);
  });

  test('empty word lists raise no identifier or pagination signal', () => {
    const none = { words: [], prefixes: [] };
    assert.deepEqual(signalsWith({ auth: none, pagination: none, money: none }), ['4 collection rows.slice']);
  });
});

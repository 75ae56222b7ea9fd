import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileWords } from '../../src/model/facts.js';
import { type FileText, getNameDocs, getPostings, getTextIndex } from '../../src/ranking/text-index.js';

const NONE: FileWords = { declared: '', code: '', strings: '', comments: '', names: '' };

function texts(files: Record<string, Partial<FileWords> & { isProse?: boolean }>): Map<string, FileText> {
  return new Map(
    Object.entries(files).map(([path, { isProse, ...words }]) => [path, { words: { ...NONE, ...words }, isProse: isProse === true }]),
  );
}

test('a stem is looked up in every field, its words counted with their repeats', () => {
  const index = getTextIndex(
    texts({
      'src/token.ts': { declared: 'token verify', code: 'options*3 token*2 tokens verifies', comments: 'verification' },
      'src/other.ts': { code: 'atoken retoken', strings: 'token' },
    }),
  );
  // file, field (declaration 0, identifier 1, string 2, comment 3), occurrences
  assert.deepEqual(getPostings(index, 'token'), [0, 0, 1, 0, 1, 3, 1, 2, 1]);
  // `verifi` is the stem of verify, verifies and verification: the lookup probes `verif`.
  assert.deepEqual(getPostings(index, 'verifi'), [0, 0, 1, 0, 1, 1, 0, 3, 1]);
  assert.deepEqual(getPostings(index, 'absent'), []);
});

test('prose joins its lists into one field, and every run of it is searched', () => {
  const index = getTextIndex(texts({ 'README.md': { isProse: true, code: 'apple banana', comments: 'apples*2 cherry' } }));
  assert.deepEqual(getPostings(index, 'appl'), [0, 4, 3]);
});

test('a name kept whole matches whole, not as the start of a longer one', () => {
  const index = getTextIndex(
    texts({ 'a.ts': { names: 'verifytoken' }, 'b.ts': { names: 'verifytokens' }, 'c.ts': { names: 'bearerauth verifytoken zeta' } }),
  );
  assert.deepEqual(getNameDocs(index, 'verifytoken'), [0, 2]);
});

test('lengths are the word lists, averaged over the files that have the field', () => {
  const index = getTextIndex(texts({ 'a.ts': { code: 'alpha beta' }, 'b.ts': { code: 'gamma' }, 'c.ts': {} }));
  assert.deepEqual([...(index.lengths[1] ?? [])], [10, 5, 0]);
  assert.equal(index.averages[1], 7.5);
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findForeignWords, isSoftwareStem } from '../../src/ranking/foreign-words.js';
import { stemWord, toStem } from '../../src/ranking/terms.js';

/** What a small web framework says, as stems. */
const SAID = new Set([
  'browser',
  'async',
  'remov',
  'font',
  'constructor',
  'pars',
  'context',
  'key',
  'schema',
  'generat',
  'pattern',
  'proto',
]);

function foreign(words: string[], said: ReadonlySet<string> = SAID): string[] {
  return findForeignWords(
    words.map((word) => ({ stem: stemWord(word), word })),
    () => said,
    toStem,
  );
}

describe('findForeignWords', () => {
  it('finds the words of another domain', () => {
    assert.deepEqual(foreign(['knitting', 'photo', 'sudoku', 'beekeepers']), ['knit', 'photo', 'sudoku', 'beekeeper']);
  });

  it('keeps software’s own language, said here or not', () => {
    for (const word of ['polyfill', 'crypto', 'webworker', 'deprecated', 'significant'])
      assert.equal(isSoftwareStem(stemWord(word)), true, word);
    assert.deepEqual(foreign(['polyfill', 'crypto', 'webworker', 'deprecated', 'significant']), []);
    // And asks nothing of the repository when no word is left.
    assert.deepEqual(
      findForeignWords([{ stem: stemWord('polyfill'), word: 'polyfill' }], () => assert.fail('the repository words were read'), toStem),
      [],
    );
  });

  it('keeps a misspelling of a word the repository says', () => {
    // A letter left out, one too many, one replaced.
    assert.deepEqual(foreign(['brower', 'asyc', 'remopve', 'fonrt', 'conctructor']), []);
    // Not for a short word one letter from another: photo is not proto misspelt.
    assert.deepEqual(foreign(['photo']), ['photo']);
  });

  it('takes a common English word for itself, never for a misspelling of the word one letter away', () => {
    // river is driver with a letter left out, flood food with one too many, stork store with one replaced: all software's words.
    const said = new Set([...SAID, 'driver', 'food', 'lower', 'stor', 'hour']);
    assert.deepEqual(foreign(['river', 'flood', 'flower', 'storks', 'horse'], said), ['river', 'flood', 'flower', 'stork', 'hors']);
    // The misspellings stay known beside them.
    assert.deepEqual(foreign(['brower', 'remopve', 'river'], said), ['river']);
  });

  it('keeps two words of the repository run together', () => {
    assert.deepEqual(foreign(['parsecontext', 'keyschema']), []);
    assert.deepEqual(foreign(['keyquilt']), ['keyquilt']);
  });

  it('keeps words made of software’s language: misspelt, two long ones run together, or with an English prefix or suffix', () => {
    // "constructor" said nowhere here, but software's word: its misspelling is too.
    assert.deepEqual(foreign(['conctructors', 'caseless', 'revalidation', 'unanchored', 'misleading', 'hardcoded'], new Set()), []);
    assert.deepEqual(foreign(['retiling', 'unquilted'], new Set()), ['retil', 'unquilt']);
    // A verb's form the stemmer leaves whole: hiding is hide's, which software says.
    assert.deepEqual(foreign(['hiding'], new Set()), []);
  });

  it('finds the words of other domains with no word of the repository to lean on', () => {
    const domains = ['knitting', 'photo', 'sudoku', 'tennis', 'tiebreak', 'eggs', 'butterflies', 'monarch', 'recipe', 'beekeepers'];
    assert.deepEqual(
      foreign(domains, new Set()),
      domains.map((word) => stemWord(word)),
    );
  });

  it('leaves out numbers, short words and anything but letters', () => {
    assert.deepEqual(foreign(['42', 'ox', 'utf8', 'ofx']), ['ofx']);
  });
});

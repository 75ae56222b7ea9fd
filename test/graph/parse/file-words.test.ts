import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFileWords } from '../../../src/graph/parse/file-words.js';

test('words stand where the text says them: declared names, other identifiers, strings, comments', () => {
  const words = extractFileWords(
    [
      "import { HTTPException } from '../../http-exception'",
      '/** Bearer auth middleware. */',
      'export const bearerAuth = (options: BearerAuthOptions) => {',
      "  if (!('token' in options || 'verifyToken' in options)) {",
      '    throw new Error(\'bearer auth middleware requires options for "token"\')',
      '  }',
      '  // Safari answers Load failed',
      '  return options.verifyToken',
      '}',
      'function* walkTokens() {}',
    ].join('\n'),
  );
  assert.deepEqual(words, {
    declared: 'auth bearer tokens walk',
    code: 'auth bearer error exception http options*5 token verify',
    strings: 'auth bearer middleware options requires token*3 verify',
    comments: 'answers auth bearer failed load middleware safari',
    names: 'bearerauth bearerauthoptions httpexception verifytoken walktokens',
  });
});

test('module specifiers, numbers, keywords and one-letter words are left out; counts stop at 9', () => {
  const words = extractFileWords(
    [
      "const x = require('lodash/merge')",
      "export * from './locale'",
      "const later = await import('./later')",
      `const list = [${Array.from({ length: 12 }, () => 'item').join(', ')}, 404, 'If-None-Match']`,
    ].join('\n'),
  );
  assert.deepEqual(words, { declared: 'later list', code: 'item*9', strings: 'match none', comments: '', names: 'ifnonematch' });
});

test('an unterminated literal or comment ends with its line or the text, and never throws', () => {
  assert.deepEqual(extractFileWords("const a = 'open string\nconst closed = /* not closed"), {
    declared: 'closed',
    code: '',
    strings: 'open string',
    comments: 'closed',
    names: '',
  });
  assert.deepEqual(extractFileWords(''), { declared: '', code: '', strings: '', comments: '', names: '' });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findOptionGates } from '../../src/rules/option-gates.js';

const FACTORY = [
  'export default function auth(options: AuthOptions = {}) {',
  '  return async function middleware(ctx, next) {',
  '    try {',
  '      await check(ctx);',
  '    } catch (err) {',
  '      if (options.optional) {',
  '        ctx.state.auth = {};',
  '      } else {',
  '        throw err;',
  '      }',
  '    }',
  '    if (!options.admin) return next();',
  '    return next();',
  '  };',
  '}',
  'export const other = () => 1;',
  '',
];

/** The gates of `auth` when head line `line` (1-based) is replaced by `text`. */
function gatesWhen(line: number, text: string): string[] | undefined {
  const head = FACTORY.map((original, index) => (index === line - 1 ? text : original));
  return findOptionGates(
    {
      baseText: FACTORY.join('\n'),
      headText: head.join('\n'),
      hunks: [{ oldStart: line, oldLines: 1, newStart: line, newLines: 1 }],
      headFunctions: [
        { name: 'auth', span: { start: 1, end: 15 }, complexity: 3, isAsync: false, params: 1 },
        { name: 'other', span: { start: 16, end: 16 }, complexity: 1, isAsync: false, params: 0 },
      ],
    },
    'auth',
  );
}

describe('findOptionGates: the options a factory change sits behind', () => {
  test('a line inside `if (options.optional)`, or that `if` given a further clause, is behind optional', () => {
    assert.deepEqual(gatesWhen(7, '        ctx.state.auth = { anonymous: true };'), ['optional']);
    assert.deepEqual(gatesWhen(6, '      if (options.optional && !(err instanceof Forbidden)) {'), ['optional']);
  });

  test('the else branch, a negated option, code outside any option and code outside the factory are behind none', () => {
    assert.equal(gatesWhen(9, '        throw wrap(err);'), undefined);
    assert.equal(gatesWhen(12, '    if (!options.admin) return next(ctx);'), undefined);
    assert.equal(gatesWhen(4, '      await check(ctx, true);'), undefined);
    assert.equal(gatesWhen(16, 'export const other = () => 2;'), undefined);
    // A condition rewritten so that it no longer opens on the option.
    assert.equal(gatesWhen(6, '      if (options.optional || ctx.isPublic) {'), undefined);
  });
});

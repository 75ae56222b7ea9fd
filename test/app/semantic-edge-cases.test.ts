import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { findSemanticChanges } from '../../src/rules/semantic-hunks.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const one = (before: string, after: string) =>
  findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]).map((change) => [
    change.kind,
    change.subject,
    change.limit,
    change.values,
  ]);

describe('findSemanticChanges: what the diff changed in a decision', () => {
  test('a comparison or its limit: the values at, below and above the limit', () => {
    assert.deepEqual(one('  if (value.length >= 5) return ok;', '  if (value.length > 5) return ok;'), [
      ['boundary', 'value.length', '5', '4, 5 and 6'],
    ]);
    assert.deepEqual(one('  if (total < 100) return 0;', '  if (total < 150) return 0;'), [
      ['boundary', 'total', '150', '149, 150 and 151'],
    ]);
    // Found on tRPC (observable.ts:262): a rewritten hunk pairs lines by position, but a removed line that shares no
    // name with the added one is not what it replaced: the comparison is new code, shown as a new line.
    const rewritten = findSemanticChanges('const value = await reader.read();\n', 'if (values.length > 0) {\n', [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
    ]);
    assert.deepEqual(
      rewritten.map((change) => [change.kind, change.before, change.after]),
      [['boundary', '', 'if (values.length > 0)']],
    );
    // Found on tRPC (observable.ts): a length or a size is never -1, so at a limit of 0 only 0 and 1 can be tried.
    assert.deepEqual(one('  if (values.length) {', '  if (values.length > 0) {'), [['boundary', 'values.length', '0', '0 and 1']]);
    assert.deepEqual(one('  if (seen.size >= 1) {', '  if (seen.size > 0) {'), [['boundary', 'seen.size', '0', '0 and 1']]);
    assert.deepEqual(one('  if (retryCount < 1) {', '  if (retryCount < 0) {'), [['boundary', 'retryCount', '0', '0 and 1']]);
    assert.deepEqual(one('  if (delta < 1) {', '  if (delta < 0) {'), [['boundary', 'delta', '0', '-1, 0 and 1']]);
  });

  test('a default, also inside a string; a condition; a removed throw; a regex; rounding', () => {
    assert.deepEqual(one('export function page(size = 20) {', 'export function page(size = 50) {'), [
      ['default', 'size', '50', 'a call without size (and with undefined and null)'],
    ]);
    assert.deepEqual(one("  const name = input.name ?? 'anon';", "  const name = input.name ?? 'guest';"), [
      ['default', 'the missing value', "'guest'", 'a call without the value (and with undefined and null)'],
    ]);
    assert.equal(
      findSemanticChanges('  if (user.isAdmin) {\n', '  if (user.isAdmin || user.isOwner) {\n', [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      ])[0]?.after,
      'if (user.isAdmin || user.isOwner)',
      'shown without the brace that opens the block',
    );
    assert.deepEqual(one('  if (user.isAdmin) {', '  if (user.isAdmin || user.isOwner) {'), [
      [
        'condition',
        '(user.isAdmin || user.isOwner)',
        '',
        'an input for which (user.isAdmin || user.isOwner) is true and one for which it is false',
      ],
    ]);
    // The strings of a condition are shown as written (express 5: QUERY joined GET and HEAD in req.fresh), and the
    // statement after it is not part of it; a parenthesis inside a string does not end it.
    assert.deepEqual(
      one("  if (name === ')' || ok) return;", "  if (name === ')' || ok || ready) return;")[0]?.[1],
      "(name === ')' || ok || ready)",
    );
    assert.deepEqual(
      one(
        "  if ('GET' !== method && 'HEAD' !== method) return false;",
        "  if ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) return false;",
      ),
      [
        [
          'condition',
          "('GET' !== method && 'HEAD' !== method && 'QUERY' !== method)",
          '',
          "an input for which ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) is true and one for which it is false",
        ],
      ],
    );
    assert.deepEqual(one("    throw new Error('bad');", '    return null;')[0]?.[0], 'error-path');
    assert.deepEqual(one('  const re = /^[a-z]+$/;', '  const re = /^[a-z0-9]+$/;'), [
      ['regex', '/^[a-z0-9]+$/', '', 'a string the old pattern accepts and the new one refuses, and the reverse'],
    ]);
    assert.deepEqual(one('  return Math.round(total * 100) / 100;', '  return Math.floor(total * 100) / 100;'), [
      ['arithmetic', 'the rounding', '', '.5, -0.5, 0 and a negative value'],
    ]);
  });

  test('found reading this repository: JSDoc is not a regex, an assignment is not a default, equality is not a range', () => {
    assert.deepEqual(one('/** Share of the lines kept. */', "/** Share of the old file's lines (how much of the `src/` kept). */"), []);
    assert.deepEqual(
      one(
        '  const routes = lookup.getRoutesHandledBy(files);',
        '  const routes = input.routes.filter((route) => route.chain[0] === path);',
      ),
      [],
    );
    assert.deepEqual(one('  if (count === 0) return;', '  if (count === 1) return;'), [
      ['boundary', 'count', '1', '1 and a value other than 1'],
    ]);
    const added = findSemanticChanges('a\n', 'a\nif (x > 1) return 1;\nif (y > 2) throw new Error();\nif (z < 3) return 3;\n', [
      { oldStart: 1, oldLines: 0, newStart: 2, newLines: 3 },
    ]);
    assert.deepEqual(
      added.map((change) => [change.kind, change.line]),
      [['boundary', 2]],
      'new code gives one case per hunk',
    );
  });

  test('found on zod: a limit that is a value, not a number, and a line with a presence check before the boundary', () => {
    assert.deepEqual(one('      if (length >= def.minimum) return;', '      if (length > def.minimum) return;'), [
      ['boundary', 'length', 'def.minimum', 'def.minimum − 1, def.minimum and def.minimum + 1'],
    ]);
    assert.deepEqual(
      one(
        'if (guards.minProperties !== undefined && keys.length < guards.minProperties) {',
        'if (guards.minProperties !== undefined && keys.length <= guards.minProperties) {',
      ),
      [['boundary', 'keys.length', 'guards.minProperties', 'guards.minProperties − 1, guards.minProperties and guards.minProperties + 1']],
    );
    // Generics and presence checks draw no boundary.
    assert.deepEqual(one('  const seen: Map<string, number> = new Map();', '  const seen: Map<string, boolean> = new Map();'), []);
    assert.deepEqual(
      one('  if (value !== undefined) return value;', '  if (value !== null) return value;').map(([kind]) => kind),
      ['condition'],
    );
  });

  test('found on a Hono app: an error status passed as an argument is an error path', () => {
    assert.deepEqual(one('    return ctx.body(null, 500);', '    return ctx.body(null, 400);'), [
      ['error-path', 'the error path', '400', 'a request that reaches this line, asserting the new status 400 (was 500)'],
    ]);
    assert.deepEqual(
      one("  return c.json({ error: 'no' }, 404);", "  return c.json({ error: 'gone' }, 410);").map(([kind]) => kind),
      ['error-path'],
    );
    assert.deepEqual(
      one('  return new Response(text, { status: 503 });', '  return new Response(text, { status: 500 });').map(([kind]) => kind),
      ['error-path'],
    );
    assert.deepEqual(one('  return c.json(rows, 200);', '  return c.json(rows, 201);'), [], 'a success status is no error path');
  });

  test('found on tRPC: a condition that opens on its line and goes on below is shown whole, not as `if (`', () => {
    const head = [
      'function send() {',
      '        if (',
      '          // the client may be gone already',
      '          abortController.signal.aborted ||',
      '          client.readyState !== WEBSOCKET_OPEN',
      '        ) {',
      '          abort();',
      '        }',
      '}',
    ].join('\n');
    const found = findSemanticChanges('function send() {\n}\n', head, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 7 }]);
    assert.deepEqual(
      found.map((change) => [change.kind, change.line, change.subject, change.after]),
      [
        [
          'condition',
          2,
          '(abortController.signal.aborted || client.readyState !== WEBSOCKET_OPEN)',
          'if (abortController.signal.aborted || client.readyState !== WEBSOCKET_OPEN)',
        ],
      ],
    );
    // One that does not close within eight lines of code is left as written.
    const open = ['if (', ...Array.from({ length: 9 }, (_, index) => `  a${index} ||`), '  b', ') {'].join('\n');
    assert.deepEqual(
      findSemanticChanges('', open, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }]).map((change) => change.after),
      ['if ('],
    );
  });

  test('a changed message, comment or log line changes no decision', () => {
    assert.deepEqual(one("  console.log('hello');", "  console.log('hello world');"), []);
    assert.deepEqual(one('  // at least five', '  // more than five'), []);
    assert.deepEqual(one("  throw new Error('too short');", "  throw new Error('name is too short');"), []);
  });

  test('beyond if: logical assignments, membership tests, normalisation and option flags name the line and the values', () => {
    // Found on ky, outline and got (issue 41): each of these changed behaviour with no `if` in sight.
    assert.deepEqual(one('  retry.methods = retry.methods;', '  retry.methods &&= retry.methods.map((method) => method.toLowerCase());'), [
      ['condition', 'retry.methods &&= …', '', 'retry.methods undefined, empty and set, so that the transform runs only when it should'],
      [
        'normalisation',
        'toLowerCase',
        '',
        "the same value in other cases and with spaces around it (' Value ', 'VALUE', 'value'), an empty string, and letters outside ASCII ('İ', 'ß')",
      ],
    ]);
    assert.deepEqual(one('  options.timeout = options.timeout;', '  options.timeout ??= 10000;'), [
      ['default', 'options.timeout', '10000', 'options.timeout undefined and null (it becomes 10000), and a value already set'],
    ]);
    assert.deepEqual(one('  return or(isDone(op), false);', '  return or(isDone(op), TerminalStates.includes(op.state));'), [
      [
        'membership',
        'TerminalStates.includes(op.state)',
        '',
        'op.state that is in TerminalStates, one that is not, and one that differs only in case or type ("1" and 1)',
      ],
    ]);
    // A normalisation added beside one the line already made counts; the one it made does not again.
    assert.deepEqual(
      one('  const ok = name.trim() === other;', '  const ok = name.trim().toLowerCase() === other;').map(([kind, subject]) => [
        kind,
        subject,
      ]),
      [['normalisation', 'toLowerCase']],
    );
    assert.deepEqual(one('  const ok = name.trim() === other;', '  const ok = name.trim() === others;'), []);
    assert.deepEqual(one('  const pin = await Pin.findByPk(id);', '  const pin = await Pin.findByPk(id, { rejectOnEmpty: true });'), [
      ['option-flag', 'rejectOnEmpty', 'true', 'an id that matches no record (a 404 or a clear error, not an empty success)'],
    ]);
    assert.deepEqual(
      one('  for (const key in headers) copy(key);', '  for (const name in headers) copy(name);'),
      [],
      'a for…in loop tests nothing',
    );
  });

  test('an operand given a name, or a renamed variable, changes no decision; a changed operator still does', () => {
    const hunk = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.subject]);
    // Found on ky: the retry condition's operand became a named constant.
    assert.deepEqual(
      hunk(
        ["  if (options.retry > 0 && method !== 'get') {"],
        ['  const canRetry = options.retry > 0;', "  if (canRetry && method !== 'get') {"],
      ),
      [],
    );
    assert.deepEqual(hunk(['  const ok = a && b;', '  if (ok) {'], ['  const valid = a && b;', '  if (valid) {']), []);
    assert.deepEqual(
      hunk(
        ["  if (options.retry > 0 && method !== 'get') {"],
        ['  const canRetry = options.retry > 0;', "  if (canRetry || method !== 'get') {"],
      ),
      [['condition', "(canRetry || method !== 'get')"]],
    );
  });
});

describe('semantic edge cases come first and name the changed line (checker analyze)', () => {
  const base = {
    'package.json': JSON.stringify({ name: 'names', version: '1.0.0', type: 'module' }),
    'src/validate.ts': [
      'export function isValidName(value: string): boolean {',
      '  const trimmed = value.trim();',
      '  const parts = trimmed.split(/\\s+/);',
      '  if (trimmed.length >= 3) return parts.length > 0;',
      '  return false;',
      '}',
      '',
    ].join('\n'),
  };
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(base, {
      'src/validate.ts': base['src/validate.ts'].replace('trimmed.length >= 3', 'trimmed.length > 3'),
    });
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('the boundary edge case is first, names line 4 and the values 2, 3 and 4; no generic signal from an unchanged line', () => {
    const [first] = analysis.edgeCases.top;
    assert.ok(first !== undefined);
    assert.match(first.provenance, /^semantic-edge-cases@1\.2\.0#edge-case\/changed-boundary$/);
    assert.equal(
      first.title,
      'src/validate.ts:4 changes a boundary on trimmed.length (if (trimmed.length >= 3) return parts.length > 0; → if (trimmed.length > 3) return parts.length > 0;)',
    );
    assert.equal(first.trigger, 'trimmed.length is 2, 3 and 4');
    assert.equal(first.confidence, 'high');
    // The regex `/\s+/` sits on line 3, which did not change.
    const all = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow];
    assert.equal(
      all.some((edge) => edge.provenance.endsWith('#edge-case/catastrophic-regex')),
      false,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findAssertedLiterals, findReplacedLiterals } from '../../src/rules/replaced-literals.js';

const hunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 };
const replace = (before: string, after: string) =>
  findReplacedLiterals({ path: 'src/a.ts', hunks: [hunk], baseText: `${before}\n`, headText: `${after}\n` });

describe('findReplacedLiterals', () => {
  test('a reworded message is replaced by the added literal; a short string is no message', () => {
    assert.deepEqual(
      replace("throw new Error('the token option is required');", "throw new Error('a token is required'); const mode = 'fast';").map(
        (item) => [item.literalKind, item.before, item.after],
      ),
      [['message', 'the token option is required', 'a token is required']],
    );
    assert.deepEqual(replace("log('short');", "log('brief');"), []);
  });

  // Check 21 (cobra): a Go raw string spans lines; `Simply type \` + c.Name() + \` help …` opens inside it, so the text
  // between its backquotes is code, not a message the change replaced.
  test('a line that opens inside a backquoted literal an earlier line began is scanned from where it closes', () => {
    const text = (name: string) =>
      `\t\tLong: \`Help provides help for any command in the application.\nSimply type \` + ${name} + \` help [path to command] for full details.\`,\n`;
    const found = findReplacedLiterals({
      path: 'command.go',
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      baseText: text('c.Name()'),
      headText: text('c.displayName()'),
    });
    assert.deepEqual(found, []);
    // The message after the closing backquote is still read: reworded, it is replaced.
    const reworded = findReplacedLiterals({
      path: 'command.go',
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      baseText: '\tLong: `Help provides help.\nSee docs.`, Short: "show the help for any command here",\n',
      headText: '\tLong: `Help provides help.\nSee docs.`, Short: "print the help text of one command",\n',
    })
      .filter((item) => item.literalKind === 'message')
      .map((item) => [item.before, item.after]);
    assert.deepEqual(reworded, [['show the help for any command here', 'print the help text of one command']]);
    // A backquote inside a regex literal (a markdown escaper's class) opens no template: the next line is still read.
    const escaped = findReplacedLiterals({
      path: 'src/md.ts',
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      baseText: "const escape = (text) => text.replace(/[`*_]/g, '\\\\$&');\nthrow new Error('the markdown text could not be escaped');\n",
      headText: "const escape = (text) => text.replace(/[`*_]/g, '\\\\$&');\nthrow new Error('escaping the markdown text failed here');\n",
    }).map((item) => [item.before, item.after]);
    assert.deepEqual(escaped, [['the markdown text could not be escaped', 'escaping the markdown text failed here']]);
  });

  // Check 61 (helmetjs/helmet): four literal warnings became one template whose pieces still say each of them; four
  // stale-assertion tasks asked to update tests that still pass.
  test('a message the head still says piece by piece, from its strings and a template, is not replaced; a word put in is', () => {
    const base = [
      'if (options.hidePoweredBy !== undefined) console.warn("hidePoweredBy does not take options. Remove the property to silence this warning.");',
      'const other = 1;',
    ].join('\n');
    const head = [
      'const hide = getArgs(options.hidePoweredBy, { name: "hidePoweredBy", takesOptions: false });',
      'console.warn(`${config.name} does not take options. ${',
      '  enabledByDefault ? "Remove the property" : "Set the property to `true`"',
      '} to silence this warning.`);',
    ].join('\n');
    const hunks = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 4 }];
    assert.deepEqual(findReplacedLiterals({ path: 'index.ts', hunks, baseText: `${base}\n`, headText: `${head}\n` }), []);
    // A word put into the message: replaced, whether the word is new to the file or said in another string of it.
    const worded = head.replace('does not take options. ${', 'does not take any options. ${');
    for (const text of [worded, `${worded}\nconst hint = "any";`]) {
      assert.deepEqual(
        findReplacedLiterals({ path: 'index.ts', hunks, baseText: `${base}\n`, headText: `${text}\n` }).map((item) => item.literalKind),
        ['message'],
      );
    }
  });

  test('an import specifier and a type annotation are neither messages nor defaults', () => {
    assert.deepEqual(replace("import { a } from '../lib/some-long-module';", "import { a } from '../lib/another-long-module';"), []);
    assert.deepEqual(
      replace('function f(limit: number = 5) {}', 'function f(limit: number = 6) {}').map((item) => item.name),
      ['limit'],
    );
  });

  test("a default one branch of the new code still gives is not replaced (parse-server's type = 'Object')", () => {
    const base = "      type = 'Object';\n";
    const head = "      if (isArrayIndex) {\n        type = 'Array';\n      } else {\n        type = 'Object';\n      }\n";
    const hunks = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 5 }];
    assert.deepEqual(findReplacedLiterals({ path: 'src/schema.js', hunks, baseText: base, headText: head }), []);
    const only = "      if (isArrayIndex) {\n        type = 'Array';\n      }\n";
    assert.deepEqual(
      findReplacedLiterals({
        path: 'src/schema.js',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 3 }],
        baseText: base,
        headText: only,
      }).map((item) => [item.name, item.before, item.after]),
      [['type', "'Object'", "'Array'"]],
    );
  });

  test("a prefix dropped that a formatter adds back is no replaced message (msw's '[MSW] ' inside formatMessage)", () => {
    const message = 'Failed to apply given request handlers: invalid input.';
    assert.deepEqual(
      replace(`invariant(ok, devUtils.formatMessage('[MSW] ${message}'))`, `invariant(ok, devUtils.formatMessage('${message}'))`),
      [],
    );
    // A message cut to a fragment of itself is rewritten, not kept.
    assert.deepEqual(
      replace("throw new Error('the token option is required for every call');", "throw new Error('the token option');").map(
        (item) => item.before,
      ),
      ['the token option is required for every call'],
    );
  });

  test('a template keeps its static parts; one too short to tell is dropped', () => {
    assert.deepEqual(replace('throw new Error(`unknown id ${id}`);', 'throw new Error(`no record ${id}`);')[0]?.staticParts, [
      'unknown id',
    ]);
    assert.deepEqual(replace('throw new Error(`${a}: ${b} ${c} ${d}`);', 'throw new Error(`${a} - ${b}`);'), []);
  });
});

describe('a compared word', () => {
  // Check 141 (light-my-request): removing `if (res.headers['content-type'].indexOf('application/json') < 0) throw …`
  // made six tests that say 'application/json' as a header value stale assertions.
  test('a one-word literal a removed line compares with is no message; one it says is', () => {
    const removed = (line: string) => replace(line, '').map((item) => item.before);
    assert.deepEqual(removed("  if (res.headers['content-type'].indexOf('application/json') < 0) {"), []);
    assert.deepEqual(removed("  if (type === 'application/json') {"), []);
    assert.deepEqual(removed("  router.post('admin/email/login', login);"), ['admin/email/login']);
    assert.deepEqual(removed("  throw createError('FST_ERR_INSTANCE_ALREADY_LISTENING');"), ['FST_ERR_INSTANCE_ALREADY_LISTENING']);
  });
});

describe('findAssertedLiterals', () => {
  const message = replace("throw new Error('unknown id for the record');", "throw new Error('no such record');");
  const retries = replace('const { retries = 2 } = options;', 'const { retries = 3 } = options;');
  const testText = (text: string, reaches: string[] = ['src/a.ts']) => ({ path: 'test/a.test.ts', text, reaches: new Set(reaches) });

  test("a message in a test's title is not an assertion of it", () => {
    const text = "it('unknown id for the record', () => {\n  expect(() => find(7)).toThrow('unknown id for the record');\n});";
    assert.deepEqual(
      findAssertedLiterals(message, [testText(text)], 8).asserted.map((item) => item.testLine),
      [2],
    );
  });

  test('an old default counts next to its name on an assertion, not as an argument', () => {
    const text = 'createClient({ retries: 2 });\nexpect(createClient()).toEqual({\n  retries: 2,\n});';
    assert.deepEqual(
      findAssertedLiterals(retries, [testText(text)], 8).asserted.map((item) => item.testLine),
      [3],
    );
    assert.deepEqual(findAssertedLiterals(retries, [testText('assert.equal(client.retries, 12);')], 8).asserted, []);
  });

  // Check 138 (path-to-regexp's compiler rewrite): `Expected "b" to be a string` was a stale assertion of the removed
  // `` `Expected "${token.name}" to be ${typeOfMessage}` ``; the head's `` `Expected "${token.name}" to be a string` ``
  // says it still.
  test('a test line that a message of the head also matches asserts nothing stale', () => {
    const template = replace(
      'throw new TypeError(`Expected "${token.name}" to be ${typeOfMessage}`);',
      'throw new TypeError(`Expected "${token.name}" to be an array`);\nthrow new TypeError(`Expected "${token.name}" to be a string`);',
    );
    const text = [
      'expect(() => toPath()).toThrow(new TypeError(\'Expected "b" to be a string\'));',
      'expect(() => toPath()).toThrow(new TypeError(\'Expected "b" to be a number\'));',
    ].join('\n');
    assert.deepEqual(
      findAssertedLiterals(template, [testText(text)], 8).asserted.map((item) => item.testLine),
      [2],
    );
    // The labelled sample (commander 2e96cd3887): the new message adds `: ${details}`; a test of the old text is stale,
    // though every longer piece of the new one is in it.
    const extended = replace(
      'const message = `error: too many arguments${forSubcommand}. Expected ${expected} argument${s} but got ${receivedArgs.length}.`;',
      'const message = `error: too many arguments${forSubcommand}. Expected ${expected} argument${s} but got ${received}: ${details}.`;',
    );
    const old = "expect(() => program.parse(['excess'])).toThrow('error: too many arguments. Expected 0 arguments but got 1.');";
    assert.deepEqual(
      findAssertedLiterals(extended, [testText(old)], 8).asserted.map((item) => item.testLine),
      [1],
    );
  });

  test('tests that reach the changed file come first, and the cap counts the rest', () => {
    const line = "expect(() => find(7)).toThrow('unknown id for the record');";
    const far = { path: 'a/far.test.ts', text: `${line}\n${line}`, reaches: new Set<string>() };
    const near = { ...testText(line), path: 'z/near.test.ts' };
    const { asserted, found } = findAssertedLiterals(message, [far, near], 2);
    assert.deepEqual(
      asserted.map((item) => [item.testFile, item.reachesChange]),
      [
        ['z/near.test.ts', true],
        ['a/far.test.ts', false],
      ],
    );
    assert.equal(found, 3);
  });

  test("where some lines that hold the old message call its function, the others assert another's (check 315: avvio)", () => {
    const base = [
      'Boot.prototype.onClose = function (func) {',
      "  if (typeof func !== 'function') {",
      "    throw new Error('callback is not a function');",
      '  }',
      '};',
    ];
    const head = [...base.slice(0, 2), "    throw new CallbackError('onClose', typeof func);", ...base.slice(3)];
    const literals = findReplacedLiterals({
      path: 'boot.js',
      hunks: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }],
      baseText: `${base.join('\n')}\n`,
      headText: `${head.join('\n')}\n`,
    });
    assert.deepEqual(
      literals.map((literal) => literal.callable),
      ['onClose'],
    );
    const text = [
      "test('close needs a function', (t) => {",
      "  t.throws(() => app.close({}), { message: 'callback is not a function' });",
      '});',
      "test('onClose needs a function', (t) => {",
      "  t.throws(() => app.onClose({}), { message: 'callback is not a function' });",
      '});',
    ].join('\n');
    const lines = (test: string) =>
      findAssertedLiterals(literals, [{ path: 'test/close.test.js', text: test, reaches: new Set(['boot.js']) }], 8).asserted.map(
        (item) => item.testLine,
      );
    assert.deepEqual(lines(text), [5]);
    // None calls it: every line that holds the text may assert it.
    assert.deepEqual(lines(text.replace('app.onClose({})', 'app.close(null)')), [2, 5]);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Hunk } from '../../src/model/change.js';
import { isMessageTextOnly } from '../../src/rules/message-text.js';

/** One hunk per line that differs (the sides have as many lines). */
function linesChanged(base: string, head: string): Hunk[] {
  const before = base.split('\n');
  const after = head.split('\n');
  return before.flatMap((line, index) =>
    line === after[index] ? [] : [{ oldStart: index + 1, oldLines: 1, newStart: index + 1, newLines: 1 }],
  );
}

const reworded = (base: string, head: string, python = false): boolean => isMessageTextOnly(base, head, linesChanged(base, head), python);

// Check 48 (urfave/cli): "Fix typos" changed `cant` to `can't` in two fmt.Errorf messages and a comment.
test('a message reworded in an error, a log line or a raise is message text only; a comment beside it changes nothing', () => {
  const go = (message: string, comment: string) => `func (f *Flag) Set() error {\n\t// ${comment}\n\treturn fmt.Errorf("${message}")\n}\n`;
  assert.equal(
    reworded(go('cant duplicate this flag', 'doesnt accept args'), go("can't duplicate this flag", "doesn't accept args")),
    true,
  );
  assert.equal(reworded("throw new TypeError('Expected a numbr');\n", "throw new TypeError('Expected a number');\n"), true);
  // A template that holds an expression is read as code: its reworded text is not told from a changed expression.
  assert.equal(reworded('  console.warn(`retrying in ${ms} ms`, id);\n', '  console.warn(`retrying after ${ms} ms`, id);\n'), false);
  assert.equal(reworded("    raise ValueError('bad  value')  # why\n", "    raise ValueError('bad value')  # why not\n", true), true);
  assert.equal(reworded("  logger.info('sent the mail');\n", "  logger.info('sent the email');\n"), true);
  // Check 56 (encode/uvicorn): a message kept in a name for the next line to log.
  assert.equal(
    reworded("    msg = 'Please use pip install'  # noqa: E501\n", '    msg = "Please use \'pip install\'"  # noqa: E501\n', true),
    true,
  );
  assert.equal(reworded("if (message === 'a') run();\n", "if (message === 'b') run();\n"), false);
});

test('a literal that decides, names a key or builds a query is behaviour; so is any change of code', () => {
  assert.equal(reworded("if (method === 'GET') return;\n", "if (method === 'POST') return;\n"), false);
  assert.equal(reworded("  onError('click');\n", "  onError('submit');\n"), false);
  assert.equal(reworded("const sql = 'select id from users';\n", "const sql = 'select id from members';\n"), false);
  assert.equal(reworded("throw new Error('no');\n", "throw new RangeError('no');\n"), false);
  assert.equal(reworded("throw new Error('no');\n", "throw new Error('no', { cause });\n"), false);
  assert.equal(
    isMessageTextOnly("throw new Error('a');\n", "throw new Error('b');\nreturn;\n", [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 },
    ]),
    false,
  );
});

// Check 59 (marshmallow-code/marshmallow): a message wrapped over three lines inside `msg = (…)`, two of its strings
// made f-strings so that the field's name is said. Reworded lines of a wrapped message are message text; a new prefix
// is a new value.
test('a wrapped message reworded is message text; a string made an f-string is not; strings of any other value are behaviour', () => {
  const wrapped = (first: string, second: string) =>
    `        msg = (\n            ${first}\n            "Field instance, not a class. "\n            ${second}\n        )\n`;
  assert.equal(
    reworded(
      wrapped(`'Field for "x" must be declard as a '`, "'Did you mean it?'"),
      wrapped(`'Field for "x" must be declared as a '`, "'Did you mean it?'"),
      true,
    ),
    true,
  );
  assert.equal(
    reworded(
      wrapped(`'Field for "{field_name}" must be declared as a '`, "'Did you mean it?'"),
      wrapped(`f'Field for "{field_name}" must be declared as a '`, "'Did you mean it?'"),
      true,
    ),
    false,
  );
  assert.equal(
    reworded("  throw new Error(\n    'a numbr ' +\n    'here'\n  );\n", "  throw new Error(\n    'a number ' +\n    'here'\n  );\n"),
    true,
  );
  assert.equal(
    reworded("  const sql = (\n    'select id from users'\n  )\n", "  const sql = (\n    'select id from members'\n  )\n", true),
    false,
  );
});

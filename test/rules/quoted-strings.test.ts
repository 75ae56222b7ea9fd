import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

// zod's src/types.ts holds an e-mail pattern whose character class has a quote and then a run of escapes
// (`/^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-\.]*)…/i`). Read as the start of a string that never closes, a string pattern that
// lets a backslash be read either as an escape or as a plain character tries every split of the run: 2^40 here, and
// `checker ai` spun for minutes on a zod fix. A regular expression cannot be interrupted from its own thread, so each
// case runs in a child process: with the fix it answers at once; without it the child is killed and the case fails.
const ESCAPES = '\\-\\.'.repeat(20);
const UNCLOSED = `const emailRegex = /^([A-Z0-9_'+${ESCAPES}]*)$/i;`;
const HUNKS = fileURLToPath(new URL('../../src/rules/semantic-hunks.ts', import.meta.url));
const CHANGE_KIND = fileURLToPath(new URL('../../src/rules/change-kind.ts', import.meta.url));

/** What `expression` (over the module's exports `m` and the line `line`) gives, as JSON; undefined when it did not finish. */
function evaluate(expression: string, module = HUNKS): unknown {
  const script = `const m = await import(${JSON.stringify(module)}); const line = ${JSON.stringify(UNCLOSED)}; process.stdout.write(JSON.stringify(${expression}));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return child.status === 0 ? JSON.parse(child.stdout) : undefined;
}

describe('a line with an unclosed quote before a run of escapes', () => {
  test('the tests an edit removed are read past it', () => {
    assert.deepEqual(
      evaluate(
        'm.listRemovedTests(`${line}\\nif (value.length > limit) {\\n  fail();\\n}\\n`, [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 0 }])',
      ),
      ['value.length > limit'],
    );
  });

  test('a boundary added below it is still asked', () => {
    assert.deepEqual(
      evaluate(
        'm.findSemanticChanges(`${line}\\nfail();\\n`, `${line}\\nif (value.length > limit) fail();\\n`, [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }]).map((c) => [c.kind, c.line])',
      ),
      [['boundary', 2]],
    );
  });

  test('a name renamed on it is still a rename', () => {
    const rename =
      "m.classifyChangeKind({ path: 'email.js', status: 'modified', binary: false, additions: 1, deletions: 1, pathClasses: {}, hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }, { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }], baseText: line + '\\nemailRegex.test(x);\\n', headText: line.replace('emailRegex', 'emailPattern') + '\\nemailPattern.test(x);\\n' })";
    assert.equal(evaluate(rename, CHANGE_KIND), 'identifier-rename');
  });
});

// A changed line holding a long run of name characters (a base64 blob in a template literal): a call pattern tried from
// every character of the run backtracks over the rest of it, 50,000 characters taking a second and 400,000 a minute.
describe('a changed line with a long run of name characters', () => {
  const RELEVANCE = fileURLToPath(new URL('../../src/ranking/test-relevance.ts', import.meta.url));
  const blob = '`const logo = \\`${"A".repeat(400000)}\\`; abortWithCode("LIMIT_FILE_SIZE");`';

  test('the functions it calls are read at once', () => {
    assert.deepEqual(evaluate(`m.findChangedCallees(${blob}, [1])`, RELEVANCE), ['abortWithCode']);
  });

  test('the sibling literals of its calls are read at once', () => {
    assert.deepEqual(evaluate(`m.findSiblingLiterals(${blob} + '\\nabortWithCode("LIMIT_PART_COUNT");', [1])`, RELEVANCE), [
      'LIMIT_PART_COUNT',
    ]);
  });
});

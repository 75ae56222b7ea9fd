import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitCommand } from '../../src/text/command-words.js';

describe('splitCommand: configured command strings become argv without a shell', () => {
  test('quoting is honoured and nothing is expanded', () => {
    assert.deepEqual(splitCommand('node --test "test/a b.test.js" \'$HOME\''), {
      ok: true,
      argv: ['node', '--test', 'test/a b.test.js', '$HOME'],
    });
    assert.deepEqual(splitCommand('npx tsc -p .'), { ok: true, argv: ['npx', 'tsc', '-p', '.'] });
    assert.deepEqual(splitCommand('a "b\\"c"'), { ok: true, argv: ['a', 'b"c'] });
  });

  test('what only a shell gives is refused, naming it', () => {
    const problems = Object.fromEntries(
      [
        'npm test && rm -rf x',
        'echo $HOME',
        'a --x=${TOKEN}/y',
        'echo $(id)',
        'echo `id`',
        'ls *.ts',
        'a > out',
        'a | b',
        'a ; b',
        'a & b',
        'a # note',
        '   ',
      ].map((command) => {
        const result = splitCommand(command);
        return [command, result.ok ? 'ACCEPTED' : result.problem.split('; checker runs')[0]];
      }),
    );
    assert.deepEqual(problems, {
      'npm test && rm -rf x': 'uses the shell operator &&',
      'echo $HOME': 'uses $HOME, which only a shell expands',
      'a --x=${TOKEN}/y': 'uses $TOKEN, which only a shell expands',
      'echo $(id)': 'uses $(…), which only a shell expands',
      'echo `id`': 'uses a backtick (command substitution)',
      'ls *.ts': 'uses the glob *.ts',
      'a > out': 'uses the shell operator >',
      'a | b': 'uses the shell operator |',
      'a ; b': 'uses the shell operator ;',
      'a & b': 'uses the shell operator &',
      'a # note': 'has a # comment',
      '   ': 'is empty',
    });
  });
});

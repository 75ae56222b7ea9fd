import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';

// In-process runs (how most CLI tests run) keep output and exit codes per run, and never touch the process's own.
test('overlapping in-process runs keep their own output and exit code, and leave process.exitCode alone', async () => {
  const repo = createRepo({ '.checker/rules/bad.yml': 'id: bad\nversion: 1\nrules: nope\n', 'src/a.ts': 'export const a = 1;\n' });
  try {
    const [version, invalid, unknown] = await Promise.all([
      runCliAsync(['--version']),
      runCliAsync(['rules', 'validate', '--cwd', repo.dir]),
      runCliAsync(['no-such-command']),
    ]);
    assert.deepEqual([version.code, version.stdout, version.stderr], [0, '0.1.0\n', '']);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /^checker: pack\/invalid: /m);
    assert.doesNotMatch(invalid.stderr, /unknown command/);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /^checker: usage\/unknown-command: unknown command "no-such-command"/);
    assert.equal(process.exitCode, undefined);
  } finally {
    repo.cleanup();
  }
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

/** `npm test`'s runner refuses what it cannot run before it starts any test, naming the argument and the fix. */
const script = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('scripts/run-tests.mjs: arguments', () => {
  test('an unknown tier, an unknown option, or fragments that match no file: exit 2, a message, no test run', () => {
    const tier = run('--tier', 'quick');
    assert.equal(tier.status, 2);
    assert.equal(tier.stderr, 'run-tests: --tier must be one of fast, slow, all (got "quick")\n');
    assert.equal(tier.stdout, '');
    const option = run('--bail');
    assert.equal(option.status, 2);
    assert.equal(option.stderr, 'run-tests: unknown option --bail; use --tier fast|slow|all, --isolate and path fragments\n');
    const none = run('--tier', 'fast', 'no-such-test-file');
    assert.equal(none.status, 2);
    assert.equal(none.stderr, 'run-tests: no test file matches no-such-test-file\n');
    assert.equal(none.stdout, '');
  });
});

// Every secret-looking value in this file is a synthetic fake (security.md §6). gitleaks:allow
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';

const FAKE_TOKEN = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
const HINT = 'Pass --max-nodes between 1 and 1000 (default 80, or context.maxNodes in .checker/config.yml).';

describe('an error shows our hint as written and the outside value redacted', () => {
  const repo = createRepo({ 'src/orders.ts': 'export const orders = [];\n' });
  after(() => repo.cleanup());

  it('context --max-nodes 0 prints the hint unredacted', async () => {
    const result = await runCliAsync(['context', '--cwd', repo.dir, '--task', 'list the orders', '--max-nodes', '0']);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `checker: context/max-nodes: --max-nodes (maxNodes) must be an integer from 1 to 1000 (got "0")\n  hint: ${HINT}\n`,
    );
  });

  it('a secret given as --max-nodes is redacted in the same message, and the hint still reads right', async () => {
    const result = await runCliAsync(['context', '--cwd', repo.dir, '--task', 'list the orders', '--max-nodes', `password=${FAKE_TOKEN}`]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.includes(FAKE_TOKEN), false, result.stderr);
    assert.match(result.stderr, /\(got "password=\[REDACTED:[a-z-]+\]"\)/);
    assert.ok(result.stderr.includes(`hint: ${HINT}`), result.stderr);
  });
});

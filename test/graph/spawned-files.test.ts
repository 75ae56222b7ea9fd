import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findSpawnedFiles } from '../../src/graph/queries/spawned-files.js';

const FILES = new Set(['src/cli.ts', 'bin/cli.js', 'test/fixtures/transport-preload.mjs', 'test/fixtures/main.mjs']);
const isFile = (path: string): boolean => FILES.has(path);

describe('findSpawnedFiles: the repository files a test runs as programs', () => {
  test('a quoted path, read against the test folder, then the folders above it', () => {
    const text = "execFileSync('tsx', [path.resolve(__dirname, '../src/cli.ts')]);\nexeca('node', ['bin/cli.js']);\n";
    assert.deepEqual(findSpawnedFiles('test/cli.test.ts', text, isFile), ['bin/cli.js', 'src/cli.ts']);
  });

  test("join(__dirname, '..', 'fixtures', 'x.mjs'): segments given one by one (pino's preload test)", () => {
    const text = [
      "const preload = pathToFileURL(join(__dirname, '..', 'fixtures', 'transport-preload.mjs')).href",
      'const main = path.resolve(__dirname, "..", "fixtures", "main.mjs")',
      "const data = join(__dirname, '..', 'fixtures', 'data.json')",
      "const missing = join(__dirname, 'nowhere.mjs')",
    ].join('\n');
    assert.deepEqual(findSpawnedFiles('test/transport/preload.test.js', text, isFile), [
      'test/fixtures/main.mjs',
      'test/fixtures/transport-preload.mjs',
    ]);
  });
});

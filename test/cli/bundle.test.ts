import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = join(root, 'dist', 'bundle');

/**
 * bin/checker.js starts dist/bundle/ (scripts/bundle.mjs). Code there resolves its data files from import.meta.url, and
 * a wrong path does not fail loudly: the packs and validators would be parsed and compiled again on every start (the
 * cost they were precompiled to save). Every relative URL in the bundle must name a file the build wrote.
 */
test('every path the bundle resolves from import.meta.url names a built file', () => {
  assert.ok(existsSync(join(bundle, 'main.js')), 'dist/bundle/main.js is missing: run npm run build first');
  assert.match(readFileSync(join(root, 'bin', 'checker.js'), 'utf8'), /await import\('\.\.\/dist\/bundle\/main\.js'\);/);
  const code = readdirSync(bundle)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(bundle, file), 'utf8'))
    .join('\n');
  // A template's `${…}` picks .ts or .js by whether the code runs from sources: bundled, it is always .js.
  const relative = [
    ...[...code.matchAll(/new URL\(`((?:[^`$]|\$\{[^}]*\})+)`, import\.meta\.url\)|new URL\("([^"]+)", import\.meta\.url\)/g)].map(
      (match) => (match[1] ?? match[2] ?? '').replace(/\$\{[^}]*\}/g, 'js'),
    ),
    ...[...code.matchAll(/"(\.\.\/[a-z-]+-compiled)"/g)].map((match) => match[1] ?? ''),
  ];
  assert.deepEqual([...new Set(relative)].sort(), [
    '../../package.json',
    '../rules-compiled',
    '../schemas-compiled',
    '../worker/change-worker.js',
    '../worker/parse-worker.js',
    './build-id.json',
    './tool-list.js',
    './tool-worker-entry.js',
  ]);
  for (const path of relative) assert.ok(existsSync(join(bundle, path)), `${path} from dist/bundle/ does not exist`);
  assert.ok(readdirSync(join(bundle, '../rules-compiled')).some((file) => file.endsWith('.json')));
  assert.ok(readdirSync(join(bundle, '../schemas-compiled')).some((file) => file.endsWith('.cjs')));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeManifestChange } from '../../src/rules/manifest-change.js';

const manifest = (fields: Record<string, unknown>): string =>
  JSON.stringify({ name: 'pkg', version: '1.0.0', description: 'a package', ...fields }, null, 2);

test('a version or description bump changes nothing that runs', () => {
  assert.deepEqual(describeManifestChange('package.json', manifest({}), manifest({ version: '1.0.1', description: 'the package' })), []);
});

test('dependencies, peers, engines, exports and scripts are named; nested manifests too', () => {
  const base = manifest({ dependencies: { a: '^1.0.0' }, engines: { node: '>=18' }, exports: './index.js', scripts: { build: 'tsc' } });
  const head = manifest({
    dependencies: { a: '^2.0.0' },
    peerDependencies: { react: '*' },
    engines: { node: '>=20' },
    exports: { '.': './index.js' },
    scripts: { build: 'tsc -b' },
  });
  assert.deepEqual(describeManifestChange('packages/ui/package.json', base, head), [
    'dependencies',
    'peerDependencies',
    'engines',
    'exports',
    'scripts',
  ]);
});

test('a lockfile changes locked versions; an unreadable manifest is reported as a whole; other files are not manifests', () => {
  assert.deepEqual(describeManifestChange('pnpm-lock.yaml', 'a', 'b'), ['locked versions']);
  assert.deepEqual(describeManifestChange('package.json', '{', manifest({})), ['manifest']);
  assert.deepEqual(describeManifestChange('src/package.ts', 'a', 'b'), []);
});

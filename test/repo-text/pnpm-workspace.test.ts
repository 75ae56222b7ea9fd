import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePnpmWorkspace } from '../../src/repo-text/pnpm-workspace.js';

test('pnpm-workspace.yaml is read as YAML: flow lists over lines, anchors, comments', () => {
  assert.deepEqual(parsePnpmWorkspace('packages: [\n  "apps/*", # web\n  tools/**\n]\n'), ['apps/*', 'tools/**']);
  assert.deepEqual(parsePnpmWorkspace('shared: &apps apps/*\npackages:\n  - *apps\n  - " libs/* "\n  - 7\n  - ""\n'), ['apps/*', 'libs/*']);
  assert.deepEqual(parsePnpmWorkspace('onlyBuiltDependencies:\n  - esbuild\n'), []);
  assert.equal(parsePnpmWorkspace('packages: [apps/*\n'), undefined);
});

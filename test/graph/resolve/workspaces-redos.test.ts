import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compileWorkspaceGlob,
  findWorkspacePackages,
  MAX_WORKSPACE_GLOB_LENGTH,
  type PackageInfo,
} from '../../../src/graph/resolve/workspaces.js';

/** Generous: each case took seconds to minutes on the RegExp the glob used to compile to. */
const FAST_MS = 1000;

function buildPackage(folder: string, name: string): PackageInfo {
  return { name, folder, manifest: { name } };
}

function timeFind(globs: string[], packages: PackageInfo[]): { names: string[]; ms: number } {
  const start = performance.now();
  const names = [...findWorkspacePackages(packages, globs).keys()].sort();
  return { names, ms: performance.now() - start };
}

describe('workspace globs match in linear time', () => {
  test('repeated stars in one segment against a long folder name', () => {
    const { names, ms } = timeFind(
      ['a*a*a*a*a*a*a*a*a*a*a*a*a*b'],
      [buildPackage('a'.repeat(2000), 'long-name'), buildPackage(`${'a'.repeat(60)}b`, 'matching')],
    );
    assert.deepEqual(names, ['matching']);
    assert.ok(ms < FAST_MS, `took ${ms.toFixed(0)} ms`);
  });

  test('a run of ** segments against a deep folder', () => {
    const { names, ms } = timeFind(
      ['**/**/**/**/**/x'],
      [buildPackage(`${'a/'.repeat(2000)}y`, 'deep'), buildPackage('packages/nested/x', 'x-package')],
    );
    assert.deepEqual(names, ['x-package']);
    assert.ok(ms < FAST_MS, `took ${ms.toFixed(0)} ms`);
  });

  test('globs keep their meaning: * stays in one folder, ** spans folders, ! excludes', () => {
    const packages = [
      buildPackage('packages/cart', 'cart'),
      buildPackage('packages/cart/internal', 'cart-internal'),
      buildPackage('apps/web', 'web'),
      buildPackage('apps/legacy', 'legacy'),
    ];
    assert.deepEqual(timeFind(['packages/*'], packages).names, ['cart']);
    assert.deepEqual(timeFind(['packages/**'], packages).names, ['cart', 'cart-internal']);
    assert.deepEqual(timeFind(['./apps/*/', '!apps/legacy'], packages).names, ['web']);
    assert.deepEqual(timeFind(['apps/we?'], packages).names, ['web']);
    assert.deepEqual(timeFind(['apps/(web)'], packages).names, []);
  });

  test('a glob over the length limit matches nothing', () => {
    assert.equal(compileWorkspaceGlob('a'.repeat(MAX_WORKSPACE_GLOB_LENGTH + 1)), undefined);
    assert.deepEqual(
      timeFind(['a'.repeat(MAX_WORKSPACE_GLOB_LENGTH + 1)], [buildPackage('a'.repeat(MAX_WORKSPACE_GLOB_LENGTH + 1), 'long')]).names,
      [],
    );
  });
});

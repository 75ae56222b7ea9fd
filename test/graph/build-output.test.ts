import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResolver } from '../../src/graph/resolve/index.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

function resolverOf(files: Record<string, string>): ReturnType<typeof createResolver> {
  const pick = (pattern: RegExp): Map<string, string> => new Map(Object.entries(files).filter(([path]) => pattern.test(path)));
  return createResolver({
    files: new Set(Object.keys(files)),
    tsconfigs: pick(/(?:^|\/)tsconfig[^/]*\.json$/),
    packageJsons: pick(/(?:^|\/)package\.json$/),
    bundlerConfigs: pick(/(?:^|\/)rollup\.config\.[cm]?[jt]s$/),
  });
}

/** Issue 41, item 3: tests that import the build output (`../lib/a`, not in git) reach the source it is built from. */
describe('an import of build output the repository does not hold', () => {
  test('follows babel --out-dir in a package.json script, naming the script', () => {
    const resolver = resolverOf({
      'package.json': json({ name: 'server', scripts: { build: 'babel src --out-dir lib --copy-files' } }),
      'src/a.js': '',
      'tests/a.spec.js': '',
    });
    assert.deepEqual(resolver.resolve('tests/a.spec.js', '../lib/a'), {
      specifier: '../lib/a',
      kind: 'relative',
      target: 'src/a.js',
      builtFrom: 'package.json scripts.build: babel src --out-dir lib --copy-files',
    });
  });

  test('follows tsconfig outDir and rootDir, in a workspace package', () => {
    const resolver = resolverOf({
      'packages/core/package.json': json({ name: 'core' }),
      'packages/core/tsconfig.json': '{\n  // built by tsc\n  "compilerOptions": { "outDir": "./dist", "rootDir": "./src" }\n}\n',
      'packages/core/src/graph/walk.ts': '',
      'packages/core/test/walk.test.js': '',
    });
    assert.deepEqual(resolver.resolve('packages/core/test/walk.test.js', '../dist/graph/walk.js'), {
      specifier: '../dist/graph/walk.js',
      kind: 'relative',
      target: 'packages/core/src/graph/walk.ts',
      builtFrom: 'packages/core/tsconfig.json compilerOptions: outDir ./dist, rootDir ./src',
    });
  });

  // Check 146 (yargs at e326cde): the cjs tests require `../build/index.cjs`, one bundle rollup writes from lib/cjs.ts
  // beside tsc's build/lib/…; no test reached the fix's file and the proof went to the one ESM test.
  test('follows a rollup config from the bundle it writes to its entry; a bundle of several entries is left unresolved', () => {
    const rollup = (input: string) =>
      `const output = { format: 'cjs', file: './build/index.cjs', exports: 'default' };\nmodule.exports = { input: ${input}, output };\n`;
    const files = {
      'tsconfig.json': '{ "compilerOptions": { "outDir": "build", "rootDir": "." }, "include": ["lib/**/*.ts"] }\n',
      'lib/cjs.ts': '',
      'lib/yargs-factory.ts': '',
      'index.cjs': '',
      'test/usage.cjs': '',
    };
    const resolver = resolverOf({ ...files, 'rollup.config.cjs': rollup("'./lib/cjs.ts'") });
    assert.deepEqual(resolver.resolve('index.cjs', './build/index.cjs'), {
      specifier: './build/index.cjs',
      kind: 'relative',
      target: 'lib/cjs.ts',
      builtFrom: 'rollup.config.cjs: bundles ./lib/cjs.ts into ./build/index.cjs',
    });
    // tsc's own output beside the bundle still maps folder to folder.
    assert.equal(resolver.resolve('test/usage.cjs', '../build/lib/yargs-factory.js').target, 'lib/yargs-factory.ts');
    // A test that requires the bundle names the entry by the bundle's file name: a focused run reads it.
    assert.ok(resolver.getLinkKeys('lib/cjs.ts').words.includes('/index'));
    // A bundle the repository commits is the file the import lands on.
    const committed = resolverOf({ ...files, 'build/index.cjs': '', 'rollup.config.cjs': rollup("'./lib/cjs.ts'") });
    assert.equal(committed.resolve('index.cjs', './build/index.cjs').target, 'build/index.cjs');
    const several = resolverOf({ ...files, 'rollup.config.cjs': rollup("'./lib/cjs.ts', other: { input: './lib/esm.ts' }") });
    assert.equal(several.resolve('index.cjs', './build/index.cjs').kind, 'unresolved');
  });

  // Check 39 (yargs, a first look): tests import `../build/lib/utils/apply-extends.js`, which tsc builds from
  // lib/utils/apply-extends.ts with `rootDir: "."`; no test reached the fix's file.
  test('follows tsconfig outDir with rootDir ".", at the root and in a package', () => {
    const resolver = resolverOf({
      'tsconfig.json': '{ "compilerOptions": { "outDir": "build", "rootDir": "." }, "include": ["lib/**/*.ts"] }\n',
      'lib/utils/apply-extends.ts': '',
      'test/helpers.mjs': '',
      'index.cjs': '',
      'packages/cli/package.json': json({ name: 'cli' }),
      'packages/cli/tsconfig.json': json({ compilerOptions: { outDir: './out', rootDir: './' } }),
      'packages/cli/src/main.ts': '',
      'packages/cli/test/main.test.js': '',
    });
    assert.deepEqual(resolver.resolve('test/helpers.mjs', '../build/lib/utils/apply-extends.js'), {
      specifier: '../build/lib/utils/apply-extends.js',
      kind: 'relative',
      target: 'lib/utils/apply-extends.ts',
      builtFrom: 'tsconfig.json compilerOptions: outDir build, rootDir . (its own folder)',
    });
    // tsc builds only what `include` names (lib/): build/index.cjs, rollup's bundle, is not the root's index.cjs.
    assert.deepEqual(resolver.resolve('index.cjs', './build/index.cjs'), {
      specifier: './build/index.cjs',
      kind: 'unresolved',
      reason: 'no file for build/index.cjs',
    });
    assert.deepEqual(resolver.resolve('packages/cli/test/main.test.js', '../out/src/main.js'), {
      specifier: '../out/src/main.js',
      kind: 'relative',
      target: 'packages/cli/src/main.ts',
      builtFrom: 'packages/cli/tsconfig.json compilerOptions: outDir ./out, rootDir ./ (its own folder)',
    });
  });

  // Check 15 (socket.io, a first look): the package's runtime tests import `..`, whose main ./dist/index.js tsc builds
  // from lib/ (tsconfig outDir ./dist, include ./lib/**/*); only its type test, importing ../lib, was seen to reach.
  test('follows a package folder import through its main into build output', () => {
    const resolver = resolverOf({
      'packages/io/package.json': json({ name: 'io', main: './dist/index.js', types: './dist/index.d.ts' }),
      'packages/io/tsconfig.json': '{\n  "compilerOptions": { "outDir": "./dist", },\n  "include": ["./lib/**/*"]\n}\n',
      'packages/io/lib/index.ts': '',
      'packages/io/test/messaging.ts': '',
    });
    assert.deepEqual(resolver.resolve('packages/io/test/messaging.ts', '..'), {
      specifier: '..',
      kind: 'relative',
      target: 'packages/io/lib/index.ts',
      builtFrom: 'packages/io/tsconfig.json compilerOptions: outDir ./dist, include lib',
    });
  });

  test('follows package.json main into a missing folder beside src/', () => {
    const resolver = resolverOf({
      'package.json': json({ name: 'parse', main: 'lib/index.js' }),
      'src/index.js': '',
      'src/Routers/users.js': '',
      'spec/users.spec.js': '',
    });
    assert.equal(resolver.resolve('spec/users.spec.js', '../lib/Routers/users').target, 'src/Routers/users.js');
  });

  test('follows babel -d . into the package folder itself, for the files it lacks (check 88: validator.js)', () => {
    const resolver = resolverOf({
      'package.json': json({ name: 'validator', main: 'index.js', scripts: { 'build:node': 'babel src -d .' } }),
      'src/index.js': '',
      'src/lib/isSlug.js': '',
      'test/helper.js': '',
      'test/exports.test.js': '',
    });
    const rule = 'package.json scripts.build:node: babel src -d .';
    assert.deepEqual(resolver.resolve('test/exports.test.js', '../index'), {
      specifier: '../index',
      kind: 'relative',
      target: 'src/index.js',
      builtFrom: rule,
    });
    assert.equal(resolver.resolve('test/exports.test.js', '../lib/isSlug').target, 'src/lib/isSlug.js');
    // A file the package holds is itself, and a path no source has stays unresolved.
    assert.equal(resolver.resolve('test/exports.test.js', './helper').builtFrom, undefined);
    assert.equal(resolver.resolve('test/exports.test.js', '../validator.min.js').kind, 'unresolved');
  });

  test('follows tshy into each dialect folder it builds (check 113: minimatch imports ../dist/esm/index.js)', () => {
    const resolver = resolverOf({
      'package.json': json({
        name: 'minimatch',
        type: 'module',
        main: './dist/commonjs/index.js',
        tshy: { exports: { '.': './src/index.ts' }, esmDialects: ['browser'] },
      }),
      'src/index.ts': '',
      'src/unescape.ts': '',
      'test/partial.js': '',
    });
    assert.deepEqual(resolver.resolve('test/partial.js', '../dist/esm/index.js'), {
      specifier: '../dist/esm/index.js',
      kind: 'relative',
      target: 'src/index.ts',
      builtFrom: 'package.json tshy: builds src/ into dist/esm/',
    });
    assert.equal(resolver.resolve('test/partial.js', '../dist/commonjs/unescape.js').target, 'src/unescape.ts');
    assert.equal(resolver.resolve('test/partial.js', '../dist/browser/index.js').target, 'src/index.ts');
    assert.equal(resolver.resolve('test/partial.js', '../dist/other/index.js').kind, 'unresolved');
  });

  test('takes the sources a tsconfig builds from the config it extends (check 113: minimatch before tshy)', () => {
    const resolver = resolverOf({
      'package.json': json({ name: 'minimatch', main: './dist/cjs/index-cjs.js' }),
      'tsconfig-base.json': json({ include: ['src/**/*.ts'], compilerOptions: { strict: true } }),
      'tsconfig.json': json({ extends: './tsconfig-base.json', compilerOptions: { outDir: 'dist/cjs' } }),
      'tsconfig-esm.json': json({ extends: './tsconfig-base', compilerOptions: { outDir: 'dist/mjs' } }),
      'src/index.ts': '',
      'src/index-cjs.ts': '',
      'test/basic.js': '',
    });
    assert.deepEqual(resolver.resolve('test/basic.js', '../dist/mjs/index.js'), {
      specifier: '../dist/mjs/index.js',
      kind: 'relative',
      target: 'src/index.ts',
      builtFrom: 'tsconfig-esm.json compilerOptions: outDir dist/mjs, include src',
    });
    assert.equal(resolver.resolve('test/basic.js', '../dist/cjs/index-cjs.js').target, 'src/index-cjs.ts');
  });

  test("a bundle named for its format lands on the entry it is built from (check 100: marked's lib/marked.esm.js)", () => {
    const resolver = resolverOf({
      'package.json': json({ name: 'marked', type: 'module', main: './lib/marked.esm.js', scripts: { build: 'node esbuild.config.js' } }),
      'src/marked.ts': '',
      'test/unit/Lexer.test.js': '',
    });
    assert.equal(resolver.resolve('test/unit/Lexer.test.js', '../../lib/marked.esm.js').target, 'src/marked.ts');
    assert.equal(resolver.resolve('test/unit/Lexer.test.js', '../../lib/marked.umd.min.js').target, 'src/marked.ts');
    // A file whose name only looks like a format is mapped the same way only when the named source is missing.
    assert.equal(resolver.resolve('test/unit/Lexer.test.js', '../../lib/other.esm.js').kind, 'unresolved');
  });

  test('is left unresolved when the repository says nothing of the folder, or holds it', () => {
    const silent = resolverOf({ 'package.json': json({ name: 'plain' }), 'src/a.js': '', 'tests/a.spec.js': '' });
    assert.equal(silent.resolve('tests/a.spec.js', '../lib/a').kind, 'unresolved');
    const held = resolverOf({
      'package.json': json({ name: 'held', scripts: { build: 'babel src -d lib' } }),
      'src/a.js': '',
      'lib/b.js': '',
      'tests/a.spec.js': '',
    });
    assert.equal(held.resolve('tests/a.spec.js', '../lib/a').kind, 'unresolved');
  });
});

describe('a change to a source its tests reach through lib/', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': json({
          name: 'server',
          version: '1.0.0',
          main: 'lib/index.js',
          scripts: { build: 'babel src --out-dir lib', test: 'jasmine' },
          devDependencies: { '@babel/cli': '^7.0.0', jasmine: '^5.0.0' },
        }),
        '.gitignore': 'lib/\n',
        'src/a.js': 'export function double(value) {\n  return value * 2;\n}\n',
        'tests/a.spec.js':
          "const { double } = require('../lib/a');\ndescribe('double', () => {\n  it('doubles', () => {\n    expect(double(2)).toBe(4);\n  });\n});\n",
        'tests/a2.spec.js': "const { double } = require('../lib/a');\nit('doubles 0', () => expect(double(0)).toBe(0));\n",
        // Build output of a file the change does not reach: no note of it in this change's analysis.
        'src/b.js': 'export const half = (value) => value / 2;\n',
        'tests/b.spec.js': "const { half } = require('../lib/b');\nit('halves', () => expect(half(2)).toBe(1));\n",
      },
      { 'src/a.js': 'export function double(value) {\n  return Number(value) * 2;\n}\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('reaches tests/a.spec.js, and one limitation names the rule and the reaching files alone, run after run', async () => {
    const analysis = await analyzeFixture(fixture);
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'src/a.js');
    assert.deepEqual(proof?.reachingTests, ['tests/a.spec.js', 'tests/a2.spec.js'], json(analysis.changedPathProof));
    const notes = (result: typeof analysis) =>
      result.limitations.filter((item) => item.code === 'resolve/build-output').map((item) => [item.severity, item.message]);
    assert.deepEqual(notes(analysis), [
      [
        'info',
        '2 imports of build output the repository does not hold (in tests/a.spec.js, tests/a2.spec.js) were mapped to their sources: package.json scripts.build: babel src --out-dir lib.',
      ],
    ]);
    assert.deepEqual(analysis.unresolvedImports ?? [], []);
    // The second run reads what the first kept (every file parsed): the same note (medusa's parity runs differed here).
    assert.deepEqual(notes(await analyzeFixture(fixture)), notes(analysis));
  });
});

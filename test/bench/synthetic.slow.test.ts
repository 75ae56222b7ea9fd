import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSync, type ParseOptions } from '@swc/core';
import ts from 'typescript';
import { generateSyntheticRepo, renderSyntheticRepo, runGit, touchFiles } from '../../bench/synthetic.js';
import { makeTempDir } from '../helpers/git-repo.js';

const listTracked = (dir: string): string[] =>
  runGit(dir, ['ls-files', '-z'])
    .split('\0')
    .filter((path) => path !== '')
    .sort();

function hashTree(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const path of listTracked(dir))
    hashes.set(
      path,
      createHash('sha1')
        .update(readFileSync(join(dir, path)))
        .digest('hex'),
    );
  return hashes;
}

function getParseOptions(path: string): ParseOptions {
  if (path.endsWith('.cjs')) return { syntax: 'ecmascript', script: true };
  return { syntax: 'typescript', tsx: path.endsWith('.tsx') };
}

interface FeatureCounts {
  typescript: number;
  tsx: number;
  cjs: number;
  packageManifests: number;
  extendingTsconfigs: number;
  barrelsWithStar: number;
  barrelsWithRename: number;
  filesWithJsRelativeImports: number;
  filesWithExtensionlessRelativeImports: number;
  filesWithAliasImports: number;
  filesWithBaseUrlImports: number;
  filesWithPackageImports: number;
  filesWithTypeOnlyImports: number;
  filesWithDynamicImports: number;
  filesWithRequire: number;
  tests: number;
  testsWithMocks: number;
  testsWithSkips: number;
  testsWithoutAssertions: number;
  expressRouters: number;
  expressMounts: number;
  fastifyFiles: number;
  honoFiles: number;
  nextRoutes: number;
  openApiPaths: number;
}

function countFeatures(dir: string): FeatureCounts {
  const paths = listTracked(dir);
  const read = (path: string): string => readFileSync(join(dir, path), 'utf8');
  const sources = paths.filter((path) => /\.(ts|tsx|cjs)$/.test(path)).map((path) => ({ path, text: read(path) }));
  const tests = sources.filter((file) => file.path.endsWith('.test.ts'));
  const count = (pattern: RegExp, files = sources): number => files.filter((file) => pattern.test(file.text)).length;
  return {
    typescript: paths.filter((path) => path.endsWith('.ts')).length,
    tsx: paths.filter((path) => path.endsWith('.tsx')).length,
    cjs: paths.filter((path) => path.endsWith('.cjs')).length,
    packageManifests: paths.filter((path) => path.endsWith('package.json')).length,
    extendingTsconfigs: paths.filter((path) => path.endsWith('tsconfig.json') && read(path).includes('"extends": "../../tsconfig.json"'))
      .length,
    barrelsWithStar: count(/^export \* from '/m),
    barrelsWithRename: count(/^export \{ \w+ as \w+, type \w+ \} from '/m),
    filesWithJsRelativeImports: count(/from '(?:\.{1,2}\/)+[^']*\.js'/),
    filesWithExtensionlessRelativeImports: count(/from '(?:\.{1,2}\/)+[^'.]+'/),
    filesWithAliasImports: count(/from '@(app|core|shared|web)\//),
    filesWithBaseUrlImports: count(/from 'packages\//),
    filesWithPackageImports: count(/from '@acme\/[a-z]+(\/[^']*)?'/),
    filesWithTypeOnlyImports: count(/^import (type \{|\{ type )/m),
    filesWithDynamicImports: count(/await import\('/),
    filesWithRequire: count(/require\('/),
    tests: tests.length,
    testsWithMocks: count(/vi\.mock\(/, tests),
    testsWithSkips: count(/\bit\.skip\(/, tests),
    testsWithoutAssertions: tests.filter((file) => !file.text.includes('expect(')).length,
    expressRouters: count(/= Router\(\);/),
    expressMounts: (read('apps/api/src/app.ts').match(/^app\.use\('\/api\//gm) ?? []).length,
    fastifyFiles: count(/from 'fastify'/),
    honoFiles: count(/new Hono\(\)/),
    nextRoutes: paths.filter((path) => /^apps\/web\/app\/api\/.+\/route\.ts$/.test(path)).length,
    openApiPaths: (read('docs/openapi.yaml').match(/^ {2}\/\S+:$/gm) ?? []).length,
  };
}

describe('generateSyntheticRepo', () => {
  let first: string;
  let second: string;
  let firstSummary: { files: number; bytes: number };

  before(async () => {
    first = makeTempDir('checker-synthetic-a-');
    second = makeTempDir('checker-synthetic-b-');
    firstSummary = await generateSyntheticRepo(first, { files: 200, seed: 1 });
    await generateSyntheticRepo(second, { files: 200, seed: 1 });
  });

  after(() => {
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  });

  it('writes and commits exactly the requested number of files, and reports their bytes', () => {
    const tracked = listTracked(first);
    assert.equal(firstSummary.files, 200);
    assert.equal(tracked.length, 200);
    assert.equal(
      firstSummary.bytes,
      tracked.reduce((sum, path) => sum + readFileSync(join(first, path)).length, 0),
    );
    assert.equal(runGit(first, ['status', '--porcelain']), '');
  });

  it('is deterministic for a seed: same paths, same content hashes, same commit', () => {
    assert.deepEqual(hashTree(first), hashTree(second));
    assert.equal(runGit(first, ['rev-parse', 'HEAD']), runGit(second, ['rev-parse', 'HEAD']));
  });

  it('changes content with the seed', () => {
    const other = renderSyntheticRepo({ files: 200, seed: 2 });
    const same = renderSyntheticRepo({ files: 200, seed: 1 });
    assert.equal(other.size, 200);
    assert.notDeepEqual([...other.keys()], [...same.keys()]);
  });

  it('lays out a workspace monorepo with aliases and an extending tsconfig', () => {
    const rootManifest: unknown = JSON.parse(readFileSync(join(first, 'package.json'), 'utf8'));
    assert.deepEqual(rootManifest, {
      name: 'acme-platform',
      private: true,
      workspaces: ['packages/*', 'apps/*'],
      scripts: { test: 'vitest run', build: 'tsc -b', lint: 'eslint .' },
      devDependencies: { typescript: '^5.5.4', vitest: '^2.0.5' },
    });
    const tsconfig: unknown = JSON.parse(readFileSync(join(first, 'tsconfig.json'), 'utf8'));
    assert.deepEqual(tsconfig, {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        baseUrl: '.',
        paths: { '@app/*': ['apps/api/src/*'], '@core/*': ['packages/core/src/*'], '@shared/*': ['packages/shared/src/*'] },
      },
      exclude: ['node_modules', 'dist'],
    });
    const core: unknown = JSON.parse(readFileSync(join(first, 'packages/core/package.json'), 'utf8'));
    assert.ok(typeof core === 'object' && core !== null && 'exports' in core && 'name' in core);
    assert.equal(core.name, '@acme/core');
    assert.deepEqual(core.exports, { '.': './src/index.ts', './*': './src/*.ts' });
    const web: unknown = JSON.parse(readFileSync(join(first, 'apps/web/tsconfig.json'), 'utf8'));
    assert.deepEqual(web, {
      extends: '../../tsconfig.json',
      compilerOptions: { jsx: 'preserve', paths: { '@web/*': ['apps/web/*'], '@shared/*': ['packages/shared/src/*'] } },
      include: ['**/*.ts', '**/*.tsx'],
    });
    for (const path of [
      '.gitignore',
      '.github/CODEOWNERS',
      'docs/openapi.yaml',
      'docs/adr/0001-workspace-layout.md',
      'docs/adr/0002-http-frameworks.md',
    ]) {
      assert.ok(listTracked(first).includes(path), path);
    }
  });

  it('contains each feature in exact counts for N=200, seed 1', () => {
    assert.deepEqual(countFeatures(first), {
      typescript: 169,
      tsx: 5,
      cjs: 2,
      packageManifests: 9,
      extendingTsconfigs: 8,
      barrelsWithStar: 16,
      barrelsWithRename: 8,
      filesWithJsRelativeImports: 61,
      filesWithExtensionlessRelativeImports: 93,
      filesWithAliasImports: 68,
      filesWithBaseUrlImports: 2,
      filesWithPackageImports: 79,
      filesWithTypeOnlyImports: 112,
      filesWithDynamicImports: 9,
      filesWithRequire: 2,
      tests: 33,
      testsWithMocks: 8,
      testsWithSkips: 3,
      testsWithoutAssertions: 3,
      expressRouters: 3,
      expressMounts: 3,
      fastifyFiles: 1,
      honoFiles: 1,
      nextRoutes: 3,
      openApiPaths: 9,
    });
  });

  it('produces JavaScript and TypeScript that swc parses without syntax errors', () => {
    const failures: string[] = [];
    const parseable = listTracked(first).filter((path) => /\.(ts|tsx|cjs)$/.test(path));
    for (const path of parseable) {
      try {
        parseSync(readFileSync(join(first, path), 'utf8'), getParseOptions(path));
      } catch (error) {
        failures.push(`${path}: ${String(error).slice(0, 200)}`);
      }
    }
    assert.equal(parseable.length, 176);
    assert.deepEqual(failures, []);
  });

  it('produces TypeScript without syntactic diagnostics from the TypeScript compiler', () => {
    const failures: string[] = [];
    for (const path of listTracked(first).filter((candidate) => /\.(ts|tsx|cjs)$/.test(candidate))) {
      const output = ts.transpileModule(readFileSync(join(first, path), 'utf8'), {
        fileName: path,
        reportDiagnostics: true,
        compilerOptions: { jsx: ts.JsxEmit.Preserve, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      for (const diagnostic of output.diagnostics ?? []) {
        failures.push(`${path}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('refuses a file count below the minimum layout', () => {
    assert.throws(() => renderSyntheticRepo({ files: 79 }), RangeError);
  });
});

describe('touchFiles', () => {
  let dir: string;
  let twin: string;

  before(async () => {
    dir = makeTempDir('checker-synthetic-touch-');
    twin = makeTempDir('checker-synthetic-twin-');
    await generateSyntheticRepo(dir, { files: 120, seed: 3 });
    await generateSyntheticRepo(twin, { files: 120, seed: 3 });
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(twin, { recursive: true, force: true });
  });

  it('edits and commits the requested number of source files, the same way for the same seed', async () => {
    const before = hashTree(dir);
    const head = runGit(dir, ['rev-parse', 'HEAD']);
    const touched = await touchFiles(dir, 10, 42);
    assert.equal(touched.paths.length, 10);
    assert.equal(new Set(touched.paths).size, 10);
    assert.equal(runGit(dir, ['status', '--porcelain']), '');
    assert.notEqual(touched.commit, head);
    const changed = runGit(dir, ['diff', '--name-only', head, 'HEAD']).split('\n').sort();
    assert.deepEqual(changed, touched.paths);
    const afterTouch = hashTree(dir);
    for (const path of touched.paths) {
      assert.ok(/\.tsx?$/.test(path) && !path.endsWith('.test.ts'), path);
      assert.notEqual(afterTouch.get(path), before.get(path), path);
      const text = readFileSync(join(dir, path), 'utf8');
      assert.match(text, /throw new Error\('clock before touch 420\d\d'\)|export function touched420\d\d\(/);
      parseSync(text, getParseOptions(path));
    }
    const twinTouched = await touchFiles(twin, 10, 42);
    assert.deepEqual(twinTouched.paths, touched.paths);
    assert.deepEqual(hashTree(twin), afterTouch);
    assert.equal(twinTouched.commit, touched.commit);
  });

  it('leaves the edit uncommitted when asked', async () => {
    const head = runGit(dir, ['rev-parse', 'HEAD']);
    const touched = await touchFiles(dir, 5, 7, { commit: false });
    assert.equal(touched.commit, undefined);
    assert.equal(runGit(dir, ['rev-parse', 'HEAD']), head);
    const modified = runGit(dir, ['diff', '--name-only']).split('\n').sort();
    assert.deepEqual(modified, touched.paths);
  });

  it('refuses to touch more files than the repository has sources', async () => {
    await assert.rejects(touchFiles(dir, 5000, 1), RangeError);
  });
});

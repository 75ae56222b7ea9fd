import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createResolver, parsePnpmWorkspacePackages, type ResolverInput } from '../../src/graph/resolve/index.js';
import { makeTempDir, writeTree } from '../helpers/git-repo.js';

type Tree = Record<string, string | undefined>;

function createFromTree(tree: Tree, extra: Partial<ResolverInput> = {}): ReturnType<typeof createResolver> {
  const paths = Object.keys(tree).filter((path) => tree[path] !== undefined);
  const pick = (pattern: RegExp): Map<string, string> =>
    new Map(paths.filter((path) => pattern.test(path)).map((path) => [path, tree[path] ?? '']));
  return createResolver({
    files: new Set(paths),
    tsconfigs: pick(/(?:^|\/)(?:tsconfig[^/]*|jsconfig)\.json$/),
    packageJsons: pick(/(?:^|\/)package\.json$/),
    ...extra,
  });
}

describe('relative specifiers', () => {
  const resolver = createFromTree({
    'src/main.ts': '',
    'src/a.ts': '',
    'src/a.js': '',
    'src/b.tsx': '',
    'src/c.d.ts': '',
    'src/d.js': '',
    'src/e.mts': '',
    'src/f.cts': '',
    'src/g.tsx': '',
    'src/data.json': '',
    'src/style.css': '',
    'src/user.service.ts': '',
    'src/dir/index.ts': '',
    'src/pkgdir/package.json': '{"types": "./lib/main.d.ts", "main": "./lib/main.js"}',
    'src/pkgdir/lib/main.d.ts': '',
    'src/pkgdir/lib/main.js': '',
    'src/jsdir/index.js': '',
    'src/typed.d.ts': '',
    'src/typed.js': '',
    'dist2/api.d.ts': '',
    'dist2/api.js': '',
    'src/dist2/api.ts': '',
  });
  const cases: Array<[string, string, string?]> = [
    ['./a', 'src/a.ts'],
    ['./a.js', 'src/a.ts'],
    ['./a.ts', 'src/a.ts'],
    ['./b', 'src/b.tsx'],
    ['./b.js', 'src/b.tsx'],
    ['./c.js', 'src/c.d.ts'],
    ['./d.js', 'src/d.js'],
    ['./d', 'src/d.js'],
    ['./e.mjs', 'src/e.mts'],
    ['./f.cjs', 'src/f.cts'],
    ['./g.jsx', 'src/g.tsx'],
    ['./data.json', 'src/data.json'],
    ['./style.css', 'src/style.css'],
    ['./user.service', 'src/user.service.ts'],
    ['./dir', 'src/dir/index.ts'],
    ['./dir/index.js', 'src/dir/index.ts'],
    // TypeScript lands on the declaration; the file Node runs for the same specifier is kept beside it.
    ['./pkgdir', 'src/pkgdir/lib/main.d.ts', 'src/pkgdir/lib/main.js'],
    ['./typed', 'src/typed.d.ts', 'src/typed.js'],
    // Compiled output beside its TypeScript source: the source's own imports reach it, no runtime edge is added.
    ['../dist2/api', 'dist2/api.d.ts'],
    ['./jsdir', 'src/jsdir/index.js'],
    ['../src/a', 'src/a.ts'],
    ['.', 'src/dir/index.ts'],
    ['/src/b', 'src/b.tsx'],
  ];
  for (const [specifier, target, runtimeTarget] of cases) {
    test(`'${specifier}' → ${target}${runtimeTarget === undefined ? '' : ` (runs ${runtimeTarget})`}`, () => {
      const from = specifier === '.' ? 'src/dir/other.ts' : 'src/main.ts';
      assert.deepEqual(
        resolver.resolve(from, specifier),
        runtimeTarget === undefined ? { specifier, kind: 'relative', target } : { specifier, kind: 'relative', target, runtimeTarget },
      );
    });
  }

  test('a missing file is unresolved with the path tried', () => {
    assert.deepEqual(resolver.resolve('src/main.ts', './missing.js'), {
      specifier: './missing.js',
      kind: 'unresolved',
      reason: 'no file for src/missing.js',
    });
  });

  test('a path leaving the repository is unresolved', () => {
    assert.deepEqual(resolver.resolve('src/main.ts', '../../outside'), {
      specifier: '../../outside',
      kind: 'unresolved',
      reason: "'../../outside' points outside the repository",
    });
  });
});

describe('tsconfig paths, baseUrl and extends', () => {
  const tree: Tree = {
    'tsconfig.base.json': `{
      // shared by every app
      "compilerOptions": {
        "baseUrl": ".",
        "paths": {
          "@lib/*": ["libs/*/src/index"],
          "@lib/core/*": ["libs/core/src/*"],
          "@gen/*": ["generated/*", "src/gen/*"],
          "app-config": ["config/app.ts"],
        },
      },
    }`,
    'apps/web/tsconfig.app.json': '{ "extends": "../../tsconfig.base.json", "compilerOptions": { "strict": true } }',
    'apps/web/tsconfig.json': '{ "extends": "./tsconfig.app" }',
    'apps/web/src/page.ts': '',
    'libs/ui/src/index.ts': '',
    'libs/core/src/log.ts': '',
    'src/gen/schema.ts': '',
    'config/app.ts': '',
    'tools/tsconfig.json': '{ "extends": "../tsconfig.base.json", "compilerOptions": { "paths": { "~/*": ["./scripts/*"] } } }',
    'tools/scripts/build.ts': '',
    'tools/main.ts': '',
    'docs/tsconfig.json': '{ "compilerOptions": { "paths": { "~/*": ["./pages/*"] } } }',
    'docs/pages/intro.ts': '',
    'docs/site/render.ts': '',
    'legacy/jsconfig.json': '{ "compilerOptions": { "baseUrl": "src" } }',
    'legacy/src/utils/date.js': '',
    'legacy/src/app.js': '',
  };
  const resolver = createFromTree(tree);

  test('paths inherited through two levels of extends, the base in a parent folder', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', '@lib/ui'), {
      specifier: '@lib/ui',
      kind: 'paths',
      target: 'libs/ui/src/index.ts',
    });
  });

  test('the pattern with the longest prefix wins', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', '@lib/core/log'), {
      specifier: '@lib/core/log',
      kind: 'paths',
      target: 'libs/core/src/log.ts',
    });
  });

  test('substitutions are tried in order', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', '@gen/schema'), {
      specifier: '@gen/schema',
      kind: 'paths',
      target: 'src/gen/schema.ts',
    });
  });

  test('an exact pattern', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', 'app-config'), {
      specifier: 'app-config',
      kind: 'paths',
      target: 'config/app.ts',
    });
  });

  test('baseUrl from the extended config resolves bare paths', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', 'config/app'), {
      specifier: 'config/app',
      kind: 'baseUrl',
      target: 'config/app.ts',
    });
  });

  test('a child paths replaces the base one and is rooted at the inherited baseUrl', () => {
    assert.deepEqual(resolver.resolve('tools/main.ts', '~/build'), {
      specifier: '~/build',
      kind: 'unresolved',
      reason: "paths alias '~/*' matched but no file found (tried scripts/build)",
    });
    assert.deepEqual(resolver.resolve('tools/main.ts', '@lib/ui'), { specifier: '@lib/ui', kind: 'external', packageName: '@lib/ui' });
  });

  test('without baseUrl, paths are relative to the config that declares them', () => {
    assert.deepEqual(resolver.resolve('docs/site/render.ts', '~/intro'), {
      specifier: '~/intro',
      kind: 'paths',
      target: 'docs/pages/intro.ts',
    });
  });

  test('jsconfig.json baseUrl', () => {
    assert.deepEqual(resolver.resolve('legacy/src/app.js', 'utils/date'), {
      specifier: 'utils/date',
      kind: 'baseUrl',
      target: 'legacy/src/utils/date.js',
    });
    assert.deepEqual(resolver.resolve('legacy/src/app.js', 'react'), { specifier: 'react', kind: 'external', packageName: 'react' });
  });

  test('an alias that matches but finds no file is unresolved with a reason', () => {
    assert.deepEqual(resolver.resolve('apps/web/src/page.ts', '@lib/missing'), {
      specifier: '@lib/missing',
      kind: 'unresolved',
      reason: "paths alias '@lib/*' matched but no file found (tried libs/missing/src/index)",
    });
  });

  test('${configDir} in a shared config is rooted at the config that uses it', () => {
    const sharedTree: Tree = {
      'packages/tsconfig/package.json': '{ "name": "@acme/tsconfig" }',
      'packages/tsconfig/base.json': '{ "compilerOptions": { "paths": { "#src/*": ["${configDir}/src/*"] } } }',
      'package.json': '{ "workspaces": ["packages/*", "apps/*"] }',
      'apps/api/tsconfig.json': '{ "extends": "@acme/tsconfig/base.json" }',
      'apps/api/src/server.ts': '',
      'apps/api/src/db.ts': '',
    };
    const shared = createFromTree(sharedTree);
    assert.deepEqual(shared.getMissingConfigs(), ['packages/tsconfig/base.json']);
    const provided = createFromTree(
      { ...sharedTree, 'packages/tsconfig/base.json': undefined },
      { externalConfigs: new Map([['packages/tsconfig/base.json', sharedTree['packages/tsconfig/base.json'] ?? '']]) },
    );
    assert.deepEqual(provided.getMissingConfigs(), []);
    assert.deepEqual(provided.resolve('apps/api/src/server.ts', '#src/db'), {
      specifier: '#src/db',
      kind: 'paths',
      target: 'apps/api/src/db.ts',
    });
    assert.deepEqual(provided.resolve('apps/api/src/server.ts', '#src/nope'), {
      specifier: '#src/nope',
      kind: 'unresolved',
      reason: "paths alias '#src/*' matched but no file found (tried apps/api/src/nope)",
    });
  });
});

describe('extends into packages outside the repository', () => {
  const tree: Tree = {
    'tsconfig.json': '{ "extends": ["@acme/base/tsconfig.json", "./tsconfig.local.json"] }',
    'tsconfig.local.json': '{ "compilerOptions": { "strict": true } }',
    'package.json': '{ "name": "app", "workspaces": ["packages/*"] }',
    'src/app.ts': '',
    'packages/ui/package.json': '{ "name": "@acme/ui", "exports": { ".": { "source": "./src/index.ts", "default": "./dist/index.mjs" } } }',
    'packages/ui/src/index.ts': '',
    'packages/ui/dist/index.mjs': '',
  };

  test('a missing package config is listed and reported', () => {
    const resolver = createFromTree(tree);
    assert.deepEqual(resolver.getMissingConfigs(), ['node_modules/@acme/base/tsconfig.json']);
    assert.deepEqual(resolver.getConfigProblems(), [
      { path: 'tsconfig.json', message: "extends '@acme/base/tsconfig.json' not available (the package's config was not provided)" },
    ]);
    assert.deepEqual(resolver.resolve('src/app.ts', '@acme/ui'), {
      specifier: '@acme/ui',
      kind: 'workspace',
      target: 'packages/ui/dist/index.mjs',
    });
  });

  test('once provided, its customConditions select the source export', () => {
    const resolver = createFromTree(tree, {
      externalConfigs: new Map([['node_modules/@acme/base/tsconfig.json', '{ "compilerOptions": { "customConditions": ["source"] } }']]),
    });
    assert.deepEqual(resolver.getMissingConfigs(), []);
    assert.deepEqual(resolver.resolve('src/app.ts', '@acme/ui'), {
      specifier: '@acme/ui',
      kind: 'workspace',
      target: 'packages/ui/src/index.ts',
    });
  });

  test('a broken config and a missing relative extends are reported, not thrown', () => {
    const resolver = createFromTree({ 'tsconfig.json': '{ "extends": "./nope", ', 'src/a.ts': '' });
    assert.deepEqual(resolver.getMissingConfigs(), ['nope', 'nope.json']);
    assert.deepEqual(resolver.getConfigProblems(), [
      { path: 'tsconfig.json', message: 'invalid JSON at offset 23' },
      { path: 'tsconfig.json', message: "extends './nope' not found (tried nope, nope.json)" },
    ]);
    assert.deepEqual(resolver.resolve('src/a.ts', './a'), { specifier: './a', kind: 'relative', target: 'src/a.ts' });
  });
});

describe('workspaces and package exports', () => {
  const npmTree: Tree = {
    'package.json': '{ "name": "monorepo", "private": true, "workspaces": ["packages/*"] }',
    'packages/ui/package.json': JSON.stringify({
      name: '@acme/ui',
      exports: {
        '.': { types: './dist/index.d.ts', import: './dist/index.js' },
        './button': './src/button.tsx',
        './icons/*': './src/icons/*.tsx',
        './internal/*': null,
        './dual': { require: './cjs/dual.cjs', import: './esm/dual.mjs' },
      },
    }),
    'packages/ui/src/index.ts': '',
    'packages/ui/src/button.tsx': '',
    'packages/ui/src/icons/star.tsx': '',
    'packages/ui/src/internal/secret.ts': '',
    'packages/ui/cjs/dual.cjs': '',
    'packages/ui/esm/dual.mjs': '',
    'packages/web/package.json': '{ "name": "web", "dependencies": { "@acme/ui": "*" } }',
    'packages/web/src/page.tsx': '',
    'packages/web/src/legacy.cjs': '',
  };
  const resolver = createFromTree(npmTree);
  const from = 'packages/web/src/page.tsx';

  test('npm workspaces array maps names to folders', () => {
    assert.deepEqual(
      resolver.getWorkspacePackages(),
      new Map([
        ['@acme/ui', 'packages/ui'],
        ['web', 'packages/web'],
      ]),
    );
  });

  test('the types condition pointing at uncommitted dist maps back to src (heuristic)', () => {
    assert.deepEqual(resolver.resolve(from, '@acme/ui'), { specifier: '@acme/ui', kind: 'workspace', target: 'packages/ui/src/index.ts' });
  });

  test('a subpath export and a subpath pattern', () => {
    assert.deepEqual(resolver.resolve(from, '@acme/ui/button'), {
      specifier: '@acme/ui/button',
      kind: 'workspace',
      target: 'packages/ui/src/button.tsx',
    });
    assert.deepEqual(resolver.resolve(from, '@acme/ui/icons/star'), {
      specifier: '@acme/ui/icons/star',
      kind: 'workspace',
      target: 'packages/ui/src/icons/star.tsx',
    });
  });

  test('blocked and unexported subpaths are unresolved', () => {
    assert.deepEqual(resolver.resolve(from, '@acme/ui/internal/secret'), {
      specifier: '@acme/ui/internal/secret',
      kind: 'unresolved',
      reason: "package '@acme/ui' does not export './internal/secret'",
    });
    assert.deepEqual(resolver.resolve(from, '@acme/ui/nothing'), {
      specifier: '@acme/ui/nothing',
      kind: 'unresolved',
      reason: "package '@acme/ui' does not export './nothing'",
    });
  });

  test('import and require conditions follow the mode, the file extension, else key order', () => {
    assert.deepEqual(resolver.resolve(from, '@acme/ui/dual', 'import'), {
      specifier: '@acme/ui/dual',
      kind: 'workspace',
      target: 'packages/ui/esm/dual.mjs',
    });
    assert.deepEqual(resolver.resolve(from, '@acme/ui/dual', 'require'), {
      specifier: '@acme/ui/dual',
      kind: 'workspace',
      target: 'packages/ui/cjs/dual.cjs',
    });
    assert.deepEqual(resolver.resolve('packages/web/src/legacy.cjs', '@acme/ui/dual'), {
      specifier: '@acme/ui/dual',
      kind: 'workspace',
      target: 'packages/ui/cjs/dual.cjs',
    });
    assert.deepEqual(resolver.resolve(from, '@acme/ui/dual'), {
      specifier: '@acme/ui/dual',
      kind: 'workspace',
      target: 'packages/ui/cjs/dual.cjs',
    });
  });

  test('yarn object form, a package without exports: main mapped to src, subpaths by folder', () => {
    const yarn = createFromTree({
      'package.json': '{ "private": true, "workspaces": { "packages": ["libs/*"], "nohoist": ["**/x"] } }',
      'libs/util/package.json': '{ "name": "@acme/util", "main": "lib/index.js" }',
      'libs/util/src/index.ts': '',
      'libs/util/format.ts': '',
      'app/main.ts': '',
    });
    assert.deepEqual(yarn.resolve('app/main.ts', '@acme/util'), {
      specifier: '@acme/util',
      kind: 'workspace',
      target: 'libs/util/src/index.ts',
    });
    assert.deepEqual(yarn.resolve('app/main.ts', '@acme/util/format.js'), {
      specifier: '@acme/util/format.js',
      kind: 'workspace',
      target: 'libs/util/format.ts',
    });
    assert.deepEqual(yarn.resolve('app/main.ts', '@acme/util/gone'), {
      specifier: '@acme/util/gone',
      kind: 'unresolved',
      reason: "no file for './gone' in package '@acme/util'",
    });
  });

  test('pnpm globs with ** and a negation', () => {
    const pnpmWorkspace = 'packages:\n  - \'apps/**\'\n  - "!apps/legacy" # old\n  - tools/*\nonlyBuiltDependencies:\n  - esbuild\n';
    assert.deepEqual(parsePnpmWorkspacePackages(pnpmWorkspace), ['apps/**', '!apps/legacy', 'tools/*']);
    const pnpm = createFromTree(
      {
        'package.json': '{ "name": "root" }',
        'apps/web/package.json': '{ "name": "web-app", "exports": "./index.ts" }',
        'apps/web/index.ts': '',
        'apps/tools/cli/package.json': '{ "name": "cli", "module": "./src/main.ts" }',
        'apps/tools/cli/src/main.ts': '',
        'apps/legacy/package.json': '{ "name": "legacy" }',
        'apps/legacy/index.ts': '',
        'tools/lint/package.json': '{ "name": "lint" }',
        'tools/lint/index.js': '',
        'scripts/run.ts': '',
      },
      { pnpmWorkspace },
    );
    assert.deepEqual(
      pnpm.getWorkspacePackages(),
      new Map([
        ['cli', 'apps/tools/cli'],
        ['web-app', 'apps/web'],
        ['lint', 'tools/lint'],
      ]),
    );
    assert.deepEqual(pnpm.resolve('scripts/run.ts', 'web-app'), { specifier: 'web-app', kind: 'workspace', target: 'apps/web/index.ts' });
    assert.deepEqual(pnpm.resolve('scripts/run.ts', 'cli'), { specifier: 'cli', kind: 'workspace', target: 'apps/tools/cli/src/main.ts' });
    assert.deepEqual(pnpm.resolve('scripts/run.ts', 'lint'), { specifier: 'lint', kind: 'workspace', target: 'tools/lint/index.js' });
    assert.deepEqual(pnpm.resolve('scripts/run.ts', 'legacy'), { specifier: 'legacy', kind: 'external', packageName: 'legacy' });
  });
});

describe('self-reference and #imports', () => {
  const resolver = createFromTree({
    'package.json': JSON.stringify({
      name: 'my-lib',
      exports: { '.': './src/index.ts', './utils': { types: './dist/utils.d.ts', default: './dist/utils.js' } },
      imports: {
        '#db': { node: './src/db/node.ts', default: './src/db/browser.ts' },
        '#internal/*': './src/internal/*.ts',
        '#dep': 'lodash',
        '#gone': './src/gone.ts',
      },
    }),
    'src/index.ts': '',
    'src/utils.ts': '',
    'src/db/node.ts': '',
    'src/db/browser.ts': '',
    'src/internal/cache.ts': '',
    'test/lib.test.ts': '',
  });
  const from = 'test/lib.test.ts';

  test('a package importing its own name goes through its exports', () => {
    assert.deepEqual(resolver.resolve(from, 'my-lib'), { specifier: 'my-lib', kind: 'package-self', target: 'src/index.ts' });
    assert.deepEqual(resolver.resolve(from, 'my-lib/utils'), { specifier: 'my-lib/utils', kind: 'package-self', target: 'src/utils.ts' });
  });

  test('#imports with conditions, patterns, a bare target and misses', () => {
    assert.deepEqual(resolver.resolve(from, '#db'), { specifier: '#db', kind: 'package-self', target: 'src/db/node.ts' });
    assert.deepEqual(resolver.resolve(from, '#internal/cache'), {
      specifier: '#internal/cache',
      kind: 'package-self',
      target: 'src/internal/cache.ts',
    });
    assert.deepEqual(resolver.resolve(from, '#dep'), { specifier: '#dep', kind: 'external', packageName: 'lodash' });
    assert.deepEqual(resolver.resolve(from, '#nope'), {
      specifier: '#nope',
      kind: 'unresolved',
      reason: `'#nope' is not in the "imports" of package.json`,
    });
    assert.deepEqual(resolver.resolve(from, '#gone'), {
      specifier: '#gone',
      kind: 'unresolved',
      reason: "import '#gone' points to a missing file (src/gone.ts)",
    });
  });
});

describe('a package whose tests import it by name, through a build it does not hold', () => {
  // msw's shape: `exports` names tsup's `lib/core/index.mjs` (built from `src/core/index.ts`), and `test/package.json`
  // holds only `"type": "module"`, so Node's self-reference stops there; vitest's alias is what resolves `msw`.
  const resolver = createFromTree({
    'package.json': JSON.stringify({
      name: 'msw',
      exports: {
        '.': { types: './lib/core/index.d.mts', import: './lib/core/index.mjs', default: './lib/core/index.js' },
        './node': { types: './lib/node/index.d.mts', import: './lib/node/index.mjs' },
      },
    }),
    'src/core/index.ts': '',
    'src/node/index.ts': '',
    'test/package.json': JSON.stringify({ type: 'module' }),
    'test/node/a.test.ts': '',
    'other/package.json': JSON.stringify({ name: 'other' }),
    'other/b.test.ts': '',
  });

  test('an output file with another extension lands on the source it is built from', () => {
    assert.deepEqual(resolver.resolve('src/a.ts', 'msw/node'), {
      specifier: 'msw/node',
      kind: 'package-self',
      target: 'src/node/index.ts',
    });
  });

  test('a nameless package.json between the test and its package keeps the package', () => {
    assert.deepEqual(resolver.resolve('test/node/a.test.ts', 'msw'), {
      specifier: 'msw',
      kind: 'package-self',
      target: 'src/core/index.ts',
    });
    assert.deepEqual(resolver.resolve('test/node/a.test.ts', 'msw/node'), {
      specifier: 'msw/node',
      kind: 'package-self',
      target: 'src/node/index.ts',
    });
  });

  test('a named package.json in between is a package of its own', () => {
    assert.deepEqual(resolver.resolve('other/b.test.ts', 'msw'), { specifier: 'msw', kind: 'external', packageName: 'msw' });
  });
});

describe('builtins, externals and invalid specifiers', () => {
  const resolver = createFromTree({ 'src/a.ts': '' });
  const cases: Array<[string, object]> = [
    ['node:fs', { kind: 'builtin' }],
    ['fs', { kind: 'builtin' }],
    ['fs/promises', { kind: 'builtin' }],
    ['node:test', { kind: 'builtin' }],
    ['react', { kind: 'external', packageName: 'react' }],
    ['react-dom/client', { kind: 'external', packageName: 'react-dom' }],
    ['@scope/pkg/deep/path.js', { kind: 'external', packageName: '@scope/pkg' }],
    ['npm:chalk@5', { kind: 'external', packageName: 'chalk' }],
    ['%ENTRY%', { kind: 'unresolved', reason: "'%ENTRY%' is neither a path nor a valid package name" }],
    ['https://esm.sh/react', { kind: 'unresolved', reason: "URL-style specifier 'https://esm.sh/react' is not resolved" }],
    ['', { kind: 'unresolved', reason: 'empty specifier' }],
  ];
  for (const [specifier, expected] of cases) {
    test(`'${specifier}'`, () => {
      assert.deepEqual(resolver.resolve('src/a.ts', specifier), { specifier, ...expected });
    });
  }

  test('cached answers are copies', () => {
    const first = resolver.resolve('src/a.ts', 'react');
    first.kind = 'unresolved';
    assert.deepEqual(resolver.resolve('src/b.ts', 'react'), { specifier: 'react', kind: 'external', packageName: 'react' });
  });
});

test('on a real repository read from disk', (t) => {
  const root = makeTempDir();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeTree(root, {
    'package.json': '{ "name": "shop", "type": "module", "workspaces": ["packages/*"] }',
    'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext", "paths": { "@/*": ["./src/*"] } } }',
    'src/server.ts': "import { cart } from './cart/index.js';\nimport { money } from '@shop/money';\nimport '@/routes';\n",
    'src/cart/index.ts': '',
    'src/routes.ts': '',
    'packages/money/package.json': '{ "name": "@shop/money", "exports": { ".": "./dist/index.js" } }',
    'packages/money/src/index.ts': '',
  });
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
    });
  const files = walk('');
  const read = (path: string): string => readFileSync(join(root, path), 'utf8');
  const resolver = createResolver({
    files: new Set(files),
    tsconfigs: new Map(files.filter((path) => path.endsWith('tsconfig.json')).map((path) => [path, read(path)])),
    packageJsons: new Map(files.filter((path) => path.endsWith('package.json')).map((path) => [path, read(path)])),
  });
  const specifiers = [...read('src/server.ts').matchAll(/(?:from |import )'([^']+)'/g)].map((match) => match[1] ?? '');
  assert.deepEqual(
    specifiers.map((specifier) => resolver.resolve('src/server.ts', specifier)),
    [
      { specifier: './cart/index.js', kind: 'relative', target: 'src/cart/index.ts' },
      { specifier: '@shop/money', kind: 'workspace', target: 'packages/money/src/index.ts' },
      { specifier: '@/routes', kind: 'paths', target: 'src/routes.ts' },
    ],
  );
});

import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import assert from 'node:assert/strict';
import { createResolver } from '../../src/graph/resolve/index.js';
import { compileLinkTest, deriveLinkKeys } from '../../src/graph/resolve/link-keys.js';

/**
 * A focused cold run scans a file for its imports only when its text holds a key of a file the change reaches: for
 * every specifier the resolver resolves to a file, the importing text must hold one of that file's keys, whatever kind
 * of resolution it took (relative, index, a package.json `main`, dots, tsconfig `paths` and `baseUrl`, workspaces and
 * their `exports`, self-references, `#imports`, a `dist` path mapped to `src`).
 */
const TREE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'root', workspaces: ['packages/*'] }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['app/*'], config: ['app/settings/main.ts'] } } }),
  'app/main.ts': '',
  'app/settings/main.ts': '',
  'app/gen-users.ts': '',
  'app/widgets/index.ts': '',
  'app/widgets/button.tsx': '',
  'app/widgets/sub/icon.ts': '',
  'app/vendor/package.json': JSON.stringify({ main: '../third/entry.js' }),
  'app/third/entry.ts': '',
  'packages/core/package.json': JSON.stringify({
    name: '@acme/core',
    exports: { '.': './dist/index.js', './feature': './lib/internal/thing.js' },
    imports: { '#internal/*': './src/private/*.ts' },
  }),
  'packages/core/src/index.ts': '',
  'packages/core/lib/internal/thing.ts': '',
  'packages/core/src/private/secret.ts': '',
  'packages/core/src/use.ts': '',
  // tshy builds src/ into dist/esm and dist/commonjs; minimatch's tests import `../dist/esm/index.js` (check 113).
  'packages/glob/package.json': JSON.stringify({
    name: 'glob',
    main: './dist/commonjs/index.js',
    tshy: { exports: { '.': './src/index.ts' } },
  }),
  'packages/glob/src/index.ts': '',
  'packages/glob/test/basic.js': '',
};

const CASES: [from: string, specifier: string][] = [
  ['app/main.ts', './widgets/button'],
  ['app/main.ts', './widgets/button.js'],
  ['app/main.ts', './widgets'],
  ['app/main.ts', './widgets/index.js'],
  ['app/widgets/button.tsx', '.'],
  ['app/widgets/button.tsx', './'],
  ['app/widgets/button.tsx', '../main'],
  ['app/widgets/sub/icon.ts', '..'],
  ['app/widgets/button.tsx', './index'],
  ['app/widgets/sub/icon.ts', '../index.js'],
  ['app/third/entry.ts', '../vendor'],
  ['app/main.ts', '@app/gen-users'],
  ['app/main.ts', 'config'],
  ['app/main.ts', 'app/widgets/button'],
  ['app/main.ts', '/app/widgets/button'],
  ['app/main.ts', './vendor'],
  ['app/main.ts', '@acme/core'],
  ['app/main.ts', '@acme/core/feature'],
  ['packages/core/src/use.ts', '@acme/core'],
  ['packages/core/src/use.ts', '#internal/secret'],
  ['packages/glob/test/basic.js', '../dist/esm/index.js'],
  ['packages/glob/test/basic.js', '../dist/commonjs/index.js'],
];

test('every specifier the resolver resolves is held by its target file keys (the first pass misses no importer)', () => {
  const paths = Object.keys(TREE);
  const resolver = createResolver({
    files: new Set(paths),
    tsconfigs: new Map(paths.filter((path) => path.endsWith('tsconfig.json')).map((path) => [path, TREE[path] ?? ''])),
    packageJsons: new Map(paths.filter((path) => path.endsWith('package.json')).map((path) => [path, TREE[path] ?? ''])),
  });
  for (const [from, specifier] of CASES) {
    const target = resolver.resolve(from, specifier).target;
    assert.ok(target !== undefined, `${from} resolves ${specifier}`);
    const holds = compileLinkTest(resolver.getLinkKeys(target));
    for (const text of [
      `import x from '${specifier}';`,
      `export * from "${specifier}"`,
      `const x = require(\n  \`${specifier}\`\n);`,
      `const y = import(/* lazy */ '${specifier}');`,
    ]) {
      assert.ok(holds(text), `${JSON.stringify(text)} holds a key of ${target} (${JSON.stringify(resolver.getLinkKeys(target))})`);
    }
  }
});

test('the keys of a file: its name, its folder when an index, the packages holding it or pointing at it, the aliases', () => {
  const context = {
    packages: [
      { name: 'rxjs', folder: 'packages/rxjs', manifest: {} },
      { name: undefined, folder: 'packages/rxjs/ajax', manifest: { main: '../dist/cjs/ajax/index.js' } },
      { name: 'other', folder: 'packages/other', manifest: { main: './index.js' } },
    ],
    aliasPrefixes: ['@/'],
  };
  assert.deepEqual(deriveLinkKeys('packages/rxjs/src/internal/ajax/ajax.ts', context), {
    words: ["'@/", "'rxjs", '/ajax'],
    dots: false,
  });
  // Pointed at by packages/rxjs/ajax's main: that folder's name too, and dots.
  assert.deepEqual(deriveLinkKeys('packages/rxjs/dist/cjs/ajax/index.js', context), {
    words: ["'@/", "'index", "'rxjs", '*./index', '/ajax'],
    dots: true,
  });
  assert.deepEqual(deriveLinkKeys('packages/other/index.ts', context), {
    words: ["'@/", "'index", "'other", '*./index', '/other'],
    dots: true,
  });
  assert.deepEqual(deriveLinkKeys('src/user.service.ts', { packages: [], aliasPrefixes: [] }), { words: ['/user'], dots: false });
  assert.deepEqual(deriveLinkKeys('.eslintrc.cjs', { packages: [], aliasPrefixes: [] }), { words: ['/eslintrc'], dots: false });
});

test('a text holds a name as a whole path segment, a package at a bare start; dots and escapes after an import keyword', () => {
  const holds = compileLinkTest({ words: ['*./index', '/ajax', "'rxjs"], dots: true });
  assert.equal(holds('for (let index = 0; index < n; index++) reindex(ajaxy);'), false);
  assert.equal(holds('see https://github.com/ReactiveX/rxjs for more'), false, 'a package name starts a bare specifier');
  assert.equal(holds("import { of } from 'rxjs/operators';"), true);
  assert.equal(holds("import { a } from './lib/index';"), false, 'a folder named lib: not the index of ajax/');
  assert.equal(holds("import { a } from '../index.js';"), true);
  assert.equal(compileLinkTest({ words: ['odd'], dots: false })('an odd word'), true, 'a key of no known kind: anywhere');
  assert.equal(holds("const parts = path.split('.'); parts.join('..');"), false);
  assert.equal(holds("import { a } from './ajaxy';"), false, 'a name is a whole run, up to a dot, slash or quote');
  assert.equal(holds("import { a } from './ajax.js';"), true);
  assert.equal(holds("import { a } from '../ajax/index';"), true);
  assert.equal(holds("import { a } from '../ajax/index.js';"), true);
  assert.equal(holds("export * from /* the folder's index */ '..';"), true);
  assert.equal(holds("const a = require(\n  // parent\n  '.'\n);"), true);
  const none = compileLinkTest({ words: [], dots: false });
  assert.equal(holds("import x from 'react';"), false);
  assert.equal(none("import x from './\\u0061jax';"), true, 'an escape could spell any word');
  assert.equal(none("const s = '\\n'; import x from './plain';"), false);
  const many = compileLinkTest({ words: Array.from({ length: 5000 }, (_, at) => `/name${at}`), dots: false });
  assert.equal(many("import x from '../lib/name4999.js';"), true, 'thousands of names, looked up run by run');
  assert.equal(many("import x from '../lib/name5000.js';"), false);
  // A few names make a pattern, many a set of runs: the same answers.
  const texts = [
    "import a from './name7.js';",
    "import a from './name7x.js';",
    "import a from 'name7/deep';",
    'const a = "x/name7";',
    'const a = `name7',
    'name7 and /name7x',
    '/name7',
  ];
  const few = compileLinkTest({ words: ['/name7'], dots: false });
  const fillers = Array.from({ length: 100 }, (_, at) => `/filler${at}`);
  const set = compileLinkTest({ words: ['/name7', ...fillers], dots: false });
  assert.deepEqual(
    texts.map((text) => few(text)),
    [true, false, true, true, true, false, true],
  );
  assert.deepEqual(
    texts.map((text) => set(text)),
    texts.map((text) => few(text)),
  );
  const long = `/${'n'.repeat(250)}`;
  assert.equal(compileLinkTest({ words: [long], dots: false })(`import x from './${'n'.repeat(250)}.js';`), true, 'a very long name');
});

test('the import-keyword patterns back off linearly: long runs of spaces or an unclosed comment after a keyword', () => {
  const holds = compileLinkTest({ words: [], dots: true });
  const spaces = ' '.repeat(200_000);
  // Quadratic backtracking takes minutes on each of these: a run over 5 s is
  // stopped (vm's timeout interrupts a regular expression) and fails the test. The answers are what the texts say.
  const within = (text: string): boolean => runInNewContext('holds(text)', { holds, text }, { timeout: 5000 }) as boolean;
  assert.equal(within(`import${spaces}x; \\n`), false);
  assert.equal(within(`from (${spaces}/* never closed ${spaces} \\`), false);
  assert.equal(within(`require(${spaces}/* c */${spaces}'./\\u0061')`), true);
  assert.equal(within(`export * from${spaces}'..';`), true);
});

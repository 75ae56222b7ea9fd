import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { ChangeStatus, Hunk } from '../../src/model/change.js';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { findCompiledSource } from '../../src/graph/resolve/compiled-source.js';
import { classifyChangeKind } from '../../src/rules/change-kind.js';
import { createPathClassifier, mergeClassifiers } from '../../src/rules/classifiers.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { getGrammarParsers } from '../../src/worker/grammars.js';

const typeSpans = (path: string, text: string) => extractFacts(path, text, { assertionHelpers: [] }).typeSpans ?? [];

/** One hunk per contiguous run of differing lines (enough for these single-edit cases). */
function diffHunks(base: string, head: string): Hunk[] {
  const a = base.split('\n');
  const b = head.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  return [{ oldStart: start + 1, oldLines: endA - start + 1, newStart: start + 1, newLines: endB - start + 1 }];
}

const pathClasses = createPathClassifier(mergeClassifiers(await loadBuiltinPacks()));
const grammars = await getGrammarParsers(['x.go']);
const goKindOf = (base: string, head: string) =>
  classifyChangeKind({
    path: 'completions.go',
    status: 'modified',
    binary: false,
    hunks: diffHunks(base, head),
    additions: 1,
    deletions: 1,
    baseText: base,
    headText: head,
    baseTypeSpans: extractFacts('completions.go', base, { assertionHelpers: [] }, grammars).typeSpans ?? [],
    headTypeSpans: extractFacts('completions.go', head, { assertionHelpers: [] }, grammars).typeSpans ?? [],
    pathClasses: pathClasses('completions.go'),
  });

function kindOf(path: string, base: string | undefined, head: string | undefined, status: ChangeStatus = 'modified') {
  const hunks = base !== undefined && head !== undefined ? diffHunks(base, head) : [];
  const additions = hunks.reduce((total, hunk) => total + hunk.newLines, 0);
  const deletions = hunks.reduce((total, hunk) => total + hunk.oldLines, 0);
  return classifyChangeKind({
    path,
    status,
    binary: false,
    hunks,
    additions: status === 'renamed' && base === head ? 0 : additions,
    deletions: status === 'renamed' && base === head ? 0 : deletions,
    ...(base === undefined ? {} : { baseText: base, baseTypeSpans: typeSpans(path, base) }),
    ...(head === undefined ? {} : { headText: head, headTypeSpans: typeSpans(path, head) }),
    pathClasses: pathClasses(path),
  });
}

const TYPES =
  'export interface Price {\n  cents: number;\n}\nexport type Currency = "EUR" | "USD";\nexport function total(price: Price): number {\n  return price.cents;\n}\n';

describe('change kinds', () => {
  test('by path: docs, lockfile, manifest, config, generated, test', () => {
    assert.equal(kindOf('README.md', '# a\n', '# b\n'), 'docs');
    assert.equal(kindOf('package-lock.json', '{}\n', '{"a":1}\n'), 'lockfile');
    assert.equal(kindOf('package.json', '{}\n', '{"a":1}\n'), 'manifest');
    assert.equal(kindOf('tsconfig.json', '{}\n', '{"a":1}\n'), 'config');
    assert.equal(kindOf('dist/index.js', 'a();\n', 'b();\n'), 'generated');
    assert.equal(kindOf('src/money.test.ts', 'a();\n', 'b();\n'), 'test');
    // What a test expects, and type tests (tsd, TSTyche), are test changes; a declaration file is types only.
    assert.equal(kindOf('test/__snapshots__/money.test.ts.snap', 'exports[`a`] = `1`;\n', 'exports[`a`] = `2`;\n'), 'test');
    assert.equal(kindOf('index.test-d.ts', 'expectType<string>(a);\n', 'expectType<number>(a);\n'), 'test');
    assert.equal(kindOf('test/index.tst.ts', 'expect(a).type.toBe<string>();\n', 'expect(a).type.toBe<number>();\n'), 'test');
    assert.equal(kindOf('types/route.d.ts', 'export declare const a: string;\n', 'export declare const a: number;\n'), 'type-only');
    // Its doc comment reworded, nothing else: no type changed.
    const declared = (doc: string): string => `/**\n${doc}\n*/\nexport declare const json: unknown;\n`;
    assert.equal(
      kindOf('index.d.ts', declared('Accepts a plain object.'), declared('Accepts any plain object or value.')),
      'comment-or-format',
    );
    // Check 18 (vite): a playground behind end-to-end tests, an example app, a demo: they drive the product.
    for (const path of ['playground/hmr/virtual-invalidation/dep.js', 'examples/react/basic/src/index.tsx', 'packages/ui/demo/app.ts'])
      assert.equal(kindOf(path, 'a();\n', 'b();\n'), 'example', path);
    // Their tests stay tests, their configuration configuration; a word inside a name is no folder.
    assert.equal(kindOf('playground/hmr/__tests__/hmr.spec.ts', 'a();\n', 'b();\n'), 'test');
    assert.equal(kindOf('playground/hmr/vite.config.ts', 'a();\n', 'b();\n'), 'config');
    assert.equal(kindOf('src/examples-loader.ts', 'a();\n', 'b();\n'), 'runtime');
  });

  // Check 22 (Unleash): `export const TOAST_LIVE_REGION_TEST_ID = 'toast-live-region';` added to testIds.ts got a
  // runtime-proof task; so did a symbol added to fastify's table of keys (labelled noise in bench/labels/issue-41.json).
  test('new names for literal values, added at the top level, are constants; a changed value or a table of settings is not', () => {
    const ids = "export const A_ID = 'a';\nexport const B_ID = 'b';\n";
    assert.equal(kindOf('src/utils/testIds.ts', ids, `${ids}export const TOAST_ID = 'toast-live-region';\n`), 'constant');
    assert.equal(kindOf('src/limits.js', 'const A = 1;\n', 'const A = 1;\nconst MAX_ROWS = 500;\nconst STRICT = true;\n'), 'constant');
    const keys = "const keys = {\n  kA: Symbol('a'),\n};\nmodule.exports = keys;\n";
    assert.equal(
      kindOf('lib/symbols.js', keys, keys.replace("  kA: Symbol('a'),\n", "  kA: Symbol('a'),\n  kB: Symbol('fastify.b'),\n")),
      'constant',
    );
    // A value changed, a value computed, a setting in a table, a constant inside a function: behaviour.
    assert.equal(kindOf('src/limits.js', 'const MAX_ROWS = 500;\n', 'const MAX_ROWS = 50;\n'), 'runtime');
    assert.equal(kindOf('src/limits.js', 'const A = 1;\n', 'const A = 1;\nconst B = compute();\n'), 'runtime');
    const roles = "const ROLES = {\n  read: 'guest',\n};\n";
    assert.equal(kindOf('src/roles.js', roles, roles.replace("  read: 'guest',\n", "  read: 'guest',\n  delete: 'guest',\n")), 'runtime');
    const inside = 'function f() {\n  return 1;\n}\n';
    assert.equal(kindOf('src/f.js', inside, inside.replace('function f() {\n', 'function f() {\n  const LIMIT = 5;\n')), 'runtime');
    assert.equal(kindOf('app/limits.py', 'A = 1\n', 'A = 1\nB = 2\n'), 'runtime');
  });

  // Check 29 (SvelteKit): three helpers of its router exported for another module, and a runtime proof asked of them.
  test('declarations only exported are export-only; an export with an edit, a new export or export default is not', () => {
    const helpers = 'function decode(code) {\n  return code;\n}\n\nconst pattern = /a/g;\n';
    const exported = 'export function decode(code) {\n  return code;\n}\n\nexport const pattern = /a/g;\n';
    assert.equal(kindOf('src/utils/routing.js', helpers, exported), 'export-only');
    assert.equal(kindOf('src/utils/routing.js', 'async function load() {}\n', 'export async function load() {}\n'), 'export-only');
    assert.equal(kindOf('src/utils/routing.js', helpers, exported.replace('return code;', 'return code.trim();')), 'runtime');
    assert.equal(kindOf('src/utils/routing.js', helpers, `${helpers}export function encode() {}\n`), 'runtime');
    assert.equal(kindOf('src/utils/routing.js', 'function decode() {}\n', 'export default function decode() {}\n'), 'runtime');
  });

  // Check 36 (jotai): `overiddenCreateStore` renamed `overriddenCreateStore` everywhere in store.ts, and a proof asked.
  test('a name renamed throughout a file is identifier-rename; an exported, partial or edited rename is not', () => {
    const store = (name: string) =>
      `let ${name}: Create | undefined\n\nexport function override(fn) {\n  ${name} = fn(${name})\n}\n\nexport function createStore() {\n  if (${name}) {\n    return ${name}()\n  }\n  return build()\n}\n`;
    assert.equal(kindOf('src/vanilla/store.ts', store('overiddenCreateStore'), store('overriddenCreateStore')), 'identifier-rename');
    // An exported name renamed breaks its importers.
    const exported = (name: string) => `export const ${name} = 1;\nexport function get() {\n  return ${name};\n}\n`;
    assert.equal(kindOf('src/a.ts', exported('limt'), exported('limit')), 'runtime');
    // The old name still said somewhere: not every use was renamed.
    assert.equal(kindOf('src/a.ts', 'const a = 1;\nconst b = a;\nlog(a);\n', 'const c = 1;\nconst b = c;\nlog(a);\n'), 'runtime');
    // A rename beside another edit, or a changed string, is runtime.
    assert.equal(
      kindOf('src/vanilla/store.ts', store('overiddenCreateStore'), store('overriddenCreateStore').replace('build()', 'make()')),
      'runtime',
    );
    assert.equal(kindOf('src/a.ts', "const a = 'x';\nlog(a);\n", "const b = 'y';\nlog(b);\n"), 'runtime');
    // A property read or an object's key renamed with the local name reads or builds another member.
    const member = (name: string) => `const ${name} = load();\nsend(api.${name});\n`;
    assert.equal(kindOf('src/a.ts', member('data'), member('info')), 'runtime');
    const shorthand = (name: string) => `const ${name} = load();\nsend({ ${name} });\n`;
    assert.equal(kindOf('src/a.ts', shorthand('data'), shorthand('info')), 'runtime');
    // The fourth independent check (ky 634cb2b3ec): parameters renamed, in a signature with a return type and in a
    // function type, as a lint rule asked (`fn` → `function_`, `args` → `arguments_`).
    const retry = (fn: string, args: string) =>
      `export class Ky {\n  protected async _retry<T extends (...${args}: any) => Promise<any>>(${fn}: T): Promise<ReturnType<T> | void> {\n    return await ${fn}();\n  }\n}\n`;
    assert.equal(kindOf('source/core/Ky.ts', retry('fn', 'args'), retry('function_', 'arguments_')), 'identifier-rename');
    // A call's argument named anew is no parameter: `task` is declared nowhere, a reference to something else.
    const run = (name: string) => `export function start(job) {\n  return schedule(${name});\n}\n`;
    assert.equal(kindOf('src/a.ts', run('job'), run('task')), 'runtime');
  });

  // Check 21 (cobra): `type CompletionFunc func(…)` made an alias, `type CompletionFunc = func(…)`, got a runtime proof.
  test('Go: an alias, a function type or an interface changed is type-only; a struct or a function body is not', () => {
    const go = (body: string) => `package cobra\n\n${body}\n\nfunc Run() int {\n\treturn 1\n}\n`;
    assert.equal(goKindOf(go('type F func(args []string) string'), go('type F = func(args []string) string')), 'type-only');
    assert.equal(goKindOf(go('type I interface {\n\tRun()\n}'), go('type I interface {\n\tRun() error\n}')), 'type-only');
    assert.equal(goKindOf(go('type S struct {\n\tA int\n}'), go('type S struct {\n\tA int64\n}')), 'runtime');
    assert.equal(goKindOf(go('type F func() string'), go('type F func() string').replace('return 1', 'return 2')), 'runtime');
  });

  // Check 52 (spf13/viper): internal/features/bind_struct.go, a build constraint and `const BindStruct = true`, was asked
  // for a runtime test of its own; its value is proven where viper.go reads it.
  test('Go: a new file of literal constants is constant; one with code, or a changed value, is not', () => {
    const flag = '//go:build viper_bind_struct\n\npackage features\n\nconst BindStruct = true\n';
    assert.equal(kindOf('internal/features/bind_struct.go', undefined, flag, 'added'), 'constant');
    const block = 'package features\n\nconst (\n\tName = "viper"\n\tLimit int = 3\n)\n';
    assert.equal(kindOf('internal/features/names.go', undefined, block, 'added'), 'constant');
    assert.equal(
      kindOf('internal/features/bind_struct.go', undefined, `${flag}\nfunc On() bool { return BindStruct }\n`, 'added'),
      'runtime',
    );
    assert.equal(kindOf('internal/features/bind_struct.go', flag, flag.replace('true', 'false')), 'runtime');
    // Check 117 (pelletier/go-toml): `skipUntilTable = false` added in a function's switch is an assignment.
    const decode = 'package toml\n\nfunc decode() {\n\tswitch kind {\n\tcase Table:\n\t\tenter()\n\t}\n}\n';
    assert.equal(kindOf('unmarshaler.go', decode, decode.replace('\t\tenter()', '\t\tskipUntilTable = false\n\t\tenter()')), 'runtime');
    const added = `${block.slice(0, -2)}\tDepth = 4\n)\n`;
    assert.equal(kindOf('internal/features/names.go', block, added), 'constant');
  });

  test('a rename without edits, comment and formatting edits', () => {
    assert.equal(kindOf('src/health-check.ts', 'export const ok = 1;\n', 'export const ok = 1;\n', 'renamed'), 'rename');
    assert.equal(
      kindOf('src/money.ts', '// rounds\nexport const a = 1;\n', '// rounds half up\nexport const a = 1;\n'),
      'comment-or-format',
    );
    assert.equal(kindOf('src/money.ts', 'export const a = 1;\n', 'export const a  =  1;\n'), 'comment-or-format');
    // Check 25 (starlette): a Python line indented into the `else:` above it runs in that branch only now.
    const lookup = 'def lookup(d, follow):\n    if follow:\n        p = a(d)\n    else:\n        p = b(d)\n    d = c(d)\n    return p, d\n';
    assert.equal(kindOf('starlette/staticfiles.py', lookup, lookup.replace('    d = c(d)', '        d = c(d)')), 'runtime');
    assert.equal(kindOf('app/a.py', '# old\nx = f(1,2)\n', '# new\nx = f(1, 2)\n'), 'comment-or-format');
    // Check 49 (psf/requests): a typo fixed in a docstring, and `'https'` written `"https"` by a linter, run the same.
    const send = (doc: string, scheme: string): string =>
      `def send(request):\n    """${doc}\n\n    :param request: the request\n    """\n    if not request.url.startswith(${scheme}):\n        return None\n    return request\n`;
    assert.equal(
      kindOf('src/requests/adapters.py', send('The PreparedReqest.', "'https'"), send('The PreparedRequest.', "'https'")),
      'comment-or-format',
    );
    assert.equal(kindOf('requests/sessions.py', send('Send.', "'https'"), send('Send.', '"https"')), 'comment-or-format');
    assert.equal(kindOf('requests/sessions.py', send('Send.', "'https'"), send('Send.', '"http"')), 'runtime');
    assert.equal(kindOf('requests/sessions.py', send('Send.', "'https'"), send('Send.', '"it\'s"')), 'runtime');
    // A string that goes on into an expression is no docstring: `"%s" % x` → `"%d" % x` changes what runs.
    assert.equal(kindOf('app/fmt.py', 'def f(x):\n    "%s" % x\n', 'def f(x):\n    "%d" % x\n'), 'runtime');
    // Check 55 (koajs/router): "fix jsdoc and typo" took the `;` off `function Layer(…) { … };` and fixed comments.
    const layer = (end: string, word: string) =>
      `/** Additionaly, ${word} */\nfunction Layer(path) {\n  this.path = path${end}\n}${end}\n/** Exported. */\nmodule.exports = Layer${end}\n`;
    assert.equal(kindOf('lib/layer.js', layer(';', 'a'), layer('', 'b')), 'comment-or-format');
    assert.equal(kindOf('lib/layer.ts', layer(';', 'a'), layer(';', 'a').replace('= path;', '= path')), 'comment-or-format');
    // Before a line that opens with `(` the `;` keeps two statements apart: taking it away joins them into a call.
    const iife = (end: string) => `const run = setup()${end}\n(function () {\n  run();\n})();\n`;
    assert.equal(kindOf('lib/start.js', iife(';'), iife('')), 'runtime');
    assert.equal(kindOf('lib/layer.js', layer(';', 'a'), layer('', 'a').replace('= path', '= path + 1')), 'runtime');
    // Check 43 (node-fetch): a built-in named with its `node:` prefix loads the same module; another module does not.
    const referrer = (specifier: string): string => `import {isIP} from '${specifier}';\nexport const ip = isIP;\n`;
    assert.equal(kindOf('src/utils/referrer.js', referrer('net'), referrer('node:net')), 'comment-or-format');
    assert.equal(kindOf('src/utils/referrer.js', referrer('net'), referrer('node:tls')), 'runtime');
    assert.equal(kindOf('src/utils/referrer.js', referrer('ip'), referrer('node:ip')), 'runtime');
  });

  test('type-only: interface members, type aliases, type imports, overload signatures, declare, a new types-only file', () => {
    assert.equal(kindOf('src/price.ts', TYPES, TYPES.replace('  cents: number;', '  cents: number;\n  label?: string;')), 'type-only');
    assert.equal(kindOf('src/price.ts', TYPES, TYPES.replace('"EUR" | "USD"', '"EUR" | "USD" | "GBP"')), 'type-only');
    const imports = "import type { A } from './a';\nexport const x = 1;\n";
    assert.equal(kindOf('src/x.ts', imports, imports.replace('{ A }', '{ A, B }')), 'type-only');
    const overloads = 'export function f(a: string): string;\nexport function f(a: any) { return a; }\n';
    assert.equal(
      kindOf(
        'src/f.ts',
        overloads,
        overloads.replace('(a: string): string;', '(a: string): string;\nexport function f(a: number): number;'),
      ),
      'type-only',
    );
    assert.equal(
      kindOf('src/env.d.ts', 'declare const VERSION: string;\n', 'declare const VERSION: string;\ndeclare const BUILD: number;\n'),
      'type-only',
    );
    assert.equal(kindOf('src/types.ts', undefined, 'export interface A {\n  a: string;\n}\n', 'added'), 'type-only');
    // Types removed with the block comment above them, whose prose lines start with no `*` (ky's request.ts).
    const undici =
      '/*\nUndici types need to be here.\n\nRemove them later.\n*/\n\ntype UndiciInit = string[][];\n\nexport type Init = {\n  a?: UndiciInit;\n};\n';
    assert.equal(kindOf('src/request.ts', undici, 'export type Init = {\n  a?: string;\n};\n'), 'type-only');
  });

  test('runtime: a changed body, a change mixing types and code, a new file with code, and an exported interface beside a changed function', () => {
    assert.equal(kindOf('src/price.ts', TYPES, TYPES.replace('return price.cents;', 'return price.cents + 1;')), 'runtime');
    assert.equal(
      kindOf(
        'src/price.ts',
        TYPES,
        TYPES.replace(
          '  cents: number;\n}\nexport type Currency = "EUR" | "USD";\nexport function total(price: Price): number {\n  return price.cents;',
          '  cents: number;\n  tax: number;\n}\nexport type Currency = "EUR" | "USD";\nexport function total(price: Price): number {\n  return price.cents + price.tax;',
        ),
      ),
      'runtime',
    );
    assert.equal(kindOf('src/new.ts', undefined, 'export interface A { a: string }\nexport const a = 1;\n', 'added'), 'runtime');
  });
});

describe('compiled output beside its sources (a package that ships src/ and its build)', () => {
  const tracked = new Set([
    'src/v4/core/util.ts',
    'v4/core/util.js',
    'v4/core/util.cjs',
    'v4/core/util.d.ts',
    'v4/core/util.d.cts',
    'src/index.ts',
    'out/index.js',
    'out/index.d.ts',
    'lib/handwritten.js',
    'lib/handwritten.d.ts',
    'scripts/tool.js',
    'src/scripts/tool.ts',
    'packages/zod/src/v4/core/util.ts',
    'packages/zod/v4/core/util.js',
    'packages/zod/v4/core/util.d.ts',
    'packages/zod/index.js',
    'packages/zod/index.d.ts',
    'packages/zod/src/index.ts',
  ]);
  const isTracked = (path: string) => tracked.has(path);

  test('a .js/.cjs or .d.ts/.d.cts whose counterpart is beside it and whose .ts source exists is compiled from that source', () => {
    assert.deepEqual(
      ['v4/core/util.js', 'v4/core/util.cjs', 'v4/core/util.d.ts', 'v4/core/util.d.cts', 'out/index.js', 'out/index.d.ts'].map((path) =>
        findCompiledSource(path, isTracked),
      ),
      ['src/v4/core/util.ts', 'src/v4/core/util.ts', 'src/v4/core/util.ts', 'src/v4/core/util.ts', 'src/index.ts', 'src/index.ts'],
    );
  });

  test('in a workspace package, the source root is the package folder’s', () => {
    assert.deepEqual(
      ['packages/zod/v4/core/util.js', 'packages/zod/v4/core/util.d.ts', 'packages/zod/index.js'].map((path) =>
        findCompiledSource(path, isTracked),
      ),
      ['packages/zod/src/v4/core/util.ts', 'packages/zod/src/v4/core/util.ts', 'packages/zod/src/index.ts'],
    );
  });

  test('hand-written JavaScript stays code: no .ts source, or no declaration beside it', () => {
    assert.equal(findCompiledSource('lib/handwritten.js', isTracked), undefined, 'a declaration but no TypeScript source');
    assert.equal(findCompiledSource('scripts/tool.js', isTracked), undefined, 'a TypeScript source but no declaration beside the .js');
    assert.equal(findCompiledSource('src/v4/core/util.ts', isTracked), undefined);
    assert.equal(
      classifyChangeKind({
        path: 'v4/core/util.js',
        status: 'modified',
        binary: false,
        hunks: [],
        additions: 1,
        deletions: 1,
        compiledFrom: 'src/v4/core/util.ts',
        pathClasses: pathClasses('v4/core/util.js'),
      }),
      'generated',
    );
  });
});

describe('a compiled mirror is low signal; a dist/ folder that is the only code is not (checker ai)', () => {
  const source = 'export function slug(text: string): string {\n  return text.trim();\n}\n';
  const compiled = 'export function slug(text) {\n    return text.trim();\n}\n';
  const edit = (text: string) => text.replace('text.trim()', 'text.trim().replace(/^(a+)+$/, "")');
  let mirrored: ChangeFixture;
  let distOnly: ChangeFixture;
  before(() => {
    mirrored = createChangeFixture(
      {
        'package.json': '{"name":"lib","type":"module"}',
        'src/slug.ts': source,
        'out/slug.js': compiled,
        'out/slug.d.ts': 'export declare function slug(text: string): string;\n',
      },
      { 'src/slug.ts': edit(source), 'out/slug.js': edit(compiled) },
    );
    distOnly = createChangeFixture(
      { 'package.json': '{"name":"app","type":"module"}', 'dist/slug.js': compiled },
      { 'dist/slug.js': edit(compiled) },
    );
  });
  after(() => {
    mirrored.repo.cleanup();
    distOnly.repo.cleanup();
  });

  test('out/slug.js records its source, carries no proof, no edge case and no risk of its own; src/slug.ts carries them', async () => {
    const { report } = await runJsonReport<AgentBundle>(mirrored, ['ai'], 'agent-bundle');
    const files = report.evidence.changedFiles.map((file) => [file.path, file.changeKind, file.compiledFrom ?? null, file.lowSignal]);
    assert.deepEqual(files, [
      ['out/slug.js', 'generated', 'src/slug.ts', true],
      ['src/slug.ts', 'runtime', null, false],
    ]);
    const edgeScopes = [...report.evidence.edgeCases.top, ...report.evidence.edgeCases.overflow].map((edgeCase) => edgeCase.scope);
    assert.ok(
      edgeScopes.some((scope) => scope.startsWith('src/slug.ts')),
      JSON.stringify(edgeScopes),
    );
    assert.deepEqual(
      edgeScopes.filter((scope) => scope.startsWith('out/')),
      [],
    );
    assert.deepEqual(
      report.evidence.changedPathProof.map((proof) => proof.path),
      ['src/slug.ts'],
    );
    const lowSignal = report.evidence.summary.mergeRiskBreakdown.find((entry) => entry.contributor === 'risk/low-signal-change');
    assert.equal(lowSignal?.detail, 'out/slug.js changed only compiled output of src/slug.ts (the source carries the proof)');
    // The analysis and impact reports carry the same field, valid against their schemas.
    for (const [command, schema] of [
      ['analyze', 'analysis-report'],
      ['impact', 'impact-report'],
    ] as const) {
      const { report: other } = await runJsonReport<{ changedFiles: { path: string; compiledFrom?: string }[] }>(
        mirrored,
        [command],
        schema,
      );
      assert.deepEqual(
        other.changedFiles.map((file) => file.compiledFrom ?? null),
        ['src/slug.ts', null],
        command,
      );
    }
  });

  test('dist/slug.js with no source beside it keeps its signal: its edge case is there', async () => {
    const { report } = await runJsonReport<AgentBundle>(distOnly, ['ai'], 'agent-bundle');
    assert.deepEqual(
      report.evidence.changedFiles.map((file) => [file.path, file.changeKind, file.lowSignal]),
      [['dist/slug.js', 'generated', false]],
    );
    const edgeScopes = [...report.evidence.edgeCases.top, ...report.evidence.edgeCases.overflow].map((edgeCase) => edgeCase.scope);
    assert.ok(
      edgeScopes.some((scope) => scope.startsWith('dist/slug.js')),
      JSON.stringify(edgeScopes),
    );
  });
});

describe('no runtime proof for changes that do not run (checker ai)', () => {
  const base = {
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
    'README.md': '# Shop\n\nRounds prices.\n',
    'src/price.ts': TYPES,
    'src/cart.ts':
      "import { total, type Price } from './price.js';\nexport const sum = (items: Price[]): number => items.reduce((acc, item) => acc + total(item), 0);\n",
  };
  let docsOnly: ChangeFixture;
  let typeOnly: ChangeFixture;
  let typesInRuntimeLines: ChangeFixture;
  let runtime: ChangeFixture;
  before(() => {
    // Issue 41: a type import, an annotation and a type argument on lines of runtime code change nothing that runs.
    typesInRuntimeLines = createChangeFixture(base, {
      'src/cart.ts':
        "import { total, type Price } from './price.js';\nimport type { Cart } from './types.js';\nexport const sum = (items: readonly Price[]): number => items.reduce<number>((acc, item: Price) => acc + total(item), 0);\n",
    });
    docsOnly = createChangeFixture(base, { 'README.md': '# Shop\n\nRounds prices half up.\n' });
    typeOnly = createChangeFixture(base, { 'src/price.ts': TYPES.replace('  cents: number;', '  cents: number;\n  label?: string;') });
    runtime = createChangeFixture(base, { 'src/price.ts': TYPES.replace('return price.cents;', 'return Math.round(price.cents);') });
  });
  after(() => {
    for (const fixture of [docsOnly, typeOnly, typesInRuntimeLines, runtime]) fixture.repo.cleanup();
  });

  test('a docs-only change and a type-only change (also types on runtime lines) get no proof entry and no proof task; a runtime change does', async () => {
    const kinds = async (fixture: ChangeFixture) => {
      const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      return {
        changeKinds: report.evidence.changedFiles.map((file) => [file.path, file.changeKind]),
        proof: report.evidence.changedPathProof.map((proof) => proof.path),
        proofTasks: [...report.tasks, ...report.taskOverflow].filter((task) => task.kind === 'proof').length,
        typeCheckTasks: [...report.tasks, ...report.taskOverflow].filter((task) => task.title.startsWith('Type-check')).length,
      };
    };
    assert.deepEqual(await kinds(docsOnly), { changeKinds: [['README.md', 'docs']], proof: [], proofTasks: 0, typeCheckTasks: 0 });
    assert.deepEqual(await kinds(typeOnly), { changeKinds: [['src/price.ts', 'type-only']], proof: [], proofTasks: 0, typeCheckTasks: 1 });
    assert.deepEqual(await kinds(typesInRuntimeLines), {
      changeKinds: [['src/cart.ts', 'type-only']],
      proof: [],
      proofTasks: 0,
      typeCheckTasks: 1,
    });
    assert.deepEqual(await kinds(runtime), {
      changeKinds: [['src/price.ts', 'runtime']],
      proof: ['src/price.ts'],
      proofTasks: 1,
      typeCheckTasks: 0,
    });
  });

  // Check 18 (vite): a fix to packages/ with its playground fixtures got proof tasks, an edge case and a missing test
  // for the playground's files and its vite.config.ts.
  test('a playground changed beside the code: no proof, edge case or missing test of its own; the code keeps its tasks', async () => {
    const fixture = createChangeFixture(
      { ...base, 'playground/cart/main.ts': "export const label = 'cart';\n", 'playground/cart/vite.config.ts': 'export default {};\n' },
      {
        'src/price.ts': TYPES.replace('return price.cents;', 'return Math.round(price.cents);'),
        'playground/cart/main.ts': "export const label = (cents: number) => (cents > 100 ? 'large' : 'small');\n",
        'playground/cart/vite.config.ts': 'export default { root: "." };\n',
      },
    );
    try {
      const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      assert.deepEqual(
        report.evidence.changedFiles.map((file) => [file.path, file.changeKind]),
        [
          ['playground/cart/main.ts', 'example'],
          ['playground/cart/vite.config.ts', 'config'],
          ['src/price.ts', 'runtime'],
        ],
      );
      const tasks = [...report.tasks, ...report.taskOverflow];
      assert.deepEqual(
        tasks.filter((task) => task.title.includes('playground/')).map((task) => task.title),
        [],
      );
      assert.ok(tasks.some((task) => task.kind === 'proof' && task.title.includes('src/price.ts')));
    } finally {
      fixture.repo.cleanup();
    }
  });

  // Check 22 (Unleash): a test id added to testIds.ts beside the component that uses it.
  test('a new constant used by a changed file: no proof task of its own; the file that uses it keeps its proof', async () => {
    const ids = "export const CART_ID = 'cart';\n";
    const fixture = createChangeFixture(
      {
        ...base,
        'src/ids.ts': ids,
        'src/cart.test.ts': "import { sum } from './cart.js';\nimport { CART_ID } from './ids.js';\nsum([]);\nconsole.log(CART_ID);\n",
      },
      {
        'src/ids.ts': `${ids}export const TOTAL_ID = 'cart-total';\n`,
        'src/cart.ts': base['src/cart.ts'].replace('acc + total(item)', 'acc + Math.round(total(item))'),
      },
    );
    try {
      const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      assert.deepEqual(
        report.evidence.changedFiles.map((file) => [file.path, file.changeKind, file.lowSignal]),
        [
          ['src/cart.ts', 'runtime', false],
          ['src/ids.ts', 'constant', true],
        ],
      );
      assert.deepEqual(
        report.evidence.changedPathProof.map((proof) => proof.path),
        ['src/cart.ts'],
      );
      const tasks = [...report.tasks, ...report.taskOverflow];
      assert.deepEqual(
        tasks.filter((task) => task.title.includes('src/ids.ts')).map((task) => task.title),
        [],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });

  test('a type-only change scores low, explained by risk/low-signal-change; the runtime change does not', async () => {
    const risk = async (fixture: ChangeFixture) => {
      const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      const { mergeRisk, mergeRiskBreakdown } = report.evidence.summary;
      return { level: mergeRisk.level, contributors: mergeRiskBreakdown.map((entry) => `${entry.contributor}: ${entry.detail}`) };
    };
    assert.deepEqual(await risk(typeOnly), {
      level: 'low',
      contributors: [
        'risk/low-signal-change: src/price.ts changed only type declarations (the type checker proves them, nothing new runs)',
      ],
    });
    assert.ok(!(await risk(runtime)).contributors.some((entry) => entry.startsWith('risk/low-signal-change')));
  });
});

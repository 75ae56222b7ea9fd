import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { mayHoldFrameworkFacts } from '../../../src/graph/parse/framework-hints.js';
import { extractLinkFacts } from '../../../src/graph/parse/link-facts.js';
import { emptyFacts, type FileFacts, isCodeFile } from '../../../src/model/facts.js';
import { classifyRole } from '../../../src/graph/roles.js';
import { readPackageFiles } from '../../helpers/eval-corpus.js';
import { EXPRESS_FILES, FRAMEWORK_FILES } from '../../helpers/route-fixtures.js';
import { SHOP_FILES } from '../../helpers/shop-fixture.js';
import type { FileTree } from '../../helpers/git-repo.js';

const OPTIONS = { assertionHelpers: [] };

/** Real code with tests, routes, mounts, middleware and mocks: two published apps, zod (tests beside its sources), and this repository. */
function loadRealFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const add = (prefix: string, tree: FileTree): void => {
    for (const [path, content] of Object.entries(tree)) {
      if (!isCodeFile(path) || content === null) continue;
      const text = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
      if (text.length <= 1024 * 1024) files.set(`${prefix}/${path}`, text);
    }
  };
  add('sync-server', readPackageFiles('@actual-app/sync-server', '25.6.0', ['build', 'package.json']));
  add('sidecar', readPackageFiles('@spotlightjs/sidecar', '2.5.0', ['dist', 'package.json']));
  add('zod', readPackageFiles('zod', '4.6.7', 'all'));
  add('fixtures', { ...EXPRESS_FILES, ...FRAMEWORK_FILES, ...SHOP_FILES });
  const own = execFileSync('git', ['ls-files', '-z', 'src', 'test', 'bench'], { encoding: 'utf8' }).split('\0').filter(isCodeFile);
  for (const path of own) files.set(`checker/${path}`, readFileSync(path, 'utf8'));
  return files;
}

const REAL = loadRealFiles();
/** The prefixed path as the file has it in its own tree (roles and Next.js routes read the path). */
const ownPath = (path: string): string => path.slice(path.indexOf('/') + 1);

/** What the graph reads of every file: routes, mounts, middleware, HTTP calls, mocks, and test cases that make a file a test file. */
function holdsFrameworkFacts(path: string, facts: FileFacts): boolean {
  const routesOrMocks =
    facts.mocks.length + facts.routes.length + facts.mounts.length + facts.uses.length + (facts.httpCalls?.length ?? 0) > 0;
  return routesOrMocks || (facts.tests.length > 0 && classifyRole(path) !== 'test');
}

test('every real file whose full facts hold routes, mounts, middleware, mocks, or tests outside a test file is parsed in full (thousands of real files, each parsed in full)', () => {
  const holding: string[] = [];
  const missed: string[] = [];
  for (const [path, text] of REAL) {
    const facts = extractFacts(ownPath(path), text, OPTIONS);
    if (!holdsFrameworkFacts(ownPath(path), facts)) continue;
    holding.push(path);
    // By the text hints, or as a Next.js route by its path.
    if (extractLinkFacts(ownPath(path), text) !== undefined) missed.push(path);
  }
  assert.deepEqual(missed, []);
  // The check must have something to check: the apps and the route fixtures contribute such files.
  for (const prefix of ['sync-server/', 'sidecar/', 'fixtures/'])
    assert.ok(holding.filter((path) => path.startsWith(prefix)).length >= 5, `few files with framework facts under ${prefix}`);
});

test('a file read for its links alone has the full walk’s imports, exports and lines, and nothing the graph reads of every file (thousands of real files, each read both ways)', () => {
  let answered = 0;
  const mismatched: string[] = [];
  for (const [path, text] of REAL) {
    const linked = extractLinkFacts(ownPath(path), text);
    if (linked === undefined) continue;
    answered += 1;
    const full = extractFacts(ownPath(path), text, OPTIONS);
    // The other lists (a test file's cases, callables, constants, complexity, signals, type spans) are read only for
    // files a focused run parses in full (src/graph/focus.ts).
    const expected: FileFacts = { ...emptyFacts(full.lines), imports: full.imports, exports: full.exports };
    // A `#!` program is no test in either run (test-files.ts reads it of every file).
    if (full.program === true) expected.program = true;
    const isEqual = JSON.stringify(linked) === JSON.stringify(expected) && !holdsFrameworkFacts(ownPath(path), full);
    if (full.failure !== undefined || !isEqual) mismatched.push(path);
  }
  assert.deepEqual(mismatched.slice(0, 10), []);
  assert.ok(answered > REAL.size / 3, `only ${answered} of ${REAL.size} files were read for their links alone`);
});

test('the hints: calls and decorators that can make facts are flagged; members, declarations and prose are not', () => {
  const flagged = (text: string, path = 'src/a.ts'): boolean => mayHoldFrameworkFacts(path, text);
  for (const text of [
    "import express from 'express';",
    'export default function (app) {\n  app\n    .get("/x", h);\n}',
    'this.router?.post<Body>("/y", h);',
    'usersRouter.use(auth);',
    'fastify.register(plugin, { prefix: "/v1" });',
    '@Controller("cats")\nexport class Cats {}',
    'app.setGlobalPrefix("api");',
    "describe('cart', () => {}); // a test case outside a test file",
    "it.each([1, 2])('works %d', (n) => {});",
    "test.describe.parallel('x', () => {});",
    'xit("skipped", () => {});',
    "vi.mock('./db');",
    "mock.module('./db', {});",
    "/* istanbul ignore next */ app.get('/z', h);",
    "exports.hook = (name, args) => {\n  args.app.get('/favicon.ico', h);\n};",
    "await agent.get('/favicon.ico').expect(200);",
    "tape('adds', (t) => t.end());",
  ])
    assert.equal(flagged(text), true, text);
  for (const text of [
    'const value = cache.get(key); map.set(key, value); emitter.on("x", f); await Promise.all(list);',
    'if (/a/.test(name)) return;',
    'export function describe<T>(description: string): T {}',
    'class Schema {\n  describe(description) {\n    return this;\n  }\n}',
    '/**\n * Use it. The app.get("/x") call in prose is no call.\n */\nexport const a = 1;',
    '// it.skip("x") is a comment\nexport const b = 2;',
  ])
    assert.equal(flagged(text), false, text);
  // A test file's cases are read only when it reaches the change; its mocks always.
  assert.equal(flagged("describe('c', () => {});", 'src/__tests__/c.ts'), false);
  assert.equal(flagged("vi.mock('./db');\ndescribe('c', () => {});", 'src/c.test.ts'), true);
});

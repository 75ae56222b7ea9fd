import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { createResolver } from '../../src/graph/resolve/index.js';
import { getGrammarParsers } from '../../src/worker/grammars.js';
import { makeTempDir, writeTree } from '../helpers/git-repo.js';

/**
 * A module of several packages: a nested package, an internal one, an external test package (`orders_test`), a
 * testdata package the tests import, a file with a build constraint, and an import alias. The Go toolchain
 * (`go list`, Debian's golang-go, which .ci/run installs) says which in-module packages each package imports.
 */
const TREE: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.19\n',
  'main.go': 'package main\n\nimport (\n\t"fmt"\n\n\tapi "example.com/shop/internal/api"\n)\n\nfunc main() { fmt.Println(api.Name) }\n',
  'internal/api/api.go': 'package api\n\nimport "example.com/shop/orders"\n\nvar Name = orders.Kind\n',
  'internal/api/api_test.go':
    'package api\n\nimport (\n\t"testing"\n\n\t"example.com/shop/testdata/fixtures"\n)\n\nfunc TestName(t *testing.T) { _ = fixtures.One }\n',
  'orders/orders.go': 'package orders\n\nimport "example.com/shop/orders/money"\n\nconst Kind = "order"\n\nvar Total = money.Zero\n',
  'orders/linux.go': '//go:build linux\n\npackage orders\n\nimport "example.com/shop/orders/money"\n\nvar Cents = money.Zero\n',
  'orders/orders_test.go':
    'package orders_test\n\nimport (\n\t"testing"\n\n\t"example.com/shop/orders"\n)\n\nfunc TestKind(t *testing.T) { _ = orders.Kind }\n',
  'orders/money/money.go': 'package money\n\nconst Zero = 0\n',
  'testdata/fixtures/fixtures.go': 'package fixtures\n\nconst One = 1\n',
};

test("Go imports resolve to the packages go list names (the Go toolchain's own answer)", async () => {
  const dir = makeTempDir('checker-go-oracle-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeTree(dir, TREE);
  let listed: string;
  try {
    listed = execFileSync('go', ['list', '-e', '-json', './...'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOCACHE: join(dir, '.gocache'), GOPATH: join(dir, '.gopath') },
    });
  } catch (error) {
    assert.fail(`go list failed (install the Go toolchain: apt-get install golang-go; .ci/run does): ${String(error)}`);
  }
  const packages = JSON.parse(`[${listed.replace(/\}\n\{/g, '},{')}]`) as {
    ImportPath: string;
    Imports?: string[];
    TestImports?: string[];
    XTestImports?: string[];
  }[];
  const module = 'example.com/shop';
  const folderOf = (path: string): string => (path === module ? '' : path.slice(module.length + 1));
  const oracle: Record<string, string[]> = {};
  for (const item of packages) {
    const imports = [...(item.Imports ?? []), ...(item.TestImports ?? []), ...(item.XTestImports ?? [])];
    oracle[folderOf(item.ImportPath)] = [
      ...new Set(imports.filter((path) => path.startsWith(`${module}/`) && path !== item.ImportPath).map(folderOf)),
    ].sort();
  }

  const paths = Object.keys(TREE);
  const resolver = createResolver({
    files: new Set(paths),
    tsconfigs: new Map(),
    packageJsons: new Map(),
    goModules: new Map([['go.mod', TREE['go.mod'] ?? '']]),
  });
  const parsers = await getGrammarParsers(['x.go']);
  const ours: Record<string, string[]> = {};
  for (const path of paths.filter((candidate) => candidate.endsWith('.go'))) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (folder.startsWith('testdata')) continue;
    const facts = extractFacts(path, readFileSync(join(dir, path), 'utf8'), { assertionHelpers: [] }, parsers);
    const targets = new Set(ours[folder] ?? []);
    for (const fact of facts.imports) {
      if (fact.specifier === '.') continue;
      const target = resolver.resolve(path, fact.specifier).target;
      const targetFolder = target === undefined ? undefined : target.includes('/') ? target.slice(0, target.lastIndexOf('/')) : '';
      if (targetFolder !== undefined && targetFolder !== folder) targets.add(targetFolder);
    }
    ours[folder] = [...targets].sort();
  }
  assert.deepEqual(ours, oracle);
  assert.deepEqual(oracle['internal/api'], ['orders', 'testdata/fixtures']);
});

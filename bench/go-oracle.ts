/**
 * Issue 43's import check on real Go code: for every package of a module, the in-module packages its files import
 * (tests' imports included) by checker's resolution (src/graph/resolve/go.ts over the Go facts) against the Go
 * toolchain's own answer (`go list -e -json ./...`: Imports, TestImports, XTestImports; offline, nothing built).
 *
 *   node --import tsx bench/go-oracle.ts <module folder> [...]
 *
 * Needs `go` on the PATH (Debian: apt-get install golang-go; when the module's `go` line is newer than that toolchain,
 * lower it in the copy compared: the import graph does not depend on it). Prints per module the packages compared and
 * those whose import sets differ.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractFacts } from '../src/graph/parse/extract-facts.js';
import { createResolver } from '../src/graph/resolve/index.js';
import { getGrammarParsers } from '../src/worker/grammars.js';

interface GoPackage {
  ImportPath: string;
  Dir: string;
  Imports?: string[];
  TestImports?: string[];
  XTestImports?: string[];
}

function listPackages(root: string): GoPackage[] {
  const output = execFileSync('go', ['list', '-e', '-json', './...'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' },
  });
  return JSON.parse(`[${output.replace(/\}\n\{/g, '},{')}]`) as GoPackage[];
}

async function compareModule(root: string): Promise<void> {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
  const goModules = new Map(paths.filter((path) => path.endsWith('go.mod')).map((path) => [path, readFileSync(join(root, path), 'utf8')]));
  const resolver = createResolver({ files: new Set(paths), tsconfigs: new Map(), packageJsons: new Map(), goModules });
  const parsers = await getGrammarParsers(['x.go']);
  const packages = listPackages(root);
  const folderOf = new Map(packages.map((item) => [item.ImportPath, item.Dir === root ? '' : item.Dir.slice(root.length + 1)]));
  // `./...` leaves out testdata/ packages, which tests still import: any path under the module is a folder of it.
  const modulePath = /^\s*module\s+(\S+)/m.exec(goModules.get('go.mod') ?? '')?.[1] ?? '';
  for (const item of packages)
    for (const path of [...(item.Imports ?? []), ...(item.TestImports ?? []), ...(item.XTestImports ?? [])])
      if (!folderOf.has(path) && path.startsWith(`${modulePath}/`)) folderOf.set(path, path.slice(modulePath.length + 1));
  let same = 0;
  const differing: string[] = [];
  for (const item of packages) {
    const folder = folderOf.get(item.ImportPath) ?? '';
    const expected = new Set(
      [...(item.Imports ?? []), ...(item.TestImports ?? []), ...(item.XTestImports ?? [])]
        .filter((path) => folderOf.has(path) && path !== item.ImportPath)
        .map((path) => folderOf.get(path) ?? ''),
    );
    const ours = new Set<string>();
    for (const path of paths.filter(
      (candidate) => candidate.endsWith('.go') && candidate.slice(0, Math.max(0, candidate.lastIndexOf('/'))) === folder,
    )) {
      const facts = extractFacts(path, readFileSync(join(root, path), 'utf8'), { assertionHelpers: [] }, parsers);
      for (const fact of facts.imports) {
        if (fact.specifier === '.') continue;
        const target = resolver.resolve(path, fact.specifier).target;
        if (target === undefined) continue;
        const targetFolder = target.includes('/') ? target.slice(0, target.lastIndexOf('/')) : '';
        if (targetFolder !== folder) ours.add(targetFolder);
      }
    }
    if (ours.size === expected.size && [...ours].every((entry) => expected.has(entry))) same += 1;
    else
      differing.push(
        `  ${item.ImportPath}: only checker ${JSON.stringify([...ours].filter((e) => !expected.has(e)))}, only go ${JSON.stringify([...expected].filter((e) => !ours.has(e)))}`,
      );
  }
  process.stdout.write(`${root}: ${packages.length} packages, ${same} with the same in-module imports as go list\n`);
  for (const line of differing.slice(0, 15)) process.stdout.write(`${line}\n`);
}

for (const root of process.argv.slice(2)) await compareModule(resolve(root));

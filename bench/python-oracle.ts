/**
 * Issue 43's import check on real Python code: for every .py file of a tree, the files its imports land on by checker's
 * resolution (src/graph/resolve/python.ts) against Python's own import system (test/helpers/python-oracle.py: `ast`
 * for the imports, importlib's PathFinder for the files, nothing executed), with the search path a project's tests
 * run under (its src/ when it has one, the root, tests/).
 *
 *   node --import tsx bench/python-oracle.ts <tree> [<tree> ...]
 *
 * Prints, per tree, the files compared, the import edges each side finds, and the files where the two differ.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractFacts } from '../src/graph/parse/extract-facts.js';
import { createResolver } from '../src/graph/resolve/index.js';
import { getGrammarParsers } from '../src/worker/grammars.js';

const ORACLE = join(import.meta.dirname, '..', 'test', 'helpers', 'python-oracle.py');

async function compareTree(tree: string): Promise<void> {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: tree, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
  const python = paths.filter((path) => path.endsWith('.py'));
  const search = ['src', '.', 'tests'].filter((entry) => existsSync(join(tree, entry)));
  const oracle: Record<string, string[]> = JSON.parse(
    execFileSync('python3', [ORACLE, tree, ...search], { input: python.join('\n'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  );
  const parsers = await getGrammarParsers(python);
  const resolver = createResolver({ files: new Set(paths), tsconfigs: new Map(), packageJsons: new Map() });
  let same = 0;
  let oracleEdges = 0;
  let ourEdges = 0;
  let shared = 0;
  const differing: string[] = [];
  for (const path of python) {
    const facts = extractFacts(path, readFileSync(join(tree, path), 'utf8'), { assertionHelpers: [] }, parsers);
    const targets = new Set<string>();
    for (const fact of facts.imports) {
      if (fact.specifier.startsWith('conftest:')) continue;
      const resolution = resolver.resolve(path, fact.specifier);
      for (const target of [resolution.target, ...(resolution.packageFiles ?? [])])
        if (target !== undefined && target !== path) targets.add(target);
    }
    const expected = new Set(oracle[path] ?? []);
    oracleEdges += expected.size;
    ourEdges += targets.size;
    for (const target of targets) if (expected.has(target)) shared += 1;
    if (targets.size === expected.size && [...targets].every((target) => expected.has(target))) same += 1;
    else
      differing.push(
        `  ${path}: only checker ${JSON.stringify([...targets].filter((t) => !expected.has(t)))}, only Python ${JSON.stringify([...expected].filter((t) => !targets.has(t)))}`,
      );
  }
  process.stdout.write(
    `${tree}: ${python.length} files, ${same} identical (${((100 * same) / Math.max(1, python.length)).toFixed(1)}%); ` +
      `edges: Python ${oracleEdges}, checker ${ourEdges}, shared ${shared} (precision ${((100 * shared) / Math.max(1, ourEdges)).toFixed(1)}%, recall ${((100 * shared) / Math.max(1, oracleEdges)).toFixed(1)}%); search path ${search.join(', ')}\n`,
  );
  for (const line of differing.slice(0, 15)) process.stdout.write(`${line}\n`);
}

for (const tree of process.argv.slice(2)) await compareTree(resolve(tree));

/**
 * Issue 45, item 5: is the hand-written link scanner (src/graph/parse/link-scan/) worth keeping against the
 * module records of published parsers? Over the git-tracked JS/TS files of each folder given:
 *
 *   node --import tsx bench/parser-choice.ts <dir> [<dir> …]
 *
 * For each way of reading a file's links, the time over every file (texts read into memory first; one warm-up
 * pass, then the best of three) and how many files it gets exactly right against the full swc walk
 * (`extractFacts`, whose import edges equal TypeScript's own resolution in test/graph/resolve-oracle.slow.test.ts):
 * - the link scanner, which answers a file or declines it (the product then parses the file in full);
 * - es-module-lexer (JavaScript's lexer; a file it cannot lex counts as declined);
 * - oxc-parser's module record (`parseSync(…).module`, a full parse in Rust);
 * - swc's `parseSync` alone, without our walk, and the full walk itself.
 * "Right" compares the set of specifiers: of static imports, re-exports and literal dynamic imports for the module
 * records (they do not see `require`), of every import for the scanner (whose answers must equal the walk's facts
 * field by field: test/graph/parse/link-scan.slow.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseSync as swcParse } from '@swc/core';
import { init as initLexer, parse as lexModule } from 'es-module-lexer';
import { parseSync as oxcParse } from 'oxc-parser';
import { extractFacts } from '../src/graph/parse/extract-facts.js';
import { scanModuleLinks } from '../src/graph/parse/link-scan/scan.js';
import type { ImportFact } from '../src/model/facts.js';

const JS_TS = /\.(?:[cm]?[jt]sx?)$/;
const ESM_KINDS = new Set<ImportFact['kind']>(['static', 'dynamic', 'reexport', 'reexport-all']);

interface SourceFile {
  path: string;
  text: string;
  /** The full walk's specifiers: every import, and the ESM ones alone. */
  all: string;
  esm: string;
  failed: boolean;
}

interface Method {
  name: string;
  /** The specifiers it reads, sorted and joined, or undefined when it declines or fails on the file. */
  read(file: SourceFile): string | undefined;
  /** Which of the walk's sets it is compared with. */
  against: 'all' | 'esm';
}

/** Top-level statements seen by the timed-only readers, so their work cannot be optimised away. */
let statements = 0;

const toKey = (specifiers: Iterable<string>): string => [...new Set(specifiers)].sort().join('\n');

function listFiles(dir: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    .split('\0')
    .filter((path) => JS_TS.test(path));
}

function loadFiles(dir: string): SourceFile[] {
  return listFiles(dir).map((path) => {
    const text = readFileSync(join(dir, path), 'utf8');
    const facts = extractFacts(path, text, { assertionHelpers: [] });
    return {
      path,
      text,
      all: toKey(facts.imports.map((fact) => fact.specifier)),
      esm: toKey(facts.imports.filter((fact) => ESM_KINDS.has(fact.kind)).map((fact) => fact.specifier)),
      failed: facts.failure !== undefined,
    };
  });
}

const isTs = (path: string): boolean => /\.[cm]?tsx?$/.test(path);
const isJsx = (path: string): boolean => /x$/.test(path);

const METHODS: Method[] = [
  {
    name: 'link scanner (answers or declines)',
    against: 'all',
    read: (file) => {
      const links = scanModuleLinks(file.path, file.text);
      return links === undefined ? undefined : toKey(links.imports.map((fact) => fact.specifier));
    },
  },
  {
    name: 'es-module-lexer',
    against: 'esm',
    read: (file) => {
      try {
        const [imports, exports] = lexModule(file.text, file.path);
        const specifiers: string[] = [];
        // `import.meta` has no specifier; a dynamic import of an expression has none either.
        for (const entry of imports) if (typeof entry.specifier === 'string') specifiers.push(entry.specifier);
        for (const entry of exports) if (entry.type !== 'direct') specifiers.push(entry.from);
        return toKey(specifiers);
      } catch {
        return undefined;
      }
    },
  },
  {
    name: 'oxc-parser module record',
    against: 'esm',
    read: (file) => {
      const result = oxcParse(file.path, file.text);
      if (result.errors.length > 0) return undefined;
      const module = result.module;
      const specifiers: string[] = module.staticImports.map((entry) => entry.moduleRequest.value);
      for (const entry of module.staticExports)
        for (const item of entry.entries) if (item.moduleRequest !== null) specifiers.push(item.moduleRequest.value);
      for (const entry of module.dynamicImports) {
        const literal = file.text.slice(entry.moduleRequest.start, entry.moduleRequest.end);
        const match = /^(['"`])([^'"`$]*)\1$/.exec(literal);
        if (match?.[2] !== undefined) specifiers.push(match[2]);
      }
      return toKey(specifiers);
    },
  },
  {
    name: 'oxc-parser with its AST in JavaScript (what export kinds, spans and require would need)',
    against: 'esm',
    read: (file) => {
      // Reading `program` deserializes the tree into JavaScript objects: the cost of walking it for what we need.
      statements += oxcParse(file.path, file.text).program.body.length;
      return undefined;
    },
  },
  {
    name: 'swc parseSync alone (no walk, no facts)',
    against: 'all',
    read: (file) => {
      try {
        swcParse(file.text, isTs(file.path) ? { syntax: 'typescript', tsx: isJsx(file.path) } : { syntax: 'ecmascript', jsx: true });
      } catch {
        return undefined;
      }
      return undefined;
    },
  },
  {
    name: 'full swc walk (extractFacts)',
    against: 'all',
    read: (file) => {
      const facts = extractFacts(file.path, file.text, { assertionHelpers: [] });
      return facts.failure === undefined ? toKey(facts.imports.map((fact) => fact.specifier)) : undefined;
    },
  },
];

function timeMethod(method: Method, files: readonly SourceFile[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 4; round += 1) {
    const started = performance.now();
    for (const file of files) method.read(file);
    const elapsed = performance.now() - started;
    // Round 0 warms the code up.
    if (round > 0) best = Math.min(best, elapsed);
  }
  return best;
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((dir) => resolve(dir));
  if (dirs.length === 0) {
    process.stderr.write('usage: node --import tsx bench/parser-choice.ts <dir> [<dir> …]\n');
    process.exitCode = 2;
    return;
  }
  await initLexer;
  for (const dir of dirs) {
    const files = loadFiles(dir).filter((file) => !file.failed);
    const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    process.stdout.write(`\n### ${dir}: ${files.length} JS/TS files swc parses, ${(bytes / 1e6).toFixed(1)} MB\n\n`);
    process.stdout.write('| reader | time | per MB | answered | right (of answered) | declined or failed |\n');
    process.stdout.write('| --- | ---: | ---: | ---: | ---: | ---: |\n');
    statements = 0;
    for (const method of METHODS) {
      const ms = timeMethod(method, files);
      let answered = 0;
      let right = 0;
      const measured = !method.name.startsWith('swc parseSync alone') && !method.name.includes('with its AST');
      if (measured)
        for (const file of files) {
          const key = method.read(file);
          if (key === undefined) continue;
          answered += 1;
          if (key === (method.against === 'all' ? file.all : file.esm)) right += 1;
        }
      const cells = measured ? [answered, right, files.length - answered] : ['n/a', 'n/a', 'n/a'];
      process.stdout.write(
        `| ${method.name} | ${(ms / 1000).toFixed(2)} s | ${(ms / (bytes / 1e6)).toFixed(0)} ms | ${cells.join(' | ')} |\n`,
      );
    }
    process.stdout.write(`\n(${statements} top-level statements read by the timed-only readers)\n`);
  }
}

await main();

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { runCliAsync, projectRoot } from '../helpers/cli.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { FACTS_CACHE_FILE } from '../../src/io/parse-cache.js';

const schema: Record<string, unknown> = JSON.parse(readFileSync(join(projectRoot, 'schemas/graph-report.schema.json'), 'utf8'));
const validate = new Ajv2020.default({ strict: false }).compile(schema);

describe('checker graph', () => {
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }),
    'src/lib/money.ts': 'export function toCents(amount: number): number { return Math.round(amount * 100); }\n',
    'src/orders.ts':
      "import express from 'express';\nimport { toCents } from '@lib/money';\nimport { missing } from './gone.js';\nexport const router = express.Router();\nrouter.get('/orders/:id', (req, res) => res.json({ total: toCents(1) }));\n",
    'src/app.ts':
      "import express from 'express';\nimport { router } from './orders.js';\nconst app = express();\napp.use('/api', router);\n",
    'src/orders.test.ts':
      "import { describe, it, expect } from 'vitest';\nimport { router } from './orders.js';\ndescribe('orders', () => { it('has a router', () => { expect(router).toBeDefined(); }); it.skip('later', () => {}); });\n",
    'src/broken.ts': 'export const = ;\n',
    CODEOWNERS: '* @shop/core\n',
  });
  after(() => repo.cleanup());

  it('reports counts, routes, the parse failure and the unresolved import as JSON that validates', async () => {
    const result = await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(validate(report), true, JSON.stringify(validate.errors));
    assert.deepEqual(report.files, { scanned: 8, parsed: 5, cached: 0, reparsed: 5 });
    assert.equal(report.nodes.byKind.file, 8);
    assert.equal(report.nodes.byKind.route, 1);
    assert.equal(report.nodes.byKind.owner, 1);
    assert.deepEqual(
      report.parseFailures.map((item: { path: string; code: string }) => [item.path, item.code]),
      [['src/broken.ts', 'parse/syntax']],
    );
    assert.deepEqual(
      report.unresolvedImports.map((item: { from: string; specifier: string }) => [item.from, item.specifier]),
      [['src/orders.ts', './gone.js']],
    );
    assert.deepEqual(report.routes, { api: 1, ui: 0, unmatchedMounts: 0 });
  });

  it('takes every fact from the cache on a second run', async () => {
    const result = await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout).files, { scanned: 8, parsed: 5, cached: 5, reparsed: 0 });
    assert.equal(repo.git('status', '--porcelain'), '', 'the cache must not dirty git status');
  });

  it('renders Markdown with the failure and the unresolved import named', async () => {
    const result = await runCliAsync(['graph', '--cwd', repo.dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /## Parse failures \(1\)/);
    assert.match(result.stdout, /src\/broken\.ts:1 \| parse\/syntax/);
    assert.match(result.stdout, /\| src\/orders\.ts:3 \| \.\/gone\.js \|/);
  });

  it('writes --output inside .checker/local and refuses a path outside it', async () => {
    const written = await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json', '--output', 'graph.json']);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.equal(existsSync(join(repo.dir, '.checker/local/graph.json')), true);
    const outside = join(makeTempDir(), 'graph.json');
    const refused = await runCliAsync(['graph', '--cwd', repo.dir, '--output', outside]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /output\/outside/);
    assert.match(refused.stderr, /redirect/i);
    assert.equal(existsSync(outside), false);
  });

  it('refuses unknown flags, bad formats and a missing --cwd with exit code 2 and no stack trace', async () => {
    for (const args of [
      ['graph', '--cwd', repo.dir, '--formt', 'json'],
      ['graph', '--cwd', repo.dir, '--format', 'xml'],
      ['graph', '--cwd', join(repo.dir, 'nope')],
      ['grph'],
    ]) {
      const result = await runCliAsync(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    }
    assert.match((await runCliAsync(['graph', '--formt', 'json'])).stderr, /Unknown option --formt/);
    assert.match((await runCliAsync(['graph', '--format', 'xml'])).stderr, /--format must be markdown or json/);
  });
});

describe('checker graph on a repository that commits .checker/local', () => {
  const repo = createRepo({
    'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
    'src/b.ts': 'export const b = 1;\n',
  });
  after(() => repo.cleanup());

  it('never reads a committed facts cache, so forged facts cannot hide an import', async () => {
    assert.equal((await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json'])).code, 0);
    const cachePath = join(repo.dir, '.checker/local/cache', FACTS_CACHE_FILE);
    const cache = JSON.parse(readFileSync(cachePath, 'utf8'));
    const forged = JSON.stringify(cache).replaceAll('./b.js', './nowhere.js');
    writeFileSync(cachePath, forged);
    repo.git('add', '-f', `.checker/local/cache/${FACTS_CACHE_FILE}`);
    repo.commit('commit the cache');
    const result = await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.files, { scanned: 2, parsed: 2, cached: 0, reparsed: 2 });
    assert.deepEqual(report.unresolvedImports, []);
    assert.equal(report.edges.byKind.imports, 1);
    assert.deepEqual(report.diagnostics.filter((item: { code: string }) => item.code === 'cache/tracked').length, 1);
  });
});

describe('checker graph on a repository of several languages', () => {
  const repo = createRepo({
    'web/app.ts': "import { total } from './total.js';\nexport const shown = total([1]);\n",
    'web/total.js': 'export function total(items) { return items.length; }\n',
    'api/pricing.py': 'def price(x):\n    return x * 2\n',
    'api/test_pricing.py': 'from api.pricing import price\n\n\ndef test_price():\n    assert price(1) == 2\n',
    'go.mod': 'module example.com/svc\n',
    'svc/svc.go': 'package svc\n\nfunc Run() {}\n',
    'tools/build.rb': 'puts "build"\n',
  });
  after(() => repo.cleanup());

  it('parses TypeScript, JavaScript, Python and Go, and names the rest as text only', async () => {
    const result = await runCliAsync(['graph', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(validate(report), true, JSON.stringify(validate.errors));
    assert.deepEqual(report.languages, [
      { language: 'Python', files: 2, parsed: true },
      { language: 'Go', files: 1, parsed: true },
      { language: 'JavaScript', files: 1, parsed: true },
      { language: 'TypeScript', files: 1, parsed: true },
      { language: 'Ruby', files: 1, parsed: false },
    ]);
    assert.deepEqual(report.files, { scanned: 7, parsed: 5, cached: 0, reparsed: 5 });
    assert.deepEqual(report.parseFailures, []);
    assert.equal(report.nodes.byKind.test, 1);
    const markdown = await runCliAsync(['graph', '--cwd', repo.dir]);
    assert.match(markdown.stdout, /\| Ruby \| 1 \| not parsed: text only \|/);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { computePreflight, getPreflightReport } from '../../src/app/preflight.js';
import { getTaskContext } from '../../src/app/task-context.js';
import type { PreflightReport } from '../../src/model/preflight.js';
import { getValidator } from '../../src/io/schema.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/**
 * Issue 40: preflight finds the code by what it says (names inside function bodies, strings, comments), ranks barrels
 * and tests below the code they stand for, and refuses tasks that match nothing specific. A small web library: three
 * middlewares, a barrel re-exporting everything, shared types, a test, locales, a network helper and storage guards.
 */
const LIBRARY = {
  'package.json': JSON.stringify({ name: 'tinyweb', version: '1.0.0', type: 'module' }),
  'src/index.ts': [
    "export * from './middleware/bearer-auth/index.js';",
    "export * from './middleware/jwt/index.js';",
    "export * from './middleware/etag/index.js';",
    "export * from './types.js';",
    "export { isNetworkError } from './fetch/network-error.js';",
    '',
  ].join('\n'),
  'src/types.ts': [
    'export type MatchResult = [string, Record<string, string>][];',
    'export interface Router {',
    '  add(method: string, path: string, handler: Handler): void;',
    '  match(method: string, path: string): MatchResult;',
    '}',
    'export type Handler = (context: Context, next: () => Promise<void>) => Promise<void>;',
    'export interface Context {',
    '  req: { header(name: string): string | undefined; method: string };',
    '  res: { status: number; headers: Map<string, string> };',
    '}',
    '/** Whether a route pattern matches a path: the first match wins. */',
    'export type MatchPattern = (pattern: string, path: string) => boolean;',
    '',
  ].join('\n'),
  'src/middleware/bearer-auth/index.ts': [
    "import type { Handler } from '../../types.js';",
    '',
    'export function bearerAuth(options: Record<string, unknown>): Handler {',
    "  if (!('token' in options || 'verifyToken' in options)) {",
    '    throw new Error(\'bearer auth middleware requires options for "token"\');',
    '  }',
    '  return async (context, next) => {',
    "    const header = context.req.header('Authorization') ?? '';",
    "    const given = header.replace(/^Bearer /, '');",
    "    const isValid = typeof options.verifyToken === 'function' ? await options.verifyToken(given) : given === options.token;",
    '    if (!isValid) context.res.status = 401;',
    '    else await next();',
    '  };',
    '}',
    '',
  ].join('\n'),
  'src/middleware/jwt/index.ts': [
    "import type { Handler } from '../../types.js';",
    '',
    'export function jwt(options: { secret: string }): Handler {',
    '  return async (context, next) => {',
    "    const token = context.req.header('Authorization')?.split(' ')[1];",
    '    if (token === undefined || !verify(token, options.secret)) context.res.status = 401;',
    '    else await next();',
    '  };',
    '}',
    '',
    'function verify(token: string, secret: string): boolean {',
    '  return token.length > 0 && secret.length > 0;',
    '}',
    '',
  ].join('\n'),
  'src/middleware/etag/index.ts': [
    "import type { Handler } from '../../types.js';",
    "import { digest } from './digest.js';",
    '',
    'export function etag(): Handler {',
    '  return async (context, next) => {',
    '    await next();',
    "    const tag = digest(String(context.res.headers.get('body') ?? ''));",
    "    const ifNoneMatch = context.req.header('If-None-Match');",
    '    if (ifNoneMatch !== undefined && ifNoneMatch.split(/,\\s*/).includes(tag)) context.res.status = 304;',
    "    else context.res.headers.set('ETag', tag);",
    '  };',
    '}',
    '',
  ].join('\n'),
  'src/middleware/etag/digest.ts': 'export function digest(text: string): string {\n  return `"${text.length.toString(16)}"`;\n}\n',
  'src/middleware/etag/index.test.ts': [
    "import { describe, it } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { etag } from './index.js';",
    '',
    "describe('etag middleware', () => {",
    "  it('answers 304 when If-None-Match holds the current ETag', async () => {",
    '    assert.equal(typeof etag(), "function");',
    '  });',
    "  it('sets the ETag header when If-None-Match does not match', async () => {",
    '    assert.equal(typeof etag(), "function");',
    '  });',
    '});',
    '',
  ].join('\n'),
  'src/fetch/network-error.ts': [
    'const errorMessages = new Set([',
    "  'network error', // Chrome",
    "  'Failed to fetch', // Chrome",
    "  'NetworkError when attempting to fetch resource.', // Firefox",
    "  'The Internet connection appears to be offline.', // Safari 16",
    "  'Load failed', // Safari 17+",
    ']);',
    '',
    'export function isNetworkError(error: unknown): boolean {',
    '  return error instanceof TypeError && errorMessages.has(error.message);',
    '}',
    '',
  ].join('\n'),
  'src/fetch/retry.ts': [
    "import { isNetworkError } from './network-error.js';",
    '',
    'export async function withRetry<T>(attempt: () => Promise<T>, times = 2): Promise<T> {',
    '  try {',
    '    return await attempt();',
    '  } catch (error) {',
    '    if (times > 0 && isNetworkError(error)) return withRetry(attempt, times - 1);',
    '    throw error;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/storage/guard.ts': [
    'const LIMIT_BYTES = 10 * 1024 * 1024;',
    '',
    'export function checkSize(bytes: number): void {',
    "  if (bytes > LIMIT_BYTES) throw new RangeError('Upload quota exceeded');",
    '}',
    '',
  ].join('\n'),
  'src/storage/files.ts': [
    "import { checkSize } from './guard.js';",
    '',
    'export function saveFile(name: string, bytes: Uint8Array, store: Map<string, Uint8Array>): void {',
    '  checkSize(bytes.byteLength);',
    '  store.set(name, bytes);',
    '}',
    '',
    'export function computeChecksum(bytes: Uint8Array): number {',
    '  return bytes.reduce((sum, byte) => (sum + byte) % 65521, 1);',
    '}',
    '',
  ].join('\n'),
  'src/locale/index.ts': [
    "export { de } from './de/index.js';",
    "export { kk } from './kk/index.js';",
    "export { ru } from './ru/index.js';",
    '',
  ].join('\n'),
  'src/locale/kk/index.ts': [
    '/**',
    ' * Kazakh locale.',
    ' * @language Kazakh',
    ' */',
    "export const kk = { code: 'kk', months: ['қаңтар', 'ақпан', 'наурыз'] };",
    '',
  ].join('\n'),
  'src/locale/ru/index.ts': [
    '/**',
    ' * Russian locale.',
    ' * @language Russian',
    ' */',
    "export const ru = { code: 'ru', months: ['январь', 'февраль', 'март'] };",
    '',
  ].join('\n'),
  'src/locale/de/index.ts': [
    '/**',
    ' * German locale.',
    ' * @language German',
    ' */',
    "export const de = { code: 'de', months: ['Januar', 'Februar', 'März'] };",
    '',
  ].join('\n'),
};

async function runPreflight(dir: string, task: string): Promise<PreflightReport> {
  const env = createTestEnv(dir);
  try {
    const report = await getPreflightReport(env, { task });
    assert.equal(getValidator('preflight-report')(report), true);
    return report;
  } finally {
    await env.close();
  }
}

describe('preflight finds the code by what it says', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(LIBRARY);
  });
  after(() => repo.cleanup());

  it('finds the file that reads an option only inside a function body', async () => {
    const report = await runPreflight(repo.dir, 'mention verifyToken in missing-options error message');
    assert.equal(report.candidateFiles[0], 'src/middleware/bearer-auth/index.ts');
    const reasons = report.repositoryEvidence.candidateFiles[0]?.reasons ?? [];
    assert.ok(
      reasons.some((reason) => reason.term === 'verifyToken' && reason.matchedOn === 'identifier' && reason.line === 4),
      JSON.stringify(reasons),
    );
  });

  it('finds the file whose error message says the task', async () => {
    const report = await runPreflight(repo.dir, 'the quota exceeded error should say how large the upload was');
    assert.equal(report.candidateFiles[0], 'src/storage/guard.ts');
    assert.ok(report.repositoryEvidence.candidateFiles[0]?.reasons.some((reason) => reason.matchedOn === 'string' && reason.line === 4));
  });

  it('finds the file whose comments name the browser of the error strings', async () => {
    const report = await runPreflight(repo.dir, 'Fix handling of Safari errors');
    assert.equal(report.candidateFiles[0], 'src/fetch/network-error.ts');
    const [first] = report.repositoryEvidence.candidateFiles[0]?.reasons ?? [];
    assert.deepEqual([first?.term, first?.matchedOn, first?.line], ['safari', 'comment', 5]);
  });

  it('reaches a locale folder by the language its comments name', async () => {
    const report = await runPreflight(repo.dir, 'Kazakh: abbreviate the month names');
    assert.equal(report.candidateFiles[0], 'src/locale/kk/index.ts');
    const [first] = report.repositoryEvidence.candidateFiles[0]?.reasons ?? [];
    assert.deepEqual([first?.term, first?.matchedOn, first?.line], ['kazakh', 'comment', 2]);
    // `abbreviate` is said nowhere: new behaviour, asked about rather than guessed.
    assert.match(report.unresolvedQuestions[0] ?? '', /abbreviate/);
  });

  it('ranks the implementation above the barrel that re-exports it and the test that tests it', async () => {
    const report = await runPreflight(repo.dir, 'treat If-None-Match `*` as a match');
    const files = report.candidateFiles;
    assert.equal(files[0], 'src/middleware/etag/index.ts');
    const below = (path: string): boolean => !files.includes(path) || files.indexOf(path) > files.indexOf('src/middleware/etag/index.ts');
    assert.ok(below('src/types.ts') && below('src/index.ts'), files.join(', '));
    // The test is in its own list, and lends its titles to the file it tests.
    assert.equal(files.includes('src/middleware/etag/index.test.ts'), false);
    assert.deepEqual(
      report.repositoryEvidence.candidateTests.map((test) => [test.path, test.testedFiles]),
      [['src/middleware/etag/index.test.ts', ['src/middleware/etag/index.ts']]],
    );
    assert.deepEqual(report.repositoryEvidence.candidateFiles[0]?.tests, ['src/middleware/etag/index.test.ts']);
  });

  it('names no file for a task about another domain', async () => {
    const report = await runPreflight(repo.dir, 'compute payroll tax withholding for part-time employees');
    assert.deepEqual(report.candidateFiles, []);
    assert.equal(report.confidence, 'low');
    assert.equal(report.unresolvedQuestions.length, 1);
  });

  it('names no file for a task about something else whose verb the code has', async () => {
    // "compute" and "checksum" name computeChecksum in src/storage/files.ts, but "sourdough" and "loaves" are said
    // nowhere here and are no words of software's: the task is about baking.
    const task = 'compute the checksum of sourdough loaves';
    const report = await runPreflight(repo.dir, task);
    assert.deepEqual(report.candidateFiles, []);
    assert.equal(report.confidence, 'low');
    assert.match(
      report.confidenceReason,
      /^the task is about something else: sourdough, loaves are said nowhere in this repository and are not words software uses, and the best of the top three files matches only \d+% of the task/,
    );
    assert.equal(report.unresolvedQuestions.length, 1);
    // The weight decides it: a repository pack that sets it to 0 gets the file the verb names.
    repo.write({
      '.checker/rules/grounding.yml': [
        'schemaVersion: 1',
        'id: no-foreign-check',
        'version: 1.0.0',
        'kind: context-weight',
        'subject: edge-kind',
        'description: Words of another domain do not refuse a task.',
        'grounding:',
        '  minForeignCoverage: 0',
        'rules:',
        '  - id: context-weight/imports',
        '    description: Import edges.',
        '    rationale: Imports carry behaviour.',
        '    conditions: { all: [{ fact: edgeKind, operator: equal, value: imports }] }',
        '    event: { type: context-weight/imports, params: { weight: 1, edgeKind: imports } }',
        '',
      ].join('\n'),
    });
    try {
      const answered = await runPreflight(repo.dir, task);
      assert.deepEqual(answered.limitations, []);
      assert.equal(answered.candidateFiles[0], 'src/storage/files.ts');
    } finally {
      repo.remove('.checker/rules/grounding.yml');
    }
  });

  it('names no file for a task about something else whose words three files match one each', async () => {
    // "jwt" names the jwt middleware and "etag" the etag one, but no file is about both, and "storks" is said nowhere:
    // the three best files together match most of the task, each alone a third of it.
    const report = await runPreflight(repo.dir, 'jwt etag for storks');
    assert.deepEqual(report.candidateFiles, []);
    assert.match(report.confidenceReason, /^the task is about something else: storks is said nowhere .* matches only 3\d% of the task/);
    // A task whose best file is about it keeps its candidates beside such a word.
    const kept = await runPreflight(repo.dir, 'etag digest for storks');
    assert.deepEqual(kept.candidateFiles.slice(0, 2).sort(), ['src/middleware/etag/digest.ts', 'src/middleware/etag/index.ts']);
  });

  it('grounds the context packet on the same candidates', async () => {
    const env = createTestEnv(repo.dir);
    try {
      const packet = await getTaskContext(env, { task: 'Fix handling of Safari errors' });
      assert.equal(packet.seeds[0]?.nodeId, 'file:src/fetch/network-error.ts');
    } finally {
      await env.close();
    }
  });
});

describe('the context packet is the neighbourhood of preflight’s ranking', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
      'src/invoice/render.ts':
        "import { total } from './total.js';\n/** Renders the invoice PDF. */\nexport function renderInvoice(lines: number[]): string {\n  return `invoice total ${total(lines)}`;\n}\n",
      'src/invoice/total.ts':
        '/** The invoice total. */\nexport function total(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
      'src/invoice/number.ts':
        '/** The next invoice number. */\nexport function nextInvoiceNumber(last: number): number {\n  return last + 1;\n}\n',
      'src/index.ts': "export * from './invoice/render.js';\nexport * from './invoice/total.js';\nexport * from './invoice/number.js';\n",
      'src/app.ts':
        "import { renderInvoice, nextInvoiceNumber } from './index.js';\nexport const run = () => renderInvoice([nextInvoiceNumber(1)]);\n",
      'test/app.test.ts': "import { run } from '../src/app.js';\nimport { test } from 'node:test';\ntest('runs', () => run());\n",
    });
  });
  after(() => repo.cleanup());

  it('lists preflight’s candidates first, in its order, before the barrel and the exports the walk favours', async () => {
    const task = 'invoice PDF shows the wrong invoice total';
    const report = await runPreflight(repo.dir, task);
    const env = createTestEnv(repo.dir);
    try {
      const packet = await getTaskContext(env, { task });
      const ids = packet.nodes.map((node) => node.id);
      assert.deepEqual(
        ids.slice(0, report.candidateFiles.length),
        report.candidateFiles.map((path) => `file:${path}`),
      );
      assert.equal(report.candidateFiles[0], 'src/invoice/render.ts');
      assert.deepEqual(
        packet.nodes.map((node) => node.rank),
        packet.nodes.map((_node, index) => index + 1),
      );
    } finally {
      await env.close();
    }
  });
});

describe('preflight with a history', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
      'src/cart/total.ts':
        'export function cartTotal(prices: number[]): number {\n  return prices.reduce((sum, price) => sum + price, 0);\n}\n',
      'test/cart.test.ts': [
        "import { test } from 'node:test';",
        "import { cartTotal } from '../src/cart/total.js';",
        "test('cart total adds the prices', () => cartTotal([1]));",
        '',
      ].join('\n'),
      'test/smoke.test.ts': "import { test } from 'node:test';\ntest('boots', () => undefined);\n",
      'README.md': '# shop\n',
    });
    // total.ts always changes with both tests; the README alone now and then, so that the pairs stand out.
    for (let round = 1; round <= 4; round++) {
      repo.write({
        'src/cart/total.ts': `// round ${round}\nexport function cartTotal(prices: number[]): number {\n  return prices.reduce((sum, price) => sum + price, 0);\n}\n`,
        'test/cart.test.ts': `// round ${round}\nimport { test } from 'node:test';\nimport { cartTotal } from '../src/cart/total.js';\ntest('cart total adds the prices', () => cartTotal([1]));\n`,
        'test/smoke.test.ts': `// round ${round}\nimport { test } from 'node:test';\ntest('boots', () => undefined);\n`,
      });
      repo.commit(`change the cart total, round ${round}`);
      repo.write({ 'README.md': `# shop\n\nround ${round}\n` });
      repo.commit(`readme, round ${round}`);
    }
  });
  after(() => repo.cleanup());

  it('lists a test the history adds among the candidate tests, once, never among the candidate files', async () => {
    const report = await runPreflight(repo.dir, 'the cart total should round the prices');
    assert.deepEqual(report.candidateFiles, ['src/cart/total.ts']);
    const tests = report.repositoryEvidence.candidateTests.map((test) => test.path);
    assert.deepEqual([...tests].sort(), ['test/cart.test.ts', 'test/smoke.test.ts']);
  });
});

describe('preflight re-ranks by the import graph', () => {
  let repo: TestRepo;
  // The two format.ts files say the same words; only the billing one is imported by the invoice code the task names.
  // By path alone src/axes/ would come first.
  const format =
    '/** Cents as a currency string. */\nexport function formatCents(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n';
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', version: '1.0.0', type: 'module' }),
      'src/billing/invoice.ts': [
        "import { formatCents } from './format.js';",
        '',
        '/** The invoice total of its lines. */',
        'export function invoiceTotal(lines: number[]): string {',
        '  return formatCents(lines.reduce((sum, line) => sum + line, 0));',
        '}',
        '',
      ].join('\n'),
      'src/billing/format.ts': format,
      'src/axes/format.ts': format,
    });
  });
  after(() => repo.cleanup());

  it('ranks the matching file the best match imports above its twin elsewhere, and says why', async () => {
    const report = await runPreflight(repo.dir, 'invoice total shows the currency cents wrong');
    assert.deepEqual(report.candidateFiles, ['src/billing/invoice.ts', 'src/billing/format.ts', 'src/axes/format.ts']);
    const reasons = report.repositoryEvidence.candidateFiles[1]?.reasons ?? [];
    assert.ok(
      reasons.some((reason) => reason.matchedOn === 'import' && reason.evidenceId === 'file:src/billing/invoice.ts'),
      JSON.stringify(reasons),
    );
    assert.equal(
      report.repositoryEvidence.candidateFiles[2]?.reasons.some((reason) => reason.matchedOn === 'import'),
      false,
    );
  });

  it('keeps the words alone when the weights lend nothing to neighbours', async () => {
    repo.write({
      '.checker/rules/grounding.yml': [
        'schemaVersion: 1',
        'id: no-neighbours',
        'version: 1.0.0',
        'kind: context-weight',
        'subject: edge-kind',
        'description: Words alone rank the files.',
        'grounding:',
        '  neighbourLend: 0',
        'rules:',
        '  - id: context-weight/imports',
        '    description: Import edges.',
        '    rationale: Imports carry behaviour.',
        '    conditions: { all: [{ fact: edgeKind, operator: equal, value: imports }] }',
        '    event: { type: context-weight/imports, params: { weight: 1, edgeKind: imports } }',
        '',
      ].join('\n'),
    });
    try {
      const report = await runPreflight(repo.dir, 'invoice total shows the currency cents wrong');
      assert.deepEqual(report.limitations, []);
      assert.deepEqual(report.candidateFiles, ['src/billing/invoice.ts', 'src/axes/format.ts', 'src/billing/format.ts']);
    } finally {
      repo.remove('.checker/rules/grounding.yml');
    }
  });
});

describe('preflight weighs up the files the history changes often', () => {
  let repo: TestRepo;
  // Twin files that say the same words; only src/billing/format.ts has been changed again and again.
  const format = (round: number): string =>
    `// revision ${round}\n/** Cents as a currency string. */\nexport function formatCents(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n`;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', version: '1.0.0', type: 'module' }),
      'src/billing/format.ts': format(0),
      'src/axes/format.ts': format(0),
    });
    for (let round = 1; round <= 4; round++) {
      repo.write({ 'src/billing/format.ts': format(round) });
      repo.commit(`billing format, round ${round}`);
    }
  });
  after(() => repo.cleanup());

  it('ranks the file the history changed above its twin, and says so', async () => {
    const report = await runPreflight(repo.dir, 'currency cents are formatted wrong');
    // By path alone src/axes/ would come first.
    assert.deepEqual(report.candidateFiles, ['src/billing/format.ts', 'src/axes/format.ts']);
    assert.match(report.repositoryEvidence.candidateFiles[0]?.why ?? '', /changed in 5 commits of the history window/);
    // The first commit added both.
    assert.match(report.repositoryEvidence.candidateFiles[1]?.why ?? '', /changed in 1 commit of the history window/);
  });
});

describe('preflight reads the subjects of the commits that changed a file', () => {
  let repo: TestRepo;
  // Two plural-rule tables that say nothing of the language they serve; only their history names it.
  const rules = (round: number): string =>
    `// revision ${round}\nexport function pluralIndex(count: number): number {\n  return count % 10 === 1 && count % 100 !== 11 ? 0 : 1;\n}\n`;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'plurals', version: '1.0.0', type: 'module' }),
      'src/rules/kk.ts': rules(0),
      'src/rules/uk.ts': rules(0),
      'src/format.ts':
        "import { pluralIndex } from './rules/kk.js';\nexport const formatCount = (count: number): string => String(pluralIndex(count));\n",
    });
    repo.write({ 'src/rules/kk.ts': rules(1) });
    repo.commit('Fix Kazakh plural forms for numbers ending in one (#412)');
    repo.write({ 'src/rules/uk.ts': rules(1) });
    repo.commit('Ukrainian: genitive plural after teens');
  });
  after(() => repo.cleanup());

  it('finds the file whose commits named the language, and says where the word was', async () => {
    const report = await runPreflight(repo.dir, 'Kazakh plural form is wrong for 21');
    assert.equal(report.candidateFiles[0], 'src/rules/kk.ts');
    assert.ok(!report.candidateFiles.includes('src/rules/uk.ts'), report.candidateFiles.join(', '));
    assert.match(report.repositoryEvidence.candidateFiles[0]?.why ?? '', /"kazakh" in the subjects of commits that changed it/);
  });

  it('never makes a candidate of a file only because a broad commit touched it', async () => {
    const wide = createRepo(
      Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`src/part${index}.ts`, `export const part${index} = ${index};\n`])),
    );
    try {
      for (let index = 0; index < 12; index++) wide.write({ [`src/part${index}.ts`]: `export const part${index} = ${index + 1};\n` });
      wide.commit('Kazakh release sweep');
      const report = await runPreflight(wide.dir, 'Kazakh release sweep');
      assert.deepEqual(report.candidateFiles, []);
    } finally {
      wide.cleanup();
    }
  });
});

/** The same questions of a Python package and a Go service: their words come from their own grammars. */
const SERVICES = {
  'pyproject.toml': '[project]\nname = "billing"\n',
  'billing/__init__.py': 'from .invoices import render_invoice\nfrom .tax import vat_rate\n\n__all__ = ["render_invoice", "vat_rate"]\n',
  'billing/invoices.py': [
    'from .tax import vat_rate',
    '',
    '',
    'def render_invoice(order, locale="en"):',
    '    """Render the invoice PDF for an order."""',
    '    if not order.lines:',
    '        raise ValueError("an invoice needs at least one line item")',
    '    total = sum(line.amount for line in order.lines)',
    '    return {"total": total, "vat": total * vat_rate(order.country)}',
    '',
  ].join('\n'),
  'billing/tax.py': [
    '# VAT rates by country; reverse charge applies to business customers in the EU.',
    'RATES = {"DE": 0.19, "FR": 0.2}',
    '',
    '',
    'def vat_rate(country):',
    '    return RATES.get(country, 0)',
    '',
  ].join('\n'),
  'tests/test_invoices.py':
    'from billing.invoices import render_invoice\n\n\ndef test_render_invoice_total():\n    assert render_invoice\n',
  'go.mod': 'module example.com/shipping\n\ngo 1.22\n',
  'shipping/labels.go': [
    'package shipping',
    '',
    'import "errors"',
    '',
    '// PrintLabel renders a carrier label; DHL labels need a customs declaration outside the EU.',
    'func PrintLabel(parcel Parcel) ([]byte, error) {',
    '\tif parcel.WeightGrams > 31500 {',
    '\t\treturn nil, errors.New("parcel exceeds the carrier weight limit")',
    '\t}',
    '\treturn []byte(parcel.Carrier), nil',
    '}',
    '',
    'type Parcel struct {',
    '\tCarrier     string',
    '\tWeightGrams int',
    '}',
    '',
  ].join('\n'),
};

describe('a first preflight reads modules for their links and words alone', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(LIBRARY);
  });
  after(() => repo.cleanup());

  it('answers what a build from every file’s full facts answers, and the next run takes what it cached', async () => {
    const tasks = ['mention verifyToken in missing-options error message', 'treat If-None-Match * as a match', 'Add Kazakh months'];
    const withoutTime = (report: PreflightReport): unknown => ({ ...report, generatedAt: undefined });
    const env = createTestEnv(repo.dir, { useCache: false });
    try {
      const full = await buildRepositoryGraph(env);
      assert.deepEqual([...(full.parsed.linkOnly ?? [])], []);
      for (const task of tasks) {
        const first = await computePreflight(env, { task });
        // The modules read for their links alone: not the test (its titles are ranked), not the barrel's tests.
        assert.deepEqual(
          [...(first.repository.parsed.linkOnly ?? [])].sort(),
          Object.keys(LIBRARY)
            .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
            .sort(),
        );
        assert.ok(first.repository.parsed.facts.get('src/storage/guard.ts')?.facts.words !== undefined, 'words read with the links');
        assert.deepEqual(withoutTime(first.report), withoutTime((await computePreflight(env, { task, repository: full })).report), task);
        const packet = (context: unknown): unknown =>
          JSON.parse(JSON.stringify(context, (key, value) => (key === 'generatedAt' ? undefined : value)));
        assert.deepEqual(packet(await getTaskContext(env, { task })), packet(await getTaskContext(env, { task, repository: full })), task);
      }
    } finally {
      await env.close();
    }
    // With the facts cache: the link entries are taken as they are by the next preflight, parsed in full by a graph.
    const cached = createTestEnv(repo.dir);
    try {
      await computePreflight(cached, { task: tasks[0] as string });
      const next = await computePreflight(cached, { task: tasks[0] as string });
      assert.equal(next.repository.parsed.stats.parsed, 0);
      assert.ok((next.repository.parsed.linkOnly?.size ?? 0) > 0);
      const graph = await buildRepositoryGraph(cached);
      assert.deepEqual([...(graph.parsed.linkOnly ?? [])], []);
      assert.equal(graph.parsed.stats.parsed, next.repository.parsed.linkOnly?.size);
    } finally {
      await cached.close();
    }
  });
});

describe('preflight finds Python and Go code by what it says', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(SERVICES);
  });
  after(() => repo.cleanup());

  it('finds the Python module whose error message says the task, above the package that re-exports it', async () => {
    const report = await runPreflight(repo.dir, 'an invoice with no line items should explain why it cannot be rendered');
    assert.equal(report.candidateFiles[0], 'billing/invoices.py');
    assert.ok(
      report.repositoryEvidence.candidateFiles[0]?.reasons.some((reason) => reason.matchedOn === 'string' && reason.line === 7),
      JSON.stringify(report.repositoryEvidence.candidateFiles[0]?.reasons),
    );
    assert.equal(report.candidateFiles.includes('tests/test_invoices.py'), false);
  });

  it('finds the Python module by its comment and the Go file by its error string', async () => {
    const tax = await runPreflight(repo.dir, 'reverse charge for business customers');
    assert.equal(tax.candidateFiles[0], 'billing/tax.py');
    const labels = await runPreflight(repo.dir, 'raise the carrier weight limit for heavy parcels');
    assert.equal(labels.candidateFiles[0], 'shipping/labels.go');
  });

  it('names no file for a task about another domain', async () => {
    const report = await runPreflight(repo.dir, 'add a knitting row counter to the yarn inventory');
    assert.deepEqual(report.candidateFiles, []);
  });
});

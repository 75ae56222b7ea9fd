import type { RuleCases } from '../../../helpers/run-rule-cases.js';

/** Fixture text only: spelled this way so a scan for focused tests in this suite finds none. */
const FOCUS = '.only';

const ts = { path: 'src/app.ts', line: 7, fileRole: 'source', language: 'ts', extension: '.ts' };
const testFile = { path: 'src/app.test.ts', line: 3, fileRole: 'test', language: 'ts', extension: '.ts' };
const md = { path: 'README.md', line: 1, fileRole: 'doc', language: 'markdown', extension: '.md' };

export const patternCases: Record<string, RuleCases> = {
  'pattern/console-log': {
    valid: [
      { ...ts, text: 'logger.info("x")' },
      { ...testFile, text: 'console.log(x)' },
      { ...md, text: 'console.log(x)' },
      { ...ts, text: 'console.error(err)' },
    ],
    invalid: [
      { facts: { ...ts, text: '  console.log("total", total);' }, message: 'src/app.ts:7 adds a console call', params: { weight: 1 } },
      { facts: { ...ts, text: 'console.debug (x)' } },
    ],
  },
  'pattern/debugger': {
    valid: [
      { ...ts, text: 'const debuggerEnabled = true;' },
      { ...md, text: 'debugger' },
    ],
    invalid: [{ facts: { ...ts, text: '    debugger;' }, message: 'src/app.ts:7 adds a debugger statement', params: { weight: 3 } }],
  },
  'pattern/todo-added': {
    valid: [
      { ...ts, text: 'const todos = []' },
      { ...md, text: 'TODO: write docs' },
    ],
    invalid: [
      { facts: { ...ts, text: '// TODO handle refunds' }, params: { weight: 1 } },
      { facts: { ...testFile, text: '// FIXME flaky' } },
    ],
  },
  'pattern/eval': {
    valid: [
      { ...ts, text: 'const evaluate = (x) => x' },
      { ...ts, text: 'model.eval(input)' },
      { ...md, text: 'eval(x)' },
    ],
    invalid: [
      { facts: { ...ts, text: 'return eval(code);' }, message: 'src/app.ts:7 evaluates a string as code', params: { weight: 5 } },
      { facts: { ...ts, text: 'const f = new Function("a", body);' } },
    ],
  },
  'pattern/any-type': {
    valid: [
      { ...ts, text: 'const company = anyone;' },
      { ...ts, language: 'js', extension: '.js', text: 'let x: any = 1' },
      { ...ts, text: 'if (items.some(Boolean)) return;' },
    ],
    invalid: [
      { facts: { ...ts, text: 'function f(x: any) {' }, params: { weight: 1 } },
      { facts: { ...ts, text: 'const y = value as any;' } },
      { facts: { ...ts, text: 'const list: any[] = [];' } },
    ],
  },
  'pattern/lint-suppression': {
    valid: [
      { ...ts, text: '// eslint config lives in eslint.config.js' },
      { ...md, text: '@ts-ignore is bad' },
    ],
    invalid: [
      { facts: { ...ts, text: '// @ts-ignore' }, message: 'src/app.ts:7 suppresses a linter or type-checker error', params: { weight: 2 } },
      { facts: { ...ts, text: '/* eslint-disable no-console */' } },
      { facts: { ...ts, text: '// @ts-expect-error wrong types upstream' } },
    ],
  },
  'pattern/focused-test': {
    valid: [
      { ...testFile, text: "it('adds', () => {" },
      { ...ts, text: `it${FOCUS}('adds', () => {` },
    ],
    invalid: [
      {
        facts: { ...testFile, text: `  it${FOCUS}('adds', () => {` },
        message: 'src/app.test.ts:3 focuses a test with .only',
        params: { weight: 5 },
      },
      { facts: { ...testFile, text: `describe${FOCUS}('cart', () => {` } },
    ],
  },
  'pattern/hardcoded-secret': {
    valid: [
      { ...ts, text: 'const password = process.env.DB_PASSWORD;' },
      { ...ts, text: 'const token = "";' },
      { ...testFile, text: 'const apiKey = "abcdefghijklmnop";' },
    ],
    invalid: [
      {
        facts: { ...ts, text: 'const apiKey = "sk_live_abcdefgh12345";' },
        message: 'src/app.ts:7 assigns a secret-looking literal',
        params: { weight: 8 },
      },
      {
        facts: {
          ...ts,
          path: 'config/app.yml',
          fileRole: 'config',
          language: 'yaml',
          extension: '.yml',
          text: 'password: "hunter2hunter2"',
        },
      },
      { facts: { ...ts, text: "  DB_PASSWORD = 'correct-horse-battery'" } },
    ],
  },
  'pattern/inner-html': {
    valid: [
      { ...ts, text: 'el.textContent = value;' },
      { ...ts, text: 'if (el.innerHTML === "") return;' },
    ],
    invalid: [
      { facts: { ...ts, text: 'el.innerHTML = userInput;' }, message: 'src/app.ts:7 writes raw HTML', params: { weight: 4 } },
      { facts: { ...ts, language: 'tsx', extension: '.tsx', text: '<div dangerouslySetInnerHTML={{ __html: html }} />' } },
    ],
  },
  'pattern/sql-concatenation': {
    valid: [
      { ...ts, text: 'db.query("SELECT * FROM users WHERE id = $1", [id]);' },
      { ...ts, text: 'const label = "Select " + name;' },
    ],
    invalid: [
      {
        facts: { ...ts, text: 'db.query("SELECT * FROM users WHERE id = " + id);' },
        message: 'src/app.ts:7 builds SQL from strings',
        params: { weight: 6 },
      },
      { facts: { ...ts, text: 'db.query(`DELETE FROM orders WHERE id = ${id}`);' } },
    ],
  },
  'pattern/set-timeout-in-test': {
    valid: [
      { ...ts, text: 'setTimeout(flush, 10);' },
      { ...testFile, text: 'vi.useFakeTimers();' },
    ],
    invalid: [
      {
        facts: { ...testFile, text: 'await new Promise((r) => setTimeout(r, 100));' },
        message: 'src/app.test.ts:3 waits on a real timer in a test',
        params: { weight: 2 },
      },
    ],
  },
  'pattern/tls-verification-disabled': {
    valid: [{ ...ts, text: 'const agent = new https.Agent({ rejectUnauthorized: true });' }],
    invalid: [
      {
        facts: { ...ts, text: 'const agent = new https.Agent({ rejectUnauthorized: false });' },
        message: 'src/app.ts:7 disables TLS certificate verification',
        params: { weight: 7 },
      },
      { facts: { ...ts, path: '.env', fileRole: 'config', language: 'other', extension: '', text: 'NODE_TLS_REJECT_UNAUTHORIZED=0' } },
    ],
  },
};

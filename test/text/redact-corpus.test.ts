// Every secret in this file and in test/fixtures/redaction/ is a synthetic fake (FAKE/TEST/EXAMPLE fillers, wrong
// checksums; security.md §6). gitleaks:allow
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { redactArgv, redactSecrets } from '../../src/text/redact/redact.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'redaction');
const SEED = 20260501;

interface ValueSecret {
  id: string;
  /** The property, variable or flag name the secret is assigned to, in snake_case. */
  key: string;
  secret: string;
  /** The value carrying the secret when it is not the secret itself (`postgres://u:{secret}@h/db`). */
  form?: string;
  contexts?: string[];
}

interface LineSecret {
  id: string;
  secret: string;
  /** A command or statement on one line; `{secret}` marks the secret. */
  line: string;
  /** The same command as an argv list, for redactArgv. */
  argv?: string[];
}

interface BlockSecret {
  id: string;
  secret: string;
  /** A multi-line text (config file, key block); `{secret}` marks the secret. */
  text: string;
}

interface SecretFixtures {
  values: ValueSecret[];
  lines: LineSecret[];
  blocks: BlockSecret[];
}

const fixtures: SecretFixtures = JSON.parse(readFileSync(join(FIXTURES, 'secrets.json'), 'utf8'));

const toEnv = (key: string): string => key.toUpperCase();
const toKebab = (key: string): string => key.replace(/_/g, '-');
const toCamel = (key: string): string => key.replace(/_([a-z])/g, (_, char: string) => char.toUpperCase());
const toHeader = (key: string): string =>
  key.replace(/(^|_)([a-z])/g, (_, sep: string, char: string) => (sep ? '-' : '') + char.toUpperCase());
const shellQuote = (value: string): string => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value}'`);

/** Where a value assigned to a key shows up: files, commands, prose, code, errors, argv. */
const VALUE_CONTEXTS: Record<string, (key: string, value: string) => string> = {
  env: (k, v) => `# staging\n${toEnv(k)}=${v}\nPORT=8080\n`,
  json: (k, v) => `{"${k}": ${JSON.stringify(v)}, "port": 5432}`,
  'json-pretty': (k, v) => JSON.stringify({ service: 'api', [toCamel(k)]: v, retries: 3 }, null, 2),
  'json-escaped': (k, v) => JSON.stringify({ '.env': `${toEnv(k)}=${v}\nBACKUP=true` }),
  yaml: (k, v) => `database:\n  host: db.internal\n  ${k}: ${v}\n  port: 5432\n`,
  'yaml-quoted': (k, v) => `${k}: "${v}"\n`,
  shell: (k, v) => `${toEnv(k)}=${shellQuote(v)} npm run migrate`,
  export: (k, v) => `export ${toEnv(k)}=${shellQuote(v)}`,
  docker: (k, v) => `docker run --rm -e ${toEnv(k)}=${shellQuote(v)} app:latest`,
  flag: (k, v) => `deploy --${toKebab(k)} ${shellQuote(v)} --region eu-west-1`,
  'flag-equals': (k, v) => `deploy --${toKebab(k)}=${shellQuote(v)}`,
  markdown: (k, v) => `To reproduce, run the job with \`${toEnv(k)}=${v}\` and watch it fail.`,
  code: (k, v) => `const ${toCamel(k)} = ${JSON.stringify(v)};`,
  error: (k, v) => `Error: login rejected (${k}=${JSON.stringify(v)})\n    at connect (src/db.ts:12:5)`,
  argv: (k, v) => ['node', 'scripts/deploy.js', `--${toKebab(k)}`, v].join(' '),
  'http-header': (k, v) => `> GET /v1/me HTTP/1.1\n> ${toHeader(k)}: ${v}\n> Accept: */*`,
};
const HEADER_VALUE_CONTEXTS = ['json', 'json-pretty', 'yaml', 'yaml-quoted', 'code', 'error', 'http-header'];
const DEFAULT_VALUE_CONTEXTS = Object.keys(VALUE_CONTEXTS).filter((name) => name !== 'http-header');

/** Where a command line shows up: alone, in Markdown, in JSON, YAML, code, an error message. */
const LINE_CONTEXTS: Record<string, (line: string) => string> = {
  alone: (l) => l,
  'markdown-inline': (l) => `Reproduce with \`${l}\` on staging.`,
  'markdown-fence': (l) => `Steps:\n\n\`\`\`sh\n${l}\n\`\`\`\n`,
  json: (l) => JSON.stringify({ command: l, exitCode: 1 }),
  yaml: (l) => `steps:\n  - run: ${l}\n`,
  code: (l) => `execSync(${JSON.stringify(l)}, { stdio: 'inherit' });`,
  error: (l) => `Command failed: ${l}\nexit code 1`,
};

const BLOCK_CONTEXTS: Record<string, (text: string) => string> = {
  alone: (t) => t,
  'markdown-fence': (t) => `Config I used:\n\n\`\`\`\n${t}\n\`\`\`\n`,
  json: (t) => JSON.stringify({ path: 'config/app.conf', content: t }),
  error: (t) => `Error: failed to parse config:\n${t}\n    at load (src/config.ts:40:11)`,
};

interface Positive {
  id: string;
  context: string;
  input: string;
  secret: string;
  /** The secret with what surrounds it in the input, for secrets too short to search on their own. */
  carrier: string;
}

const fill = (template: string, secret: string): string => template.split('{secret}').join(secret);

function buildPositives(): Positive[] {
  const positives: Positive[] = [];
  for (const entry of fixtures.values) {
    const value = fill(entry.form ?? '{secret}', entry.secret);
    const isHeader = /^(?:Basic|Bearer) /.test(entry.secret);
    const contexts = entry.contexts ?? (isHeader ? HEADER_VALUE_CONTEXTS : DEFAULT_VALUE_CONTEXTS);
    for (const context of contexts) {
      const render = VALUE_CONTEXTS[context];
      assert.ok(render, `unknown context ${context}`);
      positives.push({ id: entry.id, context, input: render(entry.key, value), secret: entry.secret, carrier: value });
    }
  }
  for (const entry of fixtures.lines) {
    const line = fill(entry.line, entry.secret);
    for (const [context, render] of Object.entries(LINE_CONTEXTS)) {
      positives.push({ id: entry.id, context, input: render(line), secret: entry.secret, carrier: line });
    }
  }
  for (const entry of fixtures.blocks) {
    const text = fill(entry.text, entry.secret);
    for (const [context, render] of Object.entries(BLOCK_CONTEXTS)) {
      positives.push({ id: entry.id, context, input: render(text), secret: entry.secret, carrier: text });
    }
  }
  return positives;
}

/** What of a secret survived redaction: the secret itself, any 8-character piece of it, or its short carrier. */
function findLeak(output: string, secret: string, carrier: string): string | undefined {
  const pieces = secret.split('\n').filter((line) => line.length > 0);
  for (const piece of pieces) {
    if (piece.length >= 4 && output.includes(piece)) return piece;
    for (let i = 0; i + 8 <= piece.length; i += 1) if (output.includes(piece.slice(i, i + 8))) return piece.slice(i, i + 8);
  }
  if (secret.length < 4 && output.includes(carrier)) return carrier;
  return undefined;
}

function isPositiveCaught(positive: Positive): { caught: boolean; output: string; leak?: string } {
  const output = redactSecrets(positive.input).text;
  const leak = findLeak(output, positive.secret, positive.carrier);
  return { caught: leak === undefined && output.includes('[REDACTED:'), output, ...(leak === undefined ? {} : { leak }) };
}

interface ArgvPositive {
  id: string;
  argv: string[];
  secret: string;
}

function buildArgvPositives(): ArgvPositive[] {
  const fromLines = fixtures.lines
    .filter((entry) => entry.argv !== undefined)
    .map((entry) => ({ id: entry.id, argv: (entry.argv ?? []).map((arg) => fill(arg, entry.secret)), secret: entry.secret }));
  const fromValues = fixtures.values
    .filter((entry) => !/^(?:Basic|Bearer) /.test(entry.secret))
    .flatMap((entry) => {
      const value = fill(entry.form ?? '{secret}', entry.secret);
      return [
        { id: `${entry.id} (--flag value)`, argv: ['node', 'deploy.js', `--${toKebab(entry.key)}`, value], secret: entry.secret },
        { id: `${entry.id} (--flag=value)`, argv: ['node', 'deploy.js', `--${toKebab(entry.key)}=${value}`], secret: entry.secret },
        { id: `${entry.id} (env element)`, argv: ['env', `${toEnv(entry.key)}=${value}`, 'node', 'deploy.js'], secret: entry.secret },
      ];
    });
  return [...fromLines, ...fromValues];
}

function isArgvCaught(positive: ArgvPositive): { caught: boolean; output: string[] } {
  const output = redactArgv(positive.argv);
  const joined = output.join('\u0000');
  const leak = findLeak(joined, positive.secret, positive.argv.join('\u0000'));
  return { caught: leak === undefined && joined.includes('[REDACTED:'), output };
}

interface Negative {
  source: string;
  text: string;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}

/** One case per line of each negatives file (a line of code, prose, a key name…). */
function buildFixtureNegatives(): Negative[] {
  return listFiles(join(FIXTURES, 'negatives')).flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((text) => ({ source: `${relative(FIXTURES, path)}: ${text.slice(0, 60)}`, text })),
  );
}

/** Our own product text, one case per file: docs, README, rule packs (messages included), report goldens. */
function buildProductNegatives(): Negative[] {
  const files = [
    ...listFiles(join(ROOT, 'docs')).filter((path) => /\.(?:md|txt)$/.test(path)),
    join(ROOT, 'README.md'),
    ...listFiles(join(ROOT, 'rules')).filter((path) => path.endsWith('.yaml')),
    ...listFiles(join(ROOT, 'test', 'report', 'golden')),
  ];
  return files.map((path) => ({ source: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
}

const positives = buildPositives();
const argvPositives = buildArgvPositives();
const fixtureNegatives = buildFixtureNegatives();
const productNegatives = buildProductNegatives();

describe('redaction corpus: positives (every secret removed whole, in every context)', () => {
  const byId = new Map<string, Positive[]>();
  for (const positive of positives) byId.set(positive.id, [...(byId.get(positive.id) ?? []), positive]);
  for (const [id, cases] of byId) {
    it(`removes ${id} in ${cases.length} contexts`, () => {
      for (const positive of cases) {
        const result = isPositiveCaught(positive);
        assert.ok(result.caught, `${id} in ${positive.context}: leaked ${JSON.stringify(result.leak)} in ${JSON.stringify(result.output)}`);
      }
    });
  }

  it('redactArgv removes every secret given as an argv list', () => {
    for (const positive of argvPositives) {
      const result = isArgvCaught(positive);
      assert.ok(result.caught, `${positive.id}: ${JSON.stringify(result.output)}`);
    }
  });
});

describe('redaction corpus: negatives (ordinary text comes out unchanged)', () => {
  for (const file of listFiles(join(FIXTURES, 'negatives'))) {
    it(`leaves every line of ${relative(FIXTURES, file)} and the file as a whole unchanged`, () => {
      const text = readFileSync(file, 'utf8');
      for (const line of text.split('\n')) assert.equal(redactSecrets(line).text, line);
      assert.equal(redactSecrets(text).text, text);
    });
  }

  it('leaves our own docs, README, rule packs and report goldens unchanged', () => {
    assert.ok(productNegatives.length > 40, `only ${productNegatives.length} product files found`);
    for (const { source, text } of productNegatives) {
      const { text: out, redactions } = redactSecrets(text);
      assert.deepEqual(redactions, [], `${source} changed: ${JSON.stringify(redactions)}`);
      assert.equal(out, text, source);
    }
  });
});

describe('redaction corpus: properties', () => {
  it('is idempotent on every positive and negative', () => {
    for (const text of [...positives.map((positive) => positive.input), ...fixtureNegatives.map((negative) => negative.text)]) {
      const once = redactSecrets(text).text;
      assert.equal(redactSecrets(once).text, once, JSON.stringify(text));
    }
  });

  it('removes every fake of the corpus behind random lines of text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom(...positives),
        fc.string({ unit: 'binary' }),
        (prefix, positive, suffix) => {
          const output = redactSecrets(`${prefix}\n${positive.input}\n${suffix}`).text;
          const leak = findLeak(output, positive.secret, positive.carrier);
          assert.equal(leak, undefined, `${positive.id} in ${positive.context}: ${JSON.stringify(output)}`);
        },
      ),
      { seed: SEED, numRuns: 600 },
    );
  });
});

describe('redaction corpus: counts', () => {
  it('catches 100% of positives and leaves 100% of negatives untouched', (t) => {
    const caught = positives.filter((positive) => isPositiveCaught(positive).caught).length;
    const argvCaught = argvPositives.filter((positive) => isArgvCaught(positive).caught).length;
    const negatives = [...fixtureNegatives, ...productNegatives];
    const untouched = negatives.filter(({ text }) => redactSecrets(text).text === text).length;
    t.diagnostic(`positives caught ${caught}/${positives.length} (text), ${argvCaught}/${argvPositives.length} (argv)`);
    t.diagnostic(
      `negatives untouched ${untouched}/${negatives.length} (${fixtureNegatives.length} fixture lines, ${productNegatives.length} product files)`,
    );
    assert.equal(caught, positives.length);
    assert.equal(argvCaught, argvPositives.length);
    assert.equal(untouched, negatives.length);
  });
});

// Every secret in this file is a synthetic fake from security.md §6 (wrong checksums, FAKE/TEST fillers). gitleaks:allow
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactArgv, redactAssignedValue, redactSecrets, sanitizeUntrustedText } from '../../src/text/redact/redact.js';
import { HOSTILE_REDACTION_INPUTS } from '../fixtures/hostile-redaction-inputs.js';

const SEED = 20260101;

const fill = (pattern: string, length: number): string => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

const OPENAI_FAKE = `sk-proj-${fill('FAKEfake0TEST1', 58)}T3BlbkFJ${fill('test2EXAMPLE3', 58)}`;
const ANTHROPIC_FAKE = `sk-ant-api03-${fill('FAKE-fake_TEST-test_EXAMPLE', 93)}AA`;
const PRIVATE_KEY_FAKE = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'FAKEKEYFAKEKEYFAKEKEYTHISISNOTAREALKEYFAKEKEYFAKEKEYFAKEKEYFAKE',
  'THISISNOTAREALKEYTHISISNOTAREALKEYTHISISNOTAREALKEY0123456789ab',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** Token-shaped fakes that a dedicated rule recognises without any surrounding key name. */
const TOKEN_FAKES: ReadonlyArray<{ fake: string; rule: string }> = [
  { fake: 'AKIAIOSFODNN7EXAMPLE', rule: 'aws-access-key' },
  { fake: 'AKIAFAKE2345TEST6777', rule: 'aws-access-key' },
  { fake: 'ASIAFAKE2345TEST6777', rule: 'aws-access-key' },
  { fake: 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X', rule: 'github-token' },
  { fake: 'gho_FAKEfake0TEST1test2EXAMPLE3example4X', rule: 'github-token' },
  { fake: 'ghu_FAKEfake0TEST1test2EXAMPLE3example4X', rule: 'github-token' },
  { fake: 'ghs_FAKEfake0TEST1test2EXAMPLE3example4X', rule: 'github-token' },
  { fake: 'ghr_FAKEfake0TEST1test2EXAMPLE3example4X', rule: 'github-token' },
  { fake: 'github_pat_11FAKEFAKE0TESTTEST000_FAKEfakeTESTtestEXAMPLEexampleNOTaREALtokenZz0Yy1Xx2Ww3Zz0Y', rule: 'github-token' },
  { fake: 'glpat-FAKE0fake1TEST2test3', rule: 'gitlab-token' },
  { fake: 'xoxb-1234567890-1234567890123-FAKEtokenFORtests0nly', rule: 'slack-token' },
  { fake: 'xoxp-1234567890-1234567890-1234567890-FAKEfakeTESTtestEXAMPLE0123456', rule: 'slack-token' },
  { fake: 'https://hooks.slack.com/services/TFAKE0000/BFAKE0000/FAKEfakeFAKEfakeFAKE0000', rule: 'slack-webhook' },
  {
    fake: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmYWtlLXVzZXItMDAwIiwibm90ZSI6IkZBS0UgVEVTVCBUT0tFTiAtIE5PVCBSRUFMIn0.FAKEsignatureFAKEsignatureFAKE0000000000',
    rule: 'jwt',
  },
  { fake: 'npm_fake0test1fake2test3fake4test5fake6t', rule: 'npm-token' },
  { fake: 'sk_test_FAKEfake0000TESTtest1111', rule: 'stripe-key' },
  { fake: 'sk_live_FAKEfake0000TESTtest1111', rule: 'stripe-key' },
  { fake: 'AIzaFAKEfake0TEST1test2EXAMPLE3exa-_m4Z', rule: 'gcp-api-key' },
  { fake: OPENAI_FAKE, rule: 'openai-api-key' },
  { fake: ANTHROPIC_FAKE, rule: 'anthropic-api-key' },
  { fake: PRIVATE_KEY_FAKE, rule: 'private-key' },
];

/** Assignment fakes caught by the generic key/secret/token/password rule; `value` must disappear. */
const ASSIGNMENT_FAKES: ReadonlyArray<{ text: string; value: string }> = [
  { text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', value: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { text: 'api_key = "fAkE9x2Q7tEsT4vK8mZ1"', value: 'fAkE9x2Q7tEsT4vK8mZ1' },
  { text: 'DB_PASSWORD=Fake-P4ssw0rd-For-Tests', value: 'Fake-P4ssw0rd-For-Tests' },
  { text: "client_secret: 'fake_s3cr3t_V4lue_9Xq2'", value: 'fake_s3cr3t_V4lue_9Xq2' },
  { text: 'const token = "FAKE.tok3n-value_9"', value: 'FAKE.tok3n-value_9' },
];

/** gitleaks-style syntactic contexts; `k` is a key name, `s` the secret. */
const CONTEXTS: ReadonlyArray<{ name: string; wrap: (k: string, s: string) => string }> = [
  { name: 'alone', wrap: (_k, s) => s },
  { name: 'ini', wrap: (k, s) => `[default]\n${k}="${s}"\n` },
  { name: 'env', wrap: (k, s) => `${k.toUpperCase()}=${s}\nNEXT=1` },
  { name: 'json', wrap: (k, s) => `{"${k}": "${s}", "other": 1}` },
  { name: 'escaped json', wrap: (k, s) => JSON.stringify({ 'config.ini': `${k.toUpperCase()}=${s}\nBACKUP=true` }) },
  { name: 'yaml unquoted', wrap: (k, s) => `service:\n  ${k}: ${s}\n  port: 80` },
  { name: 'yaml single', wrap: (k, s) => `${k}: '${s}'` },
  { name: 'yaml double', wrap: (k, s) => `${k}: "${s}"` },
  { name: 'xml', wrap: (k, s) => `<config>\n  <${k}>\n    ${s}\n  </${k}>\n</config>` },
  { name: 'go', wrap: (k, s) => `${k} := "${s}"` },
  { name: 'backticks', wrap: (k, s) => `${k} := \`${s}\`` },
  { name: 'python', wrap: (k, s) => `${k} = '${s}'  # set me` },
  { name: 'php', wrap: (k, s) => `$${k} .= "${s}";` },
  { name: 'makefile', wrap: (k, s) => `${k.toUpperCase()} ::= ${s}` },
  { name: 'makefile triple', wrap: (k, s) => `${k.toUpperCase()} :::= ${s}` },
  { name: 'logstash', wrap: (k, s) => `${k} => "${s}"` },
  { name: 'java property', wrap: (k, s) => `System.setProperty("${k}", "${s}");` },
  { name: 'prose', wrap: (_k, s) => `I pasted ${s} into the chat by mistake, sorry.` },
  { name: 'diff hunk', wrap: (k, s) => `@@ -1,2 +1,3 @@\n context\n+${k.toUpperCase()}=${s}\n-OLD=1` },
  { name: 'markdown code', wrap: (_k, s) => `Run \`deploy --key ${s}\` now` },
];

const KEY_NAMES = ['api_token', 'github_token', 'secret', 'password', 'credentials', 'auth_key'];

function assertRedacted(input: string, secret: string, rule?: string): void {
  const { text } = redactSecrets(input);
  assert.equal(text.includes(secret), false, `secret survived in ${JSON.stringify(text)}`);
  if (rule !== undefined) assert.ok(text.includes(`[REDACTED:${rule}]`), `expected [REDACTED:${rule}] in ${JSON.stringify(text)}`);
}

describe('redactSecrets: fake samples', () => {
  for (const { fake, rule } of TOKEN_FAKES) {
    it(`redacts ${rule} ${fake.slice(0, 12)}… alone with exactly one redaction`, () => {
      const result = redactSecrets(fake);
      assert.equal(result.text, `[REDACTED:${rule}]`);
      assert.deepEqual(result.redactions, [{ rule, count: 1 }]);
    });
    for (const context of CONTEXTS) {
      for (const key of KEY_NAMES.slice(0, 2)) {
        it(`redacts ${rule} ${fake.slice(0, 8)}… in ${context.name} (${key})`, () => {
          assertRedacted(context.wrap(key, fake), fake, rule);
        });
      }
    }
  }

  for (const { text, value } of ASSIGNMENT_FAKES) {
    it(`redacts the value of ${text.slice(0, 24)}…`, () => {
      const result = redactSecrets(text);
      assert.equal(result.text, text.replace(value, '[REDACTED:generic-secret]'));
      assert.deepEqual(result.redactions, [{ rule: 'generic-secret', count: 1 }]);
    });
    for (const context of CONTEXTS.filter((c) => !['alone', 'prose', 'markdown code'].includes(c.name))) {
      for (const key of KEY_NAMES) {
        it(`redacts assignment value ${value.slice(0, 8)}… in ${context.name} (${key})`, () => {
          assertRedacted(context.wrap(key, value), value);
        });
      }
    }
  }

  it('keeps the user and host of a URL with a password', () => {
    assert.equal(
      redactSecrets('postgres://fakeuser:FakePassw0rd@db.invalid:5432/app').text,
      'postgres://fakeuser:[REDACTED:url-password]@db.invalid:5432/app',
    );
    assert.equal(
      redactSecrets('git clone https://user:FAKEpass123@git.invalid/org/repo.git').text,
      'git clone https://user:[REDACTED:url-password]@git.invalid/org/repo.git',
    );
  });

  it('redacts bearer tokens in Authorization headers and curl commands', () => {
    assert.equal(
      redactSecrets('Authorization: Bearer FAKEbearer0TOKEN1for2tests3').text,
      'Authorization: Bearer [REDACTED:authorization-header]',
    );
    assert.equal(
      redactSecrets('curl -H "X-Auth: Bearer FAKEbearer0TOKEN1for2tests3" https://api.invalid').text,
      'curl -H "X-Auth: Bearer [REDACTED:bearer-token]" https://api.invalid',
    );
    assert.equal(
      redactSecrets('authorization: Basic ZmFrZXVzZXI6ZmFrZXBhc3M=').text,
      'authorization: Basic [REDACTED:authorization-header]',
    );
  });

  it('redacts private key blocks of every header kind, across lines and in escaped JSON', () => {
    const body = 'FAKEKEYFAKEKEYFAKEKEYTHISISNOTAREALKEYFAKEKEYFAKEKEYFAKEKEYFAKEKEY';
    for (const kind of [
      'RSA PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'EC PRIVATE KEY',
      'ENCRYPTED PRIVATE KEY',
      'PRIVATE KEY',
      'PGP PRIVATE KEY BLOCK',
    ]) {
      const block = `-----BEGIN ${kind}-----\n${body}\n${body}\n-----END ${kind}-----`;
      assert.equal(redactSecrets(`before\n${block}\nafter`).text, 'before\n[REDACTED:private-key]\nafter');
      assert.equal(redactSecrets(JSON.stringify({ key: block })).text, '{"key":"[REDACTED:private-key]"}');
    }
  });

  it('redacts a private key whose END line is missing up to the end of the text (fail closed)', () => {
    assert.equal(redactSecrets(`x\n-----BEGIN OPENSSH PRIVATE KEY-----\nFAKEKEYFAKE\nmore lines`).text, 'x\n[REDACTED:private-key]');
  });

  it('redacts a base64-encoded PEM block', () => {
    const encoded = Buffer.from(PRIVATE_KEY_FAKE).toString('base64');
    assert.equal(redactSecrets(`KEY_B64=${encoded}`).text, 'KEY_B64=[REDACTED:private-key-base64]');
  });

  it('counts redactions per rule, sorted by rule', () => {
    const text = [
      'AKIAFAKE2345TEST6777',
      'ghp_FAKEfake0TEST1test2EXAMPLE3example4X',
      'AKIAIOSFODNN7EXAMPLE',
      'password = Fake-P4ssw0rd-For-Tests',
    ].join('\n');
    assert.deepEqual(redactSecrets(text).redactions, [
      { rule: 'aws-access-key', count: 2 },
      { rule: 'generic-secret', count: 1 },
      { rule: 'github-token', count: 1 },
    ]);
  });
});

describe('redactSecrets: negative controls', () => {
  const controls = [
    'api_version = "2024-01-01"',
    'primary_key: id',
    'keyboard',
    'monkey_patch = true',
    'e83c5163316f89bfbde7d9ab23ca2e25604af290',
    '0f8fad5b-d9cb-469f-a165-70867728950e',
    'password: ${DB_PASSWORD}',
    'token = process.env.TOKEN',
    'AKIA',
    'sk_test_',
    'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'author: "Jane Doe Smith"',
    'api_key: <your-key>',
    'token: "{{ secrets.TOKEN }}"',
    'const token = await getToken(request)',
    'secret_name: database_credentials',
    'TOKEN_ENV=GITHUB_TOKEN',
    'The key insight is that tokens are cached.',
    'See https://example.invalid/path?a=1 for details',
  ];
  for (const control of controls) {
    it(`leaves ${JSON.stringify(control)} unchanged`, () => {
      assert.deepEqual(redactSecrets(control), { text: control, redactions: [] });
    });
  }
});

const tokenFake = fc.constantFrom(...TOKEN_FAKES.map((entry) => entry.fake));
/** A 25-character marker may replace a 1-character secret, but every such secret needs 3+ characters of syntax around it. */
const MAX_GROWTH = 8;

describe('redactSecrets: properties', () => {
  it('no fake survives arbitrary binary prefixes and suffixes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), tokenFake, fc.string({ unit: 'binary' }), (prefix, fake, suffix) => {
        return !redactSecrets(prefix + fake + suffix).text.includes(fake);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('no fake survives arbitrary grapheme prefixes and suffixes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), tokenFake, fc.string({ unit: 'grapheme' }), (prefix, fake, suffix) => {
        return !redactSecrets(prefix + fake + suffix).text.includes(fake);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('no assignment value survives arbitrary prefixes and whitespace-led suffixes', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom(...ASSIGNMENT_FAKES),
        fc.string({ unit: 'binary' }),
        (prefix, { text, value }, suffix) => !redactSecrets(`${prefix}\n${text}\n${suffix}`).text.includes(value),
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('grows the densest secrets by at most MAX_GROWTH (a marker for each 4-character flag or 6-character URL)', () => {
    const densest = [
      `mysql ${'-pa '.repeat(1000)}`,
      '://:p@ '.repeat(1000),
      `curl ${'-ua:b '.repeat(1000)}`,
      `sshpass ${'-p a '.repeat(1000)}`,
    ];
    for (const input of densest) {
      const out = redactSecrets(input).text;
      assert.ok(out.length > input.length * 3, 'the dense input was redacted');
      assert.ok(out.length <= input.length * MAX_GROWTH, `${input.slice(0, 12)}… grew ${(out.length / input.length).toFixed(1)}×`);
    }
  });

  it('never throws on lone surrogates, NUL and other controls, in any entry point', () => {
    const hostile = [
      '\ud800',
      '\udc00',
      '\u0000',
      'password=\ud800\udc00x\ud800',
      'mysql -p\u0000\ud800',
      'curl -u a:\udfff',
      '://u:\ud800@h',
      'token: "\u0000"',
    ];
    for (const text of hostile) {
      assert.equal(typeof redactSecrets(text).text, 'string');
      assert.equal(typeof redactAssignedValue('password', text), 'string');
      assert.equal(typeof redactAssignedValue(text, text), 'string');
      assert.equal(redactArgv([text, '-p', text, '--password', text]).length, 5);
      assert.equal(typeof sanitizeUntrustedText(text, 10), 'string');
    }
  });

  it('is idempotent, never throws and grows output by a bounded factor', () => {
    const syntax = fc.constantFrom(
      'token=',
      ' = ',
      '://u:',
      '@h',
      '@',
      'Bearer ',
      'ey',
      '\u0000',
      '\ud800',
      '\udc00',
      'mysql ',
      ' -p',
      'curl -u a:',
      'sshpass -p ',
      '-H ',
      'passphrase: ',
      'password ',
      ' is ',
      '--password ',
      '--token=',
      'login x ',
      "IDENTIFIED BY '",
      ';Password=',
      '&password=',
      '\\n',
      '\n',
      '"',
      "'",
      '`',
    );
    const mixed = fc.array(fc.oneof(fc.string({ unit: 'binary' }), tokenFake, syntax), { maxLength: 10 });
    fc.assert(
      fc.property(mixed, (parts) => {
        const input = parts.join('');
        const once = redactSecrets(input).text;
        assert.equal(redactSecrets(once).text, once);
        assert.ok(once.length <= input.length * MAX_GROWTH + 64);
        return true;
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('returns text that matches no rule unchanged', () => {
    const safe = fc.string({ unit: fc.constantFrom(...'0123456789 \n\t.,!?()-+*#αβγδжзй漢字😀'), maxLength: 200 });
    fc.assert(
      fc.property(safe, (text) => redactSecrets(text).text === text),
      { seed: SEED, numRuns: 300 },
    );
  });
});

/**
 * Linear time on hostile 1 MB inputs. The ratio to a plain regex pass is measured in bench/redact-hostile.ts, never
 * asserted here (a busy machine would fail it); here each input must be redacted at all, and the timeout only catches a
 * quadratic corner, which on 1 MB would take hours rather than the milliseconds a linear pass takes.
 */
describe('redactSecrets: hostile 1 MB inputs', () => {
  for (const [name, input] of Object.entries(HOSTILE_REDACTION_INPUTS)) {
    it(`finishes ${name}`, { timeout: 120_000 }, () => {
      const { text } = redactSecrets(input);
      assert.equal(typeof text, 'string');
      assert.ok(text.length > 0);
    });
  }
});

const GENERIC = '[REDACTED:generic-secret]';

describe('redactAssignedValue', () => {
  const hidden: ReadonlyArray<[string, string]> = [
    ['password', 'hunter2'],
    ['password', 'hunter'],
    ['password', 'correct horse battery staple'],
    ['password', 'createdAt'],
    ['passwd', 'x y'],
    ['pass', 'S3cr3tP@ss!'],
    ['db_password', 'Tr0ub4dor&3'],
    ['--password', 'hunter2'],
    ['apiKey', 'abcd'],
    ['api_key', 'abcd1234'],
    ['accessKey', 'abcd1234'],
    ['privateKey', 'abcd1234'],
    ['clientSecret', 'abcd1234'],
    ['credentials', 'user:pass'],
    ['passphrase', 'x y'],
    ['authorization', 'Basic Zm9vOmJhcg=='],
    ['secret', 'abcd'],
    ['token', 'abcd'],
    ['GITHUB_TOKEN', 'abcd'],
    ['x-api-key', 'abcdef'],
    ['DB_PWD', 'hunter'],
    ['pwd', 'S3cr3t!x'],
    ['auth', 'abc123XYZ'],
  ];
  for (const [key, value] of hidden) {
    it(`hides the whole value of ${key}=${JSON.stringify(value)}`, () => {
      assert.equal(redactAssignedValue(key, value), GENERIC);
    });
  }

  const kept: ReadonlyArray<[string, string]> = [
    ['password', '${DB_PASSWORD}'],
    ['password', '<password>'],
    ['token', 'process.env.TOKEN'],
    ['token', '$TOKEN'],
    ['apiKey', 'import.meta.env.VITE_API_KEY'],
    ['password', ''],
    ['password', '  '],
    ['secret', 'config/secret.pem'],
    ['token', '3600'],
    ['token', 'true'],
    ['password', 'null'],
    ['apiKey', GENERIC],
    ['pwd', '/home/user/project'],
    ['pwd', 'myproject'],
    ['sortKey', 'createdAt'],
    ['idempotencyKey', '0f8fad5b-d9cb-469f-a165-70867728950e'],
    ['primaryKey', 'id'],
    ['hotkey', 'Ctrl+Shift+P'],
    ['publicKey', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKE'],
    ['tokenizer', 'wordPiece'],
    ['cacheKey', 'user:42:profile'],
    ['token_type', 'Bearer'],
    ['key', 'value'],
    ['maxTokens', '4096'],
    ['-p', 'S3cret'],
  ];
  for (const [key, value] of kept) {
    it(`keeps ${key}=${JSON.stringify(value)}`, () => {
      assert.equal(redactAssignedValue(key, value), value);
    });
  }

  it('still redacts token shapes inside a value whose key names no secret', () => {
    assert.equal(redactAssignedValue('note', 'see ghp_FAKEfake0TEST1test2EXAMPLE3example4X'), 'see [REDACTED:github-token]');
    assert.equal(
      redactAssignedValue('sortKey', 'postgres://u:FakePassw0rd@db.invalid/app'),
      'postgres://u:[REDACTED:url-password]@db.invalid/app',
    );
  });

  it('agrees with the generic text rule on `key: "value"`', () => {
    const rows = [...hidden, ...kept].filter(
      ([key, value]) => !key.startsWith('-') && value.trim().length >= 4 && !value.includes(' ') && !/^(?:Basic|Bearer) /.test(value),
    );
    assert.ok(rows.length > 25);
    for (const [key, value] of rows) {
      const isHidden = redactAssignedValue(key, value) !== value;
      const text = `${key}: "${value}"`;
      assert.equal(
        redactSecrets(text).text !== text,
        isHidden,
        `${text}: helper ${isHidden ? 'hides' : 'keeps'} it, the text rule does not`,
      );
    }
  });
});

describe('redactArgv', () => {
  const cases: ReadonlyArray<{ argv: string[]; expected: string[] }> = [
    { argv: ['mysql', '-u', 'root', '-pS3cret', 'shop'], expected: ['mysql', '-u', 'root', `-p${GENERIC}`, 'shop'] },
    { argv: ['/usr/bin/mysqldump', '-pS3cret'], expected: ['/usr/bin/mysqldump', `-p${GENERIC}`] },
    {
      argv: ['curl', '-u', 'admin:FAKEpass123', 'https://api.invalid'],
      expected: ['curl', '-u', `admin:${GENERIC}`, 'https://api.invalid'],
    },
    { argv: ['curl', '-uadmin:FAKEpass123'], expected: ['curl', `-uadmin:${GENERIC}`] },
    { argv: ['curl', '--user=admin:FAKEpass123'], expected: ['curl', `--user=admin:${GENERIC}`] },
    { argv: ['curl', '-H', 'Authorization: Bearer FAKEbearer0TOKEN1for2tests3'], expected: ['curl', '-H', `Authorization: ${GENERIC}`] },
    { argv: ['curl', '--header=X-Api-Key: hunter'], expected: ['curl', `--header=X-Api-Key: ${GENERIC}`] },
    { argv: ['deploy', '--password', 'hunter2'], expected: ['deploy', '--password', GENERIC] },
    { argv: ['deploy', '--password=hunter2'], expected: ['deploy', `--password=${GENERIC}`] },
    { argv: ['deploy', '--token', 'abcd'], expected: ['deploy', '--token', GENERIC] },
    { argv: ['deploy', '--api-key', 'abcd'], expected: ['deploy', '--api-key', GENERIC] },
    { argv: ['java', '-Ddb.password=hunter', '-jar', 'app.jar'], expected: ['java', `-Ddb.password=${GENERIC}`, '-jar', 'app.jar'] },
    { argv: ['env', 'DB_PASSWORD=hunter', 'node', 'app.js'], expected: ['env', `DB_PASSWORD=${GENERIC}`, 'node', 'app.js'] },
    {
      argv: ['docker', 'run', '-e', 'DB_PASS=hunter', 'postgres:16'],
      expected: ['docker', 'run', '-e', `DB_PASS=${GENERIC}`, 'postgres:16'],
    },
    {
      argv: ['docker', 'login', '-u', 'ci', '-p', 'pw12', 'registry.invalid'],
      expected: ['docker', 'login', '-u', 'ci', '-p', GENERIC, 'registry.invalid'],
    },
    { argv: ['sshpass', '-p', 'FAKEsshPW', 'ssh', 'host'], expected: ['sshpass', '-p', GENERIC, 'ssh', 'host'] },
    { argv: ['redis-cli', '-a', 'pw12', 'PING'], expected: ['redis-cli', '-a', GENERIC, 'PING'] },
    {
      argv: ['openssl', 'rsa', '-passin', 'pass:FAKEpw', '-in', 'key.pem'],
      expected: ['openssl', 'rsa', '-passin', `pass:${GENERIC}`, '-in', 'key.pem'],
    },
    { argv: ['sh', '-c', 'mysql -pS3cret shop'], expected: ['sh', '-c', `mysql -p${GENERIC} shop`] },
    {
      argv: ['git', 'clone', 'https://user:FAKEpass123@git.invalid/r.git'],
      expected: ['git', 'clone', 'https://user:[REDACTED:url-password]@git.invalid/r.git'],
    },
    { argv: ['node', 'app.js', 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X'], expected: ['node', 'app.js', '[REDACTED:github-token]'] },
    // Left alone: no secret, or a flag whose convention does not apply here.
    { argv: ['mysql', '-p', 'shop'], expected: ['mysql', '-p', 'shop'] },
    { argv: ['psql', '-p', '5432', '-U', 'app'], expected: ['psql', '-p', '5432', '-U', 'app'] },
    { argv: ['curl', '-u', 'admin', 'https://api.invalid'], expected: ['curl', '-u', 'admin', 'https://api.invalid'] },
    {
      argv: ['docker', 'run', '-u', '1000:1000', '-p', '8080:80', 'node:20'],
      expected: ['docker', 'run', '-u', '1000:1000', '-p', '8080:80', 'node:20'],
    },
    { argv: ['curl', '-H', 'Accept: application/json'], expected: ['curl', '-H', 'Accept: application/json'] },
    { argv: ['deploy', '--password', '--dry-run'], expected: ['deploy', '--password', '--dry-run'] },
    {
      argv: ['deploy', '--sort-key', 'createdAt', '--key', 'server.key'],
      expected: ['deploy', '--sort-key', 'createdAt', '--key', 'server.key'],
    },
    { argv: ['env', 'PWD=/home/me', 'NODE_ENV=production'], expected: ['env', 'PWD=/home/me', 'NODE_ENV=production'] },
    { argv: ['openssl', 'rsa', '-passin', 'env:KEY_PASSPHRASE'], expected: ['openssl', 'rsa', '-passin', 'env:KEY_PASSPHRASE'] },
  ];
  for (const { argv, expected } of cases) {
    it(`redacts ${JSON.stringify(argv)}`, () => {
      const input = [...argv];
      assert.deepEqual(redactArgv(input), expected);
      assert.deepEqual(input, argv);
    });
  }

  it('is element-wise, idempotent and never throws', () => {
    const element = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        'mysql',
        'curl',
        '-p',
        '-u',
        '--password',
        '--token=',
        '-H',
        'Authorization: Bearer ',
        'DB_PASSWORD=',
        'login',
        'docker',
        'a:b',
      ),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 8 }), (argv) => {
        const once = redactArgv(argv);
        assert.equal(once.length, argv.length);
        assert.deepEqual(redactArgv(once), once);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});

describe('sanitizeUntrustedText', () => {
  it('strips ANSI escapes, controls, bidi overrides and zero-width characters but keeps newlines and tabs', () => {
    const input = '\u001b[2J\u001b[31mred\u001b[0m\u0000 a\tb\r\nc\u202Eevil\u200Bzw\u2066x\u2069\u0007\u001b]0;title\u0007end';
    assert.equal(sanitizeUntrustedText(input, 1000), 'red a\tb\ncevilzwxend');
  });

  it('replaces lone surrogates and never throws on them', () => {
    assert.equal(sanitizeUntrustedText('a\ud800b\udc00c', 100), 'a\ufffdb\ufffdc');
  });

  it('caps the length with a truncation marker', () => {
    assert.equal(sanitizeUntrustedText('x'.repeat(50), 10), `${'x'.repeat(10)}…[truncated 40 chars]`);
    assert.equal(sanitizeUntrustedText('short', 10), 'short');
  });

  it('redacts secrets after stripping controls that could split them', () => {
    assert.equal(sanitizeUntrustedText('key: ghp_FAKEfake0TEST1\u200Btest2EXAMPLE3example4X', 1000), 'key: [REDACTED:github-token]');
  });

  it('never leaks part of a secret cut by the length cap', () => {
    const fake = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    for (let cut = 0; cut <= 60; cut += 1) {
      const out = sanitizeUntrustedText(`${'a'.repeat(20)} ${fake} tail`, cut);
      assert.equal(out.includes('ghp_FAKE'), false, `cut ${cut}: ${out}`);
    }
  });

  it('never leaks a secret straddling the pre-redaction cut of a huge input', () => {
    const fake = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    const limit = 10;
    const budget = limit * 2 + 4096;
    for (const offset of [budget - 30, budget - 4, budget - 1]) {
      const input = `${'a'.repeat(offset)}${fake}${'b '.repeat(10_000)}`;
      const out = sanitizeUntrustedText(input, budget + 100);
      assert.equal(out.includes('ghp_FAKE'), false);
    }
  });

  it('clips a 10 MB input and redacts what it keeps (its time is bench/redact-hostile.ts territory, not asserted)', () => {
    const input = 'line with token = Fake-P4ssw0rd-For-Tests and \u001b[1mbold\u001b[0m\n'.repeat(160_000);
    const out = sanitizeUntrustedText(input, 4096);
    assert.ok(out.endsWith(' chars]'));
    assert.equal(out.includes('Fake-P4ssw0rd'), false);
  });
});

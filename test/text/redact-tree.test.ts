import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { redactSecrets } from '../../src/text/redact/redact.js';
import { mightHoldSecret, redactDocument, redactText, redactTree } from '../../src/text/redact/tree.js';

interface Corpus {
  values: { key: string; secret: string }[];
  lines: { secret: string; line: string }[];
  blocks: { secret: string; text: string }[];
}
const corpus = JSON.parse(readFileSync(new URL('../fixtures/redaction/secrets.json', import.meta.url), 'utf8')) as Corpus;

test('the prefilter passes every text the redactor would change (it only skips work, never a secret)', () => {
  const texts = [
    ...corpus.values.flatMap(({ key, secret }) => [secret, `${key}: ${secret}`, `${key}=${secret}`, `"${key}": "${secret}"`]),
    ...corpus.lines.map(({ secret, line }) => line.replaceAll('{secret}', secret)),
    ...corpus.blocks.map(({ secret, text }) => text.replaceAll('{secret}', secret)),
  ];
  let changed = 0;
  for (const text of texts) {
    if (redactSecrets(text).text === text) continue;
    changed += 1;
    assert.equal(mightHoldSecret(text), true, text);
  }
  assert.ok(changed > 150, `only ${changed} corpus texts are redacted at all`);
});

test('redactText, the prefiltered redactor of edge-case details and messages, answers as redactSecrets on every corpus text', () => {
  const texts = [
    ...corpus.values.flatMap(({ key, secret }) => [secret, `${key}: ${secret}`, `${key}=${secret}`, `pwd=${secret.slice(0, 4)}`]),
    ...corpus.lines.map(({ secret, line }) => line.replaceAll('{secret}', secret)),
    ...corpus.blocks.map(({ secret, text }) => text.replaceAll('{secret}', secret)),
    'pwd=abcd',
    'if (total > limit) return page;',
  ];
  for (const text of texts) assert.equal(redactText(text), redactSecrets(text).text, text);
});

test('a report is redacted as a tree: values in the context of their keys, argv with its flags, commands as words', () => {
  const report = {
    checks: [
      { name: 'deploy', command: 'deploy --password Hunter2FakePw9 --verbose' },
      { name: 'migrate', argv: ['mysql', '-u', 'root', '-pS3cretFake9', 'shop'] },
    ],
    requirements: {
      password: 'Hunter2FakePw9',
      sortKey: 'createdAt',
      idempotencyKey: 'requestId',
      note: 'token ghp_FAKEfake0TEST1test2EXAMPLE3example4X',
    },
    fingerprints: { 'src/auth/login.ts': 'e83c5163316f89bfbde7d9ab23ca2e25604af290' },
    titles: ['charges with sk_live_FAKEfake0000TESTtest1111', 'redactSecrets: properties'],
    AKIAFAKE2345TEST6777: 1,
  };
  const safe = JSON.stringify(redactTree(report));
  for (const secret of ['Hunter2FakePw9', 'S3cretFake9', 'FAKEfake0TEST1test2EXAMPLE3', 'FAKEfake0000TESTtest1111', 'FAKE2345TEST6777']) {
    assert.equal(safe.includes(secret), false, secret);
  }
  for (const kept of [
    'createdAt',
    'requestId',
    'e83c5163316f89bfbde7d9ab23ca2e25604af290',
    'redactSecrets: properties',
    '--verbose',
    'shop',
    'src/auth/login.ts',
  ]) {
    assert.equal(safe.includes(kept), true, kept);
  }
  assert.equal(JSON.stringify(report).includes('Hunter2FakePw9'), true, 'the input is not changed');
});

test('a clean tree is returned as is, and a written document keeps its layout', () => {
  const clean = { files: [{ path: 'src/a.ts', reason: 'auth middleware' }], count: 2 };
  assert.equal(redactTree(clean), clean);
  const pretty = `${JSON.stringify({ task: 'x', token: 'Tk9FAKEvalue7Q' }, null, 2)}\n`;
  assert.equal(
    redactDocument('task-context.json', pretty),
    `${JSON.stringify({ task: 'x', token: '[REDACTED:generic-secret]' }, null, 2)}\n`,
  );
  assert.equal(redactDocument('cache/facts.json', '{"a":"password: Hunter2FakePw9"}'), '{"a":"password: [REDACTED:generic-secret]"}');
  assert.equal(redactDocument('bundle.md', 'use ghp_FAKEfake0TEST1test2EXAMPLE3example4X'), 'use [REDACTED:github-token]');
  assert.equal(redactDocument('clean.json', '{"a": 1}'), '{"a": 1}');
});

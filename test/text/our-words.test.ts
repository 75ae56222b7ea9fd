// Every secret-looking value in this file is a synthetic fake (security.md §6). gitleaks:allow
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { redactSecrets } from '../../src/text/redact/redact.js';

const GENERIC = '[REDACTED:generic-secret]';
const SRC = join(import.meta.dirname, '..', '..', 'src');
/** A one-line string or template literal of 20+ characters: our hints, messages, limitations and help texts. */
const LITERAL = /'((?:[^'\\\n]|\\.){20,})'|`((?:[^`\\\n]|\\.){20,})`/g;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('our own words are never redacted; outside text always is', () => {
  it('no prose literal in src/ changes under the redactor (interpolations stand in as 1000)', () => {
    const eaten: string[] = [];
    let checked = 0;
    for (const file of listSources(SRC)) {
      // The redactor's own sources describe secrets on purpose.
      if (/\/text\/redact\/[^/]*\.ts$/.test(file)) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(LITERAL)) {
        const text = (match[1] ?? match[2] ?? '').replace(/\$\{[^}]*\}/g, '1000');
        if (!text.includes(' ')) continue;
        checked += 1;
        const redacted = redactSecrets(text).text;
        if (redacted !== text) eaten.push(`${relative(SRC, file)}: ${text.slice(0, 120)}\n  => ${redacted.slice(0, 120)}`);
      }
    }
    assert.ok(checked > 1000, `only ${checked} literals found: the scan is broken`);
    assert.deepEqual(eaten, []);
  });

  it('a flag name after a secret word is the next option, not a value', () => {
    for (const text of [
      'Pass --max-nodes between 1 and 1000 (default 80).',
      'or pass --trust-changed-config to run the configuration this change sets',
      'pass --token-file instead',
      '--password --verbose',
      'the password is --max-nodes',
    ])
      assert.equal(redactSecrets(text).text, text);
  });

  it('values after a secret word are still redacted, dashes or not', () => {
    const cases: [string, string][] = [
      ['--password hunter2', `--password ${GENERIC}`],
      ['--password --hunter2Xy', `--password ${GENERIC}`],
      ['--password -Secret', `--password ${GENERIC}`],
      ['password: --hunter2Xy', `password: ${GENERIC}`],
      ['password = "--max-nodes"', `password = "${GENERIC}"`],
    ];
    for (const [text, expected] of cases) assert.equal(redactSecrets(text).text, expected, text);
    const token = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    assert.equal(redactSecrets(`Pass --max-nodes ${token}`).text.includes(token), false);
  });
});

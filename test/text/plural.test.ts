import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { countOf, pluralize } from '../../src/text/plural.js';

test('pluralize: the last word of a noun phrase, English rules for -y, -s, -x, -ch, -sh', () => {
  assert.deepEqual(['route', 'catch block', 'policy', 'key', 'class', 'box', 'match', 'hash', 'recorded invariant'].map(pluralize), [
    'routes',
    'catch blocks',
    'policies',
    'keys',
    'classes',
    'boxes',
    'matches',
    'hashes',
    'recorded invariants',
  ]);
  assert.equal(countOf(1, 'policy', pluralize('policy')), '1 policy');
  assert.equal(countOf(0, 'policy', pluralize('policy')), '0 policies');
});

test('no source file writes a count as "noun(s)": every count goes through countOf (issue 42, item 7)', () => {
  const root = fileURLToPath(new URL('../../src/', import.meta.url));
  const offenders: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name === 'plural.ts') continue;
    const file = join(entry.parentPath, entry.name);
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (/[A-Za-z]\(s\)/.test(line.replaceAll('http(s)', ''))) offenders.push(`${relative(root, file)}:${index + 1}`);
      });
  }
  assert.deepEqual(offenders, []);
});

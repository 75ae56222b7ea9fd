import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { FACT_CATALOGUE, SUBJECT_KINDS } from '../../src/model/rules.js';
import { projectRoot } from '../helpers/cli.js';

const doc = readFileSync(join(projectRoot, 'docs/rule-packs.md'), 'utf8');

test('docs/rule-packs.md lists every built-in pack with its version, its subject and every rule', () => {
  const rows = new Map(
    doc
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => [line.split('|')[1]?.trim() ?? '', line]),
  );
  for (const folder of readdirSync(join(projectRoot, 'rules')).sort()) {
    const pack: unknown = parse(readFileSync(join(projectRoot, 'rules', folder, 'pack.yaml'), 'utf8'));
    assert.ok(
      typeof pack === 'object' &&
        pack !== null &&
        'id' in pack &&
        'version' in pack &&
        'subject' in pack &&
        'rules' in pack &&
        Array.isArray(pack.rules),
    );
    const row = rows.get(`\`${String(pack.id)}\``);
    assert.ok(row !== undefined, `no row for pack ${String(pack.id)}`);
    assert.ok(
      row.startsWith(`| \`${String(pack.id)}\` | ${String(pack.version)} |`),
      `${String(pack.id)}: version ${String(pack.version)}`,
    );
    assert.ok(row.includes(`| \`${String(pack.subject)}\` |`), `${String(pack.id)}: subject`);
    for (const rule of pack.rules as { id: string; event: { params: { weight: number } } }[]) {
      assert.ok(row.includes(`\`${rule.id}\` (${rule.event.params.weight})`), `${String(pack.id)}: ${rule.id}`);
    }
  }
});

test('docs/rule-packs.md documents every subject and fact of FACT_CATALOGUE', () => {
  for (const subject of SUBJECT_KINDS) {
    const start = doc.indexOf(`#### \`${subject}\`\n`);
    assert.notEqual(start, -1, subject);
    const end = doc.indexOf('\n#', start + 5);
    const section = doc.slice(start, end === -1 ? undefined : end);
    for (const [name, declaration] of Object.entries(FACT_CATALOGUE[subject])) {
      assert.ok(section.includes(`| \`${name}\` | ${declaration.type} |`), `${subject}.${name}`);
    }
  }
});

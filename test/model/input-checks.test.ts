import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import {
  type Checked,
  checkFailOn,
  checkFormat,
  checkRef,
  checkSessionId,
  checkTask,
  MAX_TASK_CHARS,
} from '../../src/model/input-checks.js';
import { failOnField, formatField, refField, sessionIdField, taskField } from '../../src/model/input-fields.js';

// The CLI checks its flags with the zod-free checks (src/model/input-checks.ts); the MCP tools with the zod fields built
// from the same values and messages. Each pair must pass the same values with the same result and refuse the same
// values in the same words, or the two adapters would answer one input differently.

const ODD: unknown[] = [undefined, null, 0, 1, true, {}, [], '', ' ', '\n', 'x'.repeat(300)];

function viaZod(field: z.ZodType, value: unknown): Checked<unknown> {
  const parsed = field.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'is not valid' };
}

function assertSame(name: string, field: z.ZodType, check: (value: unknown) => Checked<unknown>, values: unknown[]): void {
  let passed = 0;
  let refused = 0;
  for (const value of [...ODD, ...values]) {
    const expected = viaZod(field, value);
    assert.deepEqual(check(value), expected, `${name}: ${JSON.stringify(value)?.slice(0, 80)}`);
    if (expected.ok) passed += 1;
    else refused += 1;
  }
  assert.ok(passed > 0 && refused > 0, `${name}: the values must exercise both answers`);
}

test('--format and --fail-on answer as the MCP tools fields do', () => {
  assertSame('format', formatField, checkFormat, ['markdown', 'json', 'JSON', 'md', ' json', 'sarif']);
  assertSame('fail-on', failOnField, checkFailOn, ['low', 'medium', 'high', 'critical', 'High', 'none', 'critical ']);
});

test('--base and --head answer as the MCP tools ref fields do', () => {
  const refs = ['main', 'HEAD~1', 'HEAD^2', 'v1.2.3', 'origin/main', '@{upstream}', 'a'.repeat(200), 'a'.repeat(201), '-x', '--exec=x'];
  for (const side of ['base', 'head'] as const) {
    assertSame(side, refField(side), (value) => checkRef(side, value), [...refs, 'main..dev', 'feat:x', 'a b', 'ünïcode', '_ok']);
  }
});

test('--session and --task answer as the MCP tools sessionId and task fields do, the task trimmed', () => {
  assertSame('session', sessionIdField, checkSessionId, [
    'fix-1',
    'a',
    'A.b_c-d',
    '.hidden',
    '../up',
    'a/b',
    'x'.repeat(64),
    'x'.repeat(65),
  ]);
  assertSame('task', taskField, checkTask, [
    'apply the discount',
    '  padded task  ',
    '\t',
    'x'.repeat(MAX_TASK_CHARS),
    'x'.repeat(MAX_TASK_CHARS + 1),
    ` ${'x'.repeat(MAX_TASK_CHARS)} `,
  ]);
});

import assert from 'node:assert/strict';
import type { z } from 'zod';
import { getValidator } from '../../src/io/schema.js';

type Path = (string | number)[];

function changed(root: unknown, path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path[path.length - 1] as string | number);
  return copy;
}

/**
 * A valid document and broken variants of it: at every distinct path (array items collapsed to the first), the
 * value is deleted, nulled, given the wrong type, emptied, stretched or, for objects, given an unknown key.
 */
export function mutations(label: string, doc: unknown): { name: string; data: unknown }[] {
  const out: { name: string; data: unknown }[] = [{ name: label, data: doc }];
  const seen = new Set<string>();
  const set = (path: Path, value: unknown) =>
    changed(doc, path, (parent, key) => {
      parent[key] = value;
    });
  const walk = (value: unknown, path: Path): void => {
    const key = path.map((part) => (typeof part === 'number' ? '[]' : part)).join('.');
    if (path.length > 0 && !seen.has(key)) {
      seen.add(key);
      const at = (what: string, data: unknown) => out.push({ name: `${label} ${key} ${what}`, data });
      if (typeof path[path.length - 1] === 'string')
        at(
          'deleted',
          changed(doc, path, (parent, last) => {
            delete parent[last];
          }),
        );
      at('null', set(path, null));
      if (typeof value === 'string') {
        at('number', set(path, 1));
        at('empty', set(path, ''));
        at('unknown word', set(path, 'zz-not-a-value'));
        at('long', set(path, 'x'.repeat(20_000)));
      } else if (typeof value === 'number') {
        at('string', set(path, '1'));
        for (const [what, n] of [
          ['-1', -1],
          ['0', 0],
          ['0.5', 0.5],
          ['1e6', 1e6],
        ] as const)
          at(what, set(path, n));
      } else if (typeof value === 'boolean') {
        at('flipped', set(path, !value));
        at('string', set(path, 'true'));
      } else if (Array.isArray(value)) {
        at('emptied', set(path, []));
        at('object', set(path, {}));
        if (value.length > 0) at('doubled', set(path, [...value, ...value]));
      } else if (typeof value === 'object' && value !== null) {
        at('unknown key', set(path, { ...value, zzExtra: 1 }));
        at('array', set(path, []));
        at('emptied', set(path, {}));
      }
    }
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, [...path, index]);
    } else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) walk(item, [...path, name]);
  };
  walk(doc, []);
  out.push({ name: `${label} unknown top-level key`, data: { ...(doc as object), zzExtra: 1 } });
  return out;
}

/** Asserts the zod source and the committed schemas/<name>.schema.json (ajv) give the same verdict on every document. */
export function assertAgreement(
  name: string,
  schema: z.ZodType,
  documents: { name: string; data: unknown }[],
): { valid: number; invalid: number } {
  const validate = getValidator(name);
  let valid = 0;
  for (const { name: what, data } of documents) {
    const byZod = schema.safeParse(data).success;
    assert.equal(validate(data), byZod, `${name}: zod says ${byZod ? 'valid' : 'invalid'}, ajv does not: ${what}`);
    if (byZod) valid++;
  }
  return { valid, invalid: documents.length - valid };
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonObject } from '../../src/graph/resolve/json.js';

// Manifests and tsconfigs: strict JSON takes the fast path, JSONC (comments, trailing commas) the JSONC parser, and a
// broken file says where it breaks, whichever path read it.

test('strict JSON is read as JSON.parse reads it: a "__proto__" key stays an own property', () => {
  const parsed = parseJsonObject('{"__proto__": {"exports": "./forged.js"}, "name": "pkg", "name": "last"}');
  assert.equal(parsed.error, undefined);
  const value = parsed.value ?? {};
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.keys(value), ['__proto__', 'name']);
  assert.equal(value.name, 'last');
  assert.equal((value as { exports?: unknown }).exports, undefined, 'nothing is inherited from the "__proto__" key');
});

test('JSONC is read with every key an own property too', () => {
  const parsed = parseJsonObject(
    '{\n  // a tsconfig\n  "__proto__": { "extends": "./forged.json" },\n  "compilerOptions": { "paths": {}, },\n}\n',
  );
  const value = parsed.value ?? {};
  assert.equal(parsed.error, undefined);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.keys(value), ['__proto__', 'compilerOptions']);
  assert.equal((value as { extends?: unknown }).extends, undefined, 'nothing is inherited from the "__proto__" key');
});

test('JSONC with comments and trailing commas is read; a broken file or a non-object says so', () => {
  assert.deepEqual(parseJsonObject('{\n  // paths\n  "compilerOptions": { "baseUrl": ".", },\n}\n'), {
    value: { compilerOptions: { baseUrl: '.' } },
  });
  assert.deepEqual(parseJsonObject('{"a": 1, "b": }'), { value: { a: 1 }, error: 'invalid JSON at offset 14' });
  assert.deepEqual(parseJsonObject('[1, 2]'), { value: undefined, error: 'not a JSON object' });
  assert.deepEqual(parseJsonObject('\ufeff{"a": 1}').value, { a: 1 });
});

test('a file nested too deeply for the JSONC parser is reported, not a crash', () => {
  assert.deepEqual(parseJsonObject(`{"a": ${'['.repeat(20_000)}`), { value: undefined, error: 'nested too deeply to read' });
  // Strict JSON as deep is read by JSON.parse, which does not recurse on the stack.
  assert.equal(typeof parseJsonObject(`{"a": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`).value, 'object');
});

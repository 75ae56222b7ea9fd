import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getValidator } from '../../src/io/schema.js';
import { GENERATED_SCHEMAS, buildJsonSchema, renderJsonSchema } from '../../src/model/json-schemas.js';

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');

describe('schemas generated from zod', () => {
  it('every generated file in schemas/ equals what its zod source renders (npm run schemas)', () => {
    for (const name of Object.keys(GENERATED_SCHEMAS)) {
      const file = join(SCHEMA_DIR, `${name}.schema.json`);
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, renderJsonSchema(name));
      assert.equal(readFileSync(file, 'utf8'), renderJsonSchema(name), `${name}.schema.json is out of date: run npm run schemas`);
    }
  });

  it('every generated file compiles on its own, with its id, title and only local references', () => {
    for (const name of Object.keys(GENERATED_SCHEMAS)) {
      const schema = buildJsonSchema(name);
      assert.equal(schema.$id, `https://unpkg.com/checker-cli/schemas/${name}.schema.json`);
      assert.equal(typeof schema.title, 'string');
      for (const ref of JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? []) assert.match(ref, /"\$ref":"#\/\$defs\/[A-Za-z]+"/, name);
      assert.equal(typeof getValidator(name), 'function');
    }
  });
});

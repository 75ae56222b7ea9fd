import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadConfig } from '../../src/app/load/load-config.js';
import { createNodeEnv } from '../../src/io/node-env.js';

type Schema = Record<string, unknown>;

const projectRoot = join(import.meta.dirname, '../..');
const readSchema = (name: string): Schema =>
  JSON.parse(readFileSync(join(projectRoot, 'schemas', `${name}.schema.json`), 'utf8')) as Schema;

/** Every property of a schema, with its path, through nested objects, records, arrays and `$defs`. */
function collectProperties(schema: Schema, path: string, into: Array<{ path: string; schema: Schema }>): void {
  const properties = schema.properties as Record<string, Schema> | undefined;
  for (const [key, property] of Object.entries(properties ?? {})) {
    into.push({ path: `${path}${key}`, schema: property });
    collectProperties(property, `${path}${key}.`, into);
  }
  for (const nested of ['items', 'additionalProperties'] as const) {
    const value = schema[nested];
    if (typeof value === 'object' && value !== null) collectProperties(value as Schema, `${path}${nested === 'items' ? '[]' : '*'}.`, into);
  }
}

describe('the configuration schemas an editor reads', () => {
  for (const name of ['config', 'user-config']) {
    it(`${name}: every property has a description and examples, and every example and default is valid for its property`, () => {
      const root = readSchema(name);
      const properties: Array<{ path: string; schema: Schema }> = [];
      collectProperties(root, '', properties);
      for (const [id, definition] of Object.entries((root.$defs ?? {}) as Record<string, Schema>))
        collectProperties(definition, `$defs.${id}.`, properties);
      assert.ok(properties.length > (name === 'config' ? 70 : 10), `${properties.length} properties`);
      const ajv = new Ajv2020.default({ strict: false, allErrors: true });
      addFormats.default(ajv);
      for (const { path, schema } of properties) {
        assert.equal(typeof schema.description, 'string', `${name} ${path} has no description`);
        assert.ok(Array.isArray(schema.examples) && schema.examples.length > 0, `${name} ${path} has no examples`);
        const validate = ajv.compile({ ...schema, $defs: root.$defs });
        for (const example of [...(schema.examples as unknown[]), ...('default' in schema ? [schema.default] : [])]) {
          assert.ok(validate(example), `${name} ${path}: ${JSON.stringify(example)} is invalid: ${ajv.errorsText(validate.errors)}`);
        }
      }
    });
  }

  it('names a schema that can be fetched: the file as the published package ships it', () => {
    assert.equal(readSchema('config').$id, 'https://unpkg.com/checker-cli/schemas/config.schema.json');
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; files: string[] };
    assert.equal(manifest.name, 'checker-cli');
    assert.ok(manifest.files.includes('schemas'));
  });

  it('the loader accepts a JSON config that names its $schema, and still refuses unknown keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checker-config-schema-'));
    try {
      const env = createNodeEnv(dir);
      try {
        writeFileSync(
          join(dir, 'checker.config.yml'),
          JSON.stringify({ $schema: './node_modules/checker-cli/schemas/config.schema.json', analysis: { maxPromptTasks: 20 } }),
        );
        const loaded = await loadConfig(env);
        assert.deepEqual(loaded.diagnostics, []);
        assert.equal(loaded.config.analysis?.maxPromptTasks, 20);
        writeFileSync(join(dir, 'checker.config.yml'), JSON.stringify({ $schemas: 'x' }));
        await assert.rejects(loadConfig(env), /\$schemas/);
      } finally {
        await env.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

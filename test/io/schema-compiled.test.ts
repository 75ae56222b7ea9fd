import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateBuiltinPacks } from '../../src/app/load/load-rule-packs.js';
import { readBuiltinPackSources } from '../../src/io/builtin-packs.js';
import { readCompiledPack, toCompiledPackJson } from '../../src/io/compiled-packs.js';
import { parsePackText } from '../../src/rules/validate-pack.js';
import { formatAjvError } from '../../src/repo-text/schema-errors.js';
import {
  checkSchema,
  createAjv,
  findPackageRoot,
  readCompiledValidator,
  type SchemaValidator,
  toStandaloneValidatorModule,
} from '../../src/io/schema.js';

const root = findPackageRoot();

async function readSchemaText(name: string): Promise<string> {
  return readFile(join(root, 'schemas', `${name}.schema.json`), 'utf8');
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(join(root, path), 'utf8'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The first object found depth-first inside `value` at depth >= 1 (an array item or a nested field). */
function findNestedObject(value: unknown): Record<string, unknown> | undefined {
  const children = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
  for (const child of children) {
    if (isRecord(child)) return child;
    const deeper = findNestedObject(child);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** Broken copies of a valid document: one per kind of error formatAjvError words differently. */
function toInvalidVariants(document: Record<string, unknown>): unknown[] {
  const variants: unknown[] = [null, [], 'text', { ...clone(document), unexpectedKey: true }];
  for (const key of Object.keys(document)) {
    const missing = clone(document);
    delete missing[key];
    variants.push(missing);
    variants.push({ ...clone(document), [key]: key === 'schemaVersion' ? 99 : { wrong: 'type' } });
    variants.push({ ...clone(document), [key]: 'not-a-valid-value' });
  }
  for (const key of ['generatedAt', 'createdAt', 'startedAt']) {
    if (key in document) variants.push({ ...clone(document), [key]: 'yesterday at noon' });
  }
  const nestedCopy = clone(document);
  const nested = findNestedObject(nestedCopy);
  if (nested !== undefined) {
    nested.unexpectedNestedKey = 1;
    variants.push(nestedCopy);
    const nestedKeys = Object.keys(nested);
    const first = nestedKeys[0];
    if (first !== undefined) {
      const retyped = clone(document);
      const target = findNestedObject(retyped);
      if (target !== undefined) target[first] = [[[]]];
      variants.push(retyped);
    }
  }
  return variants;
}

interface Case {
  schema: string;
  valid: () => Promise<unknown>;
}

const cases: Case[] = [
  { schema: 'config', valid: async () => ({}) },
  {
    schema: 'rule-pack',
    valid: async () => parsePackText('risk/pack.yaml', await readFile(join(root, 'rules', 'risk', 'pack.yaml'), 'utf8')),
  },
  {
    schema: 'rule-pack',
    valid: async () => parsePackText('edge-cases/pack.yaml', await readFile(join(root, 'rules', 'edge-cases', 'pack.yaml'), 'utf8')),
  },
  { schema: 'analysis-report', valid: () => readJson('test/report/golden/large-analysis.golden.json') },
  { schema: 'impact-report', valid: () => readJson('test/report/golden/hostile-impact.golden.json') },
  { schema: 'agent-bundle', valid: () => readJson('test/report/golden/bundle-codex.json') },
];

describe('precompiled (ajv standalone) validators', () => {
  let dir = '';
  before(async () => {
    // Inside the package, as dist/schemas-compiled is: the standalone code requires ajv's runtime helpers by package name.
    const cache = join(root, 'node_modules', '.cache', 'checker');
    await mkdir(cache, { recursive: true });
    dir = await mkdtemp(join(cache, 'compiled-validators-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function loadBoth(schema: string): Promise<{ compiled: SchemaValidator; runtime: SchemaValidator }> {
    const text = await readSchemaText(schema);
    await writeFile(join(dir, `${schema}.cjs`), toStandaloneValidatorModule(schema, text));
    const compiled = readCompiledValidator(dir, schema, text);
    assert.ok(compiled !== undefined, `the compiled ${schema} validator loads`);
    const runtime = createAjv().compile(JSON.parse(text));
    return { compiled, runtime };
  }

  for (const { schema, valid } of cases) {
    it(`${schema}: the same verdicts, ErrorObjects and messages as a run-time compile`, async () => {
      const { compiled, runtime } = await loadBoth(schema);
      const document = await valid();
      assert.ok(isRecord(document));
      assert.equal(runtime(document), true, `the sample ${schema} document is valid: ${JSON.stringify(runtime.errors?.[0])}`);
      let invalid = 0;
      for (const data of [document, ...toInvalidVariants(document)]) {
        const expected = runtime(data);
        assert.equal(compiled(data), expected);
        assert.deepEqual(compiled.errors ?? null, runtime.errors ?? null);
        const first = runtime.errors?.[0];
        const compiledFirst = compiled.errors?.[0];
        if (first !== undefined && compiledFirst !== undefined) {
          invalid += 1;
          assert.deepEqual(formatAjvError(compiledFirst), formatAjvError(first));
        }
      }
      assert.ok(invalid >= 4, `at least four invalid variants of ${schema} were compared (${invalid})`);
    });
  }

  it('carries the schema, as getValidator(name).schema does for the MCP output schemas', async () => {
    const { compiled } = await loadBoth('memory');
    assert.deepEqual(compiled.schema, JSON.parse(await readSchemaText('memory')));
  });

  it('refuses a compiled file built from other schema text (an edited schema compiles at run time instead)', async () => {
    const text = await readSchemaText('memory');
    await writeFile(join(dir, 'memory.cjs'), toStandaloneValidatorModule('memory', text));
    assert.equal(readCompiledValidator(dir, 'memory', `${text} `), undefined);
    assert.equal(readCompiledValidator(dir, 'absent', text), undefined);
  });
});

describe('precompiled built-in packs (dist/rules-compiled)', () => {
  let dir = '';
  let schemaText = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'checker-compiled-packs-'));
    schemaText = await readSchemaText('rule-pack');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('every built-in pack reads back from JSON exactly as its YAML parses', async () => {
    const packDirs = (await readdir(join(root, 'rules'))).sort();
    assert.ok(packDirs.length >= 10);
    for (const packDir of packDirs) {
      const file = `rules/${packDir}/pack.yaml`;
      const text = await readFile(join(root, file), 'utf8');
      const parsed = parsePackText(file, text);
      await writeFile(join(dir, `${packDir}.json`), toCompiledPackJson(text, parsed));
      assert.deepEqual(readCompiledPack(packDir, text, schemaText, dir), { data: parsed, validated: false }, file);
    }
  });

  it('counts as validated only against the rule-pack schema it was validated with', async () => {
    const text = await readFile(join(root, 'rules', 'risk', 'pack.yaml'), 'utf8');
    const parsed = parsePackText('rules/risk/pack.yaml', text);
    await writeFile(join(dir, 'risk.json'), toCompiledPackJson(text, parsed, schemaText));
    assert.deepEqual(readCompiledPack('risk', text, schemaText, dir), { data: parsed, validated: true });
    assert.deepEqual(readCompiledPack('risk', text, schemaText.replace('"type"', ' "type"'), dir), { data: parsed, validated: false });
  });

  it('the build validated every built-in pack against the current schema, and validated data is used as it is', async () => {
    const sources = await readBuiltinPackSources();
    assert.deepEqual(
      sources.filter((source) => source.validated !== true).map((source) => source.file),
      [],
      'run npm run build: dist/rules-compiled is missing or stale',
    );
    const broken = { folder: 'risk', file: 'rules/risk/pack.yaml', text: '', compiled: { id: 'risk', rules: 'not a list' } };
    const refuse = (): never => {
      throw new Error('validated data must not be checked again');
    };
    assert.equal(validateBuiltinPacks([{ ...broken, validated: true }], refuse)[0]?.pack.id, 'risk');
    assert.throws(() => validateBuiltinPacks([broken], checkSchema), /pack\/invalid|rules/);
  });

  it('refuses compiled data from other pack text, and a pack with no compiled file', async () => {
    const text = await readFile(join(root, 'rules', 'risk', 'pack.yaml'), 'utf8');
    await writeFile(join(dir, 'risk.json'), toCompiledPackJson(text, parsePackText('rules/risk/pack.yaml', text)));
    assert.equal(readCompiledPack('risk', text.replace('weight', 'weight '), schemaText, dir), undefined);
    assert.equal(readCompiledPack('no-such-pack', text, schemaText, dir), undefined);
  });
});

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { CheckerError } from '../model/diagnostic.js';
import { assertDepth, formatAjvError } from '../repo-text/schema-errors.js';
import type { SchemaIssue } from '../model/schema-issue.js';

const SCHEMA_NAME = /^[a-z0-9][a-z0-9.-]{0,99}$/;

/** A compiled schema: ajv's function (or its precompiled standalone twin) and the schema it checks. */
export interface SchemaValidator<T = unknown> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
  schema: unknown;
}

let ajvInstance: Ajv2020 | undefined;
const validators = new Map<string, SchemaValidator>();
let packageRoot: string | undefined;
/** ajv and ajv-formats are required only when a schema has no precompiled validator: loading them costs a CLI start ~100 ms. */
const require = createRequire(import.meta.url);

/** The one ajv configuration, shared by run-time compiles and the build's standalone validators (dist/schemas-compiled). */
export function createAjv(extra: Pick<Options, 'code'> = {}): Ajv2020 {
  const { Ajv2020: Ajv }: typeof import('ajv/dist/2020.js') = require('ajv/dist/2020.js');
  const formats: typeof import('ajv-formats') = require('ajv-formats');
  const ajv = new Ajv({
    strict: true,
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    $data: false,
    verbose: true,
    ...extra,
  });
  const addFormats = typeof formats === 'function' ? formats : formats.default;
  addFormats(ajv);
  return ajv;
}

function getAjv(): Ajv2020 {
  ajvInstance ??= createAjv();
  return ajvInstance;
}

/** The folder holding this package's package.json, found upward from this module (works from src and dist). */
export function findPackageRoot(): string {
  if (packageRoot !== undefined) return packageRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) {
      packageRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new CheckerError('internal/package-root', 'cannot find the checker package root (package.json with schemas/)');
    dir = parent;
  }
}

function isObjectLike(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

export function readSchemaText(schemaName: string): string {
  const file = join(findPackageRoot(), 'schemas', `${schemaName}.schema.json`);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CheckerError('internal/schema-missing', `cannot load schema ${schemaName} from ${file}`, { cause: error });
  }
}

function parseSchema(schemaName: string, text: string): object {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new CheckerError('internal/schema-invalid', `schema ${schemaName} is not JSON`, { cause: error });
  }
  if (!isObjectLike(schema)) throw new CheckerError('internal/schema-invalid', `schema ${schemaName} is not an object`);
  return schema;
}

function hashSchemaText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function compileSchema(ajv: Ajv2020, schemaName: string, schema: object): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (error) {
    ajv.removeSchema(schema);
    throw new CheckerError(
      'internal/schema-invalid',
      `schema ${schemaName} does not compile: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/**
 * The CommonJS module of ajv's standalone code for one schema, as `npm run build` writes it to
 * dist/schemas-compiled/<name>.cjs; it records the schema text's hash so an edited schema is never checked by stale code.
 */
export function toStandaloneValidatorModule(schemaName: string, schemaText: string): string {
  const ajv = createAjv({ code: { source: true } });
  const validate = compileSchema(ajv, schemaName, parseSchema(schemaName, schemaText));
  const { default: standaloneCode }: typeof import('ajv/dist/standalone/index.js') = require('ajv/dist/standalone/index.js');
  return `${standaloneCode(ajv, validate)}\nmodule.exports.schemaTextHash = ${JSON.stringify(hashSchemaText(schemaText))};\n`;
}

/** A standalone module exports its validate function, on which the build hung `schemaTextHash`. */
interface CompiledModule {
  (data: unknown): data is unknown;
  errors?: ErrorObject[] | null;
  schemaTextHash: unknown;
}

function isCompiledValidator(value: unknown): value is CompiledModule {
  return typeof value === 'function' && 'schemaTextHash' in value;
}

/** The precompiled validator `<dir>/<name>.cjs` when it was built from exactly `schemaText`; undefined otherwise. */
export function readCompiledValidator(dir: string, schemaName: string, schemaText: string): SchemaValidator | undefined {
  const file = join(dir, `${schemaName}.cjs`);
  if (!existsSync(file)) return undefined;
  const loaded: unknown = require(file);
  if (!isCompiledValidator(loaded) || loaded.schemaTextHash !== hashSchemaText(schemaText)) return undefined;
  return Object.assign(loaded, { schema: parseSchema(schemaName, schemaText) });
}

/**
 * dist/schemas-compiled beside dist/io. Run from source (src/io under tsx, as tests and scripts are), the build's
 * dist/schemas-compiled is used when it was compiled from the same schema text (the hash check above); otherwise, or
 * before the first build, every schema compiles at run time (~10-60 ms each).
 */
const COMPILED_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  import.meta.url.endsWith('.ts') ? '../../dist/schemas-compiled' : '../schemas-compiled',
);

export function getValidator<T = unknown>(schemaName: string): SchemaValidator<T> {
  if (!SCHEMA_NAME.test(schemaName)) throw new CheckerError('internal/schema-name', `invalid schema name "${schemaName}"`);
  const cached = validators.get(schemaName);
  if (cached !== undefined) return cached as SchemaValidator<T>;
  const text = readSchemaText(schemaName);
  const validate: SchemaValidator =
    readCompiledValidator(COMPILED_DIR, schemaName, text) ?? compileSchema(getAjv(), schemaName, parseSchema(schemaName, text));
  validators.set(schemaName, validate);
  return validate as SchemaValidator<T>;
}

export interface ValidateOptions {
  code: string;
  file?: string;
}

/** The first issue of `data` against `schemas/<schemaName>.schema.json`, or undefined when it is valid. */
export function checkSchema(schemaName: string, data: unknown): SchemaIssue | undefined {
  const validate = getValidator(schemaName);
  if (validate(data)) return undefined;
  return validate.errors?.[0] ?? { keyword: 'invalid', instancePath: '', params: {}, message: 'is invalid' };
}

/** Validates `data` against `schemas/<schemaName>.schema.json` and returns it typed, or throws a CheckerError. */
export function validateOrThrow<T>(schemaName: string, data: unknown, options: ValidateOptions): T {
  assertDepth(data, options);
  const validate = getValidator<T>(schemaName);
  if (validate(data)) return data;
  const first = validate.errors?.[0];
  const formatted = first === undefined ? { message: 'is invalid', hint: 'check the document' } : formatAjvError(first);
  const prefix = options.file === undefined ? '' : `${options.file}: `;
  throw new CheckerError(options.code, `${prefix}${formatted.message}`, {
    hint: formatted.hint,
    ...(options.file === undefined ? {} : { location: { file: options.file } }),
  });
}

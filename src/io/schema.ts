import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { CheckerError } from '../model/diagnostic.js';
import { clipRedacted } from '../text/clip.js';

/** Deeper data is refused before ajv sees it: ajv and JSON.stringify recurse and overflow the stack (security V14). */
export const MAX_DATA_DEPTH = 64;
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

/** Returns the nesting depth of `data` (a scalar is 0), stopping as soon as `limit` is exceeded. */
function measureDepth(data: unknown, limit = MAX_DATA_DEPTH): number {
  if (!isObjectLike(data)) return 0;
  let deepest = 1;
  const stack: Array<{ value: object; depth: number }> = [{ value: data, depth: 1 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined) break;
    if (top.depth > deepest) deepest = top.depth;
    if (deepest > limit) return deepest;
    if (seen.has(top.value)) continue;
    seen.add(top.value);
    for (const child of Object.values(top.value)) {
      if (isObjectLike(child)) stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return deepest;
}

function readSchemaText(schemaName: string): string {
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

/** dist/schemas-compiled beside dist/io; under tsx (src/io) the folder does not exist and every schema compiles at run time. */
const COMPILED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas-compiled');

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

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/checks/lint/paths/0` → `checks.lint.paths[0]`; odd keys are quoted. */
export function toFieldPath(pointer: string, extra?: string): string {
  const segments = decodePointer(pointer);
  if (extra !== undefined) segments.push(extra);
  let out = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') {
    const shown = clipRedacted(value, 60);
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

function readProperty(value: unknown, key: string): unknown {
  return isObjectLike(value) && Object.hasOwn(value, key) ? Reflect.get(value, key) : undefined;
}

function listAllowedKeys(parentSchema: unknown): string[] {
  const properties = readProperty(parentSchema, 'properties');
  return isObjectLike(properties) ? Object.keys(properties).sort() : [];
}

/** One line naming the JSON path of the offending field, what it must be, and what it got. */
export function formatAjvError(error: ErrorObject): { message: string; hint: string } {
  const field = toFieldPath(error.instancePath);
  const where = field === '' ? 'the document' : field;
  const got = ` (got ${describeValue(error.data)})`;
  const params: unknown = error.params;
  if (error.propertyName !== undefined) {
    return {
      message: `${toFieldPath(error.instancePath, error.propertyName)} is not a valid name: ${error.message ?? 'invalid'}`,
      hint: 'use letters, digits, ".", "_" and "-", starting with a letter or digit',
    };
  }
  switch (error.keyword) {
    case 'type':
      return {
        message: `${where} must be ${String(readProperty(params, 'type'))}${got}`,
        hint: `set ${where} to a ${String(readProperty(params, 'type'))} value (no quotes for booleans and numbers)`,
      };
    case 'additionalProperties': {
      const key = String(readProperty(params, 'additionalProperty'));
      const allowed = listAllowedKeys(error.parentSchema);
      return {
        message: `unknown key ${toFieldPath(error.instancePath, key)}`,
        hint:
          allowed.length > 0
            ? `remove it or check its spelling; allowed keys here: ${allowed.join(', ')}`
            : 'remove it or check its spelling',
      };
    }
    case 'required': {
      const key = String(readProperty(params, 'missingProperty'));
      return {
        message: `missing required key ${toFieldPath(error.instancePath, key)}`,
        hint: `add ${toFieldPath(error.instancePath, key)}`,
      };
    }
    case 'enum': {
      const allowed = readProperty(params, 'allowedValues');
      const list = Array.isArray(allowed) ? allowed.map((v) => JSON.stringify(v)).join(', ') : '';
      return { message: `${where} must be one of ${list}${got}`, hint: `use one of ${list}` };
    }
    case 'const':
      return {
        message: `${where} must be ${JSON.stringify(readProperty(params, 'allowedValue'))}${got}`,
        hint: `set ${where} to ${JSON.stringify(readProperty(params, 'allowedValue'))}`,
      };
    case 'format':
      return {
        message: `${where} must be a valid ${String(readProperty(params, 'format'))}${got}`,
        hint: `fix the ${String(readProperty(params, 'format'))} in ${where}`,
      };
    case 'oneOf': {
      const alternatives = Array.isArray(error.schema)
        ? error.schema.flatMap((branch: unknown) => {
            const required = readProperty(branch, 'required');
            return Array.isArray(required) ? required.map(String) : [];
          })
        : [];
      if (alternatives.length > 1) {
        const list = alternatives.map((key) => `"${key}"`).join(' or ');
        return { message: `${where} must have exactly one of ${list}`, hint: `keep one of ${list} in ${where}` };
      }
      return { message: `${where} ${error.message ?? 'is invalid'}${got}`, hint: `fix ${where}` };
    }
    default:
      return { message: `${where} ${error.message ?? 'is invalid'}${got}`, hint: `fix ${where}` };
  }
}

export interface ValidateOptions {
  code: string;
  file?: string;
}

/** Refuses data nested deeper than MAX_DATA_DEPTH with a CheckerError. */
export function assertDepth(data: unknown, options: ValidateOptions): void {
  const depth = measureDepth(data, MAX_DATA_DEPTH);
  if (depth > MAX_DATA_DEPTH) {
    const subject = options.file ?? 'input';
    throw new CheckerError(options.code, `${subject} is nested deeper than ${MAX_DATA_DEPTH} levels`, {
      hint: 'flatten the document; deep nesting is refused to protect the validator',
      ...(options.file === undefined ? {} : { location: { file: options.file } }),
    });
  }
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

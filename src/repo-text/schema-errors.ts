import { CheckerError } from '../model/diagnostic.js';
import type { SchemaIssue } from '../model/schema-issue.js';
import { clipRedacted } from '../text/clip.js';

/** Deeper data is refused before ajv sees it: ajv and JSON.stringify recurse and overflow the stack (security V14). */
export const MAX_DATA_DEPTH = 64;

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
  return joinFieldPath(segments);
}

/** `['checks', 'lint', 'paths', '0']` → `checks.lint.paths[0]`; odd keys are quoted. */
export function joinFieldPath(segments: readonly string[]): string {
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
export function formatAjvError(error: SchemaIssue): { message: string; hint: string } {
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
    case 'type': {
      const expected = describeType(readProperty(params, 'type'));
      return {
        message: `${where} must be ${expected}${got}`,
        hint: `set ${where} to ${expected} (no quotes for booleans and numbers)`,
      };
    }
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

/** Refuses data nested deeper than MAX_DATA_DEPTH with a CheckerError. */
export function assertDepth(data: unknown, options: { code: string; file?: string }): void {
  const depth = measureDepth(data, MAX_DATA_DEPTH);
  if (depth > MAX_DATA_DEPTH) {
    const subject = options.file ?? 'input';
    throw new CheckerError(options.code, `${subject} is nested deeper than ${MAX_DATA_DEPTH} levels`, {
      hint: 'flatten the document; deep nesting is refused to protect the validator',
      ...(options.file === undefined ? {} : { location: { file: options.file } }),
    });
  }
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: 'a mapping (key: value lines)',
  array: 'a list',
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  null: 'null',
};

/** A JSON Schema type (or comma-separated types) as a YAML or JSON author says it: `object` → a mapping, `array` → a list. */
function describeType(type: unknown): string {
  const names = (Array.isArray(type) ? type : String(type).split(',')).map((name) => String(name).trim());
  return names.map((name) => TYPE_WORDS[name] ?? name).join(' or ');
}

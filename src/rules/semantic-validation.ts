import { excerpt, type SemanticChange } from './semantic-text.js';

/**
 * A changed validation schema: a field made required or optional, a bound or a format changed, a base type swapped,
 * in a file that imports a schema library. The code evidence is both: the import says what the chain is, the diff says
 * what it now accepts. A `.min(` in a file without such an import is not read as a schema.
 */

/** Schema libraries whose builders chain modifiers: `z.string().min(1).optional()`, `yup.number().required()`, `Joi…`. */
const SCHEMA_IMPORT =
  /(?:\bfrom\s*|\brequire\(\s*|\bimport\s*)["'](?:zod(?:\/[\w-]+)?|yup|joi|@hapi\/joi|valibot|superstruct|@sinclair\/typebox|@vinejs\/vine|arktype)["']/;

/** Loosening modifiers that let a field be left out (`undefined`), and those that let it be `null` (`nullish` both). */
const LETS_ABSENT = new Set(['optional', 'nullish', 'notRequired', 'default', 'catch', 'partial', 'Optional']);
const LETS_NULL = new Set(['nullable', 'nullish']);

/** Modifiers that decide whether a value may be missing. */
const LOOSENS = new Set(['optional', 'nullable', 'nullish', 'notRequired', 'default', 'catch', 'partial', 'Optional']);
const TIGHTENS = new Set(['required', 'nonempty', 'nonEmpty', 'defined', 'nonNullable', 'nonOptional']);
/** Modifiers that bound a value; their argument is the limit. */
const BOUNDS = new Set(['min', 'max', 'length', 'gt', 'gte', 'lt', 'lte', 'minLength', 'maxLength', 'multipleOf', 'size', 'between']);
/** Modifiers that restrict a value's form or kind. */
const FORMATS = new Set([
  'email',
  'url',
  'uuid',
  'cuid',
  'cuid2',
  'ulid',
  'datetime',
  'date',
  'ip',
  'int',
  'integer',
  'positive',
  'negative',
  'nonnegative',
  'nonpositive',
  'finite',
  'startsWith',
  'endsWith',
  'pattern',
  'valid',
  'allow',
  'oneOf',
  'strict',
  'passthrough',
  'strip',
  'unknown',
]);
/** Base types of the common builders (`z.string()`, `yup.number()`, `Joi.boolean()`, `v.picklist(…)`). */
const BASE_TYPES = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'date',
  'array',
  'object',
  'enum',
  'nativeEnum',
  'literal',
  'union',
  'record',
  'tuple',
  'any',
  'unknown',
  'uuid',
  'email',
  'url',
  'coerce',
  'picklist',
  'alternatives',
]);

const MODIFIER = /(?<![\w$]Math)\.([A-Za-z]+)\(([^()]*(?:\([^()]*\))?[^()]*)\)/g;
/** A builder root, or a continuation line of a chain written one modifier per line. */
const SCHEMA_LINE = /(?:^|[^\w$.])(?:z|zod|yup|Joi|joi|v|s|t|Type|vine)\.[A-Za-z]+\(|^\s*\.[A-Za-z]+\(/;
const FIELD = /^\s*["']?([A-Za-z_$][\w$]*)["']?\s*:/;

interface Modifier {
  name: string;
  text: string;
}

function readModifiers(code: string): Modifier[] {
  const modifiers: Modifier[] = [];
  for (const match of code.matchAll(MODIFIER)) {
    const name = match[1] ?? '';
    if (LOOSENS.has(name) || TIGHTENS.has(name) || BOUNDS.has(name) || FORMATS.has(name) || BASE_TYPES.has(name))
      modifiers.push({ name, text: `${name}(${(match[2] ?? '').trim()})` });
  }
  return modifiers;
}

/** True when the file's text imports a schema library. */
export function importsSchemaLibrary(text: string): boolean {
  return SCHEMA_IMPORT.test(text);
}

/**
 * The validation change of one line of a schema file: `before` is the line it replaced (undefined for an added line),
 * both as code (comments and string contents dropped).
 */
export function classifyValidation(
  before: string | undefined,
  after: string,
  beforeCode: string | undefined,
  afterCode: string,
  line: number,
): SemanticChange | undefined {
  if (!SCHEMA_LINE.test(afterCode) && (beforeCode === undefined || !SCHEMA_LINE.test(beforeCode))) return undefined;
  const head = readModifiers(afterCode);
  const field = FIELD.exec(after)?.[1];
  const subject = field ?? 'the schema';
  const named = field ?? 'the value';
  const change = (limit: string, values: string): SemanticChange => ({
    kind: 'validation',
    line,
    before: before === undefined ? '' : excerpt(before),
    after: excerpt(after),
    subject,
    limit,
    values,
  });
  if (beforeCode === undefined) {
    // A new field of an object schema, without a way to be missing: clients that do not send it are now refused.
    if (field === undefined || head.length === 0 || head.some((modifier) => LOOSENS.has(modifier.name))) return undefined;
    return change(
      'a new required field',
      `a request from a client that does not send ${field} (refused now), and one that sends it empty or malformed`,
    );
  }
  const base = readModifiers(beforeCode);
  const baseTexts = new Set(base.map((modifier) => modifier.text));
  const headTexts = new Set(head.map((modifier) => modifier.text));
  const added = head.filter((modifier) => !baseTexts.has(modifier.text));
  const removed = base.filter((modifier) => !headTexts.has(modifier.text));
  if (added.length === 0 && removed.length === 0) return undefined;
  const edit = [...removed.map((modifier) => `${modifier.text} removed`), ...added.map((modifier) => `${modifier.text} added`)].join(', ');
  const has = (list: Modifier[], set: ReadonlySet<string>): boolean => list.some((modifier) => set.has(modifier.name));
  // Whether a value may be missing is read from each side as a whole: `.default(10)` → `.default(20)` removes and adds
  // a loosening modifier, and changes nothing about presence.
  const baseLoose = has(base, LOOSENS);
  const headLoose = has(head, LOOSENS);
  const baseTight = has(base, TIGHTENS);
  const headTight = has(head, TIGHTENS);
  const tightened = (baseLoose && !headLoose) || (!baseTight && headTight);
  const loosened = (!baseLoose && headLoose) || (baseTight && !headTight);
  // Which missing value the side that accepts it lets through: zod's `optional()` an absent field, not `null`.
  const missing = (loose: readonly Modifier[], other: readonly Modifier[]): string => {
    const lets = (set: ReadonlySet<string>): boolean => loose.some((m) => set.has(m.name)) && !other.some((m) => set.has(m.name));
    const [absent, nul] = [lets(LETS_ABSENT), lets(LETS_NULL)];
    if (absent === nul) return `a request without ${named} and one with ${named}: null`;
    return absent ? `a request without ${named}` : `a request with ${named}: null`;
  };
  if (tightened && !loosened)
    return change(excerpt(edit), `${missing(base, head)} (accepted before, refused now: existing clients that omit it break)`);
  if (loosened && !tightened)
    return change(
      excerpt(edit),
      `${missing(head, base)} (refused before, accepted now: the code after validation must handle the missing value)`,
    );
  const defaults = added.filter((modifier) => modifier.name === 'default');
  if (defaults.length > 0 && [...added, ...removed].every((modifier) => modifier.name === 'default'))
    return change(
      excerpt(edit),
      `a request without ${named} (it now gets ${excerpt(defaults.map((modifier) => modifier.text).join(', '))})`,
    );
  if (has(added, BOUNDS) || has(removed, BOUNDS)) {
    const limits = [...removed, ...added].filter((modifier) => BOUNDS.has(modifier.name)).map((modifier) => modifier.text);
    return change(
      excerpt(edit),
      `${named} exactly at, just inside and just outside each limit (${excerpt(limits.join(' and '))}), and empty`,
    );
  }
  return change(excerpt(edit), `a value of ${named} the old schema accepts and the new one refuses, and the reverse`);
}

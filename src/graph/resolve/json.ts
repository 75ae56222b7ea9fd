import { type Node, type ParseError, parseTree } from 'jsonc-parser';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSONC (comments, trailing commas) as tsconfig allows; `undefined` when the text is not an object. */
export function parseJsonObject(text: string): { value: JsonObject | undefined; error?: string } {
  // Manifests, and many tsconfigs, are strict JSON: JSON.parse reads them several times faster than the JSONC parser,
  // and keeps a "__proto__" key an own property (the JSONC parser sets the object's prototype from it).
  try {
    const strict: unknown = JSON.parse(text);
    if (isJsonObject(strict)) return { value: strict };
  } catch {
    // Comments, trailing commas or broken JSON: the JSONC parser reads the first two and locates the third.
  }
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = toValue(parseTree(text, errors, { allowTrailingComma: true, disallowComments: false }));
  } catch (error) {
    // jsonc-parser (and the tree's conversion) recurse per bracket: thousands of unclosed ones overflow the stack.
    if (error instanceof RangeError) return { value: undefined, error: 'nested too deeply to read' };
    throw error;
  }
  if (!isJsonObject(value))
    return { value: undefined, error: errors.length > 0 ? `invalid JSON at offset ${errors[0]?.offset ?? 0}` : 'not a JSON object' };
  return errors.length > 0 ? { value, error: `invalid JSON at offset ${errors[0]?.offset ?? 0}` } : { value };
}

/**
 * The value of a JSONC tree, every key an own property: jsonc-parser's own `parse` assigns keys, so a `"__proto__"` key
 * set the object's prototype, through which a hostile tsconfig could make any field appear. A property whose value is
 * missing (a broken file) is left out, as `parse` leaves it out.
 */
function toValue(node: Node | undefined): unknown {
  if (node === undefined) return undefined;
  if (node.type === 'array') return (node.children ?? []).map(toValue);
  if (node.type !== 'object') return node.value;
  const object: JsonObject = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key?.type !== 'string' || value === undefined) continue;
    Object.defineProperty(object, key.value as string, { value: toValue(value), writable: true, enumerable: true, configurable: true });
  }
  return object;
}

export function getString(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

export function getStringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

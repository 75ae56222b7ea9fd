import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built-in packs parsed and validated at build time (dist/rules-compiled/<pack-id>.json): parsing their YAML costs
 * a CLI start ~250-650 ms, validating them (the schema, then every regex and glob compiled on RE2) 80-230 ms; JSON.parse
 * of the same data ~5 ms. A compiled pack counts as validated only against the rule-pack schema it was checked with.
 */
const COMPILED_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  // Run from source (src/io under tsx), the build's copy is used when its text hash matches.
  import.meta.url.endsWith('.ts') ? '../../dist/rules-compiled' : '../rules-compiled',
);

function hashPackText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The file `npm run build` writes for one built-in pack: its parsed data, the hash of the text it came from, and when
 * the build validated the data, the hash of the rule-pack schema text it was validated against.
 */
export function toCompiledPackJson(text: string, data: unknown, validatedWithSchema?: string): string {
  return `${JSON.stringify({ textHash: hashPackText(text), data, ...(validatedWithSchema === undefined ? {} : { schemaHash: hashPackText(validatedWithSchema) }) })}\n`;
}

export interface CompiledPack {
  data: unknown;
  /** The build validated this data against the rule-pack schema the running code has. */
  validated: boolean;
}

/**
 * The parsed data of built-in pack `<packDir>` when it was compiled from exactly `text`; undefined otherwise (parse
 * the text). `schemaText` is the running code's rule-pack schema: only data validated against it skips validation.
 */
export function readCompiledPack(packDir: string, text: string, schemaText: string, dir: string = COMPILED_DIR): CompiledPack | undefined {
  const file = join(dir, `${packDir}.json`);
  if (!existsSync(file)) return undefined;
  const compiled: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof compiled !== 'object' || compiled === null || !('textHash' in compiled) || !('data' in compiled)) return undefined;
  if (compiled.textHash !== hashPackText(text)) return undefined;
  const validated = 'schemaHash' in compiled && compiled.schemaHash === hashPackText(schemaText);
  return { data: compiled.data, validated };
}

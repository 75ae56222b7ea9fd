import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built-in packs parsed at build time (dist/rules-compiled/<pack-id>.json): parsing their YAML costs a CLI start
 * ~250-650 ms; JSON.parse of the same data ~5 ms. The data is still validated like a parsed pack.
 */
const COMPILED_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  // Run from source (src/io under tsx), the build's copy is used when its text hash matches.
  import.meta.url.endsWith('.ts') ? '../../dist/rules-compiled' : '../rules-compiled',
);

function hashPackText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The file `npm run build` writes for one built-in pack: its parsed data and the hash of the text it came from. */
export function toCompiledPackJson(text: string, data: unknown): string {
  return `${JSON.stringify({ textHash: hashPackText(text), data })}\n`;
}

/** The parsed data of built-in pack `<packDir>` when it was compiled from exactly `text`; undefined otherwise (parse the text). */
export function readCompiledPack(packDir: string, text: string, dir: string = COMPILED_DIR): unknown {
  const file = join(dir, `${packDir}.json`);
  if (!existsSync(file)) return undefined;
  const compiled: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof compiled !== 'object' || compiled === null || !('textHash' in compiled) || !('data' in compiled)) return undefined;
  return compiled.textHash === hashPackText(text) ? compiled.data : undefined;
}

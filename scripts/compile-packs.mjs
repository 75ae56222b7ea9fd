// Parses the built-in rule packs (rules/<id>/pack.yaml|json) once at build time into dist/rules-compiled/<id>.json, so a
// CLI start reads JSON instead of parsing ~85 KB of YAML. readBuiltinPackSources uses a file only when its recorded hash
// matches the pack text, and validates the data as before. A pack that does not parse is left out: the CLI reports it.
// Usage: node scripts/compile-packs.mjs [outDir]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCompiledPackJson } from '../dist/io/compiled-packs.js';
import { parsePackText } from '../dist/rules/validate-pack.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(root, 'dist', 'rules-compiled'));
const rulesDir = join(root, 'rules');

/** A CLI started during the build must never read a half-written file: write beside it, then rename. */
function writeAtomically(file, text) {
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
let count = 0;
for (const packDir of readdirSync(rulesDir).sort()) {
  const name = ['pack.yaml', 'pack.yml', 'pack.json'].find((file) => existsSync(join(rulesDir, packDir, file)));
  if (name === undefined) continue;
  const text = readFileSync(join(rulesDir, packDir, name), 'utf8');
  try {
    writeAtomically(join(outDir, `${packDir}.json`), toCompiledPackJson(text, parsePackText(`rules/${packDir}/${name}`, text)));
    count += 1;
  } catch (error) {
    process.stderr.write(
      `compile-packs: rules/${packDir}/${name} left to run-time parsing: ${error instanceof Error ? error.message : error}\n`,
    );
  }
}
process.stdout.write(`compiled ${count} built-in packs into ${outDir}\n`);

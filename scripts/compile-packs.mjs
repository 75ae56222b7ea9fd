// Parses and validates the built-in rule packs (rules/<id>/pack.yaml|json) once at build time into
// dist/rules-compiled/<id>.json, so a CLI start reads JSON instead of parsing ~85 KB of YAML and checking every rule.
// readBuiltinPackSources uses a file only when its recorded hash matches the pack text, and skips validation only when
// the file records the rule-pack schema the running code has. A pack that does not parse is left out, and one that does
// not validate is written unvalidated: either way the CLI reports the problem at run time.
// Usage: node scripts/compile-packs.mjs [outDir]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCompiledPackJson } from '../dist/io/compiled-packs.js';
import { checkSchema, readSchemaText } from '../dist/io/schema.js';
import { parsePackText, validatePackData } from '../dist/rules/validate-pack.js';

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
    const file = `rules/${packDir}/${name}`;
    const data = parsePackText(file, text);
    let validatedWith = readSchemaText('rule-pack');
    try {
      validatePackData(file, data, checkSchema);
    } catch (error) {
      validatedWith = undefined;
      process.stderr.write(
        `compile-packs: ${file} does not validate, left to run-time validation: ${error instanceof Error ? error.message : error}\n`,
      );
    }
    writeAtomically(join(outDir, `${packDir}.json`), toCompiledPackJson(text, data, validatedWith));
    count += 1;
  } catch (error) {
    process.stderr.write(
      `compile-packs: rules/${packDir}/${name} left to run-time parsing: ${error instanceof Error ? error.message : error}\n`,
    );
  }
}
process.stdout.write(`compiled ${count} built-in packs into ${outDir}\n`);

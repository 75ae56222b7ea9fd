import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_SCHEMAS, renderJsonSchema } from '../src/model/json-schemas.js';

/** `npm run schemas`: writes every generated file of schemas/ from its zod source in src/model. */
const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
for (const name of Object.keys(GENERATED_SCHEMAS).sort()) {
  writeFileSync(join(schemaDir, `${name}.schema.json`), renderJsonSchema(name));
  process.stdout.write(`schemas/${name}.schema.json\n`);
}

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { makeTempDir } from './git-repo.js';

/**
 * The SARIF 2.1.0 JSON Schema, from the npm registry at test time. The OASIS repository is not on npm; the package that
 * ships the schema as a file is Microsoft's SARIF Multitool (the SARIF SDK by the spec's editors, MIT), whose
 * `sarif-2.1.0.json` is the 2.1.0 schema in JSON Schema 2020-12, which ajv's 2020 build reads (the OASIS file is
 * draft-04, which ajv 8 does not). `npm pack` checks the tarball against the registry's integrity hash. The tarball is
 * 43 MB (it carries the .NET tool), so the schema is cached under node_modules/.cache after the first run.
 */
const PACKAGE = '@microsoft/sarif-multitool-linux@5.7.0';
const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/checker/sarif-schema/5.7.0/', import.meta.url));
const cached = join(cacheDir, 'sarif-2.1.0.json');

function fetchSchema(): void {
  const work = makeTempDir('checker-sarif-schema-');
  try {
    execFileSync('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    execFileSync('tar', ['-xzf', join(work, 'microsoft-sarif-multitool-linux-5.7.0.tgz'), '-C', work, 'package/sarif-2.1.0.json']);
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${cached}.${process.pid}.tmp`;
    copyFileSync(join(work, 'package', 'sarif-2.1.0.json'), temp);
    renameSync(temp, cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let validator: ValidateFunction | undefined;

/** A validator of the SARIF 2.1.0 schema (strict off: the schema uses keywords ajv's strict mode names unknown). */
export function sarifValidator(): ValidateFunction {
  if (validator !== undefined) return validator;
  if (!existsSync(cached)) fetchSchema();
  const schema = JSON.parse(readFileSync(cached, 'utf8')) as { title?: string; $schema?: string };
  if (schema.title !== 'Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema') {
    throw new Error(`unexpected SARIF schema title in ${cached}: ${schema.title}`);
  }
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = ajv.compile(schema);
  validator = compiled;
  return compiled;
}

import { randomBytes } from 'node:crypto';
import { appendFile, lstat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';

/**
 * Appends to a file the CI named in its own variable ($GITHUB_STEP_SUMMARY, $GITHUB_OUTPUT): an absolute path to a
 * regular file (or none yet). The path comes from the runner, never from the repository or a flag.
 */
export async function appendCiFile(variable: string, path: string, text: string): Promise<void> {
  if (!isAbsolute(path)) {
    throw new CheckerError('ci/file-invalid', `$${variable} is not an absolute path`, {
      hint: `Unset ${variable}, or point it at the file the CI reads (GitHub Actions sets it for every step).`,
    });
  }
  const stats = await lstat(path).catch(() => undefined);
  if (stats !== undefined && !stats.isFile()) {
    throw new CheckerError('ci/file-invalid', `$${variable} is not a regular file`, {
      hint: `Point ${variable} at a regular file; checker never writes through links or into devices.`,
    });
  }
  await appendFile(path, text, { encoding: 'utf8', mode: 0o600 });
}

/** `$GITHUB_OUTPUT` lines for `values`, each in the multi-line form with a random delimiter no value contains. */
export function formatGithubOutputs(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => {
      let delimiter = `CHECKER_${randomBytes(8).toString('hex')}`;
      while (value.includes(delimiter)) delimiter = `CHECKER_${randomBytes(8).toString('hex')}`;
      return `${key}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

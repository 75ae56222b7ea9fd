import { statSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import { resolveOutputPath, writeArtifact } from '../io/artifacts.js';
import { createNodeEnv } from '../io/node-env.js';
import { getValidator } from '../io/schema.js';
import { renderJson } from '../report/json.js';
import { redactSecrets } from '../text/redact/redact.js';
import { redactTree } from '../text/redact/tree.js';
import type { OutputFormat } from './args.js';
import { type CliHost, currentHost, withCliHost } from './host.js';
import { type ProgressLine, startProgressLine } from './progress.js';

/** The repository named by --cwd, as an absolute real path; refuses anything that is not a folder. */
export function resolveRepositoryRoot(cwd: unknown): string {
  const value = typeof cwd === 'string' && cwd !== '' ? cwd : '.';
  const absolute = resolve(currentHost().cwd(), value);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new CheckerError('usage/cwd-not-found', `--cwd ${value} does not exist`, {
      hint: 'Pass the path of a repository folder, e.g. --cwd ../my-repo.',
    });
  }
  if (!statSync(real).isDirectory()) {
    throw new CheckerError('usage/cwd-not-a-folder', `--cwd ${value} is not a folder`, {
      hint: 'Pass the repository root folder, not a file inside it.',
    });
  }
  return real;
}

export async function withEnv<T>(cwd: unknown, fn: (env: Env) => Promise<T>, options: { useCache?: boolean } = {}): Promise<T> {
  const progress = startProgressLine(currentHost());
  const env = createNodeEnv(resolveRepositoryRoot(cwd), {
    // One parse pool for the command: the base sides of a change are parsed by the children that parsed the tree,
    // instead of by new ones (~0.3 s to start); `env.close()` below ends them.
    keepPool: true,
    ...currentHost().envOptions,
    processEnv: currentHost().env,
    ...(options.useCache === false ? { useCache: false } : {}),
    ...(progress === undefined ? {} : { onProgress: progress.sink }),
  });
  try {
    return await (progress === undefined ? fn(env) : withCliHost(clearingFirst(currentHost(), progress), () => fn(env)));
  } finally {
    await progress?.finish();
    await env.close();
  }
}

/** The same host, except that the command's first write (its report, a warning) clears the progress line before it. */
function clearingFirst(host: CliHost, progress: ProgressLine): CliHost {
  const clear = async (): Promise<void> => progress.finish();
  return Object.create(host, {
    writeStdout: {
      value: async (text: string) => {
        await clear();
        await host.writeStdout(text);
      },
    },
    writeStderr: {
      value: async (text: string) => {
        await clear();
        await host.writeStderr(text);
      },
    },
    exitCode: {
      get: () => host.exitCode,
      set: (code: number | undefined) => {
        host.exitCode = code;
      },
    },
  }) as CliHost;
}

/**
 * Renders a report in the requested format, validating JSON against its schema first (a report
 * that breaks its own contract is a bug, so that throws), then writes it to stdout or --output.
 * Every exit is redacted: the report as a tree (each value in the context of its key) before it is
 * rendered in either format, and Markdown once more as a whole.
 */
export async function emitReport<T>(
  root: string,
  report: T,
  options: { format: OutputFormat; output?: unknown; schema: string; markdown: (report: T) => string },
): Promise<void> {
  let text: string;
  const safe = redactTree(report);
  if (options.format === 'json') {
    const validate = getValidator(options.schema);
    if (!validate(safe)) {
      throw new Error(
        `internal: report does not match schemas/${options.schema}.schema.json: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
      );
    }
    text = renderJson(safe);
  } else {
    // Markdown joins values into sentences and tables: redact the joined text too. JSON needs no second pass (every
    // string was redacted with its key), and a text pass over JSON could not be proven to keep it valid.
    text = redactSecrets(options.markdown(safe)).text;
  }
  await writeOutput(root, text, options.output);
}

/** Text already rendered and redacted (SARIF), to stdout or --output like a report. */
export async function emitText(root: string, text: string, output: unknown): Promise<void> {
  await writeOutput(root, text, output);
}

async function writeOutput(root: string, text: string, output: unknown): Promise<void> {
  if (typeof output === 'string' && output !== '') {
    const target = await resolveOutputPath(root, output);
    const written = await writeArtifact(root, target.relativePath, text, { mode: 'replace' });
    await currentHost().writeStderr(`checker: wrote ${written}\n`);
    return;
  }
  await currentHost().writeStdout(text);
}

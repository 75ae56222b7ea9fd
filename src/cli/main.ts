import { renderUsage, runCommand } from 'citty';
import type { ArgsDef } from 'citty';
import { isCheckerError } from '../model/diagnostic.js';
import { assertKnownFlags } from './args.js';
import { commands, findCommand } from './registry.js';
import { readVersion } from './version.js';
import { clipRedacted } from '../text/clip.js';
import { redactArgv, redactSecrets } from '../text/redact.js';

/** Exit codes: 0 done, 1 findings at or above --fail-on, 2 usage, config or runtime error. */
export const EXIT_ERROR = 2;

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(renderTopUsage());
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  const found = findCommand(argv);
  if (found === undefined) {
    process.stderr.write(`checker: unknown command "${clipRedacted(redactArgv(argv).join(' '), 200)}"\n\n${renderTopUsage()}`);
    return EXIT_ERROR;
  }
  const name = found.entry.path.join(' ');
  const command = await found.entry.load();
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    process.stdout.write(`${await renderUsage({ ...command, meta: { name: `checker ${name}`, description: found.entry.description } })}\n`);
    return 0;
  }
  const argsDef: ArgsDef =
    typeof command.args === 'object' && command.args !== null && !('then' in command.args) ? (command.args as ArgsDef) : {};
  assertKnownFlags(found.rest, argsDef, name);
  await runCommand(command, { rawArgs: found.rest });
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

function renderTopUsage(): string {
  const width = Math.max(...commands.map((entry) => entry.path.join(' ').length));
  const lines = commands.map((entry) => `  checker ${entry.path.join(' ').padEnd(width)}  ${entry.description}`);
  return `checker ${readVersion()}: local merge-safety and agent handoff\n\nUsage: checker <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "checker <command> --help" for a command's options.\n`;
}

function describeError(error: unknown, debug: boolean): string {
  if (isCheckerError(error)) {
    const where =
      error.location === undefined || error.message.includes(error.location.file)
        ? ''
        : ` (${error.location.file}${error.location.line === undefined ? '' : `:${error.location.line}${error.location.col === undefined ? '' : `:${error.location.col}`}`})`;
    const hint = error.hint === undefined ? '' : `\n  hint: ${error.hint}`;
    return `checker: ${error.code}: ${error.message}${where}${hint}${debug && error.stack ? `\n${error.stack}` : ''}`;
  }
  if (error instanceof Error && error.name === 'CLIError') return `checker: ${error.message}`;
  const text = error instanceof Error ? (debug ? (error.stack ?? error.message) : error.message) : String(error);
  return `checker: internal error: ${text}${debug ? '' : '\n  hint: this is a bug; rerun with CHECKER_DEBUG=1 for the stack trace and report it.'}`;
}

const debug = process.env.CHECKER_DEBUG === '1';
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${redactSecrets(describeError(error, debug)).text}\n`);
    process.exitCode = EXIT_ERROR;
  },
);

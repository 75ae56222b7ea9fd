import { runCommand } from 'citty';
import type { ArgsDef } from 'citty';
import { isCheckerError } from '../model/diagnostic.js';
import { findCommand } from './registry.js';
import { assertRequiredFlags, findGroup, renderCommandHelp, renderGroupUsage, renderTopUsage, toTerminalText } from './usage.js';
import { readVersion } from './version.js';
import { currentHost } from './host.js';
import { withQuiet } from './progress.js';
import { clipRedacted } from '../text/clip.js';
import { redactArgv, redactSecrets } from '../text/redact/redact.js';

/** Exit codes: 0 done, 1 findings at or above --fail-on, 2 usage, config or runtime error. */
const EXIT_ERROR = 2;

/**
 * Runs one checker command line and returns its exit code. Output, the working folder and the
 * environment come from the current host (host.ts): the process for `bin/checker`, or a caller's
 * own when it runs checker in process.
 */
export async function runChecker(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    await currentHost().writeStderr(`${redactSecrets(describeError(error, currentHost().env.CHECKER_DEBUG === '1')).text}\n`);
    return EXIT_ERROR;
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const words = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
  if (words.length === 0 || words[0] === '--help' || words[0] === '-h') {
    await writeHelp(renderTopUsage(readVersion()));
    return 0;
  }
  if (words[0] === '--version' || words[0] === '-v') {
    await currentHost().writeStdout(`${readVersion()}\n`);
    return 0;
  }
  const found = findCommand(words);
  const wantsHelp = isHelpRequested(found?.rest ?? words);
  if (found === undefined) {
    const group = findGroup(words);
    const isGroupAlone = group !== undefined && words.slice(1).every((word) => word.startsWith('-'));
    if (group !== undefined && isGroupAlone && wantsHelp) {
      await writeHelp(renderGroupUsage(group));
      return 0;
    }
    if (group !== undefined && isGroupAlone) {
      const names = group.children.map((entry) => entry.path.at(-1));
      await writeError(
        `checker: usage/missing-command: checker ${group.name} needs a command: ${names.join(', ')}\n  hint: e.g. checker ${group.name} ${names[0]} --help\n\n${renderGroupUsage(group)}`,
      );
      return EXIT_ERROR;
    }
    const shown = clipRedacted(redactArgv(words.filter((word) => word !== '--help')).join(' '), 200);
    const usage = group === undefined ? renderTopUsage(readVersion()) : renderGroupUsage(group);
    const fix = group === undefined ? 'checker --help' : `checker ${group.name} --help`;
    await writeError(`checker: usage/unknown-command: unknown command "${shown}"\n  hint: run "${fix}" for the commands.\n\n${usage}`);
    return EXIT_ERROR;
  }
  const name = found.entry.path.join(' ');
  // --quiet is every command's: it turns the terminal progress line off (nothing else writes to stderr unasked).
  const end = found.rest.indexOf('--');
  const isQuiet = (end === -1 ? found.rest : found.rest.slice(0, end)).includes('--quiet');
  const rest = isQuiet ? found.rest.filter((arg, index) => arg !== '--quiet' || (end !== -1 && index > end)) : found.rest;
  const command = await found.entry.load();
  if (wantsHelp) {
    await writeHelp(await renderCommandHelp(found.entry, command));
    return 0;
  }
  const argsDef: ArgsDef =
    typeof command.args === 'object' && command.args !== null && !('then' in command.args) ? (command.args as ArgsDef) : {};
  // Imported here, not at the top: args.js brings zod (~100 ms of a start), which --help and --version never need.
  const { assertKnownFlags } = await import('./args.js');
  assertKnownFlags(rest, argsDef, name);
  assertRequiredFlags(rest, argsDef, name);
  await withQuiet(isQuiet, () => runCommand(command, { rawArgs: rest }));
  return currentHost().exitCode ?? 0;
}

function isHelpRequested(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

function writeHelp(text: string): Promise<void> {
  const host = currentHost();
  return host.writeStdout(toTerminalText(text, host.stdoutIsTTY, host.env));
}

function writeError(text: string): Promise<void> {
  const host = currentHost();
  return host.writeStderr(toTerminalText(text, host.stderrIsTTY, host.env));
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

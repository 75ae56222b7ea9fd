import { stripVTControlCharacters } from 'node:util';
import type { ArgsDef } from 'citty';
import { renderUsage } from 'citty';
import { COMMAND_TEXTS, type CommandText } from '../app/command-texts.js';
import { CheckerError } from '../model/diagnostic.js';
import { type AnyCommand, type CommandEntry, commands, getSummary } from './registry.js';

/** The first words that only group subcommands (`checker session start`); their text says what the group is for. */
const GROUP_TEXTS: Readonly<Record<string, CommandText>> = { session: COMMAND_TEXTS.session, rules: COMMAND_TEXTS.rules };

const WIDTH = 100;

export function renderTopUsage(version: string): string {
  const width = Math.max(...commands.map((entry) => entry.path.join(' ').length));
  const lines = commands.map((entry) => `  checker ${entry.path.join(' ').padEnd(width)}  ${getSummary(entry)}`);
  return `checker ${version}: local merge-safety and agent handoff\n\nUsage: checker <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "checker <command> --help" (or "checker help <command>") for a command's options.\nEvery command takes --quiet: no progress line on a terminal's stderr.\n`;
}

/** The commands one level below `path` (`session` → its four operations, `ai` → `ai preflight`). */
function findChildren(path: readonly string[]): CommandEntry[] {
  return commands.filter((entry) => entry.path.length === path.length + 1 && path.every((word, index) => entry.path[index] === word));
}

/** A group word (`session`, `rules`) when `argv` starts with one, with its subcommands. */
export function findGroup(argv: readonly string[]): { name: string; text: CommandText; children: CommandEntry[] } | undefined {
  const name = argv[0] ?? '';
  const text = GROUP_TEXTS[name];
  return text === undefined ? undefined : { name, text, children: findChildren([name]) };
}

export function renderGroupUsage(group: { name: string; text: CommandText; children: CommandEntry[] }): string {
  return [
    `checker ${group.name}: ${group.text.title}`,
    '',
    wrap(toSentence(group.text.description)),
    '',
    `Usage: checker ${group.name} <${group.children.map((entry) => entry.path.at(-1)).join('|')}> [options]`,
    '',
    'Commands:',
    renderList(group.children),
    '',
    `Run "checker ${group.name} <command> --help" for a command's options.`,
    '',
  ].join('\n');
}

/** `checker <command> --help`: the shared title and description, citty's options table, and any subcommands. */
export async function renderCommandHelp(entry: CommandEntry, command: AnyCommand): Promise<string> {
  const name = `checker ${entry.path.join(' ')}`;
  const usage = await renderUsage({ ...command, meta: { name, description: entry.text.title } });
  // citty's first line repeats the description; ours (title, then the wrapped description) replaces it.
  const body = usage.split('\n').slice(1).map(trimLineEnd).join('\n');
  const children = findChildren(entry.path);
  const subcommands = children.length === 0 ? '' : `\nCOMMANDS\n\n${renderList(children)}\n`;
  return `${name}: ${getSummary(entry)}\n\n${wrap(toSentence(entry.text.description))}\n${body}${subcommands}\n`;
}

/** citty pads its columns, and its colour codes can sit after the padding: trim the spaces, keep the codes. */
function trimLineEnd(line: string): string {
  return line.replace(TRAILING_SPACES, '$1');
}

const TRAILING_SPACES = new RegExp(`[ \\t]+((?:${String.fromCharCode(27)}\\[\\d+m)*)$`);

function renderList(entries: readonly CommandEntry[]): string {
  const width = Math.max(...entries.map((entry) => entry.path.join(' ').length));
  return entries.map((entry) => `  checker ${entry.path.join(' ').padEnd(width)}  ${getSummary(entry)}`).join('\n');
}

/** Colours only for a terminal that wants them: piped output and NO_COLOR get plain text. */
export function toTerminalText(text: string, isTTY: boolean | undefined, env: NodeJS.ProcessEnv): string {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return isTTY === true && !noColor ? text : stripVTControlCharacters(text);
}

/**
 * citty's own check says only "Missing required argument: --session"; ours names the flag, what it is
 * and a command line that works (usage/missing-flag, exit 2), before any work starts.
 */
export function assertRequiredFlags(rawArgs: readonly string[], argsDef: ArgsDef, commandName: string): void {
  const end = rawArgs.indexOf('--');
  const given = end === -1 ? rawArgs : rawArgs.slice(0, end);
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === 'positional' || def.type === 'boolean' || def.required !== true) continue;
    // Presence only: a value given but wrong is for the command's own check to name (session/invalid-id…).
    if (given.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))) continue;
    const hint = def.valueHint ?? 'value';
    const example = def.valueHint === undefined ? '' : ` (${def.description ?? hint})`;
    throw new CheckerError('usage/missing-flag', `checker ${commandName} needs --${name} <${hint}>${example}`, {
      hint: `Example: ${renderExample(commandName, argsDef)}. Run "checker ${commandName} --help" for every option.`,
    });
  }
}

/** A command line with every required flag filled in from its value hint. */
function renderExample(commandName: string, argsDef: ArgsDef): string {
  const flags = Object.entries(argsDef)
    .filter(([, def]) => def.type !== 'positional' && def.type !== 'boolean' && def.required === true)
    .map(([name, def]) => `--${name} ${EXAMPLE_VALUES[def.valueHint ?? ''] ?? `<${def.valueHint ?? 'value'}>`}`);
  return `checker ${commandName} ${flags.join(' ')}`;
}

const EXAMPLE_VALUES: Readonly<Record<string, string>> = {
  id: 'fix-discount-1',
  text: '"Round discounts to cents"',
  'plan|diff': 'plan',
};

function toSentence(text: string): string {
  const capital = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

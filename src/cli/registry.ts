import type { CommandDef } from 'citty';
import { COMMAND_TEXTS, type CommandText } from '../app/command-texts.js';

// Each command has its own argument types; citty's own SubCommandsDef erases them the same way.
// biome-ignore lint/suspicious/noExplicitAny: citty's CommandDef is invariant in its args; the registry holds commands of every shape.
export type AnyCommand = CommandDef<any>;

/** A leaf command, imported only when it runs so `checker graph` never loads the MCP SDK. */
export interface CommandEntry {
  path: string[];
  /** Its title and description, shared with the MCP tool of the same capability (app/command-texts.ts). */
  text: CommandText;
  /** What only the CLI form adds to the title (a default that differs between two commands). */
  note?: string;
  load: () => Promise<AnyCommand>;
}

export const commands: CommandEntry[] = [
  {
    path: ['ai'],
    text: COMMAND_TEXTS.agentBundle,
    note: 'default profile codex; the recommended one-shot',
    load: async () => (await import('./commands/ai.js')).default,
  },
  {
    path: ['agent'],
    text: COMMAND_TEXTS.agentBundle,
    note: 'default profile generic',
    load: async () => (await import('./commands/agent.js')).default,
  },
  {
    path: ['graph'],
    text: COMMAND_TEXTS.graph,
    load: async () => (await import('./commands/graph.js')).default,
  },
  {
    path: ['ai', 'preflight'],
    text: COMMAND_TEXTS.preflight,
    load: async () => (await import('./commands/preflight.js')).default,
  },
  {
    path: ['agent', 'preflight'],
    text: COMMAND_TEXTS.preflight,
    load: async () => (await import('./commands/preflight.js')).default,
  },
  {
    path: ['context'],
    text: COMMAND_TEXTS.taskContext,
    load: async () => (await import('./commands/context.js')).default,
  },
  {
    path: ['session', 'start'],
    text: COMMAND_TEXTS.sessionStart,
    load: async () => (await import('./commands/session-start.js')).default,
  },
  {
    path: ['session', 'context'],
    text: COMMAND_TEXTS.sessionContext,
    load: async () => (await import('./commands/session-context.js')).default,
  },
  {
    path: ['session', 'checkpoint'],
    text: COMMAND_TEXTS.sessionCheckpoint,
    load: async () => (await import('./commands/session-checkpoint.js')).default,
  },
  {
    path: ['session', 'finish'],
    text: COMMAND_TEXTS.sessionFinish,
    load: async () => (await import('./commands/session-finish.js')).default,
  },
  {
    path: ['analyze'],
    text: COMMAND_TEXTS.analysis,
    load: async () => (await import('./commands/analyze.js')).default,
  },
  {
    path: ['impact'],
    text: COMMAND_TEXTS.impact,
    load: async () => (await import('./commands/impact.js')).default,
  },
  {
    path: ['audit-tests'],
    text: COMMAND_TEXTS.auditTests,
    load: async () => (await import('./commands/audit-tests.js')).default,
  },
  {
    path: ['edge-cases'],
    text: COMMAND_TEXTS.edgeCases,
    load: async () => (await import('./commands/edge-cases.js')).default,
  },
  {
    path: ['tools'],
    text: COMMAND_TEXTS.tools,
    load: async () => (await import('./commands/tools.js')).default,
  },
  {
    path: ['patterns'],
    text: COMMAND_TEXTS.patterns,
    load: async () => (await import('./commands/patterns.js')).default,
  },
  {
    path: ['redteam'],
    text: COMMAND_TEXTS.redteam,
    load: async () => (await import('./commands/redteam.js')).default,
  },
  {
    path: ['ci'],
    text: COMMAND_TEXTS.ci,
    note: 'report-only; range from the CI environment',
    load: async () => (await import('./commands/ci.js')).default,
  },
  {
    path: ['execute'],
    text: COMMAND_TEXTS.execute,
    note: 'runs configured commands when safety.allowCommands is true',
    load: async () => (await import('./commands/execute.js')).default,
  },
  {
    path: ['differential'],
    text: COMMAND_TEXTS.differential,
    note: 'runs configured commands on base and head when safety.allowCommands is true',
    load: async () => (await import('./commands/differential.js')).default,
  },
  {
    path: ['product'],
    text: COMMAND_TEXTS.product,
    note: 'starts the target and runs a browser when safety.allowCommands is true',
    load: async () => (await import('./commands/product.js')).default,
  },
  {
    path: ['mcp'],
    text: COMMAND_TEXTS.mcp,
    load: async () => (await import('./commands/mcp.js')).default,
  },
  {
    path: ['rules', 'list'],
    text: COMMAND_TEXTS.rulesList,
    load: async () => (await import('./commands/rules-list.js')).default,
  },
  {
    path: ['rules', 'validate'],
    text: COMMAND_TEXTS.rulesValidate,
    load: async () => (await import('./commands/rules-validate.js')).default,
  },
];

/** The one-line listing of a command: its shared title, plus what only the CLI form adds. */
export function getSummary(entry: CommandEntry): string {
  return entry.note === undefined ? entry.text.title : `${entry.text.title} (${entry.note})`;
}

/** Finds the longest registered command path that prefixes `argv`; returns it and the remaining arguments. */
export function findCommand(argv: string[]): { entry: CommandEntry; rest: string[] } | undefined {
  let best: CommandEntry | undefined;
  for (const entry of commands) {
    const matches = entry.path.every((word, index) => argv[index] === word);
    if (matches && (best === undefined || entry.path.length > best.path.length)) best = entry;
  }
  return best === undefined ? undefined : { entry: best, rest: argv.slice(best.path.length) };
}

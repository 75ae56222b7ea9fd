import type { CommandDef } from 'citty';

// Each command has its own argument types; citty's own SubCommandsDef erases them the same way.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandDef<any>;

/** A leaf command, imported only when it runs so `checker graph` never loads the MCP SDK. */
export interface CommandEntry {
  path: string[];
  description: string;
  load: () => Promise<AnyCommand>;
}

export const commands: CommandEntry[] = [
  { path: ['graph'], description: 'Build the repository knowledge graph and print its counts, parse failures, skipped files and unresolved imports', load: async () => (await import('./commands/graph.js')).default },
];

/** Finds the longest registered command path that prefixes `argv`; returns it and the remaining arguments. */
export function findCommand(argv: string[]): { entry: CommandEntry; rest: string[] } | undefined {
  let best: CommandEntry | undefined;
  for (const entry of commands) {
    const matches = entry.path.every((word, index) => argv[index] === word);
    if (matches && (best === undefined || entry.path.length > best.path.length)) best = entry;
  }
  return best === undefined ? undefined : { entry: best, rest: argv.slice(best.path.length) };
}

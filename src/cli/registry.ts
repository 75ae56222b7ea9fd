import type { CommandDef } from 'citty';

// Each command has its own argument types; citty's own SubCommandsDef erases them the same way.
// biome-ignore lint/suspicious/noExplicitAny: citty's CommandDef is invariant in its args; the registry holds commands of every shape.
export type AnyCommand = CommandDef<any>;

/** A leaf command, imported only when it runs so `checker graph` never loads the MCP SDK. */
export interface CommandEntry {
  path: string[];
  description: string;
  load: () => Promise<AnyCommand>;
}

export const commands: CommandEntry[] = [
  {
    path: ['ai'],
    description:
      'Agent task bundle for a git range, the recommended one-shot: prompt, evidence, tasks and proof obligations for your coding agent (default profile codex; runs nothing)',
    load: async () => (await import('./commands/ai.js')).default,
  },
  {
    path: ['agent'],
    description: 'Agent task bundle with the portable generic profile (the lower-level equivalent of checker ai; runs nothing)',
    load: async () => (await import('./commands/agent.js')).default,
  },
  {
    path: ['graph'],
    description: 'Build the repository knowledge graph and print its counts, parse failures, skipped files and unresolved imports',
    load: async () => (await import('./commands/graph.js')).default,
  },
  {
    path: ['ai', 'preflight'],
    description: 'Before-coding brief for a task: candidate files and routes, memory, contracts, proof plan; needs no diff, runs nothing',
    load: async () => (await import('./commands/preflight.js')).default,
  },
  {
    path: ['agent', 'preflight'],
    description: 'Before-coding brief for a task (same as ai preflight)',
    load: async () => (await import('./commands/preflight.js')).default,
  },
  {
    path: ['context'],
    description: 'Bounded, task-scoped context packet; writes .checker/local/task-context.json',
    load: async () => (await import('./commands/context.js')).default,
  },
  {
    path: ['session', 'start'],
    description: 'Start a durable agent session (never overwrites an existing id)',
    load: async () => (await import('./commands/session-start.js')).default,
  },
  {
    path: ['session', 'context'],
    description: 'Refresh the session context packet; marks the session stale when files changed',
    load: async () => (await import('./commands/session-context.js')).default,
  },
  {
    path: ['session', 'checkpoint'],
    description: 'Record a plan or diff checkpoint (redacted, stored as untrusted)',
    load: async () => (await import('./commands/session-checkpoint.js')).default,
  },
  {
    path: ['session', 'finish'],
    description: 'Record the current tree and return the verification boundary',
    load: async () => (await import('./commands/session-finish.js')).default,
  },
  {
    path: ['analyze'],
    description: 'Merge-safety analysis of a git range: impact, proof, weak and missing tests, risk, decay, edge cases, context',
    load: async () => (await import('./commands/analyze.js')).default,
  },
  {
    path: ['impact'],
    description: 'Changed files, impacted files and areas, route/API impacts, symbol-level import impacts',
    load: async () => (await import('./commands/impact.js')).default,
  },
  {
    path: ['audit-tests'],
    description: 'Changed-path proof, runtime test evidence, weak and missing tests, checks to run',
    load: async () => (await import('./commands/audit-tests.js')).default,
  },
  {
    path: ['edge-cases'],
    description: 'Ranked edge-case scenarios: the top eight plus the ranked overflow',
    load: async () => (await import('./commands/edge-cases.js')).default,
  },
  {
    path: ['tools'],
    description: 'Local open-source tools that fit this repository (installs nothing, runs nothing)',
    load: async () => (await import('./commands/tools.js')).default,
  },
  {
    path: ['patterns'],
    description: 'Pattern-pack matches in the changed lines',
    load: async () => (await import('./commands/patterns.js')).default,
  },
  {
    path: ['redteam'],
    description: 'Deterministic merge-safety report with fix tasks and safety flags',
    load: async () => (await import('./commands/redteam.js')).default,
  },
  {
    path: ['mcp'],
    description: 'Start the local MCP server over stdio for the repository at --cwd (report-only tools; logs go to stderr)',
    load: async () => (await import('./commands/mcp.js')).default,
  },
  {
    path: ['rules', 'list'],
    description: 'List the built-in and repository rule packs and their rules',
    load: async () => (await import('./commands/rules-list.js')).default,
  },
  {
    path: ['rules', 'validate'],
    description: 'Validate a rule-pack file, or every pack in .checker/rules; errors name the pack, rule and field',
    load: async () => (await import('./commands/rules-validate.js')).default,
  },
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

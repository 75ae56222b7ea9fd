import { z } from 'zod';
import type { Diagnostic } from './diagnostic.js';

/**
 * Repository configuration (`.checker/config.yml`, `checker.config.yml`). `configSchema` is the source of
 * schemas/config.schema.json (`npm run schemas`), which src/app/load-config.ts validates each file against; the types
 * below are its `z.infer`. Refinements are kept out: what the file checks, zod checks, and the reverse.
 */

const def = <T extends z.ZodType>(id: string, schema: T): T => schema.meta({ id });

export const AGENT_PROFILES = ['generic', 'codex', 'claude-code', 'cursor', 'pi', 'opencode', 'desktop'] as const;
const BUNDLE_FORMATS = ['markdown', 'json'] as const;

const name = def('name', z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/));
const commandString = def('commandString', z.string().min(1).max(4096));
const args = def('args', z.array(z.string().max(4096)).max(256));
const timeoutMs = def('timeoutMs', z.int().min(1).max(86_400_000));
const globs = def('globs', z.array(z.string().min(1).max(1024)).max(500));
const httpUrl = def(
  'httpUrl',
  z
    .string()
    .max(2048)
    .regex(/^https?:\/\//)
    .refine((value) => URL.canParse(value))
    // RegExp#source escapes the slashes; the file keeps the pattern users read in error messages.
    .meta({ format: 'uri', pattern: '^https?://' }),
);

const commandSpec = def('command', z.strictObject({ command: commandString, args: args.optional(), timeoutMs: timeoutMs.optional() }));

const agentProcess = def(
  'agentProcess',
  z.strictObject({
    command: commandString,
    args: args.optional(),
    timeoutMs: timeoutMs.optional(),
    profile: z.enum(AGENT_PROFILES).optional(),
    bundleFormat: z.enum(BUNDLE_FORMATS).optional(),
  }),
);

const adapter = def(
  'adapter',
  z.strictObject({ enabled: z.boolean(), command: commandString, args: args.optional(), timeoutMs: timeoutMs.optional() }),
);

/** A named check: either a command string (tokenised without a shell) or an argv array, never both. */
const check = def(
  'check',
  z
    .strictObject({
      command: commandString.optional(),
      argv: z.array(z.string().min(1).max(4096)).min(1).max(256).optional(),
      description: z.string().max(2000).optional(),
      timeoutMs: timeoutMs.optional(),
      /** Globs of repository paths the check applies to. */
      paths: globs.optional(),
      /** Collect V8 coverage of the Node processes it starts (NODE_V8_COVERAGE) as runtime proof; default true. */
      coverage: z.boolean().optional(),
    })
    .refine((value) => (value.command === undefined) !== (value.argv === undefined), {
      error: 'must have exactly one of "command" or "argv"',
    })
    .meta({
      oneOf: [
        { type: 'object', properties: { command: true }, required: ['command'] },
        { type: 'object', properties: { argv: true }, required: ['argv'] },
      ],
    }),
);

const productTarget = def(
  'productTarget',
  z.strictObject({
    baseUrl: httpUrl,
    kind: z.enum(['ui', 'api']),
    start: commandSpec.optional(),
    setup: commandSpec.optional(),
    teardown: commandSpec.optional(),
    healthcheck: z
      .strictObject({
        path: z.string().max(2048).regex(/^\//).optional(),
        timeoutMs: timeoutMs.optional(),
        intervalMs: z.int().min(10).max(60_000).optional(),
        expectStatus: z.int().min(100).max(599).optional(),
      })
      .optional(),
  }),
);

/** No secrets in config: a BYOK key is read from the environment variable named by `apiKeyEnv`. */
const provider = def(
  'provider',
  z.strictObject({
    kind: z.enum(['local', 'byok']),
    command: commandString.optional(),
    args: args.optional(),
    endpoint: httpUrl.optional(),
    model: z.string().min(1).max(200).optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]{0,127}$/)
      .optional(),
    timeoutMs: timeoutMs.optional(),
  }),
);

/** A record keyed by check or target names, at most `max` entries. */
function namedRecord<T extends z.ZodType>(value: T, max: number) {
  return z
    .record(name, value)
    .refine((record) => Object.keys(record).length <= max, { error: `must have at most ${max} entries` })
    .meta({ maxProperties: max });
}

const adapterFields = {
  browserTestRunner: adapter.optional(),
  coverage: adapter.optional(),
  mutationTester: adapter.optional(),
  staticAnalyzer: adapter.optional(),
  apiFuzzer: adapter.optional(),
  contractTester: adapter.optional(),
};

export const configSchema = z.strictObject({
  schemaVersion: z.literal(1).optional().describe('Optional; 1 is the only version.'),
  safety: z
    .strictObject({
      allowCommands: z.boolean().optional().describe('Gate for any command execution. Only the boolean true opens it.'),
    })
    .optional(),
  toolAdapters: z.strictObject({ agentProcess: agentProcess.optional(), ...adapterFields }).optional(),
  checks: namedRecord(check, 200).optional(),
  products: z
    .strictObject({
      targets: namedRecord(productTarget, 100).optional(),
      /** The Chromium that product runs drive; absent: CHECKER_CHROMIUM, then well-known install paths (io/browser). */
      browser: z
        .strictObject({
          executablePath: z
            .string()
            .min(2)
            .max(4096)
            .regex(/^(?:\/|[A-Za-z]:\\)/)
            .optional(),
        })
        .optional(),
    })
    .optional(),
  investigation: z
    .strictObject({
      provider: provider.optional(),
      /** Estimated tokens the request may hold (characters / 4); lists are cut, lowest-ranked first, to fit. Default 12,000. */
      maxRequestTokens: z.int().min(1000).max(200_000).optional().meta({ default: 12_000 }),
    })
    .optional(),
  analysis: z
    .strictObject({
      assertionHelpers: z
        .array(z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$.]{0,199}$/))
        .max(200)
        .optional(),
      maxFileBytes: z.int().min(1024).max(67_108_864).optional(),
      /** Nodes plus edges the knowledge graph may hold before `limits/graph-too-large` (default 1,500,000, ~2 KB of heap each). */
      maxGraphElements: z.int().min(1000).max(100_000_000).optional(),
      ignore: globs.optional(),
      defaultBranch: z
        .string()
        .regex(/^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/)
        .optional(),
      /** Ranked tasks the bundle lists first (the rest are overflow), 1-100, default 12. */
      maxPromptTasks: z.int().min(1).max(100).optional().meta({ default: 12 }),
      coldParse: z
        .enum(['focused', 'full'])
        .optional()
        .meta({ default: 'focused' })
        .describe(
          'focused: an analysis with no facts cache parses in full only the files the change can reach (and tests, routes and what they import), the rest for imports and exports alone; full: every file.',
        ),
    })
    .optional(),
  /** Bounds of history mining for co-change, fix-prone and hotspot facts (docs/config.md#history). */
  history: z
    .strictObject({
      enabled: z.boolean().optional().meta({ default: true }).describe('false: no history is mined and the history facts stay empty.'),
      maxCommits: z.int().min(1).max(50_000).optional().meta({ default: 2000 }).describe('Commits walked from HEAD at most.'),
      maxAgeDays: z
        .int()
        .min(1)
        .max(36_500)
        .optional()
        .meta({ default: 730 })
        .describe('Commits older than this before HEAD are not read.'),
      massChangeFiles: z
        .int()
        .min(2)
        .max(100_000)
        .optional()
        .meta({ default: 50 })
        .describe('A commit changing more files than this (formatting, renames) is left out.'),
    })
    .optional(),
  context: z.strictObject({ maxNodes: z.int().min(1).max(1000).optional().meta({ default: 80 }) }).optional(),
  tests: z
    .strictObject({
      dependsOn: z
        .array(
          z.strictObject({
            files: globs
              .min(1)
              .describe('Files the tests depend on without importing them (fixtures, .env, a spawned CLI, generated code).'),
            tests: globs.min(1).describe('The test files that depend on them.'),
          }),
        )
        .max(200)
        .optional()
        .describe(
          'What the import graph cannot see: a change to a file matching `files` reaches every test file matching `tests` (distance 1), which then runs for it.',
        ),
    })
    .optional(),
});

export type Config = z.infer<typeof configSchema>;

/**
 * The keys of a repository's configuration that grant power: to run commands (`safety`, `checks`, `toolAdapters`,
 * product targets' start/setup/teardown and the browser binary), to reach hosts (product `baseUrl`, the investigation
 * endpoint) or to pick the base these are read from (`analysis.defaultBranch`). They are read from the base revision of
 * the change under review (src/app/trusted-config.ts), never from the change itself (docs/security.md).
 */
export const POWER_KEYS = ['safety', 'checks', 'toolAdapters', 'products', 'investigation.provider', 'analysis.defaultBranch'] as const;

/** A host name, or host:port, a user allows checker to reach beyond loopback (product targets). */
const allowedHost = z
  .string()
  .min(1)
  .max(260)
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/,
  );

/**
 * The user's own configuration, outside every repository (`$CHECKER_USER_CONFIG`, else
 * `$XDG_CONFIG_HOME/checker/config.yml`, else `~/.config/checker/config.yml`): what a repository may not choose for
 * the user. Only here (or in a CHECKER_* variable) may an investigation provider name the environment variable its
 * key is read from and an endpoint beyond loopback, and may hosts beyond loopback be allowed as product targets.
 */
export const userConfigSchema = z.strictObject({
  schemaVersion: z.literal(1).optional().describe('Optional; 1 is the only version.'),
  investigation: z
    .strictObject({
      provider: provider.optional().describe("The user's investigation provider; it replaces any repository's provider whole."),
    })
    .optional(),
  products: z
    .strictObject({
      allowHosts: z
        .array(allowedHost)
        .max(100)
        .optional()
        .describe('Hosts (name or name:port) product targets may use besides loopback addresses; "*" is not accepted.'),
    })
    .optional(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;
export type AgentProfile = (typeof AGENT_PROFILES)[number];
export type ToolAdapterKind = keyof typeof adapterFields;
export type CheckConfig = z.infer<typeof check>;

/** The repository's merged configuration and where it came from. */
export interface LoadedConfigData {
  config: Config;
  /** Repository-relative paths of the files read, highest precedence first. */
  sources: string[];
  diagnostics: Diagnostic[];
  /** Each file read with what it says on its own, highest precedence first (absent when none was read). */
  files?: LoadedConfigFile[];
}

export interface LoadedConfigFile {
  file: string;
  config: Config;
}

import { z } from 'zod';
import type { Diagnostic } from './diagnostic.js';

/**
 * Repository configuration (`.checker/config.yml`, `checker.config.yml`). `configSchema` is the source of
 * schemas/config.schema.json (`npm run schemas`), which src/app/load/load-config.ts validates each file against; the types
 * below are its `z.infer`. Refinements are kept out: what the file checks, zod checks, and the reverse.
 */

const def = <T extends z.ZodType>(id: string, schema: T): T => schema.meta({ id });

/**
 * A property as an editor shows it (schemas/config.schema.json): what it does, examples, and its default when it has
 * one. test/model/config-schema-docs.test.ts fails when a property lacks them or an example does not validate.
 */
function field<T extends z.ZodType>(schema: T, description: string, examples: readonly unknown[], fallback?: unknown): T {
  return schema.meta(
    fallback === undefined ? { description, examples: [...examples] } : { description, examples: [...examples], default: fallback },
  );
}

/** Highest precedence first. Only these paths at the repository root are read: never `.checker/local/`, env or parents. */
export const CONFIG_FILES = ['.checker/config.yml', '.checker/config.yaml', 'checker.config.yml', 'checker.config.yaml'] as const;
/** The file a hint names when the repository has no config file yet. */
export const DEFAULT_CONFIG_FILE = CONFIG_FILES[0];

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

const commandSpec = def(
  'command',
  z.strictObject({
    command: field(commandString, 'The command, tokenised without a shell ($VAR, globs, pipes and && are refused).', ['npm run dev']),
    args: field(args.optional(), 'Extra arguments after the command.', [['--port', '3000']]),
    timeoutMs: field(
      timeoutMs.optional(),
      'Milliseconds before the command is stopped (a teardown: 120000 by default).',
      [120_000],
      600_000,
    ),
  }),
);

const agentProcess = def(
  'agentProcess',
  z.strictObject({
    command: field(commandString, 'Your local agent CLI, tokenised without a shell; it receives the task bundle on stdin.', [
      'my-agent --non-interactive',
    ]),
    args: field(args.optional(), 'Extra arguments after the command.', [['--quiet']]),
    timeoutMs: field(timeoutMs.optional(), 'Milliseconds before the agent is stopped.', [600_000], 600_000),
    profile: field(z.enum(AGENT_PROFILES).optional(), 'The agent the bundle is written for.', ['claude-code'], 'generic'),
    bundleFormat: field(z.enum(BUNDLE_FORMATS).optional(), 'The bundle format piped to the agent.', ['json'], 'markdown'),
  }),
);

const adapter = def(
  'adapter',
  z.strictObject({
    enabled: field(
      z.boolean(),
      'true: the adapter runs after checks.* as a check named toolAdapters.<kind> (needs safety.allowCommands).',
      [true],
    ),
    command: field(commandString, 'The tool, tokenised without a shell.', ['npx']),
    args: field(args.optional(), 'Its arguments.', [['vitest', 'run', '--coverage']]),
    timeoutMs: field(timeoutMs.optional(), 'Milliseconds before it is stopped.', [120_000], 600_000),
  }),
);

/** A named check: either a command string (tokenised without a shell) or an argv array, never both. */
const check = def(
  'check',
  z
    .strictObject({
      command: field(commandString.optional(), 'A command string, tokenised without a shell; exactly one of command and argv.', [
        'npm run lint',
      ]),
      argv: field(
        z.array(z.string().min(1).max(4096)).min(1).max(256).optional(),
        'The command as an argv array; exactly one of command and argv.',
        [['node', '--test']],
      ),
      description: field(z.string().max(2000).optional(), 'What the check proves, shown in reports.', ['ESLint over the sources']),
      timeoutMs: field(timeoutMs.optional(), 'Milliseconds before the check is stopped and failed.', [60_000], 600_000),
      paths: field(globs.optional(), 'Globs of repository paths the check applies to; absent: every path.', [['src/**/*.ts']]),
      coverage: field(
        z.boolean().optional(),
        'Collect V8 coverage of the Node processes it starts (NODE_V8_COVERAGE) as runtime proof.',
        [false],
        true,
      ),
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
    baseUrl: field(httpUrl, 'Where the running product answers; loopback unless your user config allows the host.', [
      'http://localhost:3000',
    ]),
    kind: field(z.enum(['ui', 'api']), 'ui: pages checked in Chromium; api: requests.', ['ui']),
    start: field(commandSpec.optional(), 'Starts the product (needs safety.allowCommands); absent: it must already run.', [
      { command: 'npm run dev' },
    ]),
    setup: field(commandSpec.optional(), 'Runs before the checks (seed data).', [{ command: 'npm run db:seed' }]),
    teardown: field(commandSpec.optional(), 'Runs after the checks.', [{ command: 'npm run db:reset' }]),
    healthcheck: field(
      z
        .strictObject({
          path: field(z.string().max(2048).regex(/^\//).optional(), 'The path polled until it answers.', ['/health'], '/'),
          timeoutMs: field(timeoutMs.optional(), 'Milliseconds to wait for it.', [30_000], 30_000),
          intervalMs: field(z.int().min(10).max(60_000).optional(), 'Milliseconds between polls.', [500], 500),
          expectStatus: field(z.int().min(100).max(599).optional(), 'The status that means ready; absent: any 2xx or 3xx status.', [200]),
        })
        .optional(),
      'How checker knows the started product is ready.',
      [{ path: '/health', timeoutMs: 30_000, intervalMs: 500, expectStatus: 200 }],
    ),
  }),
);

/** No secrets in config: a BYOK key is read from the environment variable named by `apiKeyEnv`. */
const provider = def(
  'provider',
  z.strictObject({
    kind: field(z.enum(['local', 'byok']), 'local: a command on this machine; byok: an OpenAI-compatible endpoint with your key.', [
      'byok',
    ]),
    command: field(commandString.optional(), 'For kind local: the model command (needs safety.allowCommands).', ['my-local-model']),
    args: field(args.optional(), 'For kind local: its arguments.', [['--json']]),
    endpoint: field(httpUrl.optional(), 'For kind byok: the endpoint (loopback only when a repository sets it).', [
      'http://127.0.0.1:11434/v1',
    ]),
    model: field(z.string().min(1).max(200).optional(), 'The model name sent to the endpoint.', ['some-model']),
    apiKeyEnv: field(
      z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]{0,127}$/)
        .optional(),
      "The NAME of the environment variable holding the key (read from your user config only; a repository's is ignored).",
      ['MY_PROVIDER_KEY'],
    ),
    timeoutMs: field(timeoutMs.optional(), 'Milliseconds per attempt.', [60_000], 60_000),
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
  browserTestRunner: field(adapter.optional(), 'Your browser test runner.', [
    { enabled: true, command: 'npx', args: ['playwright', 'test'] },
  ]),
  coverage: field(adapter.optional(), 'A coverage run; its lcov or istanbul output is runtime proof.', [
    { enabled: true, command: 'npx', args: ['vitest', 'run', '--coverage'] },
  ]),
  mutationTester: field(adapter.optional(), 'A mutation tester.', [{ enabled: false, command: 'stryker' }]),
  staticAnalyzer: field(adapter.optional(), 'A static analyser.', [{ enabled: true, command: 'eslint', args: ['.'] }]),
  apiFuzzer: field(adapter.optional(), 'An API fuzzer.', [{ enabled: false, command: 'schemathesis' }]),
  contractTester: field(adapter.optional(), 'A contract tester.', [{ enabled: false, command: 'pact-verifier' }]),
};

/** `$schema`: where an editor finds this schema (a JSON config names it; a YAML one says it in a comment). */
const schemaPointer = field(z.string().max(2048).optional(), 'Where an editor finds this schema; ignored by checker.', [
  './node_modules/checker-cli/schemas/config.schema.json',
]);

export const configSchema = z.strictObject({
  $schema: schemaPointer,
  schemaVersion: field(z.literal(1).optional(), 'Optional; 1 is the only version.', [1], 1),
  safety: field(
    z
      .strictObject({
        allowCommands: field(
          z.boolean().optional(),
          'Gate for any command execution (checks, adapters, the agent process, product start). Only the boolean true opens it.',
          [true],
          false,
        ),
      })
      .optional(),
    'Safety gates; read from the base revision of the change, never from the change itself.',
    [{ allowCommands: true }],
  ),
  toolAdapters: field(
    z
      .strictObject({
        agentProcess: field(agentProcess.optional(), 'Your local agent CLI, for checker agent --run.', [
          { command: 'my-agent --non-interactive', profile: 'generic', bundleFormat: 'markdown' },
        ]),
        ...adapterFields,
      })
      .optional(),
    'External tools checker may run (only when safety.allowCommands is true).',
    [{ staticAnalyzer: { enabled: true, command: 'eslint', args: ['.'] } }],
  ),
  checks: field(namedRecord(check, 200).optional(), 'Named checks checker execute runs (names: letters, digits, . _ -).', [
    { lint: { command: 'npm run lint' }, unit: { argv: ['node', '--test'] } },
  ]),
  products: field(
    z
      .strictObject({
        targets: field(namedRecord(productTarget, 100).optional(), 'Named products checker product checks (UI or API).', [
          { web: { baseUrl: 'http://localhost:3000', kind: 'ui', start: { command: 'npm run dev' } } },
        ]),
        /** The Chromium that product runs drive; absent: CHECKER_CHROMIUM, then well-known install paths (io/browser). */
        browser: field(
          z
            .strictObject({
              executablePath: field(
                z
                  .string()
                  .min(2)
                  .max(4096)
                  .regex(/^(?:\/|[A-Za-z]:\\)/)
                  .optional(),
                'Absolute path of the Chromium product checks drive; absent: CHECKER_CHROMIUM, then well-known install paths.',
                ['/usr/bin/chromium'],
              ),
            })
            .optional(),
          'The browser for UI product checks.',
          [{ executablePath: '/usr/bin/chromium' }],
        ),
      })
      .optional(),
    'Product checks: running UI and API targets checked from the outside.',
    [{ targets: { api: { baseUrl: 'http://127.0.0.1:8080', kind: 'api' } } }],
  ),
  investigation: field(
    z
      .strictObject({
        provider: field(provider.optional(), "A repository's provider for --investigate, used when your user config sets none.", [
          { kind: 'byok', endpoint: 'http://127.0.0.1:11434/v1', model: 'some-model' },
        ]),
        maxRequestTokens: field(
          z.int().min(1000).max(200_000).optional(),
          'Estimated tokens the request may hold (characters / 4); lists are cut, lowest-ranked first, to fit.',
          [8000],
          12_000,
        ),
      })
      .optional(),
    'The opt-in model investigation (docs/investigation.md).',
    [{ maxRequestTokens: 8000 }],
  ),
  analysis: field(
    z
      .strictObject({
        assertionHelpers: field(
          z
            .array(z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$.]{0,199}$/))
            .max(200)
            .optional(),
          'Functions counted as assertions when a test calls them.',
          [['expectValid', 'helpers.assertShape']],
        ),
        maxFileBytes: field(
          z.int().min(1024).max(67_108_864).optional(),
          'Files above this many bytes are skipped, with a limitation.',
          [2_097_152],
          1_048_576,
        ),
        maxGraphElements: field(
          z.int().min(1000).max(100_000_000).optional(),
          'Nodes plus edges the knowledge graph may hold before limits/graph-too-large (~2 KB of heap each).',
          [3_000_000],
          2_000_000,
        ),
        ignore: field(globs.optional(), 'Extra globs of paths never read (beside .gitignore).', [['fixtures/**', 'vendor/**']]),
        defaultBranch: field(
          z
            .string()
            .regex(/^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/)
            .optional(),
          'The branch a change is compared with when no --base is given; absent: origin/HEAD, then main or master.',
          ['main'],
        ),
        maxPromptTasks: field(z.int().min(1).max(100).optional(), 'Ranked tasks the bundle lists first; the rest are overflow.', [20], 12),
        coldParse: field(
          z.enum(['focused', 'full']).optional(),
          'focused: an analysis parses in full only the files its change can reach (and tests, routes and what they import), and preflight and context only tests and files with framework facts; the rest are read for imports and exports alone (and their words, for a task), and kept so in the facts cache; full: every file.',
          ['full'],
          'focused',
        ),
      })
      .optional(),
    'How the repository is read.',
    [{ ignore: ['fixtures/**'], maxPromptTasks: 20 }],
  ),
  /** Bounds of history mining for co-change, fix-prone and hotspot facts (docs/config.md#history). */
  history: field(
    z
      .strictObject({
        enabled: field(z.boolean().optional(), 'false: no history is mined and the history facts stay empty.', [false], true),
        maxCommits: field(z.int().min(1).max(50_000).optional(), 'Commits walked from HEAD at most.', [5000], 2000),
        maxAgeDays: field(z.int().min(1).max(36_500).optional(), 'Commits older than this before HEAD are not read.', [365], 730),
        massChangeFiles: field(
          z.int().min(2).max(100_000).optional(),
          'A commit changing more files than this (formatting, renames) is left out.',
          [100],
          50,
        ),
      })
      .optional(),
    'Bounds of history mining for co-change, fix-prone and hotspot facts (docs/history.md).',
    [{ maxCommits: 5000, maxAgeDays: 365 }],
  ),
  context: field(
    z
      .strictObject({
        maxNodes: field(
          z.int().min(1).max(1000).optional(),
          'Default bound of a session context or task_context packet, in nodes.',
          [120],
          80,
        ),
      })
      .optional(),
    'Task context packets (checker context, MCP task_context).',
    [{ maxNodes: 120 }],
  ),
  tests: field(
    z
      .strictObject({
        dependsOn: field(
          z
            .array(
              z.strictObject({
                files: field(
                  globs.min(1),
                  'Files the tests depend on without importing them (fixtures, .env, a spawned CLI, generated code).',
                  [['bin/**', 'fixtures/**', '.env*']],
                ),
                tests: field(globs.min(1), 'The test files that depend on them.', [['test/cli.test.ts']]),
              }),
            )
            .max(200)
            .optional(),
          'What the import graph cannot see: a change to a file matching `files` reaches every test file matching `tests` (distance 1), which then runs for it.',
          [[{ files: ['fixtures/**'], tests: ['test/fixtures.test.ts'] }]],
        ),
      })
      .optional(),
    'How tests are found and chosen.',
    [{ dependsOn: [{ files: ['fixtures/**'], tests: ['test/fixtures.test.ts'] }] }],
  ),
});

export type Config = z.infer<typeof configSchema>;

/**
 * The keys of a repository's configuration that grant power: to run commands (`safety`, `checks`, `toolAdapters`,
 * product targets' start/setup/teardown and the browser binary), to reach hosts (product `baseUrl`, the investigation
 * endpoint) or to pick the base these are read from (`analysis.defaultBranch`). They are read from the base revision of
 * the change under review (src/app/load/trusted-config.ts), never from the change itself (docs/security.md).
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
  $schema: field(z.string().max(2048).optional(), 'Where an editor finds this schema; ignored by checker.', [
    './node_modules/checker-cli/schemas/user-config.schema.json',
  ]),
  schemaVersion: field(z.literal(1).optional(), 'Optional; 1 is the only version.', [1], 1),
  investigation: field(
    z
      .strictObject({
        provider: field(provider.optional(), "The user's investigation provider; it replaces any repository's provider whole.", [
          { kind: 'byok', endpoint: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKeyEnv: 'OPENAI_API_KEY' },
        ]),
      })
      .optional(),
    'Your model investigation settings (docs/investigation.md).',
    [{ provider: { kind: 'byok', endpoint: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKeyEnv: 'OPENAI_API_KEY' } }],
  ),
  products: field(
    z
      .strictObject({
        allowHosts: field(
          z.array(allowedHost).max(100).optional(),
          'Hosts (name or name:port) product targets may use besides loopback addresses; "*" is not accepted.',
          [['staging.example.test', 'api.example.test:8443']],
        ),
      })
      .optional(),
    'Product checks beyond this machine.',
    [{ allowHosts: ['staging.example.test'] }],
  ),
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

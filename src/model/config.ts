/** Repository configuration (`.checker/config.yml`, `checker.config.yml`), validated by `schemas/config.schema.json`. */
export type AgentProfile = 'generic' | 'codex' | 'claude-code' | 'cursor' | 'pi' | 'opencode' | 'desktop';
export type BundleFormat = 'markdown' | 'json';

export interface CommandSpec {
  command: string;
  args?: string[];
  timeoutMs?: number;
}

export interface AgentProcessConfig extends CommandSpec {
  profile?: AgentProfile;
  bundleFormat?: BundleFormat;
}

export interface ToolAdapterConfig extends CommandSpec {
  enabled: boolean;
}

export type ToolAdapterKind = 'browserTestRunner' | 'coverage' | 'mutationTester' | 'staticAnalyzer' | 'apiFuzzer' | 'contractTester';

export type ToolAdaptersConfig = { agentProcess?: AgentProcessConfig } & { [K in ToolAdapterKind]?: ToolAdapterConfig };

/** A named check: either a command string (tokenised without a shell) or an argv array. */
export interface CheckConfig {
  command?: string;
  argv?: string[];
  description?: string;
  timeoutMs?: number;
  /** Globs of repository paths the check applies to. */
  paths?: string[];
}

export interface HealthcheckConfig {
  path?: string;
  timeoutMs?: number;
  intervalMs?: number;
  expectStatus?: number;
}

export interface ProductTargetConfig {
  baseUrl: string;
  kind: 'ui' | 'api';
  start?: CommandSpec;
  setup?: CommandSpec;
  teardown?: CommandSpec;
  healthcheck?: HealthcheckConfig;
}

/** No secrets in config: a BYOK key is read from the environment variable named by `apiKeyEnv`. */
export interface ProviderConfig {
  kind: 'local' | 'byok';
  command?: string;
  args?: string[];
  endpoint?: string;
  model?: string;
  apiKeyEnv?: string;
  timeoutMs?: number;
}

export interface AnalysisConfig {
  assertionHelpers?: string[];
  maxFileBytes?: number;
  /** Nodes plus edges the knowledge graph may hold before `limits/graph-too-large` (default 1,500,000, ~2 KB of heap each). */
  maxGraphElements?: number;
  ignore?: string[];
  defaultBranch?: string;
  /** Ranked tasks the bundle lists first (the rest are overflow), 1-100, default 12. */
  maxPromptTasks?: number;
}

export interface Config {
  schemaVersion?: 1;
  safety?: { allowCommands?: boolean };
  toolAdapters?: ToolAdaptersConfig;
  checks?: Record<string, CheckConfig>;
  products?: { targets?: Record<string, ProductTargetConfig> };
  investigation?: { provider?: ProviderConfig };
  analysis?: AnalysisConfig;
  context?: { maxNodes?: number };
}

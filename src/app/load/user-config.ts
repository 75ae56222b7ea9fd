import type { UserConfig } from '../../model/config.js';
import type { Env } from '../../model/env.js';
import { parseConfigText } from '../../repo-text/config-text.js';

type Provider = NonNullable<NonNullable<UserConfig['investigation']>['provider']>;

/** What the user chose outside every repository (the user config file and CHECKER_* variables), validated. */
export interface UserSettings {
  /** The investigation provider the user chose, whole, and where it was set; absent when the user set none. */
  provider?: { provider: Provider; source: string };
  /** The variable the user named for the provider's key (CHECKER_PROVIDER_KEY_ENV), applied to a provider the user chose. */
  keyEnv?: string;
  /** CHECKER_PROVIDER_MODEL, applied to a provider the user chose. */
  model?: string;
  /** Hosts beyond loopback that product targets may use (the file's `products.allowHosts` and CHECKER_ALLOW_HOSTS). */
  allowHosts: string[];
  /** The user config file read, if any (for messages). */
  file?: string;
}

/**
 * The user's settings: the user config file (`config/user-invalid` when it does not validate against
 * schemas/user-config.schema.json) and the variables CHECKER_PROVIDER_ENDPOINT (+ CHECKER_PROVIDER_MODEL,
 * CHECKER_PROVIDER_KEY_ENV), which choose a byok provider that replaces the file's, and CHECKER_ALLOW_HOSTS (comma-
 * separated hosts). A variable with a bad value is refused by name.
 */
export async function loadUserSettings(env: Env): Promise<UserSettings> {
  const source = await env.readUserSettings();
  const file = source.file === undefined ? undefined : readUserConfigFile(env, source.file);
  const variables = source.variables;
  const fromVariables = validateVariables(env, variables);
  const allowHosts = [...(file?.products?.allowHosts ?? []), ...(fromVariables.products?.allowHosts ?? [])];
  const keyEnv = variables.CHECKER_PROVIDER_KEY_ENV;
  const variableProvider = fromVariables.investigation?.provider;
  const fileProvider = file?.investigation?.provider;
  const provider =
    variableProvider !== undefined
      ? { provider: variableProvider, source: 'CHECKER_PROVIDER_ENDPOINT' }
      : fileProvider !== undefined && source.file !== undefined
        ? { provider: fileProvider, source: source.file.path }
        : undefined;
  return {
    ...(provider === undefined ? {} : { provider }),
    ...(keyEnv === undefined ? {} : { keyEnv }),
    ...(variables.CHECKER_PROVIDER_MODEL === undefined ? {} : { model: variables.CHECKER_PROVIDER_MODEL }),
    allowHosts: [...new Set(allowHosts)],
    ...(source.file === undefined ? {} : { file: source.file.path }),
  };
}

function readUserConfigFile(env: Env, file: { path: string; text: string }): UserConfig {
  const data = parseConfigText(file.text, file.path);
  return env.validate<UserConfig>('user-config', data ?? {}, { code: 'config/user-invalid', file: file.path });
}

/** The CHECKER_* variables as a user config document, validated field by field so an error names the variable. */
function validateVariables(env: Env, variables: Readonly<Record<string, string>>): UserConfig {
  const check = (name: string, document: unknown): void => {
    env.validate<UserConfig>('user-config', document, { code: 'config/user-invalid', file: name });
  };
  const hosts = variables.CHECKER_ALLOW_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  if (hosts !== undefined) check('CHECKER_ALLOW_HOSTS', { products: { allowHosts: hosts } });
  const keyEnv = variables.CHECKER_PROVIDER_KEY_ENV;
  if (keyEnv !== undefined) check('CHECKER_PROVIDER_KEY_ENV', { investigation: { provider: { kind: 'byok', apiKeyEnv: keyEnv } } });
  const model = variables.CHECKER_PROVIDER_MODEL;
  if (model !== undefined) check('CHECKER_PROVIDER_MODEL', { investigation: { provider: { kind: 'byok', model } } });
  const endpoint = variables.CHECKER_PROVIDER_ENDPOINT;
  if (endpoint !== undefined) check('CHECKER_PROVIDER_ENDPOINT', { investigation: { provider: { kind: 'byok', endpoint } } });
  const provider: Provider | undefined =
    endpoint === undefined
      ? undefined
      : {
          kind: 'byok',
          endpoint,
          ...(model === undefined ? {} : { model }),
          ...(keyEnv === undefined ? {} : { apiKeyEnv: keyEnv }),
        };
  return {
    ...(hosts === undefined ? {} : { products: { allowHosts: hosts } }),
    ...(provider === undefined ? {} : { investigation: { provider } }),
  };
}

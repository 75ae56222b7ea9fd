import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import type { UserSettingsSource } from '../model/env.js';
import { hasErrorCode } from './has-error-code.js';

const MAX_USER_CONFIG_BYTES = 256 * 1024;
/** The variables that carry a user's choices (src/app/load/user-config.ts reads them); no other variable is passed on. */
const USER_VARIABLES = ['CHECKER_PROVIDER_ENDPOINT', 'CHECKER_PROVIDER_MODEL', 'CHECKER_PROVIDER_KEY_ENV', 'CHECKER_ALLOW_HOSTS'];

/** Where the user config file is looked for: $CHECKER_USER_CONFIG, else $XDG_CONFIG_HOME/checker/config.yml, else ~/.config/checker/config.yml. */
function findUserConfigPath(processEnv: NodeJS.ProcessEnv, home = homedir()): string {
  const explicit = processEnv.CHECKER_USER_CONFIG;
  if (explicit !== undefined && explicit !== '') {
    if (!isAbsolute(explicit)) {
      throw new CheckerError('config/user-unreadable', `CHECKER_USER_CONFIG must be an absolute path, not ${JSON.stringify(explicit)}`, {
        hint: 'Set CHECKER_USER_CONFIG to the absolute path of your checker config file, or unset it to use ~/.config/checker/config.yml.',
      });
    }
    return explicit;
  }
  const xdg = processEnv.XDG_CONFIG_HOME;
  const folder = xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config');
  return join(folder, 'checker', 'config.yml');
}

/**
 * The user's own settings: the user config file (a symlink is followed: the file is the user's, not a repository's)
 * and the CHECKER_* variables of USER_VARIABLES that are set. A file that is there but not a regular file, over 256 KiB
 * or not UTF-8 throws `config/user-unreadable`.
 */
export function readUserSettings(processEnv: NodeJS.ProcessEnv, home = homedir()): UserSettingsSource {
  const variables: Record<string, string> = {};
  for (const name of USER_VARIABLES) {
    const value = processEnv[name];
    if (value !== undefined && value !== '') variables[name] = value;
  }
  const path = findUserConfigPath(processEnv, home);
  const text = readUserConfigText(path);
  return text === undefined ? { variables } : { file: { path, text }, variables };
}

function readUserConfigText(path: string): string | undefined {
  const unreadable = (why: string): CheckerError =>
    new CheckerError('config/user-unreadable', `the user config file ${path} ${why}`, {
      hint: 'Fix or remove that file (it holds your investigation provider and allowed hosts), or point CHECKER_USER_CONFIG elsewhere.',
      location: { file: path },
    });
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw unreadable('is not a regular file');
    size = stats.size;
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT') || hasErrorCode(error, 'ENOTDIR')) return undefined;
    if (error instanceof CheckerError) throw error;
    throw unreadable(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (size > MAX_USER_CONFIG_BYTES) throw unreadable(`is larger than ${MAX_USER_CONFIG_BYTES} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path)).replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof TypeError) throw unreadable('is not UTF-8');
    throw unreadable(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

import type { Env } from '../../model/env.js';
import { buildRunnerSelectors, isRunnerConfig, listScriptedMochaConfigs, type RunnerSelectors } from '../test-runners.js';
import { readRepoTexts } from './repo-text.js';

const RUNNER_CONFIG_LIMIT = 256 * 1024;

/** The runner selectors of the repository (test-runners.ts), from the runner configs and package.json files among `paths`. */
export async function loadRunnerSelectors(env: Env, paths: readonly string[]): Promise<RunnerSelectors> {
  const configs = paths.filter(isRunnerConfig);
  const texts = await readRepoTexts(env, configs, RUNNER_CONFIG_LIMIT);
  const read = new Map<string, string>();
  configs.forEach((path, index) => {
    const text = texts[index];
    if (text !== undefined) read.set(path, text);
  });
  const tracked = new Set(paths);
  // A mocha config under another name is found through the scripts that name it.
  const named = [...listScriptedMochaConfigs(read).keys()].filter((path) => tracked.has(path) && !read.has(path));
  const namedTexts = await readRepoTexts(env, named, RUNNER_CONFIG_LIMIT);
  named.forEach((path, index) => {
    const text = namedTexts[index];
    if (text !== undefined) read.set(path, text);
  });
  return buildRunnerSelectors(read, (path) => tracked.has(path));
}

import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const isBuilt = process.env.CHECKER_TEST_CLI === 'dist';

/**
 * The URL a child process imports for `src/<path>.ts`: under `npm test` (CHECKER_TEST_CLI=dist, dist/ built first) the
 * built `dist/<path>.js`, which starts in about a tenth of the time; a test file run by hand uses the sources, so it
 * never runs a stale build.
 */
export function childModuleUrl(path: string): string {
  const file = fileURLToPath(new URL(isBuilt ? `../../dist/${path}.js` : `../../src/${path}.ts`, import.meta.url));
  if (isBuilt && !existsSync(file)) throw new Error(`CHECKER_TEST_CLI=dist but ${file} is missing: run npm run build`);
  return pathToFileURL(file).href;
}

/** Node flags for a child that imports `childModuleUrl` modules: the tsx loader only when those are sources. */
export function childNodeArgs(): string[] {
  return isBuilt ? [] : ['--import', import.meta.resolve('tsx')];
}

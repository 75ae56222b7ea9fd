import { posix } from 'node:path';

/**
 * Modules that start processes or worker threads: a test importing one of them may run a repository file as a program
 * (markdown-it's pathological test renders in a jest-worker given `require.resolve('./pathological_worker.js')`).
 */
export const PROCESS_MODULES: ReadonlySet<string> = new Set([
  'child_process',
  'node:child_process',
  'execa',
  'cross-spawn',
  'tinyexec',
  'nano-spawn',
  'zx',
  'worker_threads',
  'node:worker_threads',
  'jest-worker',
  'piscina',
  'tinypool',
  'workerpool',
]);

/** `join(__dirname, 'a', 'b.js')` or `path.resolve(__dirname, …)`: quoted segments after `__dirname`, each its own argument. */
const JOINED_PATH = /\b(?:join|resolve)\(\s*__dirname((?:\s*,\s*(?:'[^'\n]*'|"[^"\n]*"|`[^`$\n]*`))+)\s*\)/g;
const CODE_FILE = /\.[cm]?[jt]sx?$/;

/** A quoted relative path to a JavaScript or TypeScript file: `'../src/cli.ts'`, `"./bin/run.js"`, `` `bin/cli.mjs` ``. */
const PATH_LITERAL = /(['"`])((?:\.{1,2}\/)*[\w@.-]+(?:\/[\w@.-]+)*\.[cm]?[jt]sx?)\1/g;

/**
 * The repository files a test runs as programs: each quoted path in its text to a code file that exists (`isFile`),
 * read against the test's own folder (`path.resolve(__dirname, '../src/cli.ts')`, `new URL('../bin/cli.js',
 * import.meta.url)`) and then against the package folders above it up to the root (`execa('node', ['bin/cli.js'])` run
 * from the package). Only for a test that imports a process module (`PROCESS_MODULES`): a path in any other test is a
 * fixture name or a message. The test itself is never among them. Sorted, distinct.
 */
export function findSpawnedFiles(testPath: string, text: string, isFile: (path: string) => boolean): string[] {
  const folder = posix.dirname(testPath);
  const bases: string[] = [];
  for (let base = folder; ; base = posix.dirname(base)) {
    bases.push(base === '.' ? '' : base);
    if (base === '.' || base === '/' || base === '') break;
  }
  const found = new Set<string>();
  // `join(__dirname, '..', 'fixtures', 'preload.mjs')`: the segments, read against the test's folder.
  const joined = [...text.matchAll(JOINED_PATH)].flatMap((match) => {
    const segments = [...(match[1] ?? '').matchAll(/(['"`])([^'"`\n]*)\1/g)].map((segment) => segment[2] ?? '');
    const literal = `./${segments.join('/')}`;
    return CODE_FILE.test(literal) ? [literal] : [];
  });
  for (const literal of [...[...text.matchAll(PATH_LITERAL)].map((match) => match[2] ?? ''), ...joined]) {
    for (const base of bases) {
      const candidate = posix.normalize(base === '' ? literal : `${base}/${literal}`);
      if (candidate.startsWith('..') || candidate === testPath) continue;
      if (isFile(candidate)) {
        found.add(candidate);
        break;
      }
      // `./x` and `../x` are read against the test's folder alone.
      if (literal.startsWith('.')) break;
    }
  }
  return [...found].sort();
}

import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { TestRepo } from './git-repo.js';

let clock = Date.now() - 3_600_000;

/**
 * Dates files a minute after the last call, an hour in the past: older than the kept graph's racy window
 * (src/app/graph-snapshot.ts). `paths`, or every file of the repository but git's and checker's own state. Editing a
 * file and dating only it is what an edit looks like to a scan.
 */
export function ageFiles(repo: TestRepo, paths?: readonly string[]): void {
  clock += 60_000;
  const seconds = clock / 1000;
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.name === '.git' || path.endsWith('.checker/local')) continue;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) utimesSync(path, seconds, seconds);
    }
  };
  if (paths === undefined) visit(repo.dir);
  else for (const path of paths) utimesSync(join(repo.dir, path), seconds, seconds);
}

import { lstat, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';

/**
 * The real folder `<root>/.checker/local/<name>`, or undefined when there is none; a symlinked segment (or one that is
 * not a folder) throws `artifact/symlink`, so nothing is ever removed through a link out of the repository.
 */
export async function findLocalFolder(root: string, name: string): Promise<string | undefined> {
  const realRoot = await realpath(root);
  const expected = join(realRoot, '.checker', 'local', name);
  for (const dir of [join(realRoot, '.checker'), join(realRoot, '.checker', 'local'), expected]) {
    const info = await lstat(dir).catch(() => undefined);
    if (info === undefined) return undefined;
    if (!info.isDirectory()) {
      throw new CheckerError('artifact/symlink', `${dir} is a symlink or not a folder; checker removes nothing through it`, {
        hint: 'Remove it so checker can create a real folder.',
      });
    }
  }
  return expected;
}

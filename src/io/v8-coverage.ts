import { lstat, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepV8Scripts } from '../runtime-coverage/v8-compact.js';

/** A coverage file above this is left as Node wrote it (the loader refuses files over 64 MiB anyway). */
const MAX_COMPACT_BYTES = 256 * 1024 * 1024;

/**
 * After a check ran with NODE_V8_COVERAGE=`dir`: each coverage file keeps only the scripts of the repository at
 * `root` (outside node_modules), and a file with none is removed. Best effort: a file that cannot be read or parsed
 * stays as it is, and the loader judges it later.
 */
export async function compactV8Folder(dir: string, root: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  const keep = (url: string): boolean => {
    let path: string;
    try {
      path = url.startsWith('file://') ? fileURLToPath(url) : url;
    } catch {
      return false;
    }
    return path.startsWith(prefix) && !path.slice(prefix.length).split(sep).includes('node_modules');
  };
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = join(dir, entry.name);
    try {
      const info = await lstat(file);
      if (!info.isFile() || info.size > MAX_COMPACT_BYTES) continue;
      const compact = keepV8Scripts(JSON.parse(await readFile(file, 'utf8')) as unknown, keep);
      if (compact === undefined) continue;
      if (compact.kept === 0) {
        await unlink(file);
        continue;
      }
      const temp = `${file}.${process.pid}.compact`;
      await writeFile(temp, JSON.stringify(compact.data), { mode: 0o600 });
      await rename(temp, file);
    } catch {
      // Left for the loader, which reports what it cannot use.
    }
  }
}

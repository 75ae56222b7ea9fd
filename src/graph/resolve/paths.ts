/** POSIX, repository-relative path helpers. `undefined` means the path left the repository. */
function normalizeRepoPath(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
      continue;
    }
    out.push(part);
  }
  return out.join('/');
}

export function joinRepoPath(dir: string, relative: string): string | undefined {
  return normalizeRepoPath(dir === '' ? relative : `${dir}/${relative}`);
}

export function getDirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The directory itself, then each parent up to the repository root (''). */
export function getAncestorDirs(dir: string): string[] {
  const dirs = [dir];
  let current = dir;
  while (current !== '') {
    current = getDirName(current);
    dirs.push(current);
  }
  return dirs;
}

export function isRelativeSpecifier(specifier: string): boolean {
  return specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');
}

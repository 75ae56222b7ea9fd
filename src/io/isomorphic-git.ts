import type IsomorphicGit from 'isomorphic-git';

let loading: Promise<typeof IsomorphicGit> | undefined;

/**
 * isomorphic-git, loaded on first use. Our own reader (git-objects.ts) answers the reads a run makes from loose
 * objects and packs; isomorphic-git is asked only for what it leaves (alternates, an object it cannot find), and its
 * ~650 kB of modules cost a warm `ai preflight` about 80 ms to load that it then never called.
 */
export function loadIsomorphicGit(): Promise<typeof IsomorphicGit> {
  loading ??= import('isomorphic-git').then((loaded) => loaded.default);
  return loading;
}

import type { PackageManifest } from '../../model/graph.js';

const NEXT_CONFIG = /^next\.config\.(js|mjs|cjs|ts|mts)$/;

/**
 * Whether a file's routes by Next.js's file conventions (parse/next-routes.ts, read from the path alone) are served:
 * the package the file belongs to (the manifest with the longest folder holding it), or the repository's root manifest,
 * declares `next`, or the package's folder holds a `next.config.*`. A `src/pages/` folder of a React single-page app
 * or of a Vite console is no Next.js router: its components would otherwise be "PAGE" routes that nothing serves,
 * with tests asked for each. A tree without a manifest keeps the conventions (nothing says otherwise).
 */
export function createNextRouteFilter(packages: readonly PackageManifest[], paths: Iterable<string>): (path: string) => boolean {
  if (packages.length === 0) return () => true;
  const configFolders = new Set<string>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    if (NEXT_CONFIG.test(path.slice(slash + 1))) configFolders.add(slash === -1 ? '' : path.slice(0, slash));
  }
  const folders = [...packages].sort((left, right) => right.folder.length - left.folder.length);
  const rootServesNext = packages.some((manifest) => manifest.folder === '' && manifest.dependencies.includes('next'));
  const cache = new Map<string, boolean>();
  return (path) => {
    const owner = folders.find(({ folder }) => folder === '' || path.startsWith(`${folder}/`));
    const folder = owner?.folder ?? '';
    let served = cache.get(folder);
    if (served === undefined) {
      served = rootServesNext || configFolders.has(folder) || owner?.dependencies.includes('next') === true;
      cache.set(folder, served);
    }
    return served;
  };
}

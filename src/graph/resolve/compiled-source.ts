const COMPILED = /\.([cm]?)js$/;
const DECLARATION = /\.d\.([cm]?)ts$/;
const SOURCE_ROOTS = ['src', 'source', 'lib', 'ts'];

/**
 * The TypeScript source a published `.js`/`.cjs`/`.mjs` file (or its `.d.ts`) was compiled from, when the
 * repository carries both the build output and its sources (a package that ships `src/` beside its output):
 * the file has its counterpart beside it (`x.d.ts`/`x.d.cts` for `x.js`/`x.cjs`, and the reverse) and
 * `<root>/<same path>.ts` exists,
 * either under a source root or with the output folder swapped for one (`v4/core/x.js` ↔ `src/v4/core/x.ts`,
 * `out/x.js` ↔ `src/x.ts`), at the repository root or in any folder above the file (a workspace package). Without both signals a `.js` file is hand-written code.
 */
export function findCompiledSource(path: string, isTracked: (path: string) => boolean): string | undefined {
  const declaration = DECLARATION.exec(path);
  const match = declaration ?? COMPILED.exec(path);
  if (match === null) return undefined;
  const stem = path.slice(0, match.index);
  // A declaration file is output when its JavaScript is beside it; JavaScript is output when its declaration is.
  const sibling = declaration === null ? [`${stem}.d.${match[1] ?? ''}ts`, `${stem}.d.ts`] : [`${stem}.${match[1] ?? ''}js`, `${stem}.js`];
  if (!sibling.some(isTracked)) return undefined;
  // The package the file belongs to may sit anywhere (`packages/zod/v4/x.js` ↔ `packages/zod/src/v4/x.ts`): each
  // folder above the file is tried as the package root.
  const segments = stem.split('/');
  for (let cut = 0; cut < segments.length; cut += 1) {
    const base = segments.slice(0, cut).join('/');
    const rest = segments.slice(cut);
    const tails = rest.length > 1 ? [rest.join('/'), rest.slice(1).join('/')] : [rest.join('/')];
    for (const root of SOURCE_ROOTS) {
      for (const tail of tails) {
        for (const extension of ['ts', 'tsx', `${match[1] ?? ''}ts`]) {
          const candidate = `${base === '' ? '' : `${base}/`}${root}/${tail}.${extension}`;
          if (candidate !== path && isTracked(candidate)) return candidate;
        }
      }
    }
  }
  return undefined;
}

/** How one import specifier of one file resolved. */
export type ResolutionKind =
  | 'relative'
  | 'paths'
  | 'baseUrl'
  | 'workspace'
  | 'package-self'
  /** A Python absolute import found under a package root, or a Go import inside a module of the repository. */
  | 'module-root'
  | 'external'
  | 'builtin'
  | 'unresolved';

export interface Resolution {
  specifier: string;
  kind: ResolutionKind;
  /** Repository-relative target path when the import lands on a file of the repository. */
  target?: string;
  /**
   * When `target` is a declaration file (a package folder's `types`, a `.d.ts` beside a `.js`), the file Node runs for
   * the same specifier: the declaration has no code, so reach and reaching tests follow this file too.
   */
  runtimeTarget?: string;
  /**
   * The other repository files the import lands on, sorted: a Go package is its folder's files, so an import of it (and
   * a file's own package, specifier `.`) reaches each of them.
   */
  packageFiles?: string[];
  /**
   * Set when the specifier names build output the repository does not hold (`../lib/a`, babel's or tsc's output) and
   * `target` is the source it is built from: the rule that maps one to the other, in words.
   */
  builtFrom?: string;
  /** For `external`: the npm package name. */
  packageName?: string;
  /** For `unresolved`: why (missing file, alias matched but no file, exports blocked). */
  reason?: string;
}

export interface UnresolvedImport {
  from: string;
  specifier: string;
  line: number;
  reason: string;
}

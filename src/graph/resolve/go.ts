import type { Resolution } from '../../model/resolve.js';
import { compareText } from '../../text/compare-text.js';
import { getDirName } from './paths.js';

interface GoRepo {
  files: ReadonlySet<string>;
  /** Repo path → text of every go.mod. */
  goModules: ReadonlyMap<string, string>;
}

interface GoModule {
  /** The module path its go.mod declares (`example.com/shop`). */
  path: string;
  /** Its folder in the repository ('' the root). */
  folder: string;
}

/**
 * Resolves a Go import to the package it names: a folder's `.go` files (its `_test.go` files left out). Specifiers are
 * written by the Go extractor (src/graph/parse/go): the import path, and `.` for the file's own package, whose other
 * files it sees without an import (a test file sees the package's test files too). Import paths inside a module of the
 * repository (go.mod's `module`, the longest that matches) land on that module's folder; `vendor/<path>` is tried
 * next; a path whose first element has no dot is the standard library; any other is an external module.
 */
export function createGoResolver(repo: GoRepo): (fromFile: string, specifier: string) => Resolution {
  const modules = readModules(repo.goModules);
  const byFolder = new Map<string, string[]>();
  for (const file of [...repo.files].sort(compareText)) {
    if (!file.endsWith('.go')) continue;
    const folder = getDirName(file);
    const list = byFolder.get(folder);
    if (list === undefined) byFolder.set(folder, [file]);
    else list.push(file);
  }
  const packageOf = (folder: string, withTests: boolean, except?: string): string[] =>
    (byFolder.get(folder) ?? []).filter((file) => file !== except && (withTests || !file.endsWith('_test.go')));
  const land = (specifier: string, kind: Resolution['kind'], files: string[]): Resolution => {
    const [target, ...rest] = files;
    return { specifier, kind, ...(target === undefined ? {} : { target }), ...(rest.length === 0 ? {} : { packageFiles: rest }) };
  };

  return (fromFile, specifier) => {
    if (specifier === '.') {
      const files = packageOf(getDirName(fromFile), fromFile.endsWith('_test.go'), fromFile);
      // A package of one file imports nothing of its own: a builtin, so that no unresolved import is recorded.
      return files.length === 0 ? { specifier, kind: 'builtin' } : land(specifier, 'relative', files);
    }
    const module = modules.find((candidate) => specifier === candidate.path || specifier.startsWith(`${candidate.path}/`));
    if (module !== undefined) {
      const rest = specifier.slice(module.path.length + 1);
      const folder = [module.folder, rest].filter((part) => part !== '').join('/');
      const files = packageOf(folder, false);
      return files.length === 0
        ? { specifier, kind: 'unresolved', reason: `no Go files in ${folder === '' ? 'the repository root' : folder}` }
        : land(specifier, 'module-root', files);
    }
    const vendored = packageOf(`vendor/${specifier}`, false);
    if (vendored.length > 0) return land(specifier, 'module-root', vendored);
    const first = specifier.split('/')[0] ?? specifier;
    if (!first.includes('.')) return { specifier, kind: 'builtin' };
    return { specifier, kind: 'external', packageName: specifier };
  };
}

/** Every go.mod's module path and folder, the longest path first (a nested module wins over its parent). */
function readModules(goModules: ReadonlyMap<string, string>): GoModule[] {
  const modules: GoModule[] = [];
  for (const [path, text] of goModules) {
    const declared = /^\s*module\s+("?)([^\s"]+)\1\s*$/m.exec(text)?.[2];
    if (declared !== undefined) modules.push({ path: declared, folder: getDirName(path) });
  }
  return modules.sort((left, right) => right.path.length - left.path.length || compareText(left.path, right.path));
}

import { compareText } from '../../text/compare-text.js';
import type { Resolution } from '../../model/resolve.js';
import { getDirName } from './paths.js';
import { PYTHON_STDLIB } from './python-stdlib.js';
import { findSysPathRoots } from './python-sys-path.js';

/** The files and folders of a repository, as the Python resolver needs them. */
interface PythonRepo {
  files: ReadonlySet<string>;
  dirs: ReadonlySet<string>;
}

/** Names a folder holds that make it a Python project root: its modules are imported from there. */
const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg'];
/** Starts the specifier of a conftest.py pytest loads for a file, followed by the dots of its folder. */
const CONFTEST_MARK = 'conftest:';

/**
 * Resolves a Python import as the interpreter would find it in the repository. Specifiers are written by the Python
 * extractor (src/graph/parse/python): `a.b.c` for `import a.b.c` and for `from a.b import c`, leading dots for relative
 * imports (`.views`, `..models.User`). A dotted path lands on a module (`a/b/c.py`) or a package (`a/b/c/__init__.py`);
 * when neither exists its last part is taken as a name the parent module defines (`from a.b import c` where `c` is a
 * function of `a/b.py`). Absolute imports are looked up under the package roots: the folder above the importer's
 * outermost package (what pytest and `python -m` put on `sys.path`), the repository root and `src/`, and every folder
 * holding a pyproject.toml, setup.py or setup.cfg with its `src/`, after the folders a conftest.py puts on `sys.path`
 * with a static expression. Not found: a standard-library module is a builtin,
 * any other an external package named by its first part.
 */
export function createPythonResolver(
  repo: PythonRepo,
  conftests: ReadonlyMap<string, string> = new Map(),
): (fromFile: string, specifier: string) => Resolution {
  // Folders a conftest.py puts on sys.path come first, as its `sys.path.insert(0, …)` puts them.
  const sysPathRoots = [...conftests]
    .flatMap(([path, text]) => findSysPathRoots(path, text))
    .filter((root) => root === '' || repo.dirs.has(root));
  const projectRoots = [...new Set([...sysPathRoots, ...findProjectRoots(repo)])];
  return (fromFile, specifier) => {
    if (specifier.startsWith(CONFTEST_MARK)) return resolveConftest(repo, fromFile, specifier);
    const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const parts = specifier
      .slice(dots)
      .split('.')
      .filter((part) => part !== '');
    if (dots > 0) {
      let base = getDirName(fromFile);
      for (let level = 1; level < dots; level++) {
        if (base === '') return { specifier, kind: 'unresolved', reason: `the relative import climbs above the repository root` };
        base = getDirName(base);
      }
      const target = findModule(repo, [base], parts);
      return target === undefined
        ? {
            specifier,
            kind: 'unresolved',
            reason: `no module ${parts.join('.') || '__init__'} in ${base === '' ? 'the repository root' : base}`,
          }
        : { specifier, kind: 'relative', target };
    }
    const roots = [getImportRoot(repo, fromFile), ...projectRoots.filter((root) => root !== getImportRoot(repo, fromFile))];
    if (specifier.includes('*')) return resolvePattern(repo, roots, specifier, parts);
    const target = findModule(repo, roots, parts);
    if (target !== undefined) return { specifier, kind: 'module-root', target };
    const top = parts[0] ?? specifier;
    if (PYTHON_STDLIB.has(top)) return { specifier, kind: 'builtin' };
    // The first part is a package of the repository: the rest is missing from it, not an installed package.
    if (parts.length > 1 && roots.some((root) => repo.dirs.has(joinPath(root, [top])))) {
      return { specifier, kind: 'unresolved', reason: `no module ${parts.join('.')} under the package roots` };
    }
    return { specifier, kind: 'external', packageName: top };
  };
}

/**
 * `conftest:.`, `conftest:..`: the conftest.py pytest loads for a test module from its folder or one above it (written
 * by src/graph/parse/python/python-conftest.ts). A folder without one is no missing module: a builtin, recorded nowhere.
 */
function resolveConftest(repo: PythonRepo, fromFile: string, specifier: string): Resolution {
  let dir = getDirName(fromFile);
  for (let level = 1; level < specifier.length - CONFTEST_MARK.length; level++) {
    if (dir === '') return { specifier, kind: 'builtin' };
    dir = getDirName(dir);
  }
  const target = joinPath(dir, ['conftest.py']);
  return repo.files.has(target) ? { specifier, kind: 'relative', target } : { specifier, kind: 'builtin' };
}

/**
 * A module named at run time from a pattern (`anyio._backends._*`, written by the parser for
 * `import_module(f"anyio._backends._{name}")`): every module of the package whose name the last part matches, the
 * package's own `__init__` left out; its folder is found under the first root that has it. A star before the last part
 * names no one folder: unresolved.
 */
function resolvePattern(repo: PythonRepo, roots: readonly string[], specifier: string, parts: readonly string[]): Resolution {
  const last = parts[parts.length - 1] ?? '';
  const folders = parts.slice(0, -1);
  if (folders.some((part) => part.includes('*')) || folders.length === 0)
    return { specifier, kind: 'unresolved', reason: 'the module is named at run time outside one package' };
  const matches = new RegExp(`^${last.split('*').map(escapeRegExp).join('[A-Za-z0-9_]*')}$`);
  for (const root of roots) {
    const folder = joinPath(root, folders);
    if (!repo.files.has(`${folder}/__init__.py`)) continue;
    const found = [...repo.files]
      .filter((file) => {
        if (getDirName(file) === folder)
          return file.endsWith('.py') && file !== `${folder}/__init__.py` && matches.test(file.slice(folder.length + 1, -3));
        return (
          file.endsWith('/__init__.py') &&
          getDirName(getDirName(file)) === folder &&
          matches.test(getDirName(file).slice(folder.length + 1))
        );
      })
      .sort(compareText);
    const [target, ...rest] = found;
    if (target === undefined) return { specifier, kind: 'unresolved', reason: `no module of ${folders.join('.')} matches ${last}` };
    return { specifier, kind: 'module-root', target, ...(rest.length === 0 ? {} : { packageFiles: rest }) };
  }
  const top = parts[0] ?? specifier;
  return PYTHON_STDLIB.has(top) ? { specifier, kind: 'builtin' } : { specifier, kind: 'external', packageName: top };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The module file for `parts` under the first root that has it; failing that, the module defining the last part. */
function findModule(repo: PythonRepo, roots: readonly string[], parts: readonly string[]): string | undefined {
  for (const root of roots) {
    const found = probeModule(repo, joinPath(root, parts));
    if (found !== undefined) return found;
  }
  if (parts.length === 0) return undefined;
  for (const root of roots) {
    const found = probeModule(repo, joinPath(root, parts.slice(0, -1)));
    if (found !== undefined) return found;
  }
  return undefined;
}

function probeModule(repo: PythonRepo, path: string): string | undefined {
  if (path !== '' && repo.files.has(`${path}.py`)) return `${path}.py`;
  const init = path === '' ? '__init__.py' : `${path}/__init__.py`;
  return repo.files.has(init) ? init : undefined;
}

function joinPath(root: string, parts: readonly string[]): string {
  return [root, ...parts].filter((part) => part !== '').join('/');
}

/** The folder above the importer's outermost package (a folder with `__init__.py`): where its absolute imports start. */
function getImportRoot(repo: PythonRepo, fromFile: string): string {
  let dir = getDirName(fromFile);
  while (dir !== '' && repo.files.has(`${dir}/__init__.py`)) dir = getDirName(dir);
  return dir;
}

/** The repository root and `src/`, then every project folder (pyproject.toml, setup.py, setup.cfg) and its `src/`. */
function findProjectRoots(repo: PythonRepo): string[] {
  const roots = ['', 'src'];
  const projects = new Set<string>();
  for (const file of repo.files) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (PROJECT_MARKERS.includes(base)) projects.add(getDirName(file));
  }
  for (const project of [...projects].sort()) roots.push(project, joinPath(project, ['src']));
  return [...new Set(roots)].filter((root) => root === '' || repo.dirs.has(root));
}

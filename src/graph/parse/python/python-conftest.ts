import type { ImportFact } from '../../../model/facts.js';
import { isTestModule } from './python-tests.js';

/**
 * pytest loads the `conftest.py` of a test module's folder and of every folder above it, without an import, and a
 * conftest's fixtures run for the tests below it. So a test module gets one import per folder from its own up to the
 * root, and a `conftest.py` one per folder above its own: `conftest:.` for the own folder, `conftest:..` one up, and so
 * on (dots as in a relative import; the `conftest:` mark keeps it apart from one the code writes). The import is a side
 * effect (no names); the resolver (src/graph/resolve/python.ts) drops it quietly where the folder has no conftest.py.
 */
export function collectConftestImports(path: string): ImportFact[] {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const isConftest = base === 'conftest.py';
  if (!isConftest && !isTestModule(path)) return [];
  const depth = path.split('/').length - 1;
  const imports: ImportFact[] = [];
  for (let level = isConftest ? 1 : 0; level <= depth; level++)
    imports.push({ specifier: `conftest:${'.'.repeat(level + 1)}`, kind: 'static', typeOnly: false, names: [], line: 1 });
  return imports;
}

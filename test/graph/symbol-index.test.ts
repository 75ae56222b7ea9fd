import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { SymbolIndex } from '../../src/graph/symbol-index.js';
import type { FileFacts } from '../../src/model/facts.js';

/** A SymbolIndex over parsed files whose relative imports resolve to `<name>.ts` in the same set. */
function indexOf(files: Record<string, string>): SymbolIndex {
  const facts = new Map<string, FileFacts>(
    Object.entries(files).map(([path, text]) => [path, extractFacts(path, text, { assertionHelpers: [] })]),
  );
  return new SymbolIndex({
    getFacts: (path) => facts.get(path),
    resolveImport: (_path, specifier) => {
      const file = `${specifier.replace(/^\.\//, '')}.ts`;
      return facts.has(file) ? { file } : { packageName: specifier };
    },
    findExport: (path, name) => (facts.get(path)?.exports.some((fact) => fact.name === name) === true ? [{ file: path, name }] : []),
  });
}

describe('SymbolIndex', () => {
  test('resolves path constants across files, through namespaces and as const members', () => {
    const symbols = indexOf({
      'paths.ts': "export const ROOT = '/api';\nexport const API = { users: `${ROOT}/users` } as const;\n",
      'routes.ts':
        "import { API } from './paths';\nimport * as paths from './paths';\nimport { ENDPOINTS } from '@vendor/endpoints';\nexport const x = 1;\n",
    });
    assert.deepEqual(symbols.resolvePath('routes.ts', [{ ref: 'API.users' }, { text: '/:id' }]), {
      text: '/api/users/:id',
      unresolved: [],
    });
    assert.deepEqual(symbols.resolvePath('routes.ts', [{ ref: 'paths.ROOT' }]), { text: '/api', unresolved: [] });
    assert.deepEqual(symbols.resolvePath('routes.ts', [{ ref: 'ENDPOINTS.x' }]), { text: '{?ENDPOINTS.x}', unresolved: ['ENDPOINTS.x'] });
  });

  // The timeout bounds work, not speed: without memoisation the chain is 2^40 lookups and never ends.
  test('a hostile chain of doubling constants and a cycle end as unresolved', { timeout: 60_000 }, () => {
    const lines = ["const C0 = 'abcdefghij';"];
    for (let index = 1; index <= 40; index++) lines.push(`const C${index} = C${index - 1} + C${index - 1};`);
    lines.push('const LOOP_A = LOOP_B;', 'const LOOP_B = LOOP_A;');
    const symbols = indexOf({ 'hostile.ts': `${lines.join('\n')}\n` });
    const doubled = symbols.resolvePath('hostile.ts', [{ ref: 'C40' }]);
    const looped = symbols.resolvePath('hostile.ts', [{ ref: 'LOOP_A' }]);
    assert.deepEqual(doubled, { text: '{?C40}', unresolved: ['C40'] });
    assert.deepEqual(looped, { text: '{?LOOP_A}', unresolved: ['LOOP_A'] });
    assert.deepEqual(symbols.resolvePath('hostile.ts', [{ ref: 'C3' }]), { text: 'abcdefghij'.repeat(8), unresolved: [] });
  });

  test('a name bound by require follows the import, not the local declaration of the same name', () => {
    const symbols = indexOf({
      'catalog.ts': 'const router = 1;\nmodule.exports = router;\n',
      'server.ts': "const catalog = require('./catalog');\n",
    });
    assert.deepEqual(symbols.resolveName('server.ts', 'catalog'), { kind: 'module', file: 'catalog.ts' });
    assert.deepEqual(symbols.resolveExport('catalog.ts', 'default'), { kind: 'callable', file: 'catalog.ts', name: 'router' });
  });
});

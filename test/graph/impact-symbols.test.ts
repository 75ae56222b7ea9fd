import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SymbolImporter } from '../../src/model/analysis.js';
import type { ChangedExport } from '../../src/model/change.js';
import { findSymbolImpacts } from '../../src/graph/queries/find-symbol-impacts.js';
import { buildImpactFixture, json, type ImpactFixture } from '../helpers/impact-fixtures.js';

const FILES = {
  'package.json': json({ name: 'symbols', version: '1.0.0', type: 'module' }),
  'tsconfig.json': json({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true, allowJs: true } }),
  'src/lib/money.ts': [
    'export function a(): number { return 1; }',
    'export function b(): number { return 2; }',
    'export type Amount = number;',
    'export default function main(): void {}',
  ].join('\n'),
  'src/lib/index.ts': [
    "export { a, b } from './money';",
    "export { a as c } from './money';",
    "export type { Amount } from './money';",
  ].join('\n'),
  'src/index.ts': "export * from './lib/index';\n",
  'src/ns-barrel.ts': "export * as money from './lib/money';\n",
  'src/barrel-user.ts': ["import { a } from './lib/money';", 'export { a };', 'export const twice = (): number => a() * 2;'].join('\n'),
  'src/use-a.ts': "import { a } from './index';\nexport const x = a();\n",
  'src/use-b.ts': "import { b } from './lib/index';\nexport const y = b();\n",
  'src/use-c.ts': "import { c as renamed } from './lib';\nexport const z = renamed();\n",
  'src/use-ns.ts': "import * as lib from './lib/money';\nexport const n = lib.a();\n",
  'src/use-barrel-ns.ts': "import * as all from './index';\nexport const m = all.b();\n",
  'src/use-money-ns.ts': "import { money } from './ns-barrel';\nexport const k = money.a();\n",
  'src/use-barrel-user.ts': "import { a as viaUser } from './barrel-user';\nexport const v = viaUser();\n",
  'src/side.ts': "import './lib/money';\n",
  'src/req.js': "const { a } = require('./lib/money');\nmodule.exports = { r: a() };\n",
  'src/req-all.js': "const money = require('./lib/money');\nmodule.exports = { s: money.b() };\n",
  'src/lazy.ts': "export async function load() {\n  const m = await import('./lib/money');\n  return m;\n}\n",
  'src/lazy-named.ts': "export async function loadB() {\n  const { b } = await import('./lib/money');\n  return b();\n}\n",
  'src/types.ts': "import type { Amount } from './lib';\nexport const amount: Amount = 1;\n",
  'src/mixed.ts': "import { type Amount, a } from './lib/money';\nexport const w: Amount = a();\n",
  'src/use-default.ts': "import main from './lib/money';\nmain();\n",
  'src/use-gone.ts': "import { gone } from './lib/money';\ngone();\n",
  'src/tax/rates.ts': 'export function rate(): number { return 0.2; }\nexport function unused(): number { return 0; }\n',
  'src/tax/index.ts': "export { rate, unused } from './rates';\n",
  'src/use-rate.ts': "import { rate } from './tax';\nexport const t = rate();\n",
};

const changed = (path: string, name: string, change: ChangedExport['change'] = 'modified'): ChangedExport => ({
  path,
  name,
  change,
  span: { start: 1, end: 1 },
});
const importer = (
  path: string,
  use: SymbolImporter['use'],
  locals: string[],
  through: string[] = [],
  typeOnly = false,
): SymbolImporter => ({ path, locals, through, typeOnly, use });

const MONEY = 'src/lib/money.ts';
/** Module-level users of money.ts: namespace, side-effect, require and dynamic imports of it or of its namespace re-export. */
const MODULE_USERS = [
  importer('src/lazy.ts', 'dynamic', ['*']),
  importer('src/req-all.js', 'require', ['*']),
  importer('src/side.ts', 'side-effect', ['']),
  importer('src/use-ns.ts', 'namespace', ['*']),
];

describe('findSymbolImpacts on a real repository', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  const importersOf = (path: string, name: string, change?: ChangedExport['change']): SymbolImporter[] =>
    findSymbolImpacts(fixture.built.kg, [changed(path, name, change)])[0]?.importers ?? [];
  const sortByPath = (list: SymbolImporter[]): SymbolImporter[] => [...list].sort((left, right) => (left.path < right.path ? -1 : 1));

  test('a changed name: named importers through two barrels and renames, namespace, side-effect, require and dynamic uses', () => {
    assert.deepEqual(
      importersOf(MONEY, 'a'),
      sortByPath([
        ...MODULE_USERS,
        importer('src/barrel-user.ts', 'named', ['a']),
        importer('src/mixed.ts', 'named', ['a']),
        importer('src/req.js', 'require', ['a']),
        importer('src/use-a.ts', 'named', ['a'], ['src/index.ts', 'src/lib/index.ts']),
        importer('src/use-barrel-ns.ts', 'namespace', ['*'], ['src/index.ts', 'src/lib/index.ts']),
        importer('src/use-barrel-user.ts', 'named', ['viaUser'], ['src/barrel-user.ts']),
        importer('src/use-c.ts', 'named', ['renamed'], ['src/lib/index.ts']),
        importer('src/use-money-ns.ts', 'namespace', ['money'], ['src/ns-barrel.ts']),
      ]),
    );
  });

  test('importers of an unchanged name through the same barrel are not importers of the changed one', () => {
    const paths = importersOf(MONEY, 'b').map((entry) => entry.path);
    assert.deepEqual(paths, [
      'src/lazy-named.ts',
      'src/lazy.ts',
      'src/req-all.js',
      'src/side.ts',
      'src/use-b.ts',
      'src/use-barrel-ns.ts',
      'src/use-money-ns.ts',
      'src/use-ns.ts',
    ]);
    assert.ok(!importersOf(MONEY, 'a').some((entry) => entry.path === 'src/use-b.ts' || entry.path === 'src/lazy-named.ts'));
  });

  test('a re-exported changed name nobody imports has no importers; its sibling keeps its own', () => {
    const impacts = findSymbolImpacts(fixture.built.kg, [
      changed('src/tax/rates.ts', 'unused'),
      changed('src/tax/rates.ts', 'rate', 'added'),
    ]);
    assert.deepEqual(impacts, [
      { id: 'export:src/tax/rates.ts#unused', path: 'src/tax/rates.ts', name: 'unused', change: 'modified', importers: [] },
      {
        id: 'export:src/tax/rates.ts#rate',
        path: 'src/tax/rates.ts',
        name: 'rate',
        change: 'added',
        importers: [importer('src/use-rate.ts', 'named', ['rate'], ['src/tax/index.ts'])],
      },
    ]);
  });

  test('type-only importers are marked, through type-only re-exports too', () => {
    assert.deepEqual(
      importersOf(MONEY, 'Amount'),
      sortByPath([
        ...MODULE_USERS,
        importer('src/mixed.ts', 'named', ['Amount'], [], true),
        importer('src/types.ts', 'named', ['Amount'], ['src/lib/index.ts'], true),
        importer('src/use-barrel-ns.ts', 'namespace', ['*'], ['src/index.ts', 'src/lib/index.ts'], true),
        importer('src/use-money-ns.ts', 'namespace', ['money'], ['src/ns-barrel.ts']),
      ]),
    );
  });

  test('default exports do not travel through export *', () => {
    assert.deepEqual(
      importersOf(MONEY, 'default'),
      sortByPath([
        ...MODULE_USERS,
        importer('src/use-default.ts', 'named', ['main']),
        importer('src/use-money-ns.ts', 'namespace', ['money'], ['src/ns-barrel.ts']),
      ]),
    );
  });

  test('a removed export still lists the files that import it by name', () => {
    assert.deepEqual(
      importersOf(MONEY, 'gone', 'removed'),
      sortByPath([
        ...MODULE_USERS,
        importer('src/use-gone.ts', 'named', ['gone']),
        importer('src/use-money-ns.ts', 'namespace', ['money'], ['src/ns-barrel.ts']),
      ]),
    );
  });

  test('results are deterministic across builds', async () => {
    const again = await buildImpactFixture(FILES);
    try {
      const exports = [changed(MONEY, 'a'), changed(MONEY, 'Amount'), changed('src/tax/rates.ts', 'rate')];
      assert.deepEqual(findSymbolImpacts(again.built.kg, exports), findSymbolImpacts(fixture.built.kg, exports));
    } finally {
      again.repo.cleanup();
    }
  });
});

// Check 59 (marshmallow-code/marshmallow): the tests say `from marshmallow import fields` then `fields.TimeDelta(…)`;
// the bundle said "TimeDelta … changed and no test reaches it".
describe('findSymbolImpacts on a Python package', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture({
      'src/shop/__init__.py': '',
      'src/shop/fields.py': 'class TimeDelta:\n    pass\n\n\nclass Date:\n    pass\n',
      'src/shop/schema.py': 'from shop.fields import Date\n\n\ndef load():\n    return Date()\n',
      'src/shop/api/__init__.py': 'VERSION = 1\n',
      'tests/test_fields.py': 'from shop import fields\n\n\ndef test_delta():\n    assert fields.TimeDelta()\n',
      'tests/test_api.py': 'from shop import api\n\n\ndef test_version():\n    assert api.VERSION == 1\n',
    });
  });
  after(() => fixture.repo.cleanup());

  test('a module imported by name from its package is a namespace use of every name it declares', () => {
    const impacts = findSymbolImpacts(fixture.built.kg, [
      changed('src/shop/fields.py', 'TimeDelta'),
      changed('src/shop/fields.py', 'Date'),
      changed('src/shop/api/__init__.py', 'VERSION'),
    ]);
    assert.deepEqual(
      impacts.map((impact) => [impact.name, impact.importers.map((found) => [found.path, found.use])]),
      [
        ['TimeDelta', [['tests/test_fields.py', 'namespace']]],
        [
          'Date',
          [
            ['src/shop/schema.py', 'named'],
            ['tests/test_fields.py', 'namespace'],
          ],
        ],
        ['VERSION', [['tests/test_api.py', 'namespace']]],
      ],
    );
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findImpactedAreas } from '../../src/graph/queries/find-impacted-areas.js';
import { findSymbolImpacts } from '../../src/graph/queries/find-symbol-impacts.js';
import { findReverseReach } from '../../src/graph/queries/reverse-reach.js';
import { buildImpactFixture, describeReach, json, type ImpactFixture } from '../helpers/impact-fixtures.js';

const FILES = {
  'package.json': json({ name: 'mono', private: true, workspaces: ['packages/*', 'apps/*'] }),
  'tsconfig.json': json({
    compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true, baseUrl: '.', paths: { '@app/*': ['apps/web/src/*'] } },
  }),
  '.github/CODEOWNERS': ['* @acme/core', 'packages/money/ @acme/payments', 'apps/web/src/components/ @acme/design'].join('\n'),
  'packages/money/package.json': json({ name: '@acme/money', version: '1.0.0', type: 'module', exports: { '.': './src/index.ts' } }),
  'packages/money/src/index.ts': "export * from './format.js';\nexport { rate } from './rates.js';\n",
  'packages/money/src/format.ts':
    'export type Cents = number;\nexport function formatCents(cents: Cents): string {\n  return `${cents / 100}`;\n}\n',
  'packages/money/src/rates.ts': 'export const rate = 0.2;\n',
  'apps/web/package.json': json({ name: '@acme/web', version: '0.1.0', type: 'module', dependencies: { '@acme/money': '1.0.0' } }),
  'apps/web/src/lib/price.ts':
    "import { formatCents } from '@acme/money';\nexport const price = (cents: number): string => formatCents(cents);\n",
  'apps/web/src/lib/index.ts': "export * from './price.js';\n",
  'apps/web/src/components/price-tag.ts':
    "import { price } from '@app/lib';\nexport const PriceTag = (cents: number): string => `<b>${price(cents)}</b>`;\n",
  'apps/web/src/components/index.ts': "export { PriceTag } from './price-tag.js';\n",
  'apps/web/src/pages/checkout.ts':
    "import { PriceTag } from '../components/index.js';\nexport const render = (): string => PriceTag(100);\n",
  'apps/web/src/types.ts': "import type { Cents } from '@acme/money';\nexport type Total = { cents: Cents };\n",
  'apps/web/src/tax.ts': "import { rate } from '@acme/money';\nexport const tax = (cents: number): number => cents * rate;\n",
  'apps/web/test/checkout.test.ts': "import { render } from '../src/pages/checkout.js';\nrender();\n",
  'scripts/report.ts': "import { rate } from '../packages/money/src/rates.js';\nconsole.log(rate);\n",
};

describe('impact through workspace packages, tsconfig paths, barrels and .js imports', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  const CHANGED = 'packages/money/src/format.ts';

  test('reverse reach: exact files, distances, via chains and type-only dependents', () => {
    const chain = [
      CHANGED,
      'packages/money/src/index.ts',
      'apps/web/src/lib/price.ts',
      'apps/web/src/lib/index.ts',
      'apps/web/src/components/price-tag.ts',
    ];
    assert.deepEqual(describeReach(fixture, [CHANGED]), {
      'packages/money/src/index.ts': [1, [CHANGED], false],
      'apps/web/src/lib/price.ts': [2, chain.slice(0, 2), false],
      'apps/web/src/tax.ts': [2, chain.slice(0, 2), false],
      'apps/web/src/types.ts': [2, chain.slice(0, 2), true],
      'apps/web/src/lib/index.ts': [3, chain.slice(0, 3), false],
      'apps/web/src/components/price-tag.ts': [4, chain.slice(0, 4), false],
      'apps/web/src/components/index.ts': [5, chain, false],
      'apps/web/src/pages/checkout.ts': [6, [...chain, 'apps/web/src/components/index.ts'], false],
      'apps/web/test/checkout.test.ts': [7, [...chain, 'apps/web/src/components/index.ts', 'apps/web/src/pages/checkout.ts'], false],
    });
  });

  test('symbol level: only the importers of the changed names, across the package boundary and the alias', () => {
    const span = { start: 2, end: 4 };
    const impacts = findSymbolImpacts(fixture.built.kg, [
      { path: CHANGED, name: 'formatCents', change: 'modified', span },
      { path: CHANGED, name: 'Cents', change: 'modified', span: { start: 1, end: 1 } },
      { path: 'apps/web/src/lib/price.ts', name: 'price', change: 'modified', span: { start: 2, end: 2 } },
    ]);
    assert.deepEqual(
      impacts.map((impact) => [impact.id, impact.importers]),
      [
        [
          'export:packages/money/src/format.ts#formatCents',
          [
            {
              path: 'apps/web/src/lib/price.ts',
              locals: ['formatCents'],
              through: ['packages/money/src/index.ts'],
              typeOnly: false,
              use: 'named',
            },
          ],
        ],
        [
          'export:packages/money/src/format.ts#Cents',
          [{ path: 'apps/web/src/types.ts', locals: ['Cents'], through: ['packages/money/src/index.ts'], typeOnly: true, use: 'named' }],
        ],
        [
          'export:apps/web/src/lib/price.ts#price',
          [
            {
              path: 'apps/web/src/components/price-tag.ts',
              locals: ['price'],
              through: ['apps/web/src/lib/index.ts'],
              typeOnly: false,
              use: 'named',
            },
          ],
        ],
      ],
    );
  });

  test('areas: folders, workspace packages and owners of the changed and impacted files', () => {
    const impacted = findReverseReach(fixture.built.kg, [CHANGED]).map((file) => file.path);
    assert.deepEqual(findImpactedAreas(fixture.built.kg, [CHANGED], impacted), {
      folders: [
        { path: 'packages/money/src', changed: 1, impacted: 1 },
        { path: 'apps/web/src', changed: 0, impacted: 2 },
        { path: 'apps/web/src/components', changed: 0, impacted: 2 },
        { path: 'apps/web/src/lib', changed: 0, impacted: 2 },
        { path: 'apps/web/src/pages', changed: 0, impacted: 1 },
        { path: 'apps/web/test', changed: 0, impacted: 1 },
      ],
      packages: [
        { name: '@acme/web', folder: 'apps/web', changed: 0, impacted: 8 },
        { name: '@acme/money', folder: 'packages/money', changed: 1, impacted: 1 },
      ],
      owners: [
        { owner: '@acme/core', changed: 0, impacted: 6 },
        { owner: '@acme/payments', changed: 1, impacted: 1 },
        { owner: '@acme/design', changed: 0, impacted: 2 },
      ],
    });
  });

  test('areas count a path listed as both changed and impacted once, as changed; root files fall in "."', () => {
    assert.deepEqual(findImpactedAreas(fixture.built.kg, ['package.json', CHANGED], [CHANGED, 'scripts/report.ts']), {
      folders: [
        { path: '.', changed: 1, impacted: 0 },
        { path: 'packages/money/src', changed: 1, impacted: 0 },
        { path: 'scripts', changed: 0, impacted: 1 },
      ],
      packages: [
        { name: 'mono', folder: '', changed: 1, impacted: 1 },
        { name: '@acme/money', folder: 'packages/money', changed: 1, impacted: 0 },
      ],
      owners: [
        { owner: '@acme/core', changed: 1, impacted: 1 },
        { owner: '@acme/payments', changed: 1, impacted: 0 },
      ],
    });
  });
});

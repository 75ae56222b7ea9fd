import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ImpactReport } from '../../src/model/reports.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const money = (digits: number, factor: number): string =>
  `export function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(${digits});\n}\nexport function roundCents(value: number): number {\n  return Math.round(value * ${factor});\n}\nexport const CURRENCY = 'EUR';\n`;

/**
 * src/lib/money.ts changes formatPrice and roundCents. src/lib/index.ts re-exports both and is
 * imported through the `@lib/*` tsconfig alias by src/cart.ts, which uses formatPrice only;
 * src/lib/rounding.ts re-exports roundCents and nobody imports it. An Express router in
 * src/routes/orders.ts reaches the change and is mounted in src/server.ts under /api/orders; the
 * /health router does not reach it. src/formatter.ts depends on money.ts for types only.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', dependencies: { express: '^4.19.0' } }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true, baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } },
  }),
  'src/lib/money.ts': money(2, 1),
  'src/lib/index.ts': "export { formatPrice, roundCents } from './money';\n",
  'src/lib/rounding.ts': "export { roundCents } from './money';\n",
  'src/lib/types.ts': 'export interface Price {\n  cents: number;\n}\n',
  'src/cart.ts':
    "import { formatPrice } from '@lib/index';\nexport function showTotal(cents: number): string {\n  return formatPrice(cents);\n}\n",
  'src/checkout.ts': "import { showTotal } from './cart';\nexport function summary(): string {\n  return showTotal(100);\n}\n",
  'src/routes/orders.ts':
    "import { Router } from 'express';\nimport { summary } from '../checkout';\nexport const orders = Router();\norders.get('/:id', (req, res) => {\n  res.send(summary());\n});\norders.post('/', (req, res) => {\n  res.status(201).send('created');\n});\n",
  'src/routes/health.ts':
    "import { Router } from 'express';\nexport const health = Router();\nhealth.get('/health', (req, res) => {\n  res.send('ok');\n});\n",
  'src/server.ts':
    "import express from 'express';\nimport { orders } from './routes/orders';\nimport { health } from './routes/health';\nconst app = express();\napp.use('/api/orders', orders);\napp.use(health);\napp.listen(3000);\n",
  'src/formatter.ts': "import type { formatPrice } from './lib/money';\nexport type Formatter = typeof formatPrice;\n",
  'src/unrelated.ts': "import type { Price } from '@lib/types';\nexport const zero: Price = { cents: 0 };\n",
};

describe('checker impact --format json: aliases, barrels, symbols and mounted routes', () => {
  let fixture: ChangeFixture;
  let report: ImpactReport;
  before(async () => {
    fixture = createChangeFixture(BASE, { 'src/lib/money.ts': money(3, 1.0001) });
    report = (await runJsonReport<ImpactReport>(fixture, ['impact'], 'impact-report')).report;
  });
  after(() => fixture.repo.cleanup());

  test('the changed file and its changed exports', () => {
    assert.deepEqual(
      report.changedFiles.map((file) => [file.path, file.status, file.changedExports.map((item) => `${item.name}:${item.change}`)]),
      [['src/lib/money.ts', 'modified', ['formatPrice:modified', 'roundCents:modified']]],
    );
  });

  test('impacted files: exact distances and via chains through the barrel and the alias', () => {
    assert.deepEqual(
      report.impactedFiles.map((file) => ({ path: file.path, distance: file.distance, via: file.via, typeOnly: file.typeOnly })),
      [
        { path: 'src/formatter.ts', distance: 1, via: ['src/lib/money.ts'], typeOnly: true },
        { path: 'src/lib/index.ts', distance: 1, via: ['src/lib/money.ts'], typeOnly: false },
        { path: 'src/lib/rounding.ts', distance: 1, via: ['src/lib/money.ts'], typeOnly: false },
        { path: 'src/cart.ts', distance: 2, via: ['src/lib/money.ts', 'src/lib/index.ts'], typeOnly: false },
        { path: 'src/checkout.ts', distance: 3, via: ['src/lib/money.ts', 'src/lib/index.ts', 'src/cart.ts'], typeOnly: false },
        {
          path: 'src/routes/orders.ts',
          distance: 4,
          via: ['src/lib/money.ts', 'src/lib/index.ts', 'src/cart.ts', 'src/checkout.ts'],
          typeOnly: false,
        },
        {
          path: 'src/server.ts',
          distance: 5,
          via: ['src/lib/money.ts', 'src/lib/index.ts', 'src/cart.ts', 'src/checkout.ts', 'src/routes/orders.ts'],
          typeOnly: false,
        },
      ],
    );
    assert.equal(report.summary.impactedFiles, 7);
  });

  test('symbol impacts: formatPrice has its one importer through the barrel; roundCents, re-exported by two barrels, has none', () => {
    assert.deepEqual(report.symbolImpacts, [
      {
        id: 'export:src/lib/money.ts#formatPrice',
        path: 'src/lib/money.ts',
        name: 'formatPrice',
        change: 'modified',
        importers: [
          { path: 'src/cart.ts', locals: ['formatPrice'], through: ['src/lib/index.ts'], typeOnly: false, use: 'named' },
          { path: 'src/formatter.ts', locals: ['formatPrice'], through: [], typeOnly: true, use: 'named' },
        ],
      },
      { id: 'export:src/lib/money.ts#roundCents', path: 'src/lib/money.ts', name: 'roundCents', change: 'modified', importers: [] },
    ]);
  });

  test('impacted routes: only the route whose handler calls the changed function, with its full path and call chain; /health and POST / are not reached', () => {
    assert.deepEqual(
      report.impactedRoutes.map((route) => ({
        id: route.id,
        file: route.file,
        line: route.line,
        reason: route.reason,
        chain: route.chain,
        direct: route.direct,
        reach: route.reach,
        steps: route.steps,
      })),
      [
        {
          id: 'route:GET /api/orders/:id',
          file: 'src/routes/orders.ts',
          line: 4,
          reason:
            'handler of GET /api/orders/:id: calls summary (src/checkout.ts) → calls showTotal (src/cart.ts) → changed formatPrice (src/lib/money.ts:2)',
          chain: ['src/lib/money.ts', 'src/cart.ts', 'src/checkout.ts', 'src/routes/orders.ts'],
          direct: false,
          reach: 'handler',
          steps: [
            'handler GET /api/orders/:id (src/routes/orders.ts:4)',
            'calls summary (src/checkout.ts)',
            'calls showTotal (src/cart.ts)',
            'changed formatPrice (src/lib/money.ts:2)',
          ],
        },
      ],
    );
    assert.equal(report.summary.impactedRoutes, 1);
  });

  test('impacted areas: folders of the changed and impacted files', () => {
    assert.deepEqual(
      report.impactedAreas.folders.map((folder) => [folder.path, folder.changed, folder.impacted]),
      [
        ['src', 0, 4],
        ['src/lib', 1, 2],
        ['src/routes', 0, 1],
      ],
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnalysisReport } from '../../src/model/reports.js';
import { type ChangeFixture, createChangeFixture, runJsonReport } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41 part 4, through `checker analyze` on a real repository: each edge-case and risk template fires on its code
 * evidence (a value reaching a slice, a pattern that can backtrack, money computed on a payment path), never on the
 * words alone (`limit` as a retry count, a literal alternation, a `pricing` folder that renders text).
 */
describe('edge cases and risks fire on code evidence, not words (checker analyze)', () => {
  let fixture: ChangeFixture;
  let report: AnalysisReport;

  before(async () => {
    fixture = createChangeFixture(
      {
        'src/client.ts': 'export const options = { retry: 2 };\n',
        'src/list.ts': 'export const all = (items: number[]) => items;\n',
        'src/pricing/banner.ts': "export const banner = 'Plans';\n",
        'src/billing/charge.ts': 'export const charge = (price: number) => price;\n',
        'src/http2.ts': 'export const sessions = new Set();\n',
        'src/auth.ts': "import jwt from 'jsonwebtoken';\nexport const check = (token: string) => Boolean(token);\n",
        'src/env.ts': 'export const empty = 0;\n',
        'src/login.ts': 'export const login = () => null;\n',
        'src/profile.ts': 'export const update = () => null;\n',
        'src/zone.ts': 'export const zones = new Map();\n',
      },
      {
        'src/client.ts': [
          'export const METHODS = /^(GET|HEAD|OPTIONS)$/;',
          'export const SLUG = /^([a-z0-9]+-?)+$/;',
          'export function retry(attempt: number, options: { limit: number; backoffLimit: number }) {',
          '  if (attempt > options.limit) return false;',
          '  return Math.min(2 ** attempt, options.backoffLimit);',
          '}',
          '',
        ].join('\n'),
        'src/list.ts': [
          'export function page(items: number[], offset: number, limit: number) {',
          '  return items.slice(offset, offset + limit);',
          '}',
          '',
        ].join('\n'),
        'src/pricing/banner.ts': 'export const banner = (plan: string) => `Plans: ${plan}`;\n',
        'src/billing/charge.ts': 'export const charge = (price: number, tax: number) => price + tax;\n',
        // An HTTP/2 session set and a command-line token say auth words and check nothing.
        'src/http2.ts':
          "export const sessions = new Set();\nexport const closeSessions = (serverHasHttp2Sessions: boolean) => { if (serverHasHttp2Sessions) sessions.clear(); };\nexport const isRequire = (token: string) => token.startsWith('--require=');\n",
        'src/auth.ts':
          "import jwt from 'jsonwebtoken';\nexport const check = (token: string, key: string) => {\n  if (!jwt.verify(token, key)) throw new Error('401');\n};\n",
        // A password compared to let a caller in is authentication; the old password compared on a profile update of a
        // caller already signed in, refused as invalid input (422), is a field's check (nestjs-boilerplate).
        'src/login.ts': [
          "import bcrypt from 'bcrypt';",
          'export async function login(password: string, hash: string) {',
          '  const isValidPassword = await bcrypt.compare(password, hash);',
          "  if (!isValidPassword) throw new HttpException('Unauthorized', 401);",
          '}',
          '',
        ].join('\n'),
        'src/profile.ts': [
          "import bcrypt from 'bcrypt';",
          'export async function update(oldPassword: string, hash: string) {',
          '  const isValidOldPassword = await bcrypt.compare(oldPassword, hash);',
          "  if (!isValidOldPassword) throw new HttpException({ errors: { oldPassword: 'incorrect' } }, HttpStatus.UNPROCESSABLE_ENTITY);",
          '}',
          '',
        ].join('\n'),
        // Check 89 (luxon): a formatter built for a zone, and a date built from input.
        'src/zone.ts': [
          'export const zones = new Map();',
          "export const formatter = (timeZone: string) => new Intl.DateTimeFormat('en-US', { timeZone });",
          'export const parse = (text: string) => new Date(text);',
          '',
        ].join('\n'),
        // pino's shape: NODE_OPTIONS is read again inside the condition that found it set; REGION is read unchecked.
        'src/env.ts': [
          'export function workerEnv(options: { env?: object }): Record<string, string> {',
          '  if (!options.env && process.env.NODE_OPTIONS) {',
          "    return { NODE_OPTIONS: process.env.NODE_OPTIONS.replace('--inspect', '') };",
          '  }',
          '  return { REGION: process.env.REGION.toLowerCase() };',
          '}',
          '',
        ].join('\n'),
      },
    );
    report = (await runJsonReport<AnalysisReport>(fixture, ['analyze'], 'analysis-report')).report;
  });
  after(() => fixture.repo.cleanup());

  const edgeCases = (): { rule: string; scope: string; title: string }[] =>
    [...report.edgeCases.top, ...report.edgeCases.overflow].map((edgeCase) => ({
      rule: edgeCase.provenance.slice(edgeCase.provenance.indexOf('#') + 1),
      scope: edgeCase.scope,
      title: edgeCase.title,
    }));

  it('authentication: only a line that checks credentials (a token verified, a password let in), not auth words (sessions, a CLI token) or a field check answered 422', () => {
    assert.deepEqual(
      edgeCases()
        .filter((edgeCase) => edgeCase.rule === 'edge-case/unauthenticated')
        .map((edgeCase) => edgeCase.title),
      [
        'src/auth.ts:3 handles authentication (jwt: verifies a token)',
        'src/login.ts:4 handles authentication (isValidPassword: refuses with 401 or 403)',
      ],
    );
  });

  it('a missing environment variable: only a read no condition around it tests', () => {
    assert.deepEqual(
      edgeCases()
        .filter((edgeCase) => edgeCase.rule === 'edge-case/missing-env')
        .map((edgeCase) => edgeCase.title),
      ['src/env.ts:5 reads configuration from the environment (process.env.REGION)'],
    );
  });

  it('pagination: only where a page value reaches a slice; a retry limit is none', () => {
    assert.deepEqual(
      edgeCases()
        .filter((edgeCase) => edgeCase.rule === 'edge-case/pagination-bounds')
        .map((edgeCase) => edgeCase.title),
      ['src/list.ts:2 pages through results (.slice(…offset…))'],
    );
  });

  it('invalid dates: a date built from input, not a formatter', () => {
    const titles = (rule: string) =>
      edgeCases()
        .filter((edgeCase) => edgeCase.rule === rule && edgeCase.scope.startsWith('src/zone.ts'))
        .map((edgeCase) => edgeCase.title);
    assert.deepEqual(titles('edge-case/invalid-dates'), ['src/zone.ts:3 builds dates (new Date)']);
  });

  it('catastrophic regex: the nested repetition, not the alternation of literals', () => {
    assert.deepEqual(
      edgeCases()
        .filter((edgeCase) => edgeCase.rule === 'edge-case/catastrophic-regex')
        .map((edgeCase) => edgeCase.title),
      [
        'src/client.ts:2 has a regular expression that can backtrack catastrophically (/^([a-z0-9]+-?)+$/: nested repetition ([a-z0-9]+-?)+)',
      ],
    );
  });

  it('payment risk: the file that computes money, not the pricing folder that renders text', () => {
    const paymentRisks = report.findings.filter((finding) => finding.ruleId === 'risk/payment-path').map((finding) => finding.message);
    assert.deepEqual(paymentRisks, ['src/billing/charge.ts (line 1) touches payment or money handling']);
  });

  it('findings carry what was found, not the statement of what a rule needs', () => {
    assert.ok(report.findings.length > 0);
    assert.equal(
      report.findings.some((finding) => 'evidence' in finding.params),
      false,
    );
  });
});

describe('double submit needs a write in the handler (checker analyze)', () => {
  let fixture: ChangeFixture;
  let report: AnalysisReport;
  const routes = (version: string): string =>
    [
      "import express from 'express';",
      "import { db } from './db.js';",
      'export const router = express.Router();',
      `router.post('/pins.list', async (req, res) => { res.json(await db.pin.findAll({ where: { v: ${version} } })); });`,
      `router.post('/pins.create', async (req, res) => { res.json(await db.pin.create({ ...req.body, v: ${version} })); });`,
      `router.post('/pins.archive', async (req, res) => { res.json(await archive(req.body.id, ${version})); });`,
      `router.post('/pins.copy', async (req, res) => { res.json(await copy(req.body.id, ${version})); });`,
      'export async function archive(id: string, version: number) {',
      '  return db.pin.update({ where: { id }, data: { archived: true, version } });',
      '}',
      'export async function copy(id: string, version: number) {',
      '  return db.pin.create({ data: { copyOf: id, version } });',
      '}',
      // The change reaches pins.note through label; the write is in note, which did not change.
      "router.post('/pins.note', async (req, res) => { res.json({ label: label(req.body.id), note: await note(req.body.id) }); });",
      `export function label(id: string) { return 'pin ' + id + ' v${version}'; }`,
      'export async function note(id: string) {',
      '  return db.note.create({ data: { pinId: id } });',
      '}',
      '',
    ].join('\n');

  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'pins', type: 'module', dependencies: { express: '^4.0.0' } }),
        'src/db.ts': 'export const db: any = {};\n',
        'src/pins.ts': routes('1'),
        'src/app.ts':
          "import express from 'express';\nimport { router } from './pins.js';\nexport const app = express();\napp.use('/api', router);\n",
      },
      { 'src/pins.ts': routes('2') },
    );
    report = (await runJsonReport<AnalysisReport>(fixture, ['analyze'], 'analysis-report')).report;
  });
  after(() => fixture.repo.cleanup());

  it('fires for the routes whose write a repeat adds to (directly or through a function the handler calls), not one that lists, only updates, or writes in code the change did not touch', () => {
    assert.deepEqual(
      [...report.edgeCases.top, ...report.edgeCases.overflow]
        .filter((edgeCase) => edgeCase.provenance.endsWith('#edge-case/route-double-submit'))
        .map((edgeCase) => edgeCase.title)
        .sort(),
      [
        'POST /api/pins.copy may be submitted twice: its handler writes (db.pin.create at src/pins.ts:12)',
        'POST /api/pins.create may be submitted twice: its handler writes (db.pin.create at src/pins.ts:5)',
      ],
    );
  });
});

import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, applyChange } from './analysis-fixtures.js';
import { createRepo, type FileTree, type TestRepo } from './git-repo.js';

/**
 * Two small repositories for the route layer (full paths, constants, handler-level reach, middleware
 * roles): EXPRESS_FILES (three Express apps, a workspace package of path constants) and FRAMEWORK_FILES
 * (Fastify, Hono, Koa, NestJS, Next.js). Every route path and every expectation in
 * test/graph/route-paths.test.ts and test/app/route-reach.test.ts is derived by hand from these files.
 */

const source = (...lines: string[]): string => `${lines.join('\n')}\n`;
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const TSCONFIG = json({
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
  },
});

export const EXPRESS_FILES: FileTree = {
  'package.json': json({
    name: 'route-fixture-express',
    version: '1.0.0',
    private: true,
    workspaces: ['packages/*'],
    dependencies: {
      '@acme-vendor/auth-kit': '^1.0.0',
      '@acme/paths': '*',
      '@vendor/endpoints': '^1.0.0',
      express: '^4.19.0',
      'express-rate-limit': '^7.4.0',
      jsonwebtoken: '^9.0.0',
      passport: '^0.7.0',
      zod: '^3.23.0',
    },
  }),
  'tsconfig.json': TSCONFIG,

  // A workspace package of path constants, resolved through the root `workspaces`.
  'packages/paths/package.json': json({ name: '@acme/paths', version: '1.0.0', main: 'src/index.ts', exports: { '.': './src/index.ts' } }),
  'packages/paths/src/index.ts': source(
    "export const BILLING = '/billing';",
    "export const INVOICE_ROUTES = { one: '/invoices/:invoiceId' } as const;",
  ),

  'src/lib/money.ts': source(
    'export function formatTotal(value: number): string {',
    '  return `$${value.toFixed(2)}`;',
    '}',
    'export function toCents(value: number): number {',
    '  return Math.round(value * 100);',
    '}',
  ),

  // --- The shop app: nested mounts across files, every import style, constant paths. ---
  'src/shop/app.ts': source(
    "import express from 'express';",
    "import * as accounts from './accounts/app.js';",
    "import { API_BASE } from './constants/paths.js';",
    "import { requireAdmin } from './middleware/admin.js';",
    "import { adminRouter } from './routes/admin.js';",
    "import { apiRouter } from './routes/api.js';",
    "import { miscRouter } from './routes/misc.js';",
    "import reportsRouter from './routes/reports.js';",
    "import { usersRouter } from './routes/users.js';",
    'const app = express();',
    "app.get('/', (req, res) => {",
    "  res.send('shop');",
    '});',
    "app.use('/api', apiRouter);",
    'app.use(`${API_BASE}/v1`, usersRouter);',
    "app.use('/accounts', accounts.handlers);",
    "app.use('/reports', reportsRouter);",
    "app.use('/misc', miscRouter);",
    "app.use('/admin', requireAdmin, adminRouter);",
    'export default app;',
  ),
  'src/shop/constants/paths.ts': source(
    "export const API_BASE = '/api';",
    'export const API = {',
    "  users: '/users',",
    "  profile: '/profile',",
    '} as const;',
  ),
  'src/shop/constants/index.ts': source("export * from './paths.js';"),
  'src/shop/routes/api.ts': source(
    "import { Router } from 'express';",
    "import { betaHeader } from '../middleware/beta.js';",
    "import { ordersRouter } from './orders.js';",
    "import { statusRouter } from './status.js';",
    'export const apiRouter = Router();',
    "apiRouter.use('/orders', ordersRouter);",
    "apiRouter.use('/a', statusRouter);",
    "apiRouter.use('/b', betaHeader, statusRouter);",
  ),
  'src/shop/routes/orders.ts': source(
    "import { Router } from 'express';",
    "import { getOrder, listOrders, updateOrder } from '../handlers/orders.js';",
    'export const ordersRouter = Router();',
    "ordersRouter.get('/', listOrders);",
    "ordersRouter.route('/:id').get(getOrder).post(updateOrder);",
  ),
  'src/shop/handlers/orders.ts': source(
    "import type { Request, Response } from 'express';",
    "import { formatTotal, toCents } from '../../lib/money.js';",
    'export function listOrders(req: Request, res: Response): void {',
    '  res.json({ total: formatTotal(12) });',
    '}',
    'export function getOrder(req: Request, res: Response): void {',
    '  res.json({ id: req.params.id, cents: toCents(3) });',
    '}',
    'export const updateOrder = (req: Request, res: Response): void => {',
    '  res.status(204).end();',
    '};',
  ),
  'src/shop/routes/status.ts': source(
    "import express from 'express';",
    'export const statusRouter = express.Router();',
    "statusRouter.get('/status', (req, res) => {",
    "  res.send('ok');",
    '});',
  ),
  'src/shop/middleware/beta.ts': source(
    "import type { NextFunction, Request, Response } from 'express';",
    'export function betaHeader(req: Request, res: Response, next: NextFunction): void {',
    "  res.setHeader('x-beta', '1');",
    '  next();',
    '}',
  ),
  'src/shop/routes/users.ts': source(
    "import { BILLING, INVOICE_ROUTES } from '@acme/paths';",
    "import { Router } from 'express';",
    "import { API } from '../constants/index.js';",
    'export const usersRouter = Router();',
    "const ME = '/me';",
    'usersRouter.get(API.users, (req, res) => {',
    '  res.json([]);',
    '});',
    'usersRouter.get(`${ME}/settings`, (req, res) => {',
    '  res.json({});',
    '});',
    "usersRouter.get(ME + '/avatar', (req, res) => {",
    "  res.send('avatar');",
    '});',
    'usersRouter.get(`${BILLING}${INVOICE_ROUTES.one}`, (req, res) => {',
    '  res.json({ id: req.params.invoiceId });',
    '});',
  ),
  'src/shop/accounts/app.ts': source(
    "import express from 'express';",
    'const app = express();',
    "app.get('/me', (req, res) => {",
    '  res.json({ me: true });',
    '});',
    "app.post('/transactions', (req, res) => {",
    '  res.status(201).json({ created: true });',
    '});',
    "app.get('/health', (req, res) => {",
    "  res.send('ok');",
    '});',
    'export { app as handlers };',
  ),
  'src/shop/routes/reports.ts': source(
    "import { Router } from 'express';",
    "import passport from 'passport';",
    "import { reportHandlers } from '../handlers/reports.js';",
    'const reports = Router();',
    "reports.use(passport.authenticate('bearer', { session: false }));",
    "reports.get('/daily', reportHandlers.daily);",
    "reports.get('/weekly', reportHandlers.weekly);",
    'export default reports;',
  ),
  'src/shop/handlers/reports.ts': source(
    "import type { Request, Response } from 'express';",
    'export const reportHandlers = {',
    '  daily(req: Request, res: Response): void {',
    "    res.json({ day: 'today' });",
    '  },',
    '  weekly(req: Request, res: Response): void {',
    "    res.json({ week: 'this' });",
    '  },',
    '};',
  ),
  'src/shop/routes/misc.ts': source(
    "import { ENDPOINTS } from '@vendor/endpoints';",
    "import { Router } from 'express';",
    "import { handlers } from './dynamic-handlers.js';",
    "import { getPath } from './dynamic-paths.js';",
    'export const miscRouter = Router();',
    "const name = process.env.MISC_HANDLER ?? 'ping';",
    'miscRouter.get(getPath(), (req, res) => {',
    "  res.send('dynamic path');",
    '});',
    'miscRouter.get(ENDPOINTS.x, (req, res) => {',
    "  res.send('vendor path');",
    '});',
    "miscRouter.get('/dispatch', handlers[name]);",
  ),
  'src/shop/routes/dynamic-paths.ts': source('export function getPath(): string {', "  return process.env.MISC_PATH ?? '/dynamic';", '}'),
  'src/shop/routes/dynamic-handlers.ts': source(
    "import type { Request, Response } from 'express';",
    'export const handlers: Record<string, (req: Request, res: Response) => void> = {',
    '  ping: (req, res) => {',
    "    res.send('ping');",
    '  },',
    '  pong: (req, res) => {',
    "    res.send('pong');",
    '  },',
    '};',
  ),
  'src/shop/middleware/admin.ts': source(
    "import type { NextFunction, Request, Response } from 'express';",
    "import jwt from 'jsonwebtoken';",
    'export function requireAdmin(req: Request, res: Response, next: NextFunction): void {',
    "  jwt.verify(req.headers.authorization ?? '', process.env.JWT_SECRET ?? '');",
    '  next();',
    '}',
  ),
  'src/shop/routes/admin.ts': source(
    "import { Router } from 'express';",
    'export const adminRouter = Router();',
    "adminRouter.delete('/cache', (req, res) => {",
    '  res.status(204).end();',
    '});',
  ),

  // --- A CommonJS app: module.exports = router + require; ./ghost-routes is not in the repository. ---
  'src/legacy/server.js': source(
    "const express = require('express');",
    "const catalog = require('./catalog');",
    'const app = express();',
    "app.use('/legacy', catalog);",
    "app.use('/ghost', require('./ghost-routes'));",
    'module.exports = app;',
  ),
  'src/legacy/catalog.js': source(
    "const express = require('express');",
    'const router = express.Router();',
    "router.get('/items', (req, res) => {",
    "  res.send('items');",
    '});',
    'module.exports = router;',
  ),

  // --- The bank app: middleware order, roles and evidence. ---
  'src/bank/app.ts': source(
    "import { requireAuth } from '@acme-vendor/auth-kit';",
    "import express from 'express';",
    "import { login } from './handlers/login.js';",
    "import { authLimiter } from './middleware/limits.js';",
    "import { logger } from './middleware/logger.js';",
    "import { validateSessionMiddleware } from './middleware/session.js';",
    "import { accountsRouter } from './routes/accounts.js';",
    'const app = express();',
    "app.get('/bank/ping', (req, res) => {",
    "  res.send('pong');",
    '});',
    "app.post('/bank/login', authLimiter, login);",
    "app.get('/bank/help', requireAuth, (req, res) => {",
    "  res.send('help');",
    '});',
    'app.use(validateSessionMiddleware);',
    "app.use('/bank/accounts', accountsRouter);",
    'app.use(logger);',
    "app.get('/bank/profile', (req, res) => {",
    '  res.json({ profile: true });',
    '});',
    'export default app;',
  ),
  'src/bank/handlers/login.ts': source(
    "import type { Request, Response } from 'express';",
    'export function login(req: Request, res: Response): void {',
    "  res.json({ token: 'issued' });",
    '}',
  ),
  'src/bank/middleware/limits.ts': source(
    "import rateLimit from 'express-rate-limit';",
    'export const authLimiter = rateLimit({',
    '  windowMs: 60_000,',
    '  limit: 5,',
    '});',
  ),
  'src/bank/middleware/logger.ts': source(
    "import type { NextFunction, Request, Response } from 'express';",
    'export function logger(req: Request, res: Response, next: NextFunction): void {',
    '  console.log(req.method, req.url);',
    '  next();',
    '}',
  ),
  'src/bank/middleware/session.ts': source(
    "import type { NextFunction, Request, Response } from 'express';",
    "import { rejectUnauthorized } from './reject.js';",
    'export function validateSessionMiddleware(req: Request, res: Response, next: NextFunction): void {',
    '  if (req.headers.cookie === undefined) {',
    '    rejectUnauthorized(res);',
    '    return;',
    '  }',
    '  next();',
    '}',
  ),
  'src/bank/middleware/reject.ts': source(
    "import type { Response } from 'express';",
    'export function rejectUnauthorized(res: Response): void {',
    "  res.status(401).json({ error: 'unauthorized' });",
    '}',
  ),
  'src/bank/middleware/audit.ts': source(
    "import type { NextFunction, Request, Response } from 'express';",
    'export function auditTrail(req: Request, res: Response, next: NextFunction): void {',
    '  next();',
    '}',
  ),
  'src/bank/routes/accounts.ts': source(
    "import { Router } from 'express';",
    "import type { NextFunction, Request, Response } from 'express';",
    "import { z } from 'zod';",
    "import { auditTrail } from '../middleware/audit.js';",
    'export const accountsRouter = Router();',
    'const transferBody = z.object({ amount: z.number().positive() });',
    'function validateTransfer(req: Request, res: Response, next: NextFunction): void {',
    '  const parsed = transferBody.safeParse(req.body);',
    '  if (!parsed.success) {',
    "    res.status(400).json({ error: 'invalid transfer' });",
    '    return;',
    '  }',
    '  next();',
    '}',
    'accountsRouter.use(auditTrail);',
    "accountsRouter.get('/', (req, res) => {",
    '  res.json([]);',
    '});',
    "accountsRouter.post('/transfer', validateTransfer, (req, res) => {",
    '  res.json({ ok: true });',
    '});',
  ),
};

export const FRAMEWORK_FILES: FileTree = {
  'package.json': json({
    name: 'route-fixture-frameworks',
    version: '1.0.0',
    private: true,
    dependencies: {
      '@koa/router': '^13.0.0',
      '@nestjs/common': '^10.0.0',
      '@nestjs/core': '^10.0.0',
      fastify: '^5.0.0',
      hono: '^4.6.0',
      jose: '^5.9.0',
      koa: '^2.15.0',
      next: '^15.0.0',
    },
  }),
  'tsconfig.json': TSCONFIG,

  // --- Fastify: a plugin in another file registered under two prefixes, and an inline plugin. ---
  'src/fastify/server.ts': source(
    "import Fastify from 'fastify';",
    "import { invoicesPlugin } from './plugins/invoices.js';",
    'const server = Fastify();',
    "server.get('/fastify/health', async () => ({ ok: true }));",
    "server.register(invoicesPlugin, { prefix: '/v1' });",
    "server.register(invoicesPlugin, { prefix: '/v2' });",
    'server.register(',
    '  async (instance) => {',
    "    instance.get('/ping', async () => {",
    "      return 'pong';",
    '    });',
    '  },',
    "  { prefix: '/inline' },",
    ');',
    'export default server;',
  ),
  'src/fastify/plugins/invoices.ts': source(
    "import type { FastifyInstance } from 'fastify';",
    "import { requireApiKey } from '../hooks/api-key.js';",
    "import { renderInvoice } from '../render.js';",
    'export async function invoicesPlugin(app: FastifyInstance): Promise<void> {',
    "  app.get('/invoices', async () => []);",
    '  app.route({',
    "    method: 'GET',",
    "    url: '/invoices/:id',",
    '    preHandler: [requireApiKey],',
    '    handler: async (request) => renderInvoice(request.params),',
    '  });',
    '}',
  ),
  'src/fastify/hooks/api-key.ts': source(
    "import type { FastifyReply, FastifyRequest } from 'fastify';",
    'export async function requireApiKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {',
    "  if (request.headers['x-api-key'] !== process.env.API_KEY) {",
    "    await reply.code(401).send({ error: 'missing api key' });",
    '  }',
    '}',
  ),
  'src/fastify/render.ts': source(
    'export function renderInvoice(params: unknown): { invoice: unknown } {',
    '  return { invoice: params };',
    '}',
  ),

  // --- Hono: basePath and one sub-app routed under two prefixes. ---
  'src/hono/app.ts': source(
    "import { Hono } from 'hono';",
    "import { books } from './books.js';",
    "const app = new Hono().basePath('/hono');",
    "app.route('/books', books);",
    "app.route('/library', books);",
    "app.get('/health', (c) => {",
    "  return c.text('ok');",
    '});',
    'export default app;',
  ),
  'src/hono/books.ts': source(
    "import { Hono } from 'hono';",
    "import type { Context, Next } from 'hono';",
    "import { jwtVerify } from 'jose';",
    "import { findBook } from './store.js';",
    'export const books = new Hono();',
    'const requireJwt = async (c: Context, next: Next): Promise<void> => {',
    "  await jwtVerify(c.req.header('authorization') ?? '', new TextEncoder().encode('secret'));",
    '  await next();',
    '};',
    "books.get('/', (c) => c.json([]));",
    "books.get('/:id', requireJwt, (c) => c.json(findBook(c.req.param('id'))));",
  ),
  'src/hono/store.ts': source(
    'export function findBook(id: string): { id: string; title: string } {',
    "  return { id, title: 'Dune' };",
    '}',
  ),

  // --- Koa: a router prefix option, prefix() and a nested router under use(). ---
  'src/koa/router.ts': source(
    "import Router from '@koa/router';",
    "import { adminRouter } from './admin.js';",
    "const router = new Router({ prefix: '/koa' });",
    "router.get('/refunds', (ctx) => {",
    '  ctx.body = [];',
    '});',
    "router.use('/admin', adminRouter.routes());",
    'export default router;',
  ),
  'src/koa/admin.ts': source(
    "import Router from '@koa/router';",
    "import type { Context, Next } from 'koa';",
    "import { purge } from './purge.js';",
    'export const adminRouter = new Router();',
    "adminRouter.prefix('/ops');",
    'async function requireStaff(ctx: Context, next: Next): Promise<void> {',
    "  if (!ctx.state.user) ctx.throw(401, 'login required');",
    '  await next();',
    '}',
    "adminRouter.post('/purge', requireStaff, async (ctx) => {",
    '  ctx.body = purge();',
    '});',
    "adminRouter.get('/stats', async (ctx) => {",
    '  ctx.body = { jobs: 0 };',
    '});',
  ),
  'src/koa/purge.ts': source('export function purge(): { purged: number } {', '  return { purged: 0 };', '}'),

  // --- NestJS: controller prefix, method decorators, a guard, and the global prefix in main.ts. ---
  'src/nest/main.ts': source(
    "import { NestFactory } from '@nestjs/core';",
    "import { AppModule } from './app.module.js';",
    'async function bootstrap(): Promise<void> {',
    '  const app = await NestFactory.create(AppModule);',
    "  app.setGlobalPrefix('api');",
    '  await app.listen(3000);',
    '}',
    'void bootstrap();',
  ),
  'src/nest/app.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { UsersController } from './users.controller.js';",
    '@Module({ controllers: [UsersController] })',
    'export class AppModule {}',
  ),
  'src/nest/users.controller.ts': source(
    "import { Controller, Get, Param, Post, UseGuards } from '@nestjs/common';",
    "import { formatUser } from './format.js';",
    "import { SessionGuard } from './session.guard.js';",
    "@Controller('users')",
    'export class UsersController {',
    "  @Get(':id')",
    "  findOne(@Param('id') id: string): string {",
    '    return formatUser(id);',
    '  }',
    '  @Post()',
    '  @UseGuards(SessionGuard)',
    '  create(): string {',
    "    return 'created';",
    '  }',
    '}',
  ),
  'src/nest/session.guard.ts': source(
    "import { Injectable, UnauthorizedException } from '@nestjs/common';",
    "import type { CanActivate, ExecutionContext } from '@nestjs/common';",
    '@Injectable()',
    'export class SessionGuard implements CanActivate {',
    '  canActivate(context: ExecutionContext): boolean {',
    '    const request = context.switchToHttp().getRequest<{ session?: unknown }>();',
    '    if (request.session === undefined) throw new UnauthorizedException();',
    '    return true;',
    '  }',
    '}',
  ),
  'src/nest/format.ts': source('export function formatUser(id: string): string {', '  return `user ${id}`;', '}'),

  // --- Next.js: file-system routes. ---
  'app/api/health/route.ts': source('export async function GET(): Promise<Response> {', '  return Response.json({ ok: true });', '}'),
  'pages/api/legacy-orders.ts': source('export default function handler(req: unknown, res: { end(): void }): void {', '  res.end();', '}'),
};

/** The text of `path` in `tree`. */
export function textOf(tree: FileTree, path: string): string {
  const text = tree[path];
  if (typeof text !== 'string') throw new Error(`no text file ${path} in the fixture`);
  return text;
}

/** The 1-based line of `tree[path]` that contains `marker` (exactly one line must). */
export function lineOf(tree: FileTree, path: string, marker: string): number {
  const lines = textOf(tree, path).split('\n');
  const found = lines.flatMap((line, index) => (line.includes(marker) ? [index + 1] : []));
  if (found.length !== 1) throw new Error(`${path}: expected one line containing ${JSON.stringify(marker)}, found ${String(found.length)}`);
  return found[0] ?? 0;
}

/** A change of one file: `from` (which must occur exactly once) replaced by `to`. */
export function edit(tree: FileTree, path: string, from: string, to: string): Record<string, string> {
  return editMany(tree, path, [[from, to]]);
}

/** A change of one file: each `[from, to]` in turn (each `from` must occur exactly once). */
export function editMany(tree: FileTree, path: string, replacements: [from: string, to: string][]): Record<string, string> {
  let text = textOf(tree, path);
  for (const [from, to] of replacements) {
    const first = text.indexOf(from);
    if (first < 0 || text.indexOf(from, first + 1) >= 0) throw new Error(`${path}: ${JSON.stringify(from)} must occur exactly once`);
    text = text.slice(0, first) + to + text.slice(first + from.length);
  }
  return { [path]: text };
}

export interface ScenarioRepo {
  repo: TestRepo;
  base: string;
  /** Checks out the scenario's head commit (the graph is built from the working tree) and analyses base..head. */
  analyze(name: string): Promise<ChangeAnalysis>;
  cleanup(): void;
}

/**
 * One repository for several changes of the same base: the base is committed, then every scenario is
 * committed on its own detached branch from the base. All commits are made before any analysis runs
 * (analysis writes an untracked facts cache). Analyses must run one at a time.
 */
export function createScenarioRepo(base: FileTree, scenarios: Record<string, Record<string, string | null>>): ScenarioRepo {
  const repo = createRepo(base);
  try {
    const baseOid = repo.git('rev-parse', 'HEAD');
    const heads = new Map<string, string>();
    for (const [name, change] of Object.entries(scenarios)) {
      repo.git('checkout', '-q', '--detach', baseOid);
      applyChange(repo, change);
      heads.set(name, repo.commit(name));
    }
    repo.git('checkout', '-q', '--detach', baseOid);
    return {
      repo,
      base: baseOid,
      async analyze(name) {
        const head = heads.get(name);
        if (head === undefined) throw new Error(`no scenario ${name}`);
        repo.git('checkout', '-q', '--detach', head);
        return analyzeFixture({ repo, base: baseOid, head });
      },
      cleanup: () => repo.cleanup(),
    };
  } catch (error) {
    repo.cleanup();
    throw error;
  }
}

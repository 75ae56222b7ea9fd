import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import { createTestEnv } from '../helpers/test-env.js';
import { sorted } from '../helpers/analysis-fixtures.js';
import { createRepo, type FileTree, type TestRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const source = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** A NestJS app with a global prefix and URI versioning, and an e2e test that calls it over HTTP, as Nest's starter does. */
const NEST_FILES: FileTree = {
  'package.json': JSON.stringify({ name: 'nest-versioned', dependencies: { '@nestjs/core': '^10.0.0', '@nestjs/common': '^10.0.0' } }),
  'src/main.ts': source(
    "import { NestFactory } from '@nestjs/core';",
    "import { VersioningType } from '@nestjs/common';",
    "import { AppModule } from './app.module';",
    'async function bootstrap(): Promise<void> {',
    '  const app = await NestFactory.create(AppModule);',
    "  app.setGlobalPrefix('api');",
    "  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });",
    '  await app.listen(3000);',
    '}',
    'void bootstrap();',
  ),
  'src/app.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { AuthController } from './auth/auth.controller';",
    "import { HealthController } from './health.controller';",
    "import { UsersController } from './users.controller';",
    '@Module({ controllers: [AuthController, HealthController, UsersController] })',
    'export class AppModule {}',
  ),
  'src/auth/auth.controller.ts': source(
    "import { Body, Controller, Post, Version } from '@nestjs/common';",
    "@Controller({ path: 'auth', version: '1' })",
    'export class AuthController {',
    "  @Post('email/login')",
    '  login(@Body() body: { email: string }): string {',
    '    return body.email;',
    '  }',
    "  @Version(['2', '3'])",
    "  @Post('refresh')",
    '  refresh(): string {',
    "    return 'token';",
    '  }',
    '}',
  ),
  'src/health.controller.ts': source(
    "import { Controller, Get, VERSION_NEUTRAL } from '@nestjs/common';",
    "@Controller({ path: 'health', version: VERSION_NEUTRAL })",
    'export class HealthController {',
    '  @Get()',
    "  check(): string { return 'ok'; }",
    '}',
  ),
  'src/users.controller.ts': source(
    "import { Controller, Get } from '@nestjs/common';",
    "@Controller('users')",
    'export class UsersController {',
    "  @Get(':id')",
    "  findOne(): string { return 'user'; }",
    '}',
  ),
  'test/auth.e2e-spec.ts': source(
    "import request from 'supertest';",
    "import { app } from './app';",
    "test('logs in', () => request(app.getHttpServer()).post('/api/v1/auth/email/login').send({ email: 'a@b.c' }).expect(201));",
  ),
  'test/app.ts': source('export const app = { getHttpServer: (): unknown => undefined };'),
};

describe('NestJS URI versioning', () => {
  let repo: TestRepo;
  let built: RepositoryGraph;
  before(async () => {
    repo = createRepo(NEST_FILES);
    const env = createTestEnv(repo.dir);
    try {
      built = await buildRepositoryGraph(env);
    } finally {
      await env.close();
    }
  });
  after(() => repo.cleanup());

  test('puts /v<version> between the global prefix and the controller: declared, per method, default and neutral', () => {
    const ids: string[] = [];
    built.kg.graph.forEachNode((id, attributes) => {
      if (attributes.kind === 'route') ids.push(id);
    });
    assert.deepEqual(sorted(ids), [
      'route:GET /api/health',
      'route:GET /api/v1/users/:id',
      'route:POST /api/v1/auth/email/login',
      'route:POST /api/v2/auth/refresh',
      'route:POST /api/v3/auth/refresh',
    ]);
  });

  test('a change to the controller reaches the e2e test that calls its versioned path over HTTP', () => {
    const controller = join(repo.dir, 'src/auth/auth.controller.ts');
    writeFileSync(controller, readFileSync(controller, 'utf8').replace('return body.email;', 'return body.email.trim();'));
    const result = runCli(['impact', '--format', 'json', '--cwd', repo.dir]);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { impactedRoutes: { id: string }[]; impactedFiles: { path: string }[] };
    assert.ok(
      report.impactedRoutes.some((route) => route.id === 'route:POST /api/v1/auth/email/login'),
      result.stdout,
    );
    assert.ok(
      report.impactedFiles.some((file) => file.path === 'test/auth.e2e-spec.ts'),
      result.stdout,
    );
  });
});

// hedgedoc (check 192): `RouterModule.register(routes)` with `routes` a `Routes` array of the file serves the controllers
// of PublicApiModule under `/api/v2` and those of PrivateApiModule under `/api/private`. Both modules have a notes
// controller at `notes/:alias`: checker listed one route, unprefixed, for two, and a change to the public controller
// reached the private API's e2e test through it.
const ROUTER_MODULE_FILES: FileTree = {
  'package.json': JSON.stringify({ name: 'nest-router-module', dependencies: { '@nestjs/core': '^10.0.0', '@nestjs/common': '^10.0.0' } }),
  'src/main.ts': source(
    "import { NestFactory } from '@nestjs/core';",
    "import { AppModule } from './app.module';",
    'async function bootstrap(): Promise<void> {',
    '  const app = await NestFactory.create(AppModule);',
    '  await app.listen(3000);',
    '}',
    'void bootstrap();',
  ),
  'src/app.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { RouterModule, Routes } from '@nestjs/core';",
    "import { PrivateApiModule } from './api/private/private-api.module';",
    "import { PublicApiModule } from './api/public/public-api.module';",
    "import { MeModule } from './api/private/me/me.module';",
    "import { HealthController } from './health.controller';",
    "export const PUBLIC_API_PREFIX = '/api/v2';",
    "export const PRIVATE_API_PREFIX = '/api/private';",
    'const routes: Routes = [',
    '  { path: PUBLIC_API_PREFIX, module: PublicApiModule },',
    "  { path: PRIVATE_API_PREFIX, module: PrivateApiModule, children: [{ path: 'me', module: MeModule }] },",
    '];',
    '@Module({',
    '  imports: [RouterModule.register(routes), PublicApiModule, PrivateApiModule, MeModule],',
    '  controllers: [HealthController],',
    '})',
    'export class AppModule {}',
  ),
  'src/health.controller.ts': source(
    "import { Controller, Get } from '@nestjs/common';",
    "@Controller('health')",
    'export class HealthController {',
    '  @Get()',
    "  check(): string { return 'ok'; }",
    '}',
  ),
  'src/api/public/public-api.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { NotesController } from './notes/notes.controller';",
    '@Module({ controllers: [NotesController] })',
    'export class PublicApiModule {}',
  ),
  'src/api/public/notes/notes.controller.ts': source(
    "import { Controller, Get, Param } from '@nestjs/common';",
    "@Controller('notes')",
    'export class NotesController {',
    "  @Get(':alias')",
    "  getNote(@Param('alias') alias: string): string {",
    '    return alias;',
    '  }',
    '}',
  ),
  'src/api/private/private-api.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { NotesController } from './notes/notes.controller';",
    '@Module({ controllers: [NotesController] })',
    'export class PrivateApiModule {}',
  ),
  'src/api/private/notes/notes.controller.ts': source(
    "import { Controller, Get, Param } from '@nestjs/common';",
    "@Controller('notes')",
    'export class NotesController {',
    "  @Get(':alias')",
    "  getNote(@Param('alias') alias: string): string {",
    '    return alias.toUpperCase();',
    '  }',
    '}',
  ),
  'src/api/private/me/me.module.ts': source(
    "import { Module } from '@nestjs/common';",
    "import { MeController } from './me.controller';",
    '@Module({ controllers: [MeController] })',
    'export class MeModule {}',
  ),
  'src/api/private/me/me.controller.ts': source(
    "import { Controller, Get } from '@nestjs/common';",
    '@Controller()',
    'export class MeController {',
    '  @Get()',
    "  getMe(): string { return 'me'; }",
    '}',
  ),
  'test/private-notes.e2e-spec.ts': source(
    "import request from 'supertest';",
    "import { PRIVATE_API_PREFIX } from '../src/app.module';",
    "import { app } from './app';",
    "test('reads a note', () => request(app.getHttpServer()).get(`${PRIVATE_API_PREFIX}/notes/abc`).expect(200));",
  ),
  'test/public-notes.e2e-spec.ts': source(
    "import request from 'supertest';",
    "import { PUBLIC_API_PREFIX } from '../src/app.module';",
    "import { app } from './app';",
    "test('reads a note', () => request(app.getHttpServer()).get(`${PUBLIC_API_PREFIX}/notes/abc`).expect(200));",
  ),
  'test/app.ts': source('export const app = { getHttpServer: (): unknown => undefined };'),
  'src/slug.ts': source("export const slug = (text: string): string => text.replace(/ /g, '-');"),
};

function listRouteIds(graph: RepositoryGraph): string[] {
  const ids: string[] = [];
  graph.kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'route') ids.push(id);
  });
  return sorted(ids);
}

function listRouteLimitations(graph: RepositoryGraph): string[] {
  return graph.limitations.filter((limitation) => limitation.code.startsWith('routes/')).map((limitation) => limitation.message);
}

describe('NestJS RouterModule', () => {
  test('serves each module’s controllers under its path, children under their parent’s, constants resolved', async () => {
    const repo = createRepo(ROUTER_MODULE_FILES);
    const env = createTestEnv(repo.dir);
    try {
      const graph = await buildRepositoryGraph(env);
      assert.deepEqual(listRouteIds(graph), [
        'route:GET /api/private/me',
        'route:GET /api/private/notes/:alias',
        'route:GET /api/v2/notes/:alias',
        'route:GET /health',
      ]);
      assert.deepEqual(listRouteLimitations(graph), []);
    } finally {
      await env.close();
      repo.cleanup();
    }
  });

  test('the RouterModule path goes between the version segment and the controller’s path', async () => {
    const repo = createRepo({
      ...NEST_FILES,
      'src/app.module.ts': source(
        "import { Module } from '@nestjs/common';",
        "import { RouterModule } from '@nestjs/core';",
        "import { UsersModule } from './users.module';",
        "@Module({ imports: [UsersModule, RouterModule.register([{ path: 'admin', module: UsersModule }])] })",
        'export class AppModule {}',
      ),
      'src/users.module.ts': source(
        "import { Module } from '@nestjs/common';",
        "import { UsersController } from './users.controller';",
        '@Module({ controllers: [UsersController] })',
        'export class UsersModule {}',
      ),
    });
    const env = createTestEnv(repo.dir);
    try {
      const ids = listRouteIds(await buildRepositoryGraph(env));
      assert.ok(ids.includes('route:GET /api/v1/admin/users/:id'), ids.join('\n'));
      assert.ok(!ids.some((id) => id.startsWith('route:GET /api/v1/users')), ids.join('\n'));
    } finally {
      await env.close();
      repo.cleanup();
    }
  });

  test('a change to one module’s controller reaches its own route and not the same path of the other module (cold CLI run)', () => {
    const repo = createRepo(ROUTER_MODULE_FILES);
    try {
      const controller = join(repo.dir, 'src/api/private/notes/notes.controller.ts');
      writeFileSync(controller, readFileSync(controller, 'utf8').replace('alias.toUpperCase()', 'alias.toLowerCase()'));
      const result = runCli(['impact', '--format', 'json', '--cwd', repo.dir]);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as { impactedRoutes: { id: string }[]; impactedFiles: { path: string }[] };
      assert.deepEqual(
        report.impactedRoutes.map((route) => route.id),
        ['route:GET /api/private/notes/:alias'],
      );
      assert.ok(
        report.impactedFiles.some((file) => file.path === 'test/private-notes.e2e-spec.ts'),
        result.stdout,
      );
    } finally {
      repo.cleanup();
    }
  });

  test('a request whose path starts with an imported prefix calls the route; the proof extends the test that calls it', () => {
    // Both e2e tests import the app module, so both reach both controllers; only the prefix each requests tells them
    // apart (hedgedoc's `${PUBLIC_API_PREFIX}/notes/…`, the constant imported from src/app.module.ts).
    const repo = createRepo(ROUTER_MODULE_FILES);
    try {
      const controller = join(repo.dir, 'src/api/public/notes/notes.controller.ts');
      writeFileSync(controller, readFileSync(controller, 'utf8').replace('return alias;', 'return alias.trim();'));
      const result = runCli(['ai', '--format', 'json', '--cwd', repo.dir]);
      assert.equal(result.code, 0, result.stderr);
      const bundle = JSON.parse(result.stdout) as { tasks: { id: string; detail: string }[] };
      const proof = bundle.tasks.find((task) => task.id === 'task:proof:src/api/public/notes/notes.controller.ts');
      assert.match(proof?.detail ?? result.stdout, /extend test\/public-notes\.e2e-spec\.ts /);
    } finally {
      repo.cleanup();
    }
  });

  test('a module edited after runs that kept the graph: the next run moves the routes as a cold run does', () => {
    // A module that stops listing a controller moves that controller's routes, though the module file declares no route:
    // a run that stood the kept route nodes would still say /api/v2.
    const repo = createRepo(ROUTER_MODULE_FILES);
    try {
      const impact = (): string[] => {
        const result = runCli(['impact', '--format', 'json', '--cwd', repo.dir]);
        assert.equal(result.code, 0, result.stderr);
        return (JSON.parse(result.stdout) as { impactedRoutes: { id: string }[] }).impactedRoutes.map((route) => route.id);
      };
      const controller = join(repo.dir, 'src/api/public/notes/notes.controller.ts');
      writeFileSync(controller, readFileSync(controller, 'utf8').replace('return alias;', 'return alias.trim();'));
      assert.deepEqual(impact(), ['route:GET /api/v2/notes/:alias']);
      assert.deepEqual(impact(), ['route:GET /api/v2/notes/:alias']);
      const module = join(repo.dir, 'src/api/public/public-api.module.ts');
      writeFileSync(module, readFileSync(module, 'utf8').replace('controllers: [NotesController]', 'controllers: []'));
      const warm = impact();
      rmSync(join(repo.dir, '.checker'), { recursive: true, force: true });
      assert.deepEqual(impact(), warm);
      assert.deepEqual(warm, ['route:GET /notes/:alias']);
    } finally {
      repo.cleanup();
    }
  });

  test('a focused cold run reads every module in full: its routes are the full run’s, prefixes and all', async () => {
    // The change does not reach the public API's module, but the file that registers the RouterModule, which the change
    // reaches, imports it: read in full (src/graph/focus.ts), its controllers are known.
    const repo = createRepo(ROUTER_MODULE_FILES);
    const controller = join(repo.dir, 'src/api/private/notes/notes.controller.ts');
    writeFileSync(controller, readFileSync(controller, 'utf8').replace('toUpperCase', 'toLowerCase'));
    const env = createTestEnv(repo.dir, { useCache: false });
    try {
      const full = listRouteIds(await buildRepositoryGraph(env));
      const focusedGraph = await buildRepositoryGraph(env, undefined, {
        focus: { changedPaths: async () => ['src/api/private/notes/notes.controller.ts'] },
      });
      assert.ok((focusedGraph.parsed.linkOnly?.size ?? 0) > 0, 'the run is focused: some file is read for its links alone');
      assert.ok(!focusedGraph.parsed.linkOnly?.has('src/api/public/public-api.module.ts'));
      assert.deepEqual(listRouteIds(focusedGraph), full);
      assert.ok(full.includes('route:GET /api/v2/notes/:alias'));
    } finally {
      await env.close();
      repo.cleanup();
    }
  });

  test('routes checker cannot read, and a module it cannot find, are limitations naming file and line', async () => {
    const repo = createRepo({
      ...ROUTER_MODULE_FILES,
      'src/app.module.ts': source(
        "import { Module } from '@nestjs/common';",
        "import { RouterModule } from '@nestjs/core';",
        "import { buildRoutes } from './routes';",
        '@Module({',
        "  imports: [RouterModule.register(buildRoutes()), RouterModule.register([{ path: '/x', module: MissingModule }])],",
        '})',
        'export class AppModule {}',
      ),
      'src/routes.ts': source('export const buildRoutes = (): unknown[] => [];'),
    });
    const env = createTestEnv(repo.dir);
    try {
      const graph = await buildRepositoryGraph(env);
      assert.deepEqual(listRouteLimitations(graph), [
        'src/app.module.ts:5: RouterModule.register is given routes checker cannot read (not an array written out in the file), so the routes of the modules it lists are listed without their prefixes.',
        'src/app.module.ts:5: RouterModule.register serves MissingModule at "/x", but "MissingModule" is neither imported nor declared at the top of src/app.module.ts; its routes are listed without that prefix.',
      ]);
      assert.ok(listRouteIds(graph).includes('route:GET /notes/:alias'));
    } finally {
      await env.close();
      repo.cleanup();
    }
  });
});

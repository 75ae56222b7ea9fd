import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
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

// hedgedoc (check 192): `RouterModule.register([{ path: '/api/v2', module: PublicApiModule }, …])` prefixes the notes
// controllers of two modules; checker listed `GET /notes/:noteAlias/revisions/:revisionUuid` once, unprefixed, and said
// nothing. It does not follow RouterModule yet: it says so, naming the file and line.
describe('NestJS RouterModule', () => {
  test('a RouterModule.register checker does not follow is a limitation naming its file and line', async () => {
    const repo = createRepo({
      ...NEST_FILES,
      'src/app.module.ts': source(
        "import { Module } from '@nestjs/common';",
        "import { RouterModule } from '@nestjs/core';",
        "import { UsersController } from './users.controller';",
        "@Module({ controllers: [UsersController], imports: [RouterModule.register([{ path: '/admin', module: AppModule }])] })",
        'export class AppModule {}',
      ),
    });
    const env = createTestEnv(repo.dir);
    try {
      const graph = await buildRepositoryGraph(env);
      assert.deepEqual(
        graph.limitations.filter((limitation) => limitation.code.startsWith('routes/')).map((limitation) => limitation.message),
        [
          'src/app.module.ts:4: RouterModule.register prefixes the routes of the modules it lists; checker does not follow it, so the routes of those modules are listed without their prefixes.',
        ],
      );
    } finally {
      await env.close();
      repo.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * A NestJS service injected into a controller (`constructor(private readonly users: UsersService)`): a change to one
 * service method reaches the routes whose handlers call that method, not every handler of every controller that
 * injects the service.
 */
const SERVICE = (createBody: string, prefix = 'user') =>
  [
    "import { Injectable } from '@nestjs/common';",
    '@Injectable()',
    'export class UsersService {',
    `  private readonly prefix = '${prefix}';`,
    '  find(id: string): string {',
    '    return `${this.prefix} ${id}`;',
    '  }',
    '  create(name: string): string {',
    `    ${createBody}`,
    '  }',
    '}',
    '',
  ].join('\n');

const BASE = {
  'package.json': JSON.stringify({ name: 'nest-app', version: '1.0.0', dependencies: { '@nestjs/common': '^10.0.0' } }),
  'src/users/users.service.ts': SERVICE('return `created ${name}`;'),
  'src/users/users.controller.ts': [
    "import { Body, Controller, Get, Param, Post } from '@nestjs/common';",
    "import { UsersService } from './users.service';",
    "@Controller('users')",
    'export class UsersController {',
    '  constructor(private readonly users: UsersService) {}',
    "  @Get(':id')",
    "  findOne(@Param('id') id: string): string {",
    '    return this.users.find(id);',
    '  }',
    '  @Post()',
    "  create(@Body('name') name: string): string {",
    '    return this.users.create(name);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/admin/admin.controller.ts': [
    "import { Controller, Get } from '@nestjs/common';",
    "import { UsersService } from '../users/users.service';",
    "@Controller('admin')",
    'export class AdminController {',
    '  constructor(private readonly users: UsersService) {}',
    "  @Get('health')",
    '  health(): string {',
    "    return 'ok';",
    '  }',
    '}',
    '',
  ].join('\n'),
};

describe('a changed NestJS service method reaches the routes that call it', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, { 'src/users/users.service.ts': SERVICE('return `created ${name.trim()}`;') });
  });
  after(() => fixture.repo.cleanup());

  test('only POST /users, whose handler calls users.create', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.impactedRoutes.map((route) => `${route.method} ${route.path} ${route.reach}`),
      ['POST /users handler'],
    );
  });
});

describe('a changed field of the service reaches the routes whose methods read it', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, { 'src/users/users.service.ts': SERVICE('return `created ${name}`;', 'member') });
  });
  after(() => fixture.repo.cleanup());

  test('GET /users/:id, whose find reads this.prefix; not POST /users nor the admin route', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`),
      ['GET /users/:id'],
    );
  });
});

describe('a decorated controller method removed, with the blank line before it, is that method, not its class', () => {
  const controller = BASE['src/users/users.controller.ts'];
  const withLegacy = controller.replace(
    '  @Post()',
    ["  @Get('legacy')", '  @HttpCode(200)', '  legacy(): string {', "    return 'old';", '  }', '', '  @Post()'].join('\n'),
  );
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      { ...BASE, 'src/users/users.controller.ts': withLegacy.replace('Body, Controller', 'Body, Controller, HttpCode') },
      { 'src/users/users.controller.ts': controller.replace('Body, Controller', 'Body, Controller, HttpCode') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('no route left in the controller is reached: their handlers are as they were', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`),
      [],
    );
  });
});

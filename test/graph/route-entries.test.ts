import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';

const parse = (text: string, path = 'src/server.ts') => extractFacts(path, text, { assertionHelpers: [] });

describe('callables: the per-declaration reference index', () => {
  test('top-level functions, class members, object members and default exports reference what they use at run time', () => {
    const facts = parse(
      [
        "import { save } from './db';",
        "import * as mail from './mail';",
        "import type { User } from './types';",
        'export function createUser(user: User): void {',
        '  save(user);',
        '  mail.send(user);',
        '}',
        'export class UsersService {',
        '  constructor(private readonly repo: Repository) {}',
        '  find(): void { this.repo.load(); this.audit(); }',
        '  audit(): void { throw new UnauthorizedException(); }',
        '}',
        'export const handlers = {',
        '  list(req: unknown) { return createUser; },',
        '  remove: () => res.status(403),',
        '};',
        'export default () => createUser;',
      ].join('\n'),
    );
    const byName = Object.fromEntries(facts.callables.map((callable) => [callable.name, callable]));
    assert.deepEqual(Object.keys(byName).sort(), [
      'UsersService',
      'UsersService.audit',
      'UsersService.constructor',
      'UsersService.find',
      'createUser',
      'default',
      'handlers',
      'handlers.list',
      'handlers.remove',
    ]);
    // Types do not run: `User` is not a reference; `mail.send` names the namespace member, not the whole module.
    assert.deepEqual(
      byName.createUser?.refs.filter((ref) => ['save', 'mail', 'mail.send', 'User'].includes(ref)),
      ['mail.send', 'save'],
    );
    // `this.repo.load()` on an injected `Repository` and `this.audit()` on the same class.
    assert.ok(byName['UsersService.find']?.refs.includes('Repository.load'));
    assert.ok(byName['UsersService.find']?.refs.includes('UsersService.audit'));
    assert.deepEqual(byName['UsersService.audit']?.statuses, [401]);
    assert.deepEqual(byName['handlers.remove']?.statuses, [403]);
    assert.ok(byName['handlers.list']?.refs.includes('createUser'));
    assert.ok(byName.default?.refs.includes('createUser'));
    assert.deepEqual(byName['handlers.list']?.span, { start: 14, end: 14 });
    // A `key: value` member spans its own lines (swc gives the property no span: it read as line 1, so a change to the
    // file's first line touched every such member; check 200, jsonwebtoken's `sign_options_schema`).
    assert.deepEqual(byName['handlers.remove']?.span, { start: 15, end: 15 });
  });
});

// Check 92 (uptime-kuma): `setting` removed from `const { ping, …, setting } = require('../util-server')` made the whole
// declaration a changed callable named `ping`, and every route handler calling a `ping` of its own was reached.
describe('callables: a module loaded and destructured binds imports, and declares no callable', () => {
  test('require, await import and a member of a require; a destructured call result is still a callable', () => {
    const facts = parse(
      [
        'const {',
        '    ping,',
        '    setting,',
        "} = require('../util-server');",
        "const { Router } = require('express').default;",
        "const { load } = await import('./loader.js');",
        'const [first] = compute();',
        'class Monitor {',
        '  beat() { return ping(); }',
        '}',
        'module.exports = Monitor;',
      ].join('\n'),
      'server/model/monitor.js',
    );
    assert.deepEqual(
      facts.callables.map((callable) => `${callable.name} ${callable.span.start}-${callable.span.end}`),
      ['first 7-7', 'Monitor.beat 9-9', 'Monitor 8-10'],
    );
  });
});

describe('route registrations: handler and middleware entries, uses, constants', () => {
  test('entries carry their references, spans and statuses; dynamic handlers are marked', () => {
    const facts = parse(
      [
        "import express from 'express';",
        "import rateLimit from 'express-rate-limit';",
        "import { listUsers } from './handlers';",
        "import { API } from './paths';",
        'const BASE = `/v${2}`;',
        'const app = express();',
        'const authLimiter = rateLimit({ windowMs: 1000 });',
        'app.use(express.json());',
        "app.get('/users', authLimiter, asyncHandler(listUsers));",
        'app.post(API.users, (req, res) => {',
        '  if (!req.body) return res.status(422).end();',
        '  res.send(save(req.body));',
        '});',
        "app.get('/dispatch', handlers[req.name]);",
        'app.use(`${BASE}/admin`, adminRouter);',
        "app.set('trust proxy', true);",
      ].join('\n'),
    );
    const [users, created, dispatch] = facts.routes;
    assert.equal(users?.path, '/users');
    assert.deepEqual(
      users?.middlewareEntries?.map((entry) => [entry.name, entry.refs]),
      [['authLimiter', ['authLimiter']]],
    );
    assert.deepEqual(
      [users?.handlerEntry?.callee, users?.handlerEntry?.name, users?.handlerEntry?.refs],
      ['asyncHandler', 'listUsers', ['asyncHandler', 'listUsers']],
    );
    assert.deepEqual(users?.span, { start: 9, end: 9 });
    assert.equal(created?.path, '{?API.users}');
    assert.deepEqual(created?.pathParts, [{ ref: 'API.users' }]);
    assert.equal(created?.handlerEntry?.inline, true);
    assert.deepEqual(created?.handlerEntry?.statuses, [422]);
    assert.ok(created?.handlerEntry?.refs.includes('save'));
    assert.deepEqual(created?.span, { start: 10, end: 13 });
    assert.equal(dispatch?.handlerEntry?.dynamic, true);
    assert.deepEqual(
      facts.uses.map((use) => [use.line, use.setting ?? '', use.appLevel === true, use.entries.map((entry) => entry.callee ?? entry.name)]),
      [
        [8, '', true, ['express.json']],
        [16, 'set', true, []],
      ],
    );
    assert.deepEqual(
      facts.mounts.map((mount) => [mount.target, mount.prefix, mount.prefixParts, mount.receiver]),
      [['adminRouter', '{?BASE}/admin', [{ ref: 'BASE' }, { text: '/admin' }], 'app']],
    );
    assert.deepEqual(
      facts.constants.filter((constant) => constant.name === 'BASE'),
      [{ name: 'BASE', parts: [{ text: '/v' }, { text: '2' }] }],
    );
  });

  test('as const objects and templates of constants become constants', () => {
    const facts = parse("const ROOT = '/api';\nexport const API = { users: `${ROOT}/users`, nested: { me: '/me' } } as const;\n");
    assert.deepEqual(facts.constants, [
      { name: 'ROOT', parts: [{ text: '/api' }] },
      { name: 'API.users', parts: [{ ref: 'ROOT' }, { text: '/users' }] },
      { name: 'API.nested.me', parts: [{ text: '/me' }] },
    ]);
  });
});

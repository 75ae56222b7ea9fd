import type { Confidence } from '../../../../src/model/rules.js';
import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const SIGNAL_RULES: readonly [string, string, number, Confidence][] = [
  ['edge-case/number-parsing', 'parse-number', 4, 'high'],
  ['edge-case/json-parsing', 'parse-json', 4, 'high'],
  ['edge-case/date-time-zones', 'date-time', 4, 'medium'],
  ['edge-case/invalid-dates', 'date-time', 3, 'medium'],
  ['edge-case/money-rounding', 'money', 5, 'high'],
  ['edge-case/money-negative-currency', 'money', 4, 'medium'],
  ['edge-case/empty-collection', 'collection', 3, 'medium'],
  ['edge-case/huge-collection', 'input-collection', 2, 'low'],
  ['edge-case/missing-optional', 'optional-access', 3, 'medium'],
  ['edge-case/rejected-promise', 'async-failure', 4, 'medium'],
  ['edge-case/network-timeout', 'network', 4, 'medium'],
  ['edge-case/partial-failure', 'promise-concurrency', 4, 'medium'],
  ['edge-case/pagination-bounds', 'pagination', 4, 'high'],
  ['edge-case/unauthenticated', 'auth', 5, 'high'],
  ['edge-case/catastrophic-regex', 'regex-backtracking', 3, 'high'],
  ['edge-case/missing-env', 'env-config', 3, 'high'],
];

/** Signals that are not the evidence a rule needs: the words or shapes that used to fire it. */
const NOT_EVIDENCE: Record<string, string> = {
  'edge-case/huge-collection': 'collection',
  'edge-case/catastrophic-regex': 'regex',
};

const signal = {
  path: 'src/orders.ts',
  line: 12,
  detail: 'parseInt',
  fileRole: 'source',
  inChangedLines: true,
  authCheck: 'verifies a token',
  envChecked: false,
  dateFormatter: false,
  writesBefore: true,
  functionWrites: true,
};

export const edgeCaseCases: Record<string, RuleCases> = Object.fromEntries(
  SIGNAL_RULES.map(([ruleId, signalKind, weight, confidence]): [string, RuleCases] => [
    ruleId,
    {
      valid: [
        { ...signal, signalKind: signalKind === 'sql' ? 'throw' : 'sql' },
        { ...signal, signalKind, fileRole: 'test' },
        ...(NOT_EVIDENCE[ruleId] === undefined ? [] : [{ ...signal, signalKind: NOT_EVIDENCE[ruleId] }]),
        // An auth word on a line that checks nothing (an HTTP/2 session set, a command-line token).
        ...(signalKind === 'auth' ? [{ ...signal, signalKind, authCheck: '' }] : []),
        // A read inside the condition that tests the same variable (`if (process.env.X) { … process.env.X … }`).
        ...(signalKind === 'env-config' ? [{ ...signal, signalKind, envChecked: true }] : []),
        // An Intl.DateTimeFormat formats dates and builds none (luxon's IANAZone): no invalid date reaches it.
        ...(ruleId === 'edge-case/invalid-dates'
          ? [{ ...signal, signalKind, detail: 'new Intl.DateTimeFormat', dateFormatter: true }]
          : []),
        // An await outside any try in a function that wrote nothing before it: nothing is left half-done (logto).
        ...(signalKind === 'async-failure' ? [{ ...signal, signalKind, detail: 'await outside try', writesBefore: false }] : []),
        // Reads or cache calls combined concurrently in a function that writes nothing: nothing to compensate (logto).
        ...(signalKind === 'promise-concurrency' ? [{ ...signal, signalKind, functionWrites: false }] : []),
      ],
      invalid: [
        { facts: { ...signal, signalKind }, params: { weight, confidence, scope: 'src/orders.ts' } },
        // A .catch or a Promise.reject needs no write before it; an await outside try after a write does fire.
        ...(signalKind === 'async-failure'
          ? [
              { facts: { ...signal, signalKind, detail: '.catch', writesBefore: false }, params: { weight, confidence } },
              { facts: { ...signal, signalKind, detail: 'await outside try' }, params: { weight, confidence } },
            ]
          : []),
      ],
    },
  ]),
);

edgeCaseCases['edge-case/number-parsing'] = {
  valid: [
    { ...signal, signalKind: 'parse-json' },
    { ...signal, signalKind: 'parse-number', fileRole: 'test' },
  ],
  invalid: [
    {
      facts: { ...signal, signalKind: 'parse-number' },
      message: 'src/orders.ts:12 parses a number (parseInt)',
      params: {
        weight: 4,
        confidence: 'high',
        scope: 'src/orders.ts',
        trigger: 'a value such as "", "12abc", "-0" or "1e999" reaches parseInt',
        recommendedProof:
          'a table-driven test (or a fast-check property) that feeds "", "12abc", "-0", "1e999" and a valid number to the code at src/orders.ts:12',
      },
    },
  ],
};

const route = {
  method: 'POST',
  path: '/orders/:id',
  file: 'src/routes/orders.ts',
  kind: 'api',
  changed: true,
  chainChanged: true,
  handlerChanged: true,
  registrationChanged: true,
  guardChanged: false,
  params: ['id'],
  paramCount: 1,
};

const writes = {
  handlerWrites: true,
  handlerWrite: 'db.order.create at src/routes/orders.ts:9',
  handlerCreates: true,
  handlerCreate: 'db.order.create at src/routes/orders.ts:9',
};
/** An update that sets values: written, but a repeat ends in the same state. */
const updates = {
  handlerWrites: true,
  handlerWrite: 'Document.update at src/routes/orders.ts:9',
  handlerCreates: false,
  handlerCreate: '',
};
const readsBody = { readsBody: true, bodyRead: 'req.body at src/routes/orders.ts:8' };

export const routeEdgeCaseCases: Record<string, RuleCases> = {
  'edge-case/route-params': {
    // An unresolved `{?…}` segment is not a parameter.
    valid: [
      { ...route, path: '/orders', params: [], paramCount: 0 },
      { ...route, changed: false },
      // Reached through a service the handler calls: how the handler reads its parameters did not change.
      { ...route, chainChanged: false, handlerChanged: false },
      // Reached through a middleware the route shares (parse-server's handleParseHeaders): no more.
      { ...route, handlerChanged: false },
      { ...route, path: '/orders/{?ROUTES.x}', params: [], paramCount: 0 },
    ],
    invalid: [
      {
        facts: { ...route },
        message: 'POST /orders/:id takes path parameters (id)',
        params: { weight: 4, scope: 'POST /orders/:id', confidence: 'high' },
      },
      { facts: { ...route, method: 'GET', path: '/users/{userId}', params: ['userId'] }, params: { scope: 'GET /users/{userId}' } },
      { facts: { ...route, method: 'PAGE', path: '/blog/[slug]', kind: 'ui', params: ['slug'] }, params: { weight: 4 } },
    ],
  },
  'edge-case/route-body': {
    // A mutating method is no evidence of a body: the handler must be seen reading one.
    valid: [
      { ...route, isMutation: true, readsBody: false, bodyRead: '' },
      { ...route, isMutation: true, changed: false, ...readsBody },
      { ...route, isMutation: true, kind: 'ui', ...readsBody },
    ],
    invalid: [
      {
        facts: { ...route, isMutation: true, ...readsBody },
        message: 'POST /orders/:id reads a request body (req.body at src/routes/orders.ts:8)',
        params: { weight: 5, confidence: 'high' },
      },
      { facts: { ...route, method: 'GET', isMutation: false, ...readsBody }, params: { scope: 'GET /orders/:id' } },
    ],
  },
  'edge-case/route-unauthenticated': {
    valid: [
      { ...route, hasAuthMiddleware: false },
      { ...route, hasAuthMiddleware: true, changed: false },
      {
        ...route,
        hasAuthMiddleware: true,
        authMiddleware: ['AuthGuard'],
        chainChanged: false,
        handlerChanged: false,
        registrationChanged: false,
      },
      // Another middleware of the chain changed, not the guard.
      {
        ...route,
        hasAuthMiddleware: true,
        authMiddleware: ['AuthGuard'],
        handlerChanged: false,
        registrationChanged: false,
        guardChanged: false,
      },
      // Since 3.5.0: the handler's body changed, which runs after the guard.
      { ...route, hasAuthMiddleware: true, authMiddleware: ['AuthGuard'], handlerChanged: true, registrationChanged: false },
      { ...route, hasAuthMiddleware: false, hasNameOnlyAuth: true, nameOnlyAuth: ['requireAuth'] },
    ],
    invalid: [
      {
        facts: { ...route, hasAuthMiddleware: true, authMiddleware: ['requireAuth'], authEvidence: 'uses jsonwebtoken (verify)' },
        message: 'POST /orders/:id is protected by requireAuth (uses jsonwebtoken (verify))',
        params: { weight: 6, confidence: 'high' },
      },
      {
        facts: {
          ...route,
          hasAuthMiddleware: true,
          authMiddleware: ['requireAuth'],
          handlerChanged: false,
          registrationChanged: false,
          guardChanged: true,
        },
        params: { weight: 6 },
      },
    ],
  },
  'edge-case/route-auth-by-name': {
    valid: [
      { ...route, hasNameOnlyAuth: false },
      { ...route, hasNameOnlyAuth: true, nameOnlyAuth: ['requireAuth'], changed: false },
      {
        ...route,
        hasNameOnlyAuth: true,
        nameOnlyAuth: ['requireAuth'],
        chainChanged: false,
        handlerChanged: false,
        registrationChanged: false,
      },
      {
        ...route,
        hasNameOnlyAuth: true,
        nameOnlyAuth: ['requireAuth'],
        handlerChanged: false,
        registrationChanged: false,
        guardChanged: false,
      },
      { ...route, hasNameOnlyAuth: true, nameOnlyAuth: ['requireAuth'], handlerChanged: true, registrationChanged: false },
    ],
    invalid: [
      {
        facts: { ...route, hasNameOnlyAuth: true, nameOnlyAuth: ['requireAuth'] },
        message: 'POST /orders/:id relies on requireAuth, named like authentication; its code shows no credential check',
        params: { weight: 3, confidence: 'low' },
      },
      {
        facts: {
          ...route,
          hasNameOnlyAuth: true,
          nameOnlyAuth: ['requireAuth'],
          handlerChanged: false,
          registrationChanged: false,
          guardChanged: true,
        },
        params: { weight: 3 },
      },
    ],
  },
  'edge-case/route-unprotected-mutation': {
    // A mutating method is no evidence of a write: the handler must be seen writing.
    valid: [
      { ...route, isMutation: true, hasAuthMiddleware: true, ...writes },
      { ...route, isMutation: false, ...writes },
      { ...route, isMutation: true, hasAuthMiddleware: false, hasNameOnlyAuth: true, nameOnlyAuth: ['requireAuth'], ...writes },
      { ...route, isMutation: true, hasAuthMiddleware: false, handlerWrites: false, handlerWrite: '' },
    ],
    invalid: [
      {
        facts: { ...route, isMutation: true, hasAuthMiddleware: false, hasNameOnlyAuth: false, ...writes },
        message: 'POST /orders/:id writes data (db.order.create at src/routes/orders.ts:9) and no auth middleware is declared on it',
        params: { weight: 4, confidence: 'low' },
      },
    ],
  },
  'edge-case/route-double-submit': {
    // A POST that only reads (an RPC-style `pins.list`) is no double-submit risk: the write is the evidence.
    valid: [
      { ...route, isMutation: false, ...writes },
      { ...route, isMutation: true, changed: false, ...writes },
      { ...route, isMutation: true, method: 'PUT', ...writes },
      { ...route, isMutation: true, method: 'DELETE', ...writes },
      { ...route, isMutation: true, handlerWrites: false, handlerWrite: '', handlerCreates: false, handlerCreate: '' },
      // Since 3.4.0: an update that sets values is written twice to the same end.
      { ...route, isMutation: true, ...updates },
    ],
    invalid: [
      {
        facts: { ...route, isMutation: true, ...writes },
        message: 'POST /orders/:id may be submitted twice: its handler writes (db.order.create at src/routes/orders.ts:9)',
        params: { weight: 4, confidence: 'medium', scope: 'POST /orders/:id' },
      },
      {
        facts: { ...route, isMutation: true, method: 'PATCH', ...writes },
        params: { weight: 4, confidence: 'medium', scope: 'PATCH /orders/:id' },
      },
    ],
  },
};

const semantic = {
  path: 'src/validate.ts',
  line: 12,
  before: 'if (value.length >= 5) return ok;',
  after: 'if (value.length > 5) return ok;',
  edit: 'if (value.length >= 5) return ok; → if (value.length > 5) return ok;',
  subject: 'value.length',
  limit: '5',
  values: '4, 5 and 6',
  functionName: 'validate',
  routes: [],
  where: 'src/validate.ts:12',
  fileRole: 'source',
  changeKind: 'runtime',
};

const SEMANTIC_KINDS = [
  'boundary',
  'default',
  'condition',
  'error-path',
  'regex',
  'arithmetic',
  'remainder',
  'order',
  'membership',
  'normalisation',
  'option-flag',
  'validation',
  'read',
  'exit',
  'escaping',
  'prototype',
  'own-keys',
  'return',
  'filter',
] as const;

export const semanticEdgeCaseCases: Record<string, RuleCases> = Object.fromEntries(
  SEMANTIC_KINDS.map((kind): [string, RuleCases] => [
    `edge-case/changed-${kind}`,
    {
      valid: SEMANTIC_KINDS.filter((other) => other !== kind).map((other) => ({ ...semantic, semanticKind: other })),
      invalid: [{ facts: { ...semantic, semanticKind: kind }, params: { scope: 'src/validate.ts:12', confidence: 'high' } }],
    },
  ]),
);
semanticEdgeCaseCases['edge-case/changed-boundary'] = {
  valid: SEMANTIC_KINDS.filter((other) => other !== 'boundary').map((other) => ({ ...semantic, semanticKind: other })),
  invalid: [
    {
      facts: { ...semantic, semanticKind: 'boundary' },
      message:
        'src/validate.ts:12 changes a boundary on value.length (if (value.length >= 5) return ok; → if (value.length > 5) return ok;)',
      params: { weight: 9, trigger: 'value.length is 4, 5 and 6', confidence: 'high' },
    },
  ],
};
semanticEdgeCaseCases['edge-case/changed-read'] = {
  valid: SEMANTIC_KINDS.filter((other) => other !== 'read').map((other) => ({ ...semantic, semanticKind: other })),
  invalid: [
    {
      facts: {
        ...semantic,
        semanticKind: 'read',
        before: 'const path = event.url.path;',
        after: 'const path = event.url.pathname;',
        edit: 'const path = event.url.path; → const path = event.url.pathname;',
        subject: 'event.url.pathname',
        limit: 'event.url.path',
        values: 'an input for which event.url.path and event.url.pathname hold different values',
      },
      message:
        'src/validate.ts:12 now reads event.url.pathname where it read event.url.path (const path = event.url.path; → const path = event.url.pathname;)',
      params: {
        weight: 6,
        trigger: 'an input for which event.url.path and event.url.pathname hold different values reaches src/validate.ts:12',
        confidence: 'medium',
      },
    },
  ],
};
semanticEdgeCaseCases['edge-case/changed-exit'] = {
  valid: SEMANTIC_KINDS.filter((other) => other !== 'exit').map((other) => ({ ...semantic, semanticKind: other })),
  invalid: [
    {
      facts: {
        ...semantic,
        semanticKind: 'exit',
        before: 'return debug(',
        after: 'debug("[%s] error while broadcasting message: %s", this.uid, e.message);',
        edit: 'return debug( → debug("[%s] error while broadcasting message: %s", this.uid, e.message);',
        subject: 'no longer returns here',
        limit: '',
        values: 'an input that reaches line 12, asserting what the code after it now does (it stopped there before)',
      },
      message:
        'src/validate.ts:12 no longer returns here (return debug( → debug("[%s] error while broadcasting message: %s", this.uid, e.message);)',
      params: { weight: 7, confidence: 'high' },
    },
  ],
};
semanticEdgeCaseCases['edge-case/changed-return'] = {
  valid: SEMANTIC_KINDS.filter((other) => other !== 'return').map((other) => ({ ...semantic, semanticKind: other })),
  invalid: [
    {
      facts: {
        ...semantic,
        semanticKind: 'return',
        before: 'return false;',
        after: 'return;',
        edit: 'return false; → return;',
        subject: 'now returns undefined where it returned false',
        limit: 'false',
        values: 'an input that reaches line 12, asserting the value its caller gets (undefined, not false)',
      },
      message: 'src/validate.ts:12 now returns undefined where it returned false (return false; → return;)',
      params: { weight: 7, confidence: 'high' },
    },
  ],
};
semanticEdgeCaseCases['edge-case/changed-filter'] = {
  valid: SEMANTIC_KINDS.filter((other) => other !== 'filter').map((other) => ({ ...semantic, semanticKind: other })),
  invalid: [
    {
      facts: {
        ...semantic,
        semanticKind: 'filter',
        before: '',
        after: '.andWhere(FieldNameRevision.noteId, noteId)',
        edit: 'new line: .andWhere(FieldNameRevision.noteId, noteId)',
        subject: 'the query now also filters on FieldNameRevision.noteId',
        limit: 'andWhere',
        values: 'a row the query returned before that fails the new andWhere on FieldNameRevision.noteId, and one that passes it',
      },
      message:
        'src/validate.ts:12 the query now also filters on FieldNameRevision.noteId (new line: .andWhere(FieldNameRevision.noteId, noteId))',
      params: { weight: 7, confidence: 'high' },
    },
  ],
};

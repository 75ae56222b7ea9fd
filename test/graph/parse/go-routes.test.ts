import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FileFacts } from '../../../src/model/facts.js';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { composeRoutes } from '../../../src/graph/routes/compose-routes.js';
import { SymbolIndex } from '../../../src/graph/symbol-index.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

const parsers = await getGrammarParsers(['x.go']);

const factsOf = (lines: string[]): FileFacts =>
  extractFacts('internal/api/routes.go', lines.join('\n'), { assertionHelpers: [] }, parsers, false);

/** `METHOD path router [scope] handler [middleware]`: what a route says, one line each. */
const routeLines = (facts: FileFacts): string[] =>
  facts.routes.map(
    (route) =>
      `${route.framework} ${route.method} ${route.path} on ${route.router}${route.scope === undefined ? '' : ` (${route.scope})`}` +
      ` -> ${route.handler ?? 'inline'}${route.middleware === undefined ? '' : ` [${route.middleware.join(', ')}]`}`,
  );

const chiRoutes = [
  'package api',
  '',
  'import (',
  '\t"net/http"',
  '',
  '\t"github.com/go-chi/chi/v5"',
  '\t"github.com/go-chi/chi/v5/middleware"',
  '',
  '\t"example.com/shop/internal/orders"',
  ')',
  '',
  'func NewRouter(s *Server) http.Handler {',
  '\tr := chi.NewRouter()',
  '\tr.Use(middleware.Logger)',
  '\tr.Get("/health", s.handleHealth)',
  '\tr.Route("/orders", func(r chi.Router) {',
  '\t\tr.Use(requireAuth)',
  '\t\tr.Get("/", orders.List)',
  '\t\tr.Route("/{orderID:[0-9]+}", func(r chi.Router) {',
  '\t\t\tr.With(audit).Delete("/", s.handleDelete)',
  '\t\t})',
  '\t})',
  '\tr.Group(func(r chi.Router) {',
  '\t\tr.Use(requireAdmin)',
  '\t\tr.Post("/refunds", func(w http.ResponseWriter, req *http.Request) {',
  '\t\t\thttp.Error(w, "forbidden", http.StatusForbidden)',
  '\t\t})',
  '\t})',
  '\tr.Mount("/admin", adminRouter())',
  '\tr.Get("/late", late)',
  '\thttp.ListenAndServe(":8080", r)',
  '\treturn r',
  '}',
  '',
  'func adminRouter() http.Handler {',
  '\tr := chi.NewRouter()',
  '\tr.Get("/stats/{day}", stats)',
  '\treturn r',
  '}',
  '',
  'func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {}',
  'func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) { w.WriteHeader(409) }',
  'func requireAuth(next http.Handler) http.Handler { return next }',
  'func requireAdmin(next http.Handler) http.Handler { return next }',
  'func audit(next http.Handler) http.Handler { return next }',
  'func stats(w http.ResponseWriter, r *http.Request) {}',
  'func late(w http.ResponseWriter, r *http.Request) {}',
];

describe('chi', () => {
  const facts = factsOf(chiRoutes);

  test('Route prefixes are joined, {param} becomes :param, receivers key the router they stand for', () => {
    assert.deepEqual(routeLines(facts), [
      'chi GET /health on NewRouter -> Server.handleHealth',
      'chi GET /orders on NewRouter@16 (NewRouter) -> orders.List',
      'chi DELETE /orders/:orderID on NewRouter@16@19@20 (NewRouter) -> Server.handleDelete',
      'chi POST /refunds on NewRouter@23 (NewRouter) -> inline',
      'chi GET /late on NewRouter -> late',
      'chi GET /stats/:day on adminRouter -> stats',
    ]);
    assert.deepEqual(facts.routes[3]?.handlerEntry?.statuses, [403]);
  });

  test('Mount names the mounted router; a router handed to the standard library is not a mount', () => {
    assert.deepEqual(
      facts.mounts.map((mount) => `${mount.receiver} ${mount.prefix} ${mount.target} line ${mount.line}`),
      ['NewRouter /admin adminRouter line 29'],
    );
  });

  test('Use, Route, Group and With middleware are uses of the router or group they apply to', () => {
    assert.deepEqual(
      facts.uses.map((use) => `${use.receiver} ${use.entries.map((entry) => entry.name).join(',')} line ${use.line}`),
      [
        'NewRouter middleware.Logger line 14',
        'NewRouter@16 requireAuth line 17',
        'NewRouter@16@19 requireAuth line 17',
        'NewRouter@16@19@20 requireAuth line 17',
        'NewRouter@16@19@20 audit line 20',
        'NewRouter@23 requireAdmin line 24',
      ],
    );
  });

  test('composition serves every route under its mounts with the middleware that reaches it', () => {
    const path = 'internal/api/routes.go';
    const symbols = new SymbolIndex({
      getFacts: (file) => (file === path ? facts : undefined),
      resolveImport: (_file, specifier) => ({ packageName: specifier }),
      findExport: () => [],
    });
    const composed = composeRoutes(symbols, [{ path, facts }]).routes.map(
      (route) =>
        `${route.route.method} ${route.fullPath} [${route.guards.map((guard) => guard.name).join(', ')}] ` +
        `-> ${route.registration.chain
          .filter((link) => link.role === 'handler')
          .flatMap((link) => link.targets)
          .join(',')}`,
    );
    assert.deepEqual(composed, [
      'GET /health [middleware.Logger] -> internal/api/routes.go#Server.handleHealth',
      'GET /orders [middleware.Logger, requireAuth] -> ',
      'DELETE /orders/:orderID [middleware.Logger, requireAuth, audit] -> internal/api/routes.go#Server.handleDelete',
      'POST /refunds [middleware.Logger, requireAdmin] -> ',
      'GET /late [middleware.Logger] -> internal/api/routes.go#late',
      'GET /admin/stats/:day [middleware.Logger] -> internal/api/routes.go#stats',
    ]);
  });
});

test('net/http: Go 1.22 method patterns, the default mux, and handlers wrapped in a call', () => {
  const facts = factsOf([
    'package api',
    '',
    'import "net/http"',
    '',
    'func routes(h *Handlers) *http.ServeMux {',
    '\tmux := http.NewServeMux()',
    '\tmux.HandleFunc("GET /items/{id}", h.getItem)',
    '\tmux.HandleFunc("POST /items/{$}", h.createItem)',
    '\tmux.Handle("/files/{path...}", http.StripPrefix("/files", files))',
    '\tmux.HandleFunc("example.com/health", health)',
    '\treturn mux',
    '}',
    '',
    'func init() {',
    '\thttp.HandleFunc("/legacy", legacy)',
    '}',
  ]);
  assert.deepEqual(routeLines(facts), [
    'go-http GET /items/:id on routes -> Handlers.getItem',
    'go-http POST /items/ on routes -> Handlers.createItem',
    'go-http ALL /files/*path on routes -> files',
    'go-http ALL /health on routes -> health',
    'go-http ALL /legacy on http -> legacy',
  ]);
  assert.deepEqual(facts.routes[2]?.handlerEntry, {
    inline: false,
    span: { start: 9, end: 9 },
    refs: ['files', 'http.StripPrefix'],
    callee: 'http.StripPrefix',
    name: 'files',
  });
});

test('gin: groups join their prefix, group and route middleware are kept apart, a group handed to a function is a mount', () => {
  const facts = factsOf([
    'package api',
    '',
    'import (',
    '\t"github.com/gin-gonic/gin"',
    '',
    '\t"example.com/shop/internal/users"',
    ')',
    '',
    'func SetupRouter() *gin.Engine {',
    '\tr := gin.Default()',
    '\tr.Use(gin.Recovery())',
    '\tv1 := r.Group("/v1", authRequired())',
    '\t{',
    '\t\tv1.GET("/orders/:id", rateLimit, getOrder)',
    '\t\tadmin := v1.Group("/admin")',
    '\t\tadmin.DELETE("/orders/:id", deleteOrder)',
    '\t\tusers.Register(v1)',
    '\t}',
    '\tr.Any("/ping", ping)',
    '\treturn r',
    '}',
  ]);
  assert.deepEqual(routeLines(facts), [
    'gin GET /v1/orders/:id on SetupRouter.v1 (SetupRouter) -> getOrder [rateLimit]',
    'gin DELETE /v1/admin/orders/:id on SetupRouter.admin (SetupRouter) -> deleteOrder',
    'gin ALL /ping on SetupRouter -> ping',
  ]);
  assert.deepEqual(
    facts.uses.map(
      (use) => `${use.receiver} ${use.entries.map((entry) => entry.callee ?? entry.name).join(',')}${use.appLevel ? ' app' : ''}`,
    ),
    ['SetupRouter gin.Recovery app', 'SetupRouter.v1 authRequired', 'SetupRouter.admin authRequired'],
  );
  assert.deepEqual(facts.mounts, [
    {
      prefix: '/v1',
      target: 'users.Register',
      line: 17,
      receiver: 'SetupRouter.v1',
      offset: facts.mounts[0]?.offset,
      scope: 'SetupRouter',
    },
  ]);
});

test('echo: the handler comes before route middleware; groups join their prefix', () => {
  const facts = factsOf([
    'package api',
    '',
    'import "github.com/labstack/echo/v4"',
    '',
    'func Register(e *echo.Echo, h *Handler) {',
    '\tapi := e.Group("/api")',
    '\tapi.GET("/orders/:id", h.Get, requireAuth)',
    '\tapi.Add("PATCH", "/orders/:id", h.Patch)',
    '\te.POST("/login", login)',
    '}',
  ]);
  assert.deepEqual(routeLines(facts), [
    'echo GET /api/orders/:id on Register.api (Register) -> Handler.Get [requireAuth]',
    'echo PATCH /api/orders/:id on Register.api (Register) -> Handler.Patch',
    'echo POST /login on Register -> login',
  ]);
});

// Check 104 (julienschmidt/httprouter): the library's own `func (r *Router) GET(path string, handle Handle)` calls
// `r.Handle(http.MethodGet, path, handle)`; each was read as an ALL route at `/{?http.MethodGet}`.
describe('a method before the path, and a registration helper whose path is its parameter', () => {
  test('the helper declares no route; a call with a method and a literal path declares that method', () => {
    const facts = factsOf([
      'package router',
      '',
      'import "net/http"',
      '',
      'func (r *Router) GET(path string, handle Handle) {',
      '\tr.Handle(http.MethodGet, path, handle)',
      '}',
      '',
      'func Routes(mux *http.ServeMux) {',
      '\tmux.Handle(http.MethodPost, "/items", createItem)',
      '\tmux.Handle("/health", health)',
      '}',
    ]);
    assert.deepEqual(routeLines(facts), ['go-http POST /items on Routes -> createItem', 'go-http ALL /health on Routes -> health']);
  });
});

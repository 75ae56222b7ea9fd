import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentBundle } from '../../src/model/bundle.js';
import { type ChangeFixture, createChangeFixture, runJsonReport } from '../helpers/analysis-fixtures.js';

const GO_MOD = 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/go-chi/chi/v5 v5.0.12\n';

/** A chi service: the router in one file, its handlers in a sibling file, the store in a package of its own. */
const BASE: Record<string, string> = {
  'go.mod': GO_MOD,
  'cmd/server/main.go': [
    'package main',
    '',
    'import (',
    '\t"net/http"',
    '',
    '\t"example.com/shop/internal/api"',
    ')',
    '',
    'func main() {',
    '\thttp.ListenAndServe(":8080", api.NewRouter())',
    '}',
    '',
  ].join('\n'),
  'internal/api/router.go': [
    'package api',
    '',
    'import "github.com/go-chi/chi/v5"',
    '',
    'func NewRouter() chi.Router {',
    '\tr := chi.NewRouter()',
    '\tr.Route("/api", func(r chi.Router) {',
    '\t\tr.Get("/orders/{id}", getOrder)',
    '\t\tr.Get("/health", health)',
    '\t})',
    '\treturn r',
    '}',
    '',
  ].join('\n'),
  'internal/api/handlers.go': [
    'package api',
    '',
    'import (',
    '\t"encoding/json"',
    '\t"net/http"',
    '',
    '\t"example.com/shop/internal/orders"',
    ')',
    '',
    'func getOrder(w http.ResponseWriter, r *http.Request) {',
    '\tjson.NewEncoder(w).Encode(orders.Find(r.PathValue("id")))',
    '}',
    '',
    'func health(w http.ResponseWriter, r *http.Request) {',
    '\tw.Write([]byte("ok"))',
    '}',
    '',
  ].join('\n'),
  'internal/orders/store.go': [
    'package orders',
    '',
    'type Order struct {',
    '\tID    string',
    '\tTotal int',
    '}',
    '',
    'func Find(id string) Order {',
    '\treturn Order{ID: id, Total: 10}',
    '}',
    '',
  ].join('\n'),
  'internal/orders/store_test.go': [
    'package orders',
    '',
    'import "testing"',
    '',
    'func TestFind(t *testing.T) {',
    '\tif Find("a").Total != 10 {',
    '\t\tt.Fatal("total")',
    '\t}',
    '}',
    '',
  ].join('\n'),
  'internal/api/handlers_test.go': [
    'package api',
    '',
    'import (',
    '\t"net/http/httptest"',
    '\t"testing"',
    ')',
    '',
    'func TestGetOrder(t *testing.T) {',
    '\trec := httptest.NewRecorder()',
    '\tNewRouter().ServeHTTP(rec, httptest.NewRequest("GET", "/api/orders/a", nil))',
    '\tif rec.Code != 200 {',
    '\t\tt.Fatalf("status %d", rec.Code)',
    '\t}',
    '}',
    '',
  ].join('\n'),
};

describe('a Go service: a change in a package a handler calls', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'internal/orders/store.go': (BASE['internal/orders/store.go'] ?? '').replace(
        '\treturn Order{ID: id, Total: 10}',
        '\tif id == "" {\n\t\treturn Order{}\n\t}\n\treturn Order{ID: id, Total: 10}',
      ),
    });
  });
  after(() => fixture.repo.cleanup());

  test('reaches exactly the route whose handler, in a sibling file, calls it; the package tests and the handler tests run', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.impactedRoutes.map((route) => `${route.method} ${route.path}`),
      ['GET /api/orders/:id'],
    );
    assert.deepEqual(bundle.evidence.impactedFiles.map((file) => file.path).sort(), [
      'cmd/server/main.go',
      'internal/api/handlers.go',
      'internal/api/handlers_test.go',
      'internal/api/router.go',
      'internal/orders/store_test.go',
    ]);
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.command),
      ['go test ./internal/orders ./internal/api'],
    );
  });
});

/** A gin service: a versioned group with its own middleware, handlers on a typed receiver in another file. */
const GIN: Record<string, string> = {
  'go.mod': 'module example.com/store\n\ngo 1.22\n\nrequire github.com/gin-gonic/gin v1.10.0\n',
  'server/routes.go': [
    'package server',
    '',
    'import "github.com/gin-gonic/gin"',
    '',
    'func (s *Server) Routes() *gin.Engine {',
    '\tr := gin.New()',
    '\tv1 := r.Group("/v1")',
    '\tv1.Use(s.requireKey)',
    '\tv1.GET("/carts/:id", s.getCart)',
    '\tv1.POST("/carts/:id/items", s.addItem)',
    '\treturn r',
    '}',
    '',
  ].join('\n'),
  'server/handlers.go': [
    'package server',
    '',
    'import "github.com/gin-gonic/gin"',
    '',
    'type Server struct {',
    '\tcarts map[string][]string',
    '}',
    '',
    'func (s *Server) requireKey(c *gin.Context) {',
    '\tif c.GetHeader("X-Key") == "" {',
    '\t\tc.AbortWithStatus(401)',
    '\t}',
    '}',
    '',
    'func (s *Server) getCart(c *gin.Context) {',
    '\tc.JSON(200, s.carts[c.Param("id")])',
    '}',
    '',
    'func (s *Server) addItem(c *gin.Context) {',
    '\tid := c.Param("id")',
    '\ts.carts[id] = append(s.carts[id], c.PostForm("item"))',
    '\tc.Status(201)',
    '}',
    '',
  ].join('\n'),
  'server/handlers_test.go': [
    'package server',
    '',
    'import (',
    '\t"net/http/httptest"',
    '\t"testing"',
    ')',
    '',
    'func TestAddItem(t *testing.T) {',
    '\ts := &Server{carts: map[string][]string{}}',
    '\trec := httptest.NewRecorder()',
    '\ts.Routes().ServeHTTP(rec, httptest.NewRequest("POST", "/v1/carts/a/items", nil))',
    '\tif rec.Code != 401 {',
    '\t\tt.Fatalf("status %d", rec.Code)',
    '\t}',
    '}',
    '',
  ].join('\n'),
};

describe('a gin service: a handler change on a typed receiver in a route group', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(GIN, {
      'server/handlers.go': (GIN['server/handlers.go'] ?? '').replace(
        '\ts.carts[id] = append(s.carts[id], c.PostForm("item"))',
        '\titem := c.PostForm("item")\n\tif item == "" {\n\t\tc.Status(400)\n\t\treturn\n\t}\n\ts.carts[id] = append(s.carts[id], item)',
      ),
    });
  });
  after(() => fixture.repo.cleanup());

  test("reaches exactly the group's route of that handler, with the group's middleware, and runs the package test", async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.impactedRoutes.map((route) => [
        `${route.method} ${route.path}`,
        route.reach,
        route.guards?.map((guard) => [guard.name, guard.role]),
      ]),
      [['POST /v1/carts/:id/items', 'handler', [['Server.requireKey', 'auth']]]],
    );
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.command),
      ['go test ./server'],
    );
  });
});

// Check 80 (golang-jwt before its go.mod): an X_test package imports X by a path no go.mod maps, so no test reached
// the change, and no limitation said why.
describe('Go packages without a go.mod', () => {
  const files = (withModule: boolean): Record<string, string> => ({
    ...(withModule ? { 'go.mod': 'module github.com/acme/jwt-go\n\ngo 1.22\n' } : {}),
    'token.go': 'package jwt\n\nfunc Parse(raw string) string {\n\treturn raw\n}\n',
    'token_test.go': [
      'package jwt_test',
      '',
      'import (',
      '\t"testing"',
      '',
      '\t"github.com/acme/jwt-go"',
      ')',
      '',
      'func TestParse(t *testing.T) {',
      '\tif jwt.Parse("a") != "a" {',
      '\t\tt.Fatal("parse")',
      '\t}',
      '}',
      '',
    ].join('\n'),
  });
  const change = { 'token.go': 'package jwt\n\nfunc Parse(raw string) string {\n\treturn raw + ""\n}\n' };

  test('say that imports by path are read as external modules; with a go.mod, say nothing and reach the test', async () => {
    const bare = createChangeFixture(files(false), change);
    const moduled = createChangeFixture(files(true), change);
    try {
      const { report: without } = await runJsonReport<AgentBundle>(bare, ['ai'], 'agent-bundle');
      assert.deepEqual(
        without.limitations.filter((item) => item.code === 'resolve/go-no-module').map((item) => item.message),
        [
          'The repository has Go packages and no go.mod, so every Go import by path is read as an external module (1 such import): a package of this repository imported by path (an X_test package importing X included) is not reached through them.',
        ],
      );
      const { report: withModule } = await runJsonReport<AgentBundle>(moduled, ['ai'], 'agent-bundle');
      assert.deepEqual(
        withModule.limitations.filter((item) => item.code === 'resolve/go-no-module'),
        [],
      );
      assert.deepEqual(
        withModule.evidence.testRun.commands.map((command) => command.command),
        ['go test .'],
      );
    } finally {
      bare.repo.cleanup();
      moduled.repo.cleanup();
    }
  });
});

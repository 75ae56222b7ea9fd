import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FileFacts } from '../../../src/model/facts.js';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

const parsers = await getGrammarParsers(['x.go']);

const factsOf = (path: string, lines: string[]): FileFacts => extractFacts(path, lines.join('\n'), { assertionHelpers: [] }, parsers, true);

describe('Go imports and exports', () => {
  const facts = factsOf('internal/orders/service.go', [
    'package orders',
    '',
    'import (',
    '\t"fmt"',
    '\tchi "github.com/go-chi/chi/v5"',
    '\t"github.com/jackc/pgx/v5"',
    '\t_ "github.com/lib/pq"',
    '\t. "example.com/shop/internal/money"',
    '\tyaml "gopkg.in/yaml.v3"',
    ')',
    '',
    'const DefaultLimit = 50',
    'const basePath = "/orders"',
    '',
    'var (',
    '\tErrNotFound = fmt.Errorf("order not found")',
    '\tcache       map[string]Order',
    ')',
    '',
    'type Order struct {',
    '\tID string',
    '}',
    '',
    'type Store interface {',
    '\tList() []Order',
    '}',
    '',
    'type ID = string',
    '',
    'type service struct{ db *pgx.Conn }',
    '',
    'func New(db *pgx.Conn) *service { return &service{db: db} }',
    '',
    'func (s *service) List() []Order { return nil }',
    '',
    'func (s service) reload() {}',
    '',
    'func init() {}',
  ]);

  test('every import spec binds its alias or last path segment, and the file imports its own package', () => {
    const local = (specifier: string, name: string, line: number) => ({
      specifier,
      kind: 'static',
      typeOnly: false,
      names: [{ imported: '*', local: name, typeOnly: false }],
      line,
    });
    assert.deepEqual(facts.imports, [
      local('fmt', 'fmt', 4),
      local('github.com/go-chi/chi/v5', 'chi', 5),
      local('github.com/jackc/pgx/v5', 'pgx', 6),
      local('github.com/lib/pq', '_', 7),
      local('example.com/shop/internal/money', '.', 8),
      local('gopkg.in/yaml.v3', 'yaml', 9),
      local('.', '.', 1),
    ]);
  });

  test('upper-case top-level names are exported; methods as Type.Method; init and lower-case names are not', () => {
    assert.deepEqual(
      facts.exports.map((fact) => `${fact.kind} ${fact.name} ${fact.span.start}-${fact.span.end}`),
      [
        'variable DefaultLimit 12-12',
        'variable ErrNotFound 16-16',
        'class Order 20-22',
        'interface Store 24-26',
        'type ID 28-28',
        'function New 32-32',
        'function service.List 34-34',
      ],
    );
  });

  test('string constants are kept for route paths', () => {
    assert.deepEqual(facts.constants, [{ name: 'basePath', parts: [{ text: '/orders' }] }]);
  });

  test('an external test package does not import its own package implicitly', () => {
    const external = factsOf('internal/orders/service_test.go', ['package orders_test', '', 'import "example.com/shop/internal/orders"']);
    assert.deepEqual(
      external.imports.map((fact) => `${fact.specifier} ${fact.names[0]?.local}`),
      ['example.com/shop/internal/orders orders'],
    );
  });
});

describe('Go callables, functions and signals', () => {
  const facts = factsOf('internal/orders/handler.go', [
    'package orders',
    '',
    'import (',
    '\t"encoding/json"',
    '\t"net/http"',
    '\t"os"',
    '\t"regexp"',
    '\t"strconv"',
    '\t"sync"',
    '\t"time"',
    ')',
    '',
    'var idPattern = regexp.MustCompile(`^[0-9]+$`)',
    '',
    'type Handler struct{ store Store }',
    '',
    'func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {',
    '\tid, err := strconv.Atoi(r.URL.Query().Get("id"))',
    '\tif err != nil || id < 0 {',
    '\t\thttp.Error(w, "bad id", http.StatusBadRequest)',
    '\t\treturn',
    '\t}',
    '\torder, ok := h.store.Find(id)',
    '\tif !ok {',
    '\t\tw.WriteHeader(404)',
    '\t\treturn',
    '\t}',
    '\twriteJSON(w, order)',
    '}',
    '',
    'func load(path string) ([]Order, error) {',
    '\tvar orders []Order',
    '\tdata, err := os.ReadFile(path)',
    '\tif err := json.Unmarshal(data, &orders); err != nil {',
    '\t\tpanic(err)',
    '\t}',
    '\tvar wg sync.WaitGroup',
    '\tgo func() { defer recover() }()',
    '\tfor _, order := range orders[1:] {',
    '\t\tswitch order.Status {',
    '\t\tcase "open", "held":',
    '\t\t\t_, _ = time.Since(order.Created), time.Now()',
    '\t\tdefault:',
    '\t\t}',
    '\t}',
    '\t_ = os.Getenv("ORDERS_DIR")',
    '\treturn orders, err',
    '}',
  ]);

  test('callables reference package names, imported members and the receiver type, never locals', () => {
    assert.deepEqual(facts.callables, [
      {
        name: 'Handler.Get',
        span: { start: 17, end: 29 },
        refs: ['Handler.store', 'http.Error', 'http.StatusBadRequest', 'strconv.Atoi', 'writeJSON'],
        statuses: [400, 404],
      },
      {
        name: 'load',
        span: { start: 31, end: 48 },
        refs: ['Order', 'json.Unmarshal', 'os.Getenv', 'os.ReadFile', 'sync.WaitGroup', 'time.Now', 'time.Since'],
      },
    ]);
  });

  test('functions count branches and parameters', () => {
    assert.deepEqual(
      facts.functions.map((fact) => `${fact.name} complexity=${fact.complexity} params=${fact.params}`),
      ['Handler.Get complexity=4 params=2', 'load complexity=4 params=1'],
    );
  });

  test('signals rest on calls, statements and slicing', () => {
    assert.deepEqual(
      facts.signals.map((signal) => `${signal.line} ${signal.kind} ${signal.detail}`),
      [
        '13 regex regexp.MustCompile',
        '18 parse-number strconv.Atoi',
        '33 file-io os.ReadFile',
        '34 parse-json json.Unmarshal',
        '35 throw panic(err)',
        '37 promise-concurrency sync.WaitGroup',
        '38 catch recover()',
        '38 promise-concurrency go func()',
        '39 collection orders[1:]',
        // An amount of time (time.Since, a Duration) is the same in every zone; the calendar time is not (check 91: cast).
        '42 date-time time.Now',
        '46 env-config os.Getenv',
      ],
    );
  });
});

test('indexing a fixed-length array is no collection that can be empty; a slice or a parameter slice is (check 27: gin)', () => {
  const facts = factsOf('tree.go', [
    'package gin',
    '',
    'func shift(rb [4]byte, items []string) string {',
    '\tvar buf [8]byte',
    '\t_ = buf[0]',
    '\tif rb[0] != 0 {',
    '\t\treturn items[0]',
    '\t}',
    '\treturn ""',
    '}',
  ]);
  assert.deepEqual(
    facts.signals.filter((signal) => signal.kind === 'collection').map((signal) => `${signal.line} ${signal.detail}`),
    ['7 items[0]'],
  );
  // Check 118 (gorilla/schema): a call through reflection returns what the method does, never an empty list.
  const reflected = factsOf('encoder.go', [
    'package schema',
    '',
    'func isZero(v reflect.Value, items []reflect.Value) bool {',
    '\treturn v.MethodByName("IsZero").Call([]reflect.Value{})[0].Bool() && items[0].Bool()',
    '}',
  ]);
  assert.deepEqual(
    reflected.signals.filter((signal) => signal.kind === 'collection').map((signal) => `${signal.line} ${signal.detail}`),
    ['4 items[0]'],
  );
});

test('Go words: declared names, other identifiers, strings and comments, without keywords, predeclared names or import paths', () => {
  const facts = factsOf('internal/billing/invoice.go', [
    '// Package billing sends invoices.',
    'package billing',
    '',
    'import "github.com/acme/mailer"',
    '',
    '/* retryLimit caps resends */',
    'const retryLimit = 3',
    '',
    'func SendInvoice(customerID string) error {',
    '\tsubject := "Invoice-Ready"',
    '\terr := mailer.Deliver(customerID, subject)',
    '\treturn err',
    '}',
  ]);
  assert.deepEqual(facts.words, {
    declared: 'invoice limit retry send subject',
    code: 'billing customer*2 deliver id*2 mailer subject',
    strings: 'invoice ready',
    comments: 'billing caps invoices limit package resends retry sends',
    names: 'customerid invoiceready retrylimit sendinvoice',
  });
});

test('Go body reads: net/http bodies and forms, gin and echo binders, never a response body', () => {
  const facts = factsOf('internal/orders/create.go', [
    'package orders',
    '',
    'import (',
    '\t"encoding/json"',
    '\t"net/http"',
    '',
    '\t"github.com/gin-gonic/gin"',
    ')',
    '',
    'func Create(w http.ResponseWriter, r *http.Request) {',
    '\tvar order Order',
    '\t_ = json.NewDecoder(r.Body).Decode(&order)',
    '\t_ = r.FormValue("note")',
    '}',
    '',
    'func CreateGin(c *gin.Context) {',
    '\tvar order Order',
    '\t_ = c.ShouldBindJSON(&order)',
    '}',
    '',
    'func Fetch(client *http.Client) {',
    '\tresp, _ := client.Get("https://example.com")',
    '\tdefer resp.Body.Close()',
    '}',
  ]);
  assert.deepEqual(
    facts.signals.filter((signal) => signal.kind === 'body-read').map((signal) => `${signal.line} ${signal.detail}`),
    ['12 r.Body', '13 r.FormValue', '18 c.ShouldBindJSON'],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

const parsers = await getGrammarParsers(['x.go']);

const testsOf = (path: string, lines: string[]): string[] =>
  extractFacts(path, lines.join('\n'), { assertionHelpers: [] }, parsers, false).tests.map(
    (fact) =>
      `${fact.titlePath.join(' > ')} ${fact.span.start}-${fact.span.end} assertions=${fact.assertions} trivial=${fact.trivialAssertions}` +
      `${fact.modifiers.length > 0 ? ` ${fact.modifiers.join(',')}` : ''}${fact.isAsync ? ' parallel' : ''}`,
  );

const ordersTest = [
  'package orders',
  '',
  'import (',
  '\t"testing"',
  '',
  '\t"github.com/stretchr/testify/assert"',
  '\t"github.com/stretchr/testify/require"',
  ')',
  '',
  'func TestTotal(t *testing.T) {',
  '\tt.Parallel()',
  '\tgot := Total([]int{1, 2})',
  '\tif got != 3 {',
  '\t\tt.Errorf("got %d, want 3", got)',
  '\t}',
  '}',
  '',
  'func TestDiscount(t *testing.T) {',
  '\ttests := []struct{ name string; in, want int }{{"none", 0, 0}}',
  '\tfor _, tt := range tests {',
  '\t\tt.Run(tt.name, func(t *testing.T) {',
  '\t\t\tassert.Equal(t, tt.want, Discount(tt.in))',
  '\t\t})',
  '\t}',
  '\tt.Run("negative amounts", func(t *testing.T) {',
  '\t\tt.Parallel()',
  '\t\trequire.NoError(t, validate(-1))',
  '\t\tt.Run("zero", func(t *testing.T) {',
  '\t\t\tt.Skip("flaky")',
  '\t\t\tassert.True(t, true)',
  '\t\t})',
  '\t})',
  '}',
  '',
  'func BenchmarkTotal(b *testing.B) {',
  '\tfor i := 0; i < b.N; i++ {',
  '\t\tTotal(nil)',
  '\t}',
  '}',
  '',
  'func ExampleTotal() {}',
  '',
  'func ExampleDiscount() {',
  '\tfmt.Println(Discount(0))',
  '\t// Output: 0',
  '}',
  '',
  'func TestMain(m *testing.M) { m.Run() }',
  '',
  'func Testable(t *testing.T) {}',
  '',
  'func TestWithHelper(t *testing.T) {',
  '\tcheckTotal(t, 3)',
  '}',
  '',
  'func checkTotal(t *testing.T, want int) {',
  '\tt.Helper()',
  '\tif Total(nil) != want {',
  '\t\tt.Fatalf("want %d", want)',
  '\t}',
  '}',
];

// Check 30 (echo): a benchmark was asked to assert. `go test` runs benchmarks only under -bench, and an example only
// when it states its output, which is then its assertion.
test('Go tests and examples with their output, with t.Run subtests, testify and t.Error assertions, skips and t.Parallel; no benchmark', () => {
  assert.deepEqual(testsOf('internal/orders/orders_test.go', ordersTest), [
    'TestTotal 10-16 assertions=1 trivial=0 parallel',
    'TestDiscount 18-33 assertions=3 trivial=1',
    'TestDiscount > tt.name 21-23 assertions=1 trivial=0',
    'TestDiscount > negative amounts 25-32 assertions=2 trivial=1 parallel',
    'TestDiscount > negative amounts > zero 28-31 assertions=1 trivial=1 skip',
    'ExampleDiscount 43-46 assertions=1 trivial=0',
    'TestWithHelper 52-54 assertions=1 trivial=0',
  ]);
});

// Check 77 (testify): its own tests call their package's assertions unqualified (`Contains(t, …)`), and were said to
// assert nothing.
test('a call made as a statement that hands the test its t may fail it; one whose result is kept builds something', () => {
  const lines = [
    'package assert',
    '',
    'import "testing"',
    '',
    'func TestNotSubsetMessage(t *testing.T) {',
    '\tmockT := new(mockTestingT)',
    '\tNotSubset(mockT, []int{1}, []int{1})',
    '\tContains(t, mockT.errorString(), "is a subset")',
    '}',
    '',
    'func TestRows(t *testing.T) {',
    '\tdbtest.CheckRows(t, 3)',
    '}',
    '',
    'func TestServer(t *testing.T) {',
    '\tsrv := NewServer(t)',
    '\tsrv.Close()',
    '\tdefer Cleanup(t)',
    '}',
  ];
  assert.deepEqual(testsOf('assert/assertions_test.go', lines), [
    'TestNotSubsetMessage 5-9 assertions=1 trivial=0',
    'TestRows 11-13 assertions=1 trivial=0',
    'TestServer 15-19 assertions=0 trivial=0',
  ]);
});

// Check 91 (spf13/cast): quicktest wraps t (`c := qt.New(t)`, `c.Assert(…)`), and a table runner is handed the
// wrapper (`runNumberTest(qt.New(t), tests, …)`); both were said to assert nothing.
test('a wrapper of t made by an assertion library stands in for it; a server built from t does not', () => {
  const lines = [
    'package cast',
    '',
    'import (',
    '\t"testing"',
    '\tqt "github.com/frankban/quicktest"',
    ')',
    '',
    'func TestIndirectPointers(t *testing.T) {',
    '\tc := qt.New(t)',
    '\tc.Helper()',
    '\tc.Assert(ToInt(13), qt.Equals, 13)',
    '}',
    '',
    'func TestToUint64E(t *testing.T) {',
    '\trunNumberTest(qt.New(t), tests)',
    '}',
    '',
    'func TestLogsOnly(t *testing.T) {',
    '\tc := qt.New(t)',
    '\tc.Log("nothing checked")',
    '\tsrv := NewServer(t)',
    '\tsrv.Close()',
    '}',
  ];
  assert.deepEqual(testsOf('cast_test.go', lines), [
    'TestIndirectPointers 8-12 assertions=1 trivial=0',
    'TestToUint64E 14-16 assertions=1 trivial=0',
    'TestLogsOnly 18-23 assertions=0 trivial=0',
  ]);
});

test('only _test.go files hold tests', () => {
  assert.deepEqual(testsOf('internal/orders/orders.go', ordersTest), []);
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createTitleNamer,
  findChangedCallees,
  findChangedCollaborators,
  findChangedLiterals,
  findContextLines,
  findExportedCallers,
  findSaidNames,
  findIntroducedNames,
  findSiblingLiterals,
  isNamedTestOf,
  scoreTestRelevance,
  type TestText,
} from '../../src/ranking/test-relevance.js';

const order = (scores: Map<string, number>): string[] =>
  [...scores.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([path]) => path);

describe('scoreTestRelevance: which reaching tests name the change', () => {
  test('a path or title naming the changed callable outranks code that merely uses it; a word every test says tells none apart', () => {
    const tests: TestText[] = [
      { path: 'test/res.redirect.js', titles: ['res', '.redirect(url)'], words: { code: 'redirect res start', names: '' } },
      { path: 'test/res.send.js', titles: ['res', '.send(body)'], words: { code: 'redirect res send start', names: '' } },
      { path: 'test/app.router.js', titles: ['app', 'router'], words: { code: 'res start', names: '' } },
    ];
    const scores = scoreTestRelevance(tests, { path: 'lib/response.js', names: ['res.redirect'] });
    assert.deepEqual(order(scores), ['test/res.redirect.js', 'test/res.send.js', 'test/app.router.js']);
    assert.equal(scores.get('test/app.router.js'), 0);
    assert.ok((scores.get('test/res.redirect.js') ?? 0) > 2 * (scores.get('test/res.send.js') ?? 0), JSON.stringify([...scores]));
  });

  test("the file's own name counts (its folder's for an index), and multi-word names match whole", () => {
    const tests: TestText[] = [
      { path: '__tests__/response/body.test.js', titles: ['res.body='], words: { code: 'body', names: '' } },
      { path: '__tests__/etag/index.test.ts', titles: ['etag'], words: { code: '', names: '' } },
      { path: 'test/retry.ts', titles: ['retry'], words: { code: 'extend', names: 'deepmerge' } },
      { path: 'test/other.ts', titles: ['other'], words: { code: 'deep merge', names: '' } },
    ];
    assert.ok((scoreTestRelevance(tests, { path: 'lib/response.js', names: [] }).get('__tests__/response/body.test.js') ?? 0) > 0);
    const etag = scoreTestRelevance(tests, { path: 'src/etag/index.ts', names: ['default'] });
    assert.deepEqual(order(etag)[0], '__tests__/etag/index.test.ts');
    const merge = scoreTestRelevance(tests, { path: 'source/utils/merge.ts', names: ['deepMerge'] });
    assert.ok((merge.get('test/retry.ts') ?? 0) > (merge.get('test/other.ts') ?? 0), JSON.stringify([...merge]));
  });

  test("a title that says a changed route's last fixed segment outranks words of the code around the change", () => {
    const tests: TestText[] = [
      { path: 'test/api.test.js', titles: ['#posts.list'], words: { code: 'comments where include archived', names: '' } },
      { path: 'test/users.test.js', titles: ['GET /users/:id/comments'], words: { code: 'res', names: '' } },
      { path: 'test/other.test.js', titles: ['health'], words: { code: '', names: '' } },
    ];
    const target = { path: 'src/routes.js', names: [], context: ['  where include archived comments'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/api.test.js');
    // `/users/:id/comments` is said as `comments`, its last segment that is not a parameter.
    const routed = scoreTestRelevance(tests, { ...target, routes: ['/users/:id/comments'] });
    assert.deepEqual(order(routed), ['test/users.test.js', 'test/api.test.js', 'test/other.test.js']);
    // A route whose segments are all parameters names nothing.
    assert.deepEqual(scoreTestRelevance(tests, { ...target, routes: ['/:id'] }), scoreTestRelevance(tests, target));
  });

  test("an index file's test is named for its folder, in a mirrored tree too (knex: test/unit/dialects/mssql.js)", () => {
    // knex's tape test of Raw constructs every dialect's client, the mssql test drives the mssql client.
    const tests: TestText[] = [
      { path: 'test/tape/raw.js', titles: ['raw', 'mssql raw'], words: { code: 'mssql client raw settings connection', names: '' } },
      { path: 'test/unit/dialects/mssql.js', titles: ['MSSQL unit tests'], words: { code: 'knex connection', names: '' } },
    ];
    const target = {
      path: 'lib/dialects/mssql/index.js',
      names: ['default'],
      context: ['  _generateConnection() {', '        options: {'],
    };
    assert.deepEqual(order(scoreTestRelevance(tests, target)), ['test/unit/dialects/mssql.js', 'test/tape/raw.js']);
  });

  test('the test named for the changed file outranks a catch-all test whose titles say every word of the code', () => {
    // hono: src/hono.test.ts has a title for every feature; src/client/client.test.ts is client.ts's own test.
    const tests: TestText[] = [
      {
        path: 'src/hono.test.ts',
        titles: ['method', 'query params', 'web socket url', 'replace protocol'],
        words: { code: 'hono method query', names: '' },
      },
      { path: 'src/client/client.test.ts', titles: ['$ws'], words: { code: 'client query', names: '' } },
      { path: 'src/client/utils.test.ts', titles: ['replaceUrlProtocol'], words: { code: 'client url', names: '' } },
    ];
    const target = {
      path: 'src/client/client.ts',
      names: ['hc'],
      context: [
        'export const hc = <T extends Hono<any, any, any>, Prefix extends string = string>(',
        "    if (method === 'ws') {",
        '      const webSocketUrl = replaceUrlProtocol(',
        '      if (queryParams) {',
      ],
    };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'src/client/client.test.ts');
    // The same name in a test folder under the source's, or in a test tree mirroring the source tree.
    for (const path of ['src/client/__tests__/client.test.ts', 'test/client/client.spec.ts']) {
      const moved = tests.map((test) => (test.path === 'src/client/client.test.ts' ? { ...test, path } : test));
      assert.equal(order(scoreTestRelevance(moved, target))[0], path);
    }
    // TanStack Query: `__tests__/mutations.test.tsx` is mutation.ts's own test, said in the plural; a test of another
    // file that names the changed class in its code ranks below it.
    const plural: TestText[] = [
      { path: 'src/__tests__/query.test.tsx', titles: ['query', 'continue'], words: { code: 'mutation continue query', names: '' } },
      { path: 'src/__tests__/mutations.test.tsx', titles: ['mutations', 'should not run again'], words: { code: 'client', names: '' } },
    ];
    const mutation = scoreTestRelevance(plural, { path: 'src/mutation.ts', names: ['Mutation.continue'] });
    assert.equal(order(mutation)[0], 'src/__tests__/mutations.test.tsx', JSON.stringify([...mutation]));
    // The other way round too: zod's `classic/tests/error.test.ts` is the test of `classic/errors.ts`.
    const singular: TestText[] = [
      { path: 'src/tests/object.test.ts', titles: ['issues', 'errors'], words: { code: 'errors issues flatten', names: '' } },
      { path: 'src/tests/error.test.ts', titles: ['error map'], words: { code: 'map', names: '' } },
    ];
    const errors = scoreTestRelevance(singular, { path: 'src/errors.ts', names: ['flattenError'] });
    assert.equal(order(errors)[0], 'src/tests/error.test.ts', JSON.stringify([...errors]));
    // Not when a test has the exact name: `useQueries.test.tsx` is another hook's test beside `useQuery.test.tsx`.
    const hooks: TestText[] = [
      { path: 'src/__tests__/useQueries.test.tsx', titles: ['useQueries'], words: { code: 'query', names: '' } },
      { path: 'src/__tests__/useQuery.test.tsx', titles: ['useQuery'], words: { code: 'query', names: '' } },
    ];
    const hook = scoreTestRelevance(hooks, { path: 'src/useQuery.ts', names: [] });
    assert.ok(
      (hook.get('src/__tests__/useQuery.test.tsx') ?? 0) > 2 * (hook.get('src/__tests__/useQueries.test.tsx') ?? 0),
      JSON.stringify([...hook]),
    );
    // commander: tests/command.action.test.js tests one part of lib/command.js; it is not the file's own test, so the
    // title that names the change still decides.
    const parts: TestText[] = [
      { path: 'tests/command.action.test.js', titles: ['action'], words: { code: 'command', names: '' } },
      { path: 'tests/command.help.test.js', titles: ['help information'], words: { code: 'command', names: '' } },
    ];
    assert.equal(order(scoreTestRelevance(parts, { path: 'lib/command.js', names: ['helpInformation'] }))[0], 'tests/command.help.test.js');
    // sentry-javascript: a package's test tree mirrors its src/ tree one folder deeper
    // (packages/core/test/lib/tracing/trace.test.ts); another package's trace.test.ts is not the changed file's test.
    const packages: TestText[] = [
      {
        path: 'packages/opentelemetry/test/trace.test.ts',
        titles: ['startSpan', 'trace', 'child or root span'],
        words: { code: 'span scope trace create child root start isolation', names: 'createChildOrRootSpan startSpan' },
      },
      { path: 'packages/core/test/lib/tracing/trace.test.ts', titles: ['startSpan'], words: { code: 'span', names: '' } },
    ];
    const trace = scoreTestRelevance(packages, { path: 'packages/core/src/tracing/trace.ts', names: ['createChildOrRootSpan'] });
    assert.equal(order(trace)[0], 'packages/core/test/lib/tracing/trace.test.ts', JSON.stringify([...trace]));
    // vite: src/node/__tests__/environment.spec.ts is node/environment.ts's test, not server/environment.ts's.
    const vite: TestText[] = [
      { path: 'packages/vite/src/node/__tests__/environment.spec.ts', titles: ['environment'], words: { code: 'environment', names: '' } },
      {
        path: 'packages/vite/src/node/ssr/__tests__/ssrLoadModule.spec.ts',
        titles: ['load'],
        words: { code: 'dev environment', names: 'DevEnvironment' },
      },
    ];
    const server = scoreTestRelevance(vite, { path: 'packages/vite/src/node/server/environment.ts', names: ['DevEnvironment'] });
    assert.equal(order(server)[0], 'packages/vite/src/node/ssr/__tests__/ssrLoadModule.spec.ts', JSON.stringify([...server]));
    // A test of the same name elsewhere is not the changed file's own.
    const elsewhere = tests.map((test) =>
      test.path === 'src/client/client.test.ts' ? { ...test, path: 'src/adapter/client.test.ts' } : test,
    );
    assert.equal(order(scoreTestRelevance(elsewhere, target))[0], 'src/hono.test.ts');
  });

  test('a test named for the file that says no changed name loses to a test that says one; saying one keeps it first', () => {
    // more-itertools: test_recipes.py never says running_min; test_more.py calls it for the changed helper.
    const tests: TestText[] = [
      { path: 'tests/test_recipes.py', titles: ['test_take'], words: { code: 'take values', names: 'take' } },
      { path: 'tests/test_more.py', titles: ['test_running_min'], words: { code: 'running min values', names: 'runningmin' } },
    ];
    const target = { path: 'tools/recipes.py', names: ['_windowed_running_min'], callers: ['running_min'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'tests/test_more.py');
    const saying = tests.map((test) =>
      test.path === 'tests/test_recipes.py' ? { ...test, words: { code: 'take running min', names: 'take runningmin' } } : test,
    );
    assert.equal(order(scoreTestRelevance(saying, target))[0], 'tests/test_recipes.py');
    // Where no test says a changed name, the file's own test leads as before.
    assert.equal(
      order(scoreTestRelevance(tests, { path: 'tools/recipes.py', names: ['_windowed_running_min'] }))[0],
      'tests/test_recipes.py',
    );
  });

  test('a test named for the changed callable outranks the test named for its file (dayjs: utc-utcOffset.test.js)', () => {
    const tests: TestText[] = [
      { path: 'test/plugin/utc.test.js', titles: ['UTC', 'utcOffset'], words: { code: 'utc offset local', names: 'utcoffset' } },
      { path: 'test/plugin/utc-utcOffset.test.js', titles: ['keep local time'], words: { code: 'utc offset', names: 'utcoffset' } },
      { path: 'test/plugin/timezone.test.js', titles: ['tz'], words: { code: 'utc', names: '' } },
    ];
    const context = ['export default (option, Dayjs, dayjs) => {', '  proto.utcOffset = function (input, keepLocalTime) {'];
    const target = { path: 'src/plugin/utc/index.js', names: ['default'], context };
    assert.deepEqual(order(scoreTestRelevance(tests, target)).slice(0, 2), [
      'test/plugin/utc-utcOffset.test.js',
      'test/plugin/utc.test.js',
    ]);
    // A class that holds the changed method is no callable a test is named for (mswjs: FetchResponse.clone).
    const fetchTests: TestText[] = [
      { path: 'src/utils/fetchUtils.test.ts', titles: ['FetchResponse'], words: { code: 'fetch response', names: 'fetchresponse' } },
      {
        path: 'test/modules/fetch/fetch-response-non-configurable.test.ts',
        titles: ['status'],
        words: { code: 'fetch response', names: 'fetchresponse' },
      },
    ];
    const clone = { path: 'src/utils/fetchUtils.ts', names: ['FetchResponse', 'FetchResponse.clone'] };
    assert.equal(order(scoreTestRelevance(fetchTests, clone))[0], 'src/utils/fetchUtils.test.ts');
    // A change outside utcOffset (another method's lines) leaves the file's own test first.
    const elsewhere = { ...target, context: ['export default (option, Dayjs, dayjs) => {', '  proto.local = function () {'] };
    assert.equal(order(scoreTestRelevance(tests, elsewhere))[0], 'test/plugin/utc.test.js');
  });

  test("a test named for the changed file and one changed callable outranks the file's own test", () => {
    // fastify 183576d: `sendTrailer` in lib/reply.js; the fix extended test/reply-trailers.test.js, not the file's own.
    const said = { titles: ['reply', 'trailers'], words: { code: 'reply send trailer payload', names: 'sendtrailer' } };
    const tests: TestText[] = [
      { path: 'test/internals/reply.test.js', ...said },
      { path: 'test/reply-trailers.test.js', ...said },
      { path: 'test/reply-error.test.js', ...said },
    ];
    const target = { path: 'lib/reply.js', names: ['sendTrailer', 'onSendEnd'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/reply-trailers.test.js');
    // commander 1453bdf: `Command.enablePositionalOptions`, a test named `command.positionalOptions` (a verb left out).
    const commander: TestText[] = [
      {
        path: 'tests/command.chain.test.js',
        titles: ['enablePositionalOptions'],
        words: { code: 'command', names: 'enablepositionaloptions' },
      },
      {
        path: 'tests/command.positionalOptions.test.js',
        titles: ['positional'],
        words: { code: 'command', names: 'enablepositionaloptions' },
      },
    ];
    const positional = { path: 'lib/command.js', names: ['Command', 'Command.enablePositionalOptions'] };
    assert.equal(order(scoreTestRelevance(commander, positional))[0], 'tests/command.positionalOptions.test.js');
    // A word of the test's name that is no word of a changed callable (`trailers` for `sendHeaders`), or a test that does
    // not say the file's name (`trailers.test.js` beside a change to reply.js), is no such test; `reply-error` is
    // `sendError`'s.
    const headers = { path: 'lib/reply.js', names: ['sendHeaders', 'onSendEnd'] };
    assert.equal(order(scoreTestRelevance(tests, headers))[0], 'test/internals/reply.test.js');
    assert.equal(order(scoreTestRelevance(tests, { ...headers, names: ['sendError'] }))[0], 'test/reply-error.test.js');
    const unnamed = tests.map((test) => (test.path === 'test/reply-trailers.test.js' ? { ...test, path: 'test/trailers.test.js' } : test));
    assert.equal(order(scoreTestRelevance(unnamed, target))[0], 'test/internals/reply.test.js');
  });

  test('a test named for the member a changed callable is assigned to is its test (express: test/app.listen.js)', () => {
    // express ee40a88: a change inside `app.listen = function listen () {` of lib/application.js; body-parser's tests say
    // `application/json` in every title.
    const tests: TestText[] = [
      { path: 'test/express.json.js', titles: ['should parse application/json'], words: { code: 'app length listen', names: '' } },
      { path: 'test/res.send.js', titles: ['application'], words: { code: 'app length', names: '' } },
      { path: 'test/app.listen.js', titles: ['should wrap with an HTTP server'], words: { code: 'app listen', names: '' } },
    ];
    const context = ['app.listen = function listen () {'];
    const target = { path: 'lib/application.js', names: ['once'], context };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/app.listen.js');
    // Inside another member (`app.render`), the listen test is not the change's.
    assert.notEqual(
      order(scoreTestRelevance(tests, { ...target, context: ['app.render = function render(name, options) {'] }))[0],
      'test/app.listen.js',
    );
  });

  // pino 962bc2b: `obj = mixinMergeStrategy(obj, mixin(obj, num, this))` in lib/proto.js's write; the fix extended
  // test/mixin.test.js, while test/error.test.js's titles say mixin as often.
  test('a test named for a function the changed lines call is about that call', () => {
    const text = [
      'function write (_obj, msg, num) {',
      '  // mixin(old)',
      "  obj = mixinMergeStrategy(obj, mixin(obj, num, this), 'x(')",
      '  if (!obj) throw new TypeError(String(num))',
      '}',
    ].join('\n');
    // Built-ins and error constructors are no subject a test is named for (zod: `throw new Error()` and error.test.ts).
    assert.deepEqual(findChangedCallees(text, [2, 3, 4]), ['mixinMergeStrategy', 'mixin']);
    // A call a block comment names is no call, on a line that does not start with `*` too (ky's `the fetch() promise
    // rejects` sent a proof to test/fetch.ts).
    assert.deepEqual(findChangedCallees('/*\nthe fetch() promise\n*/\nreturn compose(reason)\n', [1, 2, 3, 4]), ['compose']);
    // A keyword a parenthesis follows is no call (falcon: `except (KeyError, TypeError):`).
    assert.deepEqual(findChangedCallees('try:\n    pass\nexcept (KeyError, TypeError):\n    return not (a or b)\n', [3, 4]), []);
    const tests: TestText[] = [
      { path: 'test/error.test.js', titles: ['mixin error'], words: { code: 'msg mixin obj', names: '' } },
      { path: 'test/mixin.test.js', titles: ['works'], words: { code: 'msg mixin', names: '' } },
      { path: 'test/basic.test.js', titles: ['logs'], words: { code: 'obj', names: '' } },
    ];
    const target = { path: 'lib/proto.js', names: ['write'], context: ['function write (_obj, msg, num) {'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/error.test.js');
    assert.equal(order(scoreTestRelevance(tests, { ...target, callees: findChangedCallees(text, [3]) }))[0], 'test/mixin.test.js');
  });

  // Check 146 (yargs 888db19): the change reads `this.#completion?.completionKey` inside YargsInstance; the fix's test
  // is test/completion.mjs, and the proof named test/usage.mjs.
  test('a test named for an object the changed lines work through (a member of this) is about what they do with it', () => {
    const text = [
      'class YargsInstance {',
      '  run(argv) {',
      '    const requestCompletions = this.#completion?.completionKey',
      "      ? [this.#completion.completionKey, ...this.getAliases()['x.y']].some((key) => key in argv)",
      '      : this.options.strict;',
      '    return this.#logger;',
      '  }',
      '}',
    ].join('\n');
    // Members read through, not members read alone (`this.#logger`), nor words inside strings.
    assert.deepEqual(findChangedCollaborators(text, [3, 4, 5, 6]), ['completion', 'options']);
    const tests: TestText[] = [
      { path: 'test/usage.mjs', titles: ['usage run', 'argv'], words: { code: 'argv run yargs', names: '' } },
      { path: 'test/completion.mjs', titles: ['completion'], words: { code: 'argv', names: '' } },
    ];
    const target = { path: 'lib/yargs-factory.ts', names: ['YargsInstance.run'], context: ['  run(argv) {'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/usage.mjs');
    assert.equal(
      order(scoreTestRelevance(tests, { ...target, callees: findChangedCollaborators(text, [3, 4]) }))[0],
      'test/completion.mjs',
    );
  });

  // Check 153 (handlebars db06ebb): the change is inside `strict: function (obj, name, loc) {`, a method of the object
  // literal template() builds; the fix extended spec/strict.js and the proof named spec/runtime.js, the file's pair.
  test("a test named for the object literal's method that holds the change outranks the file's own test", () => {
    const text = [
      'export function template(templateSpec, env) {',
      '  let container = {',
      '    strict: function (obj, name, loc) {',
      '      if (obj == null || !(name in Object(obj))) {',
      '        throw new Exception(name);',
      '      }',
      '    },',
      '  };',
      '}',
    ].join('\n');
    const tests: TestText[] = [
      { path: 'spec/runtime.js', titles: ['runtime', 'template'], words: { code: 'template env', names: '' } },
      { path: 'spec/strict.js', titles: ['strict mode', 'should error on missing property lookup'], words: { code: 'obj', names: '' } },
      { path: 'spec/basic.js', titles: ['basic context'], words: { code: 'name', names: '' } },
    ];
    const target = { path: 'lib/handlebars/runtime.js', names: ['template'], context: findContextLines(text, [4]) };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'spec/strict.js');
    // A method of a class or a function declared by name was already read; an object key that holds no function is not.
    const data = { ...target, context: ['  let container = {', '    strict: true,'] };
    assert.equal(order(scoreTestRelevance(tests, data))[0], 'spec/runtime.js');
  });

  // multer 055767b: a new `abortWithCode('MISSING_FIELD_NAME')` and a new key of the errorMessages map; the fix's test
  // went into test/error-handling.js, which checks the other error codes, while express-integration.js checks one.
  test('a test that checks the other cases of the family a changed line adds to is where the new case goes', () => {
    const middleware = [
      "busboy.on('field', function (fieldname, value, truncated) {",
      "  if (fieldname == null) return abortWithCode('MISSING_FIELD_NAME')",
      "  if (truncated) return abortWithCode('LIMIT_FIELD_KEY')",
      "  emit('field')",
      '})',
      "busboy.on('partsLimit', function () { abortWithCode('LIMIT_PART_COUNT') })",
      'busboy.on(\'filesLimit\', function () { abortWithCode("LIMIT_FILE_COUNT") })',
    ].join('\n');
    // The changed call's own literal and single words (`field`, an event) are no family of cases.
    assert.deepEqual(findSiblingLiterals(middleware, [2]), ['LIMIT_FIELD_KEY', 'LIMIT_PART_COUNT', 'LIMIT_FILE_COUNT']);
    const errors = [
      'var errorMessages = {',
      "  LIMIT_FIELD_KEY: 'Field name too long',",
      '  nested: {',
      "    OTHER_CODE: 'not this object',",
      '  },',
      "  'LIMIT_UNEXPECTED_FILE': 'Unexpected field',",
      "  MISSING_FIELD_NAME: 'Field name missing'",
      '}',
      "var OUTSIDE_CODE = 'x'",
    ].join('\n');
    assert.deepEqual(findSiblingLiterals(errors, [7]), ['LIMIT_UNEXPECTED_FILE', 'LIMIT_FIELD_KEY']);
    const tests: TestText[] = [
      {
        path: 'test/error-handling.js',
        titles: ['should respect parts limit'],
        words: { code: 'multer err code', names: 'limitfieldkey limitfilecount limitpartcount' },
      },
      {
        path: 'test/express-integration.js',
        titles: ['should work with express'],
        words: { code: 'multer busboy field', names: 'limitpartcount' },
      },
      { path: 'test/select-field.js', titles: ['should select the first field'], words: { code: 'multer field', names: '' } },
    ];
    const target = { path: 'lib/make-middleware.js', names: ['makeMiddleware'], context: ["busboy.on('field', function () {"] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/express-integration.js');
    const ranked = order(scoreTestRelevance(tests, { ...target, siblings: findSiblingLiterals(middleware, [2]) }));
    assert.deepEqual(ranked.slice(0, 2), ['test/error-handling.js', 'test/express-integration.js']);
  });

  // undici de1223fc45 (check 189): the HTTP/2 client began to honour `maxResponseSize`, a name client-h2.js never said;
  // the fix's test was test/max-response-size.js, ranked below tests that say the changed function's words.
  test('a test file named for a name the change introduces to the file is about what the change starts to honour', () => {
    const base = ['function onData (chunk) {', '  const { request } = state', '  request.onResponseData(chunk)', '}'].join('\n');
    const head = [
      'function onData (chunk) {',
      '  const { request, maxResponseSize } = state',
      '  // maxBodyLength is a comment, not code',
      '  if (maxResponseSize > -1 && state.bytesRead + chunk.length > maxResponseSize) {',
      "    state.abort(new ResponseExceededMaxSizeError('x_y_name'))",
      '  }',
      '  request.onResponseData(chunk)',
      '}',
    ].join('\n');
    // Names of two words or more the base never said; a one-letter first word dropped (`kMaxResponseSize`); strings,
    // comments and the unchanged line (onResponseData) left out.
    assert.deepEqual(findIntroducedNames(head, base, [2, 3, 4, 5, 7]), ['bytesread', 'maxresponsesize', 'responseexceededmaxsizeerror']);
    assert.deepEqual(findIntroducedNames('const kMaxSize = 1', 'const x = 1', [1]), ['maxsize']);
    assert.deepEqual(findIntroducedNames(head, undefined, [2]), []);
    const tests: TestText[] = [
      { path: 'test/fetch/abort.js', titles: ['abort on data'], words: { code: 'abort data chunk request', names: 'ondata' } },
      { path: 'test/max-response-size.js', titles: ['max response size'], words: { code: 'client errors', names: 'maxresponsesize' } },
    ];
    const target = { path: 'lib/dispatcher/client-h2.js', names: ['onData'], context: ['function onData (chunk) {'] };
    assert.equal(order(scoreTestRelevance(tests, target))[0], 'test/fetch/abort.js');
    const introduced = findIntroducedNames(head, base, [2, 3, 4, 5, 7]);
    assert.equal(order(scoreTestRelevance(tests, { ...target, introduced }))[0], 'test/max-response-size.js');
  });

  // yarl faaa1fd: `URL.__getstate__` changed; the fix's test was tests/test_pickle.py, which calls pickle.dumps.
  test('a protocol method is tested under the name of what calls it: __getstate__ by pickle', () => {
    const tests: TestText[] = [
      { path: 'tests/test_url.py', titles: ['test_state', 'test_str'], words: { code: 'url state get', names: '' } },
      { path: 'tests/test_pickle.py', titles: ['test_pickle'], words: { code: 'pickle dumps loads', names: '' } },
    ];
    const target = (name: string) => ({ path: 'yarl/_url.py', names: ['URL', `URL.${name}`] });
    assert.equal(order(scoreTestRelevance(tests, target('__getstate__')))[0], 'tests/test_pickle.py');
    assert.equal(order(scoreTestRelevance(tests, target('__deepcopy__')))[0], 'tests/test_url.py');
  });

  test("a string the changed lines compare with names the case's test by its file name, weaker than the code's names", () => {
    const text = [
      'async respondWith(request, response) {',
      '  if (',
      "    (request.method === 'CONNECT' && !response.ok) ||",
      "    (request.method !== 'CONNECT' && typeof body === 'object')",
      '  ) {',
      "    // 'ignored' in a comment",
      '    socket.end()',
      '  }',
      '}',
    ].join('\n');
    assert.deepEqual(findChangedLiterals(text, [2, 3, 4, 6]), ['CONNECT']);
    // mswjs: two tests that say the same words of the code; the one named for CONNECT is the case's.
    const said = { titles: ['responds to a request'], words: { code: 'response respond request connect', names: '' } };
    const tests: TestText[] = [
      { path: 'test/third-party/node-fetch.test.ts', ...said },
      { path: 'test/modules/http/intercept/http-connect.test.ts', ...said },
    ];
    const target = { path: 'src/interceptors/http/source.ts', names: [], context: findContextLines(text, [3]) };
    const without = scoreTestRelevance(tests, target);
    assert.equal(without.get('test/third-party/node-fetch.test.ts'), without.get('test/modules/http/intercept/http-connect.test.ts'));
    const withLiterals = scoreTestRelevance(tests, { ...target, literals: findChangedLiterals(text, [3]) });
    assert.ok(
      (withLiterals.get('test/modules/http/intercept/http-connect.test.ts') ?? 0) >
        (withLiterals.get('test/third-party/node-fetch.test.ts') ?? 0),
      JSON.stringify([...withLiterals]),
    );
    // express: 'QUERY' added to the methods req.fresh accepts names req.query.js's query strings, not the fresh check
    // the change sits in: the code's own name outweighs it.
    const express: TestText[] = [
      { path: 'test/req.query.js', titles: ['req', '.query'], words: { code: 'query get', names: '' } },
      { path: 'test/req.fresh.js', titles: ['req', '.fresh'], words: { code: 'fresh get', names: '' } },
    ];
    const fresh = {
      path: 'lib/request.js',
      names: [],
      context: ["defineGetter(req, 'fresh', function(){"],
      literals: ['GET', 'HEAD', 'QUERY'],
    };
    assert.equal(order(scoreTestRelevance(express, fresh))[0], 'test/req.fresh.js');
  });

  // Check 199 (auth0/node-jsonwebtoken 8345030795): its tests are `test/verify.tests.js`; the proof named
  // jwt.asymmetric_signing.tests.js, which says `algorithms` more, for a change to verify.js that the fix tested there.
  test('a test suffix in the plural (`verify.tests.js`, `user.specs.ts`) names its source as the singular does', () => {
    assert.equal(isNamedTestOf('test/verify.tests.js', 'verify.js'), true);
    assert.equal(isNamedTestOf('src/user.specs.ts', 'src/user.ts'), true);
    assert.equal(isNamedTestOf('test/verify.tests.js', 'sign.js'), false);
    assert.equal(isNamedTestOf('test/contests.js', 'con.js'), false);
  });

  test("pytest's test module is named for its source: tests/test_validators.py, and test_make.py for _make.py (attrs)", () => {
    assert.equal(isNamedTestOf('tests/test_validators.py', 'src/attr/validators.py'), true);
    assert.equal(isNamedTestOf('tests/test_make.py', 'src/attr/_make.py'), true);
    assert.equal(isNamedTestOf('tests/test_make.py', 'attr/_make.py'), true);
    assert.equal(isNamedTestOf('tests/test_make.py', 'src/attr/validators.py'), false);
    assert.equal(isNamedTestOf('tests/test_make.py', 'src/attr/deep/_make.py'), false);
    // Check 87 (CTFd): a package's __init__.py is its package's module, as an index file is its folder's.
    assert.equal(isNamedTestOf('tests/utils/test_validators.py', 'CTFd/utils/validators/__init__.py'), true);
    assert.equal(isNamedTestOf('tests/utils/test_init.py', 'CTFd/utils/validators/__init__.py'), false);
    // falcon: a module named for its source's folder and name joined.
    assert.equal(isNamedTestOf('tests/test_media_handlers.py', 'falcon/media/handlers.py'), true);
    assert.equal(isNamedTestOf('falcon/tests/test_media_handlers.py', 'falcon/media/handlers.py'), true);
    assert.equal(isNamedTestOf('tests/test_media_handlers.py', 'falcon/routing/handlers.py'), false);
    assert.equal(isNamedTestOf('tests/test_media_handlers.py', 'falcon/media/multipart.py'), false);
    assert.equal(isNamedTestOf('other/tests/test_media_handlers.py', 'falcon/media/handlers.py'), false);
  });

  // Check 54 (expressjs/body-parser): test/json.js, raw.js, text.js and urlencoded.js test lib/types/<name>.js; t7's proof
  // went to test/urlencoded.js.
  test('a flat test folder beside a deeper source tree: the same name is the named test, not a name many folders share', () => {
    assert.equal(isNamedTestOf('test/json.js', 'lib/types/json.js'), true);
    assert.equal(isNamedTestOf('packages/parser/test/json.js', 'packages/parser/src/types/json.js'), true);
    assert.equal(isNamedTestOf('test/json.js', 'lib/types/raw.js'), false);
    assert.equal(isNamedTestOf('test/json.js', 'vendor/types/json.js'), false);
    assert.equal(isNamedTestOf('test/index.js', 'lib/types/index.js'), false);
    assert.equal(isNamedTestOf('test/utils.js', 'lib/types/utils.js'), false);
    assert.equal(isNamedTestOf('other/test/json.js', 'packages/parser/src/types/json.js'), false);
    // Check 275 (mozilla/nunjucks): the code in a package folder at the root, `nunjucks/src/`, the tests in `tests/`.
    assert.equal(isNamedTestOf('tests/runtime.js', 'nunjucks/src/runtime.js'), true);
    assert.equal(isNamedTestOf('tests/runtime.js', 'nunjucks/src/lib/runtime.js'), true);
    assert.equal(isNamedTestOf('tests/runtime.js', 'nunjucks/src/compiler.js'), false);
    assert.equal(isNamedTestOf('tests/runtime.js', 'packages/nunjucks/src/runtime.js'), false);
    assert.equal(isNamedTestOf('tests/index.js', 'nunjucks/src/index.js'), false);
    assert.equal(isNamedTestOf('other/tests/runtime.js', 'nunjucks/src/runtime.js'), false);
  });

  // Check 105 (npm/node-semver): test/classes/range.js tests classes/range.js, test/ranges/subset.js ranges/subset.js;
  // the proofs went to test/ranges/intersects.js, which also imports the class.
  test('a test tree put in front of the tree it mirrors: test/classes/range.js is the test of classes/range.js', () => {
    assert.equal(isNamedTestOf('test/classes/range.js', 'classes/range.js'), true);
    assert.equal(isNamedTestOf('packages/semver/test/classes/range.js', 'packages/semver/classes/range.js'), true);
    assert.equal(isNamedTestOf('test/ranges/range.js', 'classes/range.js'), false);
    assert.equal(isNamedTestOf('test/classes/deep/range.js', 'classes/range.js'), false);
  });

  // Check 58 (immerjs/immer): src/plugins/mapset.ts is tested in __tests__/map-set.js; the proof went to base.js.
  test('a test named for the source with other separators is its named test: map-set.js for mapset.ts', () => {
    assert.equal(isNamedTestOf('__tests__/map-set.js', 'src/plugins/mapset.ts'), true);
    assert.equal(isNamedTestOf('src/map_set.test.ts', 'src/mapSet.ts'), true);
    assert.equal(isNamedTestOf('__tests__/map-set.js', 'src/plugins/mapsets.ts'), false);
    assert.equal(isNamedTestOf('__tests__/map-set.js', 'src/plugins/map.ts'), false);
    assert.equal(isNamedTestOf('__tests__/-.js', 'src/plugins/_.ts'), false);
  });

  // Check 59 (marshmallow-code/marshmallow): changes inside `Schema._deserialize` and `TimeDelta._serialize` were tested
  // in tests/test_deserialization.py and tests/test_serialization.py; the proofs went to test_schema.py and
  // test_fields.py, the tests named for the files.
  test('a test file named for the act of a changed one-word callable is its test: test_deserialization.py for _deserialize', () => {
    const tests: TestText[] = [
      { path: 'tests/test_schema.py', titles: ['test_load'], words: { code: 'schema load', names: '' } },
      { path: 'tests/test_deserialization.py', titles: ['test_load_none'], words: { code: 'schema load', names: '' } },
      { path: 'tests/test_serialization.py', titles: ['test_dump'], words: { code: 'schema dump', names: '' } },
    ];
    const top = (names: string[]) => order(scoreTestRelevance(tests, { path: 'src/marshmallow/schema.py', names }))[0];
    assert.equal(top(['Schema', 'Schema._deserialize']), 'tests/test_deserialization.py');
    assert.equal(top(['Schema', 'Schema._serialize']), 'tests/test_serialization.py');
    assert.equal(top(['Schema', 'Schema.load']), 'tests/test_schema.py');
  });

  // Check 57 (go-playground/validator): the fix's own validator_test.go (package validator, beside regexes.go) was one of
  // 24 tests at distance 1, and the proof went to non-standard/validators/notblank_test.go, first by path.
  test("a Go test beside the changed file, in its package, outranks another package's test", () => {
    const tests: TestText[] = [
      { path: 'non-standard/validators/notblank_test.go', titles: ['TestNotBlank'], words: { code: 'validator', names: '' } },
      { path: 'translations/en/en_test.go', titles: ['TestTranslations'], words: { code: 'validator', names: '' } },
      { path: 'validator_test.go', titles: ['TestUUID'], words: { code: 'validate', names: '' } },
    ];
    const scores = scoreTestRelevance(tests, { path: 'regexes.go', names: [] });
    assert.ok((scores.get('validator_test.go') ?? 0) > 0);
    assert.equal(scores.get('translations/en/en_test.go'), 0);
    assert.equal(scores.get('non-standard/validators/notblank_test.go'), 0);
  });

  test('plumbing and stop words name nothing: index, default, handler, utils score no test', () => {
    const tests: TestText[] = [
      { path: 'test/index.test.js', titles: ['default handler'], words: { code: 'index default handler utils', names: '' } },
    ];
    assert.equal(scoreTestRelevance(tests, { path: 'src/utils/index.js', names: ['default', 'handler'] }).get('test/index.test.js'), 0);
  });
});

describe('findContextLines: the code a change sits in', () => {
  test('the enclosing lines by indentation up to the first column, comments and closing brackets passed over', () => {
    const text = [
      "defineGetter(req, 'fresh', function(){", // 1
      '  var method = this.method;', // 2
      '  // GET or HEAD only', // 3
      "  if ('GET' !== method) return false;", // 4
      '});', // 5
      'module.exports = {', // 6
      '  set body (val) {', // 7
      '    if (!isStream(val)) {', // 8
      '      destroy(val);', // 9
      '    }', // 10
      '  },', // 11
      '};', // 12
    ].join('\n');
    assert.deepEqual(findContextLines(text, [4]), ["defineGetter(req, 'fresh', function(){"]);
    assert.deepEqual(findContextLines(text, [9]), ['module.exports = {', '  set body (val) {', '    if (!isStream(val)) {']);
    assert.deepEqual(findContextLines(text, [1]), [], 'a change on a first-column line sits in nothing');
  });

  test('a context word names the test: req.fresh for a change inside the fresh getter', () => {
    const tests: TestText[] = [
      { path: 'test/req.fresh.js', titles: ['req', '.fresh'] },
      { path: 'test/req.accepts.js', titles: ['req', '.accepts(type)'] },
    ];
    const scores = scoreTestRelevance(tests, { path: 'lib/request.js', names: [], context: ["defineGetter(req, 'fresh', function(){"] });
    assert.deepEqual(order(scores), ['test/req.fresh.js', 'test/req.accepts.js']);
    // Both say req, which the context says too: only fresh tells them apart.
    assert.ok((scores.get('test/req.fresh.js') ?? 0) > 2 * (scores.get('test/req.accepts.js') ?? 0), JSON.stringify([...scores]));
  });
});

describe('createTitleNamer and findSaidNames: which weak test cases a change is about', () => {
  // Forty koa-like titles: most say ctx; two say the body setter.
  const titles = [
    'res.body= > when a stream is given > should not throw unhandled errors when replacing failing stream',
    'res.body= > when a string is given > sets the length',
    'ctx.onerror(err) > should ignore error after headerSent',
    ...Array.from({ length: 37 }, (_, index) => `ctx.onerror(err) > case ${index} > should respond with the error`),
  ];
  const namer = createTitleNamer(titles);
  const body = { path: 'lib/response.js', names: ['body'], context: ['  set body (val) {', '    if (stream) {'] };

  test('a title names the change when it says a changed name that few titles say; words of the code around it are not enough', () => {
    assert.deepEqual(
      namer('res.body= > when a stream is given > should not throw unhandled errors when replacing failing stream', [body]),
      ['body'],
    );
    // `stream` is said by the code around the change, not by a changed name; `onerror` is no changed name here.
    assert.deepEqual(namer('ctx.flushHeaders() > should catch stream error', [body]), []);
    // `onerror` changed, but 38 of 40 titles say it: it tells no case apart.
    assert.deepEqual(
      namer('ctx.onerror(err) > should ignore error after headerSent', [{ path: 'lib/context.js', names: ['onerror'] }]),
      [],
    );
  });

  // Check 38 (typeorm): a change to OrmUtils.normalizeWhere made "OrmUtils > mergeDeep > …" a weak test "that names
  // what changed: OrmUtils".
  test("a class named in a title that says another of its members names that member's case, not the change", () => {
    const utils = createTitleNamer([
      'OrmUtils > mergeDeep > merges',
      'OrmUtils > normalizeWhere > throws',
      'other > works',
      'more > works',
    ]);
    const target = {
      path: 'src/util/OrmUtils.ts',
      names: ['OrmUtils', 'OrmUtils.normalizeWhere'],
      members: ['OrmUtils.mergeDeep', 'OrmUtils.normalizeWhere', 'OrmUtils.deepCompare'],
    };
    assert.deepEqual(utils('OrmUtils > mergeDeep > merges', [target]), []);
    assert.deepEqual(utils('OrmUtils > normalizeWhere > throws', [target]), ['OrmUtils', 'normalizeWhere']);
    // A title that says the class alone still names it.
    assert.deepEqual(utils('OrmUtils > works', [target]), ['OrmUtils']);
  });

  test('a changed name of several words is named by its words in a row, and never by plumbing names', () => {
    const merge = createTitleNamer(['deep merge > merges arrays', 'extend > keeps hooks', 'other > works', 'retry > stops']);
    assert.deepEqual(merge('deep merge > merges arrays', [{ path: 'source/utils/merge.ts', names: ['deepMerge'] }]), ['deepMerge']);
    assert.deepEqual(merge('extend > keeps hooks', [{ path: 'source/utils/merge.ts', names: ['deepMerge'] }]), []);
    assert.deepEqual(merge('other > works', [{ path: 'source/other.ts', names: ['default'] }]), []);
  });

  test("a case's code names the change only in the changed file's own test file", () => {
    const change = [{ path: 'packages/runtime-core/src/helpers/renderList.ts', names: ['renderList'] }];
    assert.deepEqual(
      findSaidNames('expect(renderList(3.1, () => {})).toEqual([])', 'packages/runtime-core/__tests__/helpers/renderList.spec.ts', change),
      ['renderList'],
    );
    assert.deepEqual(findSaidNames('renderList(3.1, () => {})', 'packages/runtime-core/__tests__/rendererComponent.spec.ts', change), []);
    assert.deepEqual(findSaidNames('const list = renderLists()', 'test/renderList.test.ts', change), []);
  });
});

describe('findExportedCallers: the exports that call a changed private helper', () => {
  const span = { start: 1, end: 2 };
  const callable = (name: string, refs: string[]) => ({ name, span, refs });
  const exported = (name: string) => ({ name, kind: 'function' as const, span, typeOnly: false });

  test('directly or through private callables; an exported change, or a helper more than three exports call, adds none', () => {
    const facts = {
      exports: [exported('running_min'), exported('running_max'), exported('take')],
      callables: [
        callable('_windowed', []),
        callable('_dispatch', ['_windowed']),
        callable('running_min', ['_windowed']),
        callable('running_max', ['_dispatch']),
        callable('take', []),
      ],
    };
    assert.deepEqual(findExportedCallers(facts, new Set(['_windowed'])).sort(), ['running_max', 'running_min']);
    assert.deepEqual(findExportedCallers(facts, new Set(['take'])), []);
    // A caller that is itself changed is a changed name already.
    assert.deepEqual(findExportedCallers(facts, new Set(['_windowed', 'running_min'])), ['running_max']);
    const plumbing = {
      exports: ['a', 'b', 'c', 'd'].map(exported),
      callables: [callable('_util', []), ...['a', 'b', 'c', 'd'].map((name) => callable(name, ['_util']))],
    };
    assert.deepEqual(findExportedCallers(plumbing, new Set(['_util'])), []);
    assert.deepEqual(findExportedCallers({ ...plumbing, exports: plumbing.exports.slice(0, 3) }, new Set(['_util'])).sort(), [
      'a',
      'b',
      'c',
    ]);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { Hunk } from '../../src/model/change.js';
import { findSemanticChanges, listRemovedTests, type SemanticChange } from '../../src/rules/semantic-hunks.js';
import { createPythonOrGoSyntax } from '../../src/rules/semantic-languages.js';
import { analyzeFixture, createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const one = (before: string, after: string) =>
  findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]).map((change) => [
    change.kind,
    change.subject,
    change.limit,
    change.values,
  ]);

/** The escaping changes of one replaced line: subject, what it was, and the start (`length` characters) of the values. */
const escapingOf = (before: string, after: string, length: number) =>
  one(before, after)
    .filter(([kind]) => kind === 'escaping')
    .map(([, subject, limit, values]) => [subject, limit, String(values).slice(0, length)]);

/**
 * The kind, line and subject of each change between two versions of a file, the hunk being the lines between their
 * common head and tail.
 */
const changed = (before: string[], after: string[], language: 'javascript' | 'python' = 'javascript') => {
  let start = 0;
  while (before[start] === after[start]) start += 1;
  let end = 0;
  while (before.at(-1 - end) === after.at(-1 - end) && end < before.length - start) end += 1;
  return findSemanticChanges(
    `${before.join('\n')}\n`,
    `${after.join('\n')}\n`,
    [{ oldStart: start + 1, oldLines: before.length - start - end, newStart: start + 1, newLines: after.length - start - end }],
    language,
  ).map((change) => [change.kind, change.line, change.subject]);
};

/** The changes of a new file made of `lines`, every line added. */
const findInNewFile = (lines: readonly string[], language: 'javascript' | 'python' | 'go') =>
  findSemanticChanges('', `${lines.join('\n')}\n`, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length }], language);

/** The changes of a new Python file made of `lines`, given the tests other files of the change removed. */
const findInNewFileMoved = (lines: readonly string[], removedElsewhere: (test: string) => boolean) =>
  findSemanticChanges(
    '',
    `${lines.join('\n')}\n`,
    [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length }],
    'python',
    removedElsewhere,
  );

describe('findSemanticChanges: an error made again, a helper that makes it, a comment block', () => {
  // A third independent check (ky ce8588d830): the error gained its name under a support check; the removed line was
  // paired with a line of a block comment, read as code ("a membership test specified in MDN") and as an error
  // path removed.
  test('an error made again with its message, and a block comment, ask nothing but the new condition', () => {
    const before = [
      'export function composeAbortError(signal) {',
      "  return new DOMException(signal?.reason ?? 'The operation was aborted.');",
      '}',
    ];
    const after = [
      'export function composeAbortError(signal) {',
      '  /*',
      '  NOTE: Use DOMException with AbortError name as specified in MDN docs',
      '  */',
      '  if (isDomExceptionSupported) {',
      "    return new DOMException(signal?.reason ?? 'The operation was aborted.', 'AbortError');",
      '  }',
      "  const error = new Error(signal?.reason ?? 'The operation was aborted.');",
      '  return error;',
      '}',
    ];
    assert.deepEqual(changed(before, after), [['condition', 5, '(isDomExceptionSupported)']]);
    // An error no longer made, while another line makes one of the same type with another message, is still a removed
    // error path.
    assert.deepEqual(
      changed(
        ['function f(a, b) {', "  const x = a ?? fail(new TypeError('a is required'));", '  return x;', '}'],
        ['function f(a, b) {', '  const x = a ?? null;', "  if (!b) throw new TypeError('b is required');", '  return x;', '}'],
      ).map(([kind, , subject]) => [kind, subject]),
      [
        ['default', 'the missing value'],
        ['error-path', 'the removed error path'],
        ['condition', '(!b)'],
      ],
    );
  });

  // outline 3fcef8d68e: the private-IP error moved into `privateIpError`, the same message; the new DNS failure is
  // the change's one new error path.
  test('a throw whose error moved into a helper the change adds is no changed error path', () => {
    const before = [
      'export async function validate(hostname) {',
      '  if (isPrivate(hostname)) {',
      '    throw InvalidRequestError(',
      '      `DNS lookup ${hostname} is not allowed.`',
      '    );',
      '  }',
      '  const address = await lookup(hostname);',
      '}',
    ];
    const after = [
      'function privateIpError(ip) {',
      '  return InvalidRequestError(',
      '    `DNS lookup ${ip} is not allowed.`',
      '  );',
      '}',
      'export async function validate(hostname) {',
      '  if (isPrivate(hostname)) {',
      '    throw privateIpError(hostname);',
      '  }',
      '  let address;',
      '  try {',
      '    address = await lookup(hostname);',
      '  } catch {',
      '    throw InvalidRequestError(`DNS lookup for ${hostname} failed.`);',
      '  }',
      '}',
    ];
    const found = findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
      { oldStart: 1, oldLines: 0, newStart: 1, newLines: 5 },
      { oldStart: 3, oldLines: 3, newStart: 8, newLines: 1 },
      { oldStart: 7, oldLines: 1, newStart: 10, newLines: 6 },
    ]).map((change) => [change.kind, change.line]);
    assert.ok(!found.some(([, line]) => line === 8), JSON.stringify(found));
    assert.deepEqual(found, [['error-path', 13]]);
  });
});

describe('findSemanticChanges: what the diff changed in a decision', () => {
  // Check 59 (marshmallow-code/marshmallow): `if not isinstance(validator, Validator) and r is False:` moved from
  // Field._validate into the new validate.And, and was asked as a new condition there.
  test('a Python or Go test another file of the change removed, made again word for word, moved', () => {
    const removedFrom = listRemovedTests(
      'def f(self, value):\n    for validator in self.validators:\n        r = validator(value)\n        if not isinstance(validator, Validator) and r is False:\n            raise self.make_error("failed")\n',
      [{ oldStart: 2, oldLines: 4, newStart: 2, newLines: 0 }],
      'python',
    );
    assert.deepEqual(removedFrom, ['not isinstance(validator, Validator) and r is False']);
    const added = [
      'class And(Validator):',
      '    def __call__(self, value):',
      '        for validator in self.validators:',
      '            r = validator(value)',
      '            if not isinstance(validator, Validator) and r is False:',
      '                raise ValidationError(self.error)',
    ];
    const conditions = (removed: readonly string[]) =>
      findInNewFileMoved(added, (test) => removed.includes(test)).filter((change) => change.kind === 'condition').length;
    assert.equal(conditions(removedFrom), 0);
    assert.equal(conditions([]), 1);
    const go = ['func f(v *V) error {', '\tif v.limit > 0 && v.count >= v.limit {', '\t\treturn errLimit', '\t}', '\treturn nil', '}'];
    assert.deepEqual(listRemovedTests(`${go.join('\n')}\n`, [{ oldStart: 2, oldLines: 3, newStart: 2, newLines: 0 }], 'go'), [
      'v.limit > 0 && v.count >= v.limit',
    ]);
  });

  // Check 53 (unjs/ufo): `const cleanPath = s0.endsWith("/") ? s0.slice(0, -1) : s0;`, the fix, asked nothing: a
  // ternary was known only when its first branch held no dot.
  // Check 54 (body-parser): a new `for (var i = index + 1; i < str.length; i++)` asked for str.length ± 1; check 48
  // (urfave/cli): `for c := cmd; c != nil; c = c.parent` asked for c nil and not, above the fix's `if c.HideHelpCommand`.
  test("a new loop's usual header is its end, not a decision; an unusual bound still asks", () => {
    const added = (lines: string[], language: 'javascript' | 'go' = 'javascript') =>
      findInNewFile(lines, language).map((change) => [change.kind, change.subject]);
    const body = ['      partial += "#"', '    }'];
    assert.deepEqual(added(['    for (var i = index + 1; i < str.length; i++) {', ...body]), []);
    assert.deepEqual(added(['  for (let node = head; node; node = node.next) {', ...body]), []);
    assert.deepEqual(added(['    for (var i = index + 1; i <= str.length; i++) {', ...body]), [['boundary', 'i']]);
    // A countdown over the whole list is the same full range read last first (qs's parseObject, check 225, where it was
    // asked as i -1, 0 and 1); one that stops before the first element still asks.
    assert.deepEqual(added(['  for (let i = list.length - 1; i >= 0; i--) {', ...body]), []);
    assert.deepEqual(added(['  for (let i = list.length - 1; i > 0; i--) {', ...body]), [['boundary', 'i']]);
    const walk = ['\tfor c := cmd; c != nil; c = c.parent {', '\t\tif c.HideHelpCommand {', '\t\t\treturn true', '\t\t}', '\t}'];
    assert.deepEqual(added(walk, 'go'), [['condition', 'c.HideHelpCommand']]);
    assert.deepEqual(added(['\tfor i := 0; i < len(args); i++ {', '\t\tx++', '\t}'], 'go'), []);
    // A new scan that steps its index to the list's first index (mlly's identifier scan, check 252) asks nothing; one
    // that stops elsewhere, or never steps that index, asks its bound.
    const scan = (loop: string, step: string) =>
      added(['  let j = i - 1;', loop, step, '  }', '  return j + 1 < i;']).filter(
        ([, subject]) => subject === 'j' || String(subject).includes('j >='),
      );
    assert.deepEqual(scan('  while (j >= 0 && isWord(str[j])) {', '    j--;'), []);
    assert.deepEqual(scan('  while (j >= 1 && isWord(str[j])) {', '    j--;'), [['boundary', 'j']]);
    assert.deepEqual(scan('  while (j >= 0 && isWord(str[j])) {', '    count++;'), [['boundary', 'j']]);
    // Check 73 (expressjs/multer 2c8505f): a drain reads until nothing is left; a loop that does work per read asks.
    assert.deepEqual(added(['    while (stream.read() !== null) {}']), []);
    assert.deepEqual(added(['    while (stream.read() !== null) {', '      count++', '    }']), [
      ['condition', '(stream.read() !== null)'],
    ]);
  });

  // Check 108 (arrow-py/arrow): `elif delta == 0 or 2 < delta <= 10:` was asked for 0 alone; the chain's own bounds, 2 and
  // 10, are where Hebrew's plural forms change.
  test('each bound a Python line draws on one subject, a chained comparison read link by link', () => {
    const changes = findSemanticChanges(
      'def f(delta):\n    if delta == 2:\n        return "two"\n    else:\n        return "many"\n',
      'def f(delta):\n    if delta == 2:\n        return "two"\n    elif delta == 0 or 2 < delta <= 10:\n        return "few"\n',
      [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }],
      'python',
    ).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(changes, [['boundary', 'delta', '0 and a value other than 0; 1, 2 and 3; 9, 10 and 11']]);
  });

  // Check 161 (gorilla/mux mx4): `err := r.Walk(…)` … `return allMethods, err` became a loop that returns `nil, err`
  // itself and `return allMethods, nil`, asked as a removed error path.
  test('a Go error return made nil where an added line returns the same error is no removed error path', () => {
    const base = ['func all(r *Router) ([]string, error) {', '\tvar all []string', '\terr := r.Walk(visit)', '\treturn all, err', '}'];
    const head = (returned: string) => [
      'func all(r *Router) ([]string, error) {',
      '\tvar all []string',
      '\tfor _, route := range r.routes {',
      '\t\tmethods, err := route.GetMethods()',
      '\t\tif err != nil {',
      `\t\t\treturn nil, ${returned}`,
      '\t\t}',
      '\t\tall = append(all, methods...)',
      '\t}',
      '\treturn all, nil',
      '}',
    ];
    const paths = (returned: string) =>
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${head(returned).join('\n')}\n`,
        [{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 8 }],
        'go',
      )
        .filter((change) => change.kind === 'error-path')
        .map((change) => [change.line, change.subject]);
    assert.deepEqual(paths('err'), []);
    assert.deepEqual(paths('ErrNotFound'), [[4, 'the removed error path']]);
  });

  // Check 161 (gorilla/mux mx2): a new `if rr, ok := m.(*routeRegexp); ok {` around `if rr.regexpType ==
  // regexpTypeQuery {` asked whether `ok` was true, and the hunk's one case was spent on it.
  test('a Go type assertion whose block opens with its own if asks that test; alone, it asks itself', () => {
    const added = (lines: string[]) => findInNewFile(lines, 'go').map((change) => [change.kind, change.line, change.subject]);
    const nested = ['if rr, ok := m.(*routeRegexp); ok {', '\tif rr.regexpType == regexpTypeQuery {', '\t\treturn ErrNotFound', '\t}', '}'];
    assert.deepEqual(added(nested), [['condition', 2, 'rr.regexpType == regexpTypeQuery']]);
    assert.deepEqual(added(['if rr, ok := m.(*routeRegexp); ok {', '\treturn rr.regexp', '}']), [['condition', 1, 'ok']]);
  });

  // Check 71 (python-attrs/cattrs t1): a new `while made_progress:` whose body sets the flag asked for it true and false.
  test('a new loop on its own progress flag is its end, not a decision; its body is asked, and a flag it never sets asks', () => {
    const added = (lines: string[], language: 'javascript' | 'python' | 'go') =>
      findInNewFile(lines, language).map((change) => [change.kind, change.subject]);
    const python = [
      'def f(remaining):',
      '    made_progress = True',
      '    while made_progress:',
      '        made_progress = False',
      '        if len(remaining) > 1:',
      '            remaining.pop()',
      '            made_progress = True',
    ];
    assert.deepEqual(added(python, 'python'), [['boundary', 'len(remaining)']]);
    const javascript = ['let changed = true;', 'while (changed) {', '  changed = false;', '  if (step()) changed = true;', '}'];
    assert.deepEqual(added(javascript, 'javascript'), [['condition', '(step())']]);
    const go = ['	changed := true', '	for changed {', '		changed = false', '		if step() {', '			changed = true', '		}', '	}'];
    assert.deepEqual(added(go, 'go'), [['condition', 'step()']]);
    // A loop on a flag its body never sets waits on something else (a flag another thread sets): asked.
    assert.deepEqual(added(['def f(state):', '    while state.running:', '        work(state)'], 'python'), [
      ['condition', 'state.running'],
    ]);
    assert.deepEqual(added(['def f(ready):', '    while ready:', '        work()'], 'python'), [['condition', 'ready']]);
  });

  // Check 59 (marshmallow-code/marshmallow): a message wrapped over three lines in `msg = (…)`, two of them made
  // f-strings, read as three docstrings: the proof found no executable changed line and asked only to run a test.
  test('a Python string alone on a line inside brackets is code; a docstring is not', () => {
    const text = [
      'def f(name):',
      '    """Check the name."""',
      '    msg = (',
      `        f'Field for "{name}" '`,
      '        "must be a Field."',
      '    )',
      '',
    ];
    const lines = createPythonOrGoSyntax('python').readLines(text.join('\n'));
    assert.deepEqual(
      lines.map((line) => line.isComment),
      [false, true, false, false, false, false, false],
    );
  });

  // Check 62 (pallets/jinja): `if node.required and not all(…)` became `if node.required:` over a loop whose new
  // `if not isinstance(body_node, nodes.Output) or any(…)` fails; the outer test was asked and the new one was not.
  test('a clause a Python condition lost into a test nested in its branch is asked there, not on the branch', () => {
    const base = [
      'def f(node):',
      '    if node.required and not all(',
      '        isinstance(child, TemplateData) and child.data.isspace()',
      '        for body in node.body',
      '        for child in body.nodes',
      '    ):',
      '        fail("x")',
    ];
    const head = [
      'def f(node):',
      '    if node.required:',
      '        for body_node in node.body:',
      '            if not isinstance(body_node, Output) or any(',
      '                not isinstance(output_node, TemplateData) or not output_node.data.isspace()',
      '                for output_node in body_node.nodes',
      '            ):',
      '                fail("x")',
    ];
    const conditions = (after: string[]) =>
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${after.join('\n')}\n`,
        [{ oldStart: 2, oldLines: 6, newStart: 2, newLines: after.length - 1 }],
        'python',
      )
        .filter((change) => change.kind === 'condition')
        .map((change) => change.line);
    assert.deepEqual(conditions(head), [4]);
    // The clause dropped with no test in its place: the branch is the question.
    assert.deepEqual(conditions(['def f(node):', '    if node.required:', '        fail("x")']), [2]);
  });

  test('a Python `if TYPE_CHECKING:` decides nothing at run time; an if in place of a plain line does', () => {
    assert.deepEqual(findInNewFile(['if t.TYPE_CHECKING:', '    import typing_extensions as te'], 'python'), []);
    assert.deepEqual(findInNewFile(['if typing.TYPE_CHECKING:', '    import typing_extensions as te'], 'python'), []);
    const replaced = findSemanticChanges(
      'def f(x):\n    log(x)\n',
      'def f(x):\n    if x.ready:\n        run(x)\n',
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 2 }],
      'python',
    ).map((change) => [change.kind, change.line]);
    assert.deepEqual(replaced, [['condition', 2]]);
  });

  // Check 72 (hapijs/joi): the diff paired a new `if` with a removed plain line sharing a word, and nothing was asked.
  test('an if in place of any line is a decision; a counter renamed and tests joined by || are the old logic', () => {
    assert.deepEqual(
      changed(
        ['function f(x, res) {', '  res.x = x.y;', '  return res;', '}'],
        ['function f(x, res) {', "  if (x.y === 'v') {", '    res.x = 1;', '  }', '  return res;', '}'],
      ),
      [['condition', 2, "(x.y === 'v')"]],
    );
    // zod b6066b3: `const result = item.run(…)` in a for…of counted by `i++` became `const r = items[i].run(…)` in an
    // index loop; `r` was a name the file already had, so only the values the two hold make them one (a trailing comma
    // of the old call's object is layout).
    const loop = (name: string) => [
      `    if (${name} instanceof Promise) {`,
      `      proms.push(${name}.then((x) => handle(x, i)));`,
      '    } else {',
      `      handle(${name}, i);`,
      '    }',
      '  }',
    ];
    const zodBase = ['function g(items, input, r) {', '  let i = -1;', '  for (const item of items) {', '    i++;'];
    const zodHead = ['function g(items, input, r) {', '  for (let i = 0; i < items.length; i++) {'];
    assert.deepEqual(
      changed(
        [
          ...zodBase,
          '    const result = item.run(',
          '      { value: input[i], issues: [], },',
          '      ctx',
          '    );',
          ...loop('result'),
          '}',
        ],
        [...zodHead, '    const r = items[i].run({ value: input[i], issues: [] }, ctx);', ...loop('r'), '}'],
      ),
      [],
    );
    // express-session 85682a2: `if (err) { … } else if (!sess) { … }` became `if (err || !sess)`.
    assert.deepEqual(
      changed(
        [
          'function h(err, sess) {',
          '  if (err) {',
          '    next(err);',
          '  } else if (!sess) {',
          '    next();',
          '  } else {',
          '    go(sess);',
          '  }',
          '}',
        ],
        ['function h(err, sess) {', '  if (err||!sess) {', '    next(err);', '    return;', '  }', '  go(sess);', '}'],
      ),
      [],
    );
    assert.deepEqual(
      changed(
        ['def h(err, sess):', '    if err:', '        nxt(err)', '    elif not sess:', '        nxt(err)'],
        ['def h(err, sess):', '    if err or not sess:', '        nxt(err)'],
        'python',
      ),
      [],
    );
    // Calls a removed block made as statements, joined into a test, decide something new.
    assert.deepEqual(
      changed(
        ['def h(a, b):', '    validate(a)', '    check(b)', '    go(a)'],
        ['def h(a, b):', '    if validate(a) or check(b):', '        go(a)'],
        'python',
      ),
      [['condition', 2, 'validate(a) or check(b)']],
    );
    // A test no removed line made is new, joined or not (`order` inside `color or order` is no separator).
    assert.deepEqual(
      changed(
        ['def h(color, order):', '    if color:', '        nxt(color)', '    elif order:', '        nxt(order)'],
        ['def h(color, order):', '    if color or order or extra:', '        nxt(color)'],
        'python',
      ),
      [['condition', 2, 'color or order or extra']],
    );
  });

  // Check 75 (aio-libs/yarl 1dc46ab): with_suffix stopped calling `self.with_name(…)` and took its lines, among them
  // `query = self._query if keep_query else ""`, asked as a new condition.
  test("a called function's lines put in place of the call are its old decisions; a test of its own is still new", () => {
    const withName = [
      'class URL:',
      '    def with_name(',
      '        self,',
      '        name,',
      '        keep_query: bool = False,',
      '    ):',
      '        """Replace the name."""',
      '        query = self._query if keep_query else ""',
      '        return make(name, query)',
      '',
      '    def with_suffix(self, suffix, keep_query=False):',
    ];
    const suffixed = (query: string) =>
      changed(
        [...withName, '        name = self.name + suffix', '        return self.with_name(name, keep_query=keep_query)'],
        [...withName, '        name = self.name + suffix', `        query = ${query}`, '        return make(name, query)'],
        'python',
      );
    assert.deepEqual(suffixed('self._query if keep_query else ""'), []);
    // A test the called body never made is new (the parameter's default `keep_query: bool = False` is no value it holds).
    assert.deepEqual(suffixed('self._query if keep_query and self._query else ""'), [['condition', 13, 'keep_query and self._query']]);
    // A method, and a function whose parameters take lines of their own (`strict = false` is no value `strict` holds).
    const build = [
      'class Url {',
      '  build(name, strict = false) {',
      '    if (strict && name === "") throw new Error("empty");',
      '    return make(name);',
      '  }',
      '  rename(name, strict) {',
    ];
    const inlined = ['    if (strict && name === "") throw new Error("empty");', '    return make(name);', '  }', '}'];
    assert.deepEqual(changed([...build, '    return this.build(name, strict);', '  }', '}'], [...build, ...inlined], 'javascript'), []);
    const built = [
      'function build(',
      '  name,',
      '  strict = false,',
      ') {',
      '  if (strict && name === "") throw new Error("empty");',
      '  return make(name);',
      '}',
      'class Url {',
      '  rename(name, strict) {',
    ];
    assert.deepEqual(changed([...built, '    return build(name, strict);', '  }', '}'], [...built, ...inlined], 'javascript'), []);
  });

  // Check 74 (unjs/ofetch 905244a): `new FetchError(` over four lines, its new argument a ternary on `ctx.error`, asked
  // as a changed error path and as that condition.
  test('an error built over several lines asks its changed decision once, not again as an error path', () => {
    const head = ['export function fail(ctx, message) {'];
    const tail = ['  throw err;', '}'];
    const built = (argument: string) =>
      changed(
        [...head, '  const err = new FetchError(message);', ...tail],
        [...head, '  const err = new FetchError(', '    message,', `    ${argument}`, '  );', ...tail],
      );
    assert.deepEqual(built('ctx.error ? { cause: ctx.error } : undefined'), [['condition', 4, 'ctx.error']]);
    assert.deepEqual(built('{ cause: ctx.error }'), [['error-path', 2, 'the error path']]);
  });

  // Check 67 (gofiber/fiber): `… || src.methodInt(MethodHead) < 0` asked for a boundary on "the value".
  test('a boundary on what a call returns names the call', () => {
    const boundary = (lines: string[], language: 'javascript' | 'go') =>
      findInNewFile(lines, language)
        .filter((change) => change.kind === 'boundary')
        .map((change) => change.subject);
    assert.deepEqual(boundary(['\tskip := walk.skip || src.config.Disable || src.methodInt(MethodHead) < 0'], 'go'), [
      'src.methodInt(MethodHead)',
    ]);
    assert.deepEqual(boundary(['  if (list.indexOf(item, from) >= 2) go()'], 'javascript'), ['list.indexOf(item, from)']);
    assert.deepEqual(boundary(['  if ((a.b + 1) > 3) go()'], 'javascript'), ['the value']);
  });

  // Check 59 (marshmallow-code/marshmallow): the fix made `else:` an `elif partial is not None:` and asked nothing.
  test('a bare else made an elif (Python) or else if (Go) is a new condition', () => {
    const replaced = (base: string[], head: string[], language: 'python' | 'go') =>
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${head.join('\n')}\n`,
        [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }],
        language,
      ).map((change) => [change.kind, change.line, change.subject]);
    const python = ['def f(partial, sub):', '    if sub:', '        d["partial"] = sub', '    else:', '        d["partial"] = partial'];
    assert.deepEqual(
      replaced(
        python,
        python.map((line) => line.replace('else:', 'elif partial is not None:')),
        'python',
      ),
      [['condition', 4, 'partial is not None']],
    );
    const go = ['func f(p *int, s bool) {', '\tif s {', '\t\tx = 1', '\t} else {', '\t\tx = 2', '\t}', '}'];
    assert.deepEqual(
      replaced(
        go,
        go.map((line) => line.replace('} else {', '} else if p != nil {')),
        'go',
      ),
      [['condition', 4, 'p != nil']],
    );
  });

  // Check 54 (expressjs/body-parser): `JSON.parse(partial); /* istanbul ignore next */ throw new SyntaxError('strict
  // violation')`, a throw its authors mark as never reached, was asked to be forced.
  test('code marked for the coverage tool to ignore asks for no test that runs it', () => {
    const added = (lines: string[], language: 'javascript' | 'python' = 'javascript') =>
      findInNewFile(lines, language).map((change) => change.kind);
    assert.deepEqual(added(["  JSON.parse(partial); /* istanbul ignore next */ throw new SyntaxError('strict violation')"]), []);
    assert.deepEqual(added(['  /* c8 ignore next */', "  if (typeof setImmediate !== 'function') return"]), []);
    assert.deepEqual(added(["    raise RuntimeError('unreachable')  # pragma: no cover"], 'python'), []);
    assert.deepEqual(added(["  JSON.parse(partial); throw new SyntaxError('strict violation')"]), ['error-path']);
  });

  // Check 54 (expressjs/body-parser): `var index = str.indexOf(char)`, a position for `str.substring(0, index)`, was
  // asked for a member and a non-member.
  test('an index kept for its position tests no membership; an index compared does', () => {
    const added = (line: string) =>
      findSemanticChanges('function f(str, char) {\n}\n', `function f(str, char) {\n${line}\n}\n`, [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 },
      ]).map((change) => change.kind);
    assert.deepEqual(added('  var index = str.indexOf(char)'), []);
    // Compared with where "not found" starts, it asks found or not (check 311), not -2, -1 and 0.
    assert.deepEqual(added('  const found = str.indexOf(char) !== -1'), ['membership']);
    assert.deepEqual(added('  const at = str.indexOf(char) + 1'), ['membership']);
  });

  test('a new ternary whose branch reads a member is a condition; an optional field or chaining is not', () => {
    const added = (line: string) =>
      findSemanticChanges('export function f(s0: string) {\n}\n', `export function f(s0: string) {\n${line}\n}\n`, [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(added('  const clean = s0.endsWith("/") ? s0.slice(0, -1) : s0;'), [['condition', 's0.endsWith("/")']]);
    assert.deepEqual(
      added('  const clean = s0?.trim() ?? s0.padEnd(2, ":");').filter(([kind]) => kind === 'condition'),
      [],
    );
    assert.deepEqual(added('  type Options = { strict?: boolean; base?: string };'), []);
  });

  test('a comparison or its limit: the values at, below and above the limit', () => {
    assert.deepEqual(one('  if (value.length >= 5) return ok;', '  if (value.length > 5) return ok;'), [
      ['boundary', 'value.length', '5', '4, 5 and 6'],
    ]);
    assert.deepEqual(one('  if (total < 100) return 0;', '  if (total < 150) return 0;'), [
      ['boundary', 'total', '150', '149, 150 and 151'],
    ]);
    // Found on tRPC (observable.ts:262): a rewritten hunk pairs lines by position, but a removed line that shares no
    // name with the added one is not what it replaced: the comparison is new code, shown as a new line.
    const rewritten = findSemanticChanges('const value = await reader.read();\n', 'if (values.length > 0) {\n', [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
    ]);
    assert.deepEqual(
      rewritten.map((change) => [change.kind, change.before, change.after]),
      [['boundary', '', 'if (values.length > 0)']],
    );
    // Found on tRPC (observable.ts): a length or a size is never -1, so at a limit of 0 only 0 and 1 can be tried.
    assert.deepEqual(one('  if (values.length) {', '  if (values.length > 0) {'), [['boundary', 'values.length', '0', '0 and 1']]);
    assert.deepEqual(one('  if (seen.size >= 1) {', '  if (seen.size > 0) {'), [['boundary', 'seen.size', '0', '0 and 1']]);
    assert.deepEqual(one('  if (retryCount < 1) {', '  if (retryCount < 0) {'), [['boundary', 'retryCount', '0', '0 and 1']]);
    assert.deepEqual(one('  if (delta < 1) {', '  if (delta < 0) {'), [['boundary', 'delta', '0', '-1, 0 and 1']]);
  });

  test('a default, also inside a string; a condition; a removed throw; a regex; rounding', () => {
    assert.deepEqual(one('export function page(size = 20) {', 'export function page(size = 50) {'), [
      ['default', 'size', '50', 'a call without size (and with undefined and null)'],
    ]);
    assert.deepEqual(one("  const name = input.name ?? 'anon';", "  const name = input.name ?? 'guest';"), [
      ['default', 'the missing value', "'guest'", 'a call without the value (and with undefined and null)'],
    ]);
    assert.equal(
      findSemanticChanges('  if (user.isAdmin) {\n', '  if (user.isAdmin || user.isOwner) {\n', [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      ])[0]?.after,
      'if (user.isAdmin || user.isOwner)',
      'shown without the brace that opens the block',
    );
    assert.deepEqual(one('  if (user.isAdmin) {', '  if (user.isAdmin || user.isOwner) {'), [
      [
        'condition',
        '(user.isAdmin || user.isOwner)',
        '',
        'an input for which (user.isAdmin || user.isOwner) is true and one for which it is false',
      ],
    ]);
    // The strings of a condition are shown as written (express 5: QUERY joined GET and HEAD in req.fresh), and the
    // statement after it is not part of it; a parenthesis inside a string does not end it.
    assert.deepEqual(
      one("  if (name === ')' || ok) return;", "  if (name === ')' || ok || ready) return;")[0]?.[1],
      "(name === ')' || ok || ready)",
    );
    assert.deepEqual(
      one(
        "  if ('GET' !== method && 'HEAD' !== method) return false;",
        "  if ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) return false;",
      ),
      [
        [
          'condition',
          "('GET' !== method && 'HEAD' !== method && 'QUERY' !== method)",
          '',
          "an input for which ('GET' !== method && 'HEAD' !== method && 'QUERY' !== method) is true and one for which it is false",
        ],
      ],
    );
    assert.deepEqual(one("    throw new Error('bad');", '    return null;')[0]?.[0], 'error-path');
    assert.deepEqual(one('  const re = /^[a-z]+$/;', '  const re = /^[a-z0-9]+$/;'), [
      [
        'regex',
        '/^[a-z0-9]+$/',
        '',
        'a string with a character in 0-9 where [a-z0-9] stands (the new pattern accepts it, the old one refused it), and a string both accept',
      ],
    ]);
    assert.deepEqual(one('  return Math.round(total * 100) / 100;', '  return Math.floor(total * 100) / 100;'), [
      ['arithmetic', 'the rounding', '', '.5, -0.5, 0 and a negative value'],
    ]);
  });

  // Check 120 (nodemailer b7d772e): three lines of comment where two stood, above a renamed helper whose pattern the
  // fix widened with the tag delimiters; paired by position, the helper met the line below it and asked nothing.
  test('a line is paired with the removed code line it replaced when comments shifted the positions', () => {
    const before = [
      'function header(domain) {',
      '  // one',
      '  // two',
      "  const strip = (value) => String(value).replace(/[\\x00-\\x1f]/g, '');",
      "  return 'd=' + strip(domain);",
      '}',
    ];
    const after = [
      'function header(domain) {',
      '  // one',
      '  // two',
      '  // three',
      "  const clean = (value) => String(value).replace(/[\\x00-\\x1f;=]/g, '');",
      "  return 'd=' + clean(domain);",
      '}',
    ];
    assert.deepEqual(changed(before, after), [['regex', 5, '/[\\x00-\\x1f;=]/g']]);
  });

  // ky's `method:` option (the independent check): the old and new lines were cut at the same place, so the task read
  // "X… → X…", the same text twice; both are shown from just before where they differ.
  test('a replaced long line that changed past the excerpt is shown from its first difference, both sides alike', () => {
    const before = '      method: normalizeRequestMethod(options.method ?? (this._input as Request).method),';
    const after = "      method: normalizeRequestMethod(options.method ?? (this._input as Request).method ?? 'GET'),";
    const [change] = findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]);
    assert.deepEqual(
      [change?.before, change?.after],
      ['…(this._input as Request).method),', "…(this._input as Request).method ?? 'GET'),"],
    );
  });

  // hono's pattern router (a fix commit read on the independent check): `'(?:$|/)' : path.endsWith('*') ? '' : '/?$'`
  // was read as the pattern `/)' : … : '/`, a regex opened by a slash inside a string.
  test('a slash inside a string, a comment or a division opens no pattern; a literal after an operator or return does', () => {
    assert.deepEqual(
      one("const suffix = '$'", "const suffix = path.endsWith('/*') ? '(?:$|/)' : path.endsWith('*') ? '' : '/?$'").filter(
        ([kind]) => kind === 'regex',
      ),
      [],
    );
    assert.deepEqual(
      one('const half = total / 2 / count', 'const half = total / 3 / count').filter(([kind]) => kind === 'regex'),
      [],
    );
    assert.deepEqual(
      one('x = a // b/c/', 'x = b // b/c/').filter(([kind]) => kind === 'regex'),
      [],
    );
    // JSX closes its tags with `</`: `</b><i>z</i>` is markup, not the pattern `/b><i>z</i`.
    assert.deepEqual(
      one('  return <b>y</b>;', '  return <b>y</b><i>z</i>;').filter(([kind]) => kind === 'regex'),
      [],
    );
    assert.deepEqual(
      one('const ok = (s) => /^a$/.test(s);', 'const ok = (s) => /^a+$/.test(s);').map(([kind, subject]) => [kind, subject]),
      [['regex', '/^a+$/']],
    );
    assert.deepEqual(
      one('  return /^a$/.test(value)', '  return /^a+$/.test(value)').map(([kind, subject]) => [kind, subject]),
      [['regex', '/^a+$/']],
    );
    assert.deepEqual(
      one("path = path.replace(/\\*$/, '')", "path = path.replace('/', '').replace(/\\*+$/, '')").map(([kind, subject]) => [kind, subject]),
      [['regex', '/\\*+$/']],
    );
  });

  // Check 82 (panva/jose): a guard moved out of a try, its error renamed, and the catch given a binding.
  test('a throwing guard made again with the same test, and a catch opened again, are no error paths', () => {
    const before = [
      'function parse(raw) {',
      '  let header;',
      '  try {',
      '    header = JSON.parse(raw);',
      "    if (header.alg !== 'none') throw new Error();",
      '  } catch {',
      "    throw new JWTInvalid('Invalid');",
      '  }',
      '  return header;',
      '}',
    ];
    const after = [
      'function parse(raw) {',
      '  let header;',
      '  try {',
      '    header = parseHeader(raw);',
      '  } catch (cause) {',
      "    throw new JWTInvalid('Invalid');",
      '  }',
      "  if (header.alg !== 'none') {",
      "    throw new JWTInvalid('Invalid');",
      '  }',
      '  return header;',
      '}',
    ];
    const kinds = (head: string[], hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number }[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${head.join('\n')}\n`, hunks)
        .filter((change) => change.kind === 'error-path' && change.line <= 7)
        .map((change) => [change.kind, change.subject]);
    const moved = [
      { oldStart: 4, oldLines: 3, newStart: 4, newLines: 2 },
      { oldStart: 8, oldLines: 0, newStart: 8, newLines: 3 },
    ];
    assert.deepEqual(kinds(after, moved), []);
    // Without the guard made again, the removed one is a removed error path.
    const dropped = [...after.slice(0, 7), ...after.slice(10)];
    assert.deepEqual(kinds(dropped, [{ oldStart: 4, oldLines: 3, newStart: 4, newLines: 2 }]), [['error-path', 'the removed error path']]);
  });

  // Fourth independent check (ky 30450d89f8): `promise.then(resolve).catch(reject);` broken one link per line with a
  // `.then(…)` added after it was asked as a removed error path and as a new asynchronous failure.
  test('a promise chain broken over lines keeps its catch: no error path removed, none added', () => {
    const before = [
      'const settle = (promise, resolve, reject, cleanup) => {',
      '  promise.then(resolve).catch(reject);',
      '  return promise;',
      '};',
    ];
    const after = [
      'const settle = (promise, resolve, reject, cleanup) => {',
      '  promise',
      '    .then(resolve)',
      '    .catch(reject)',
      '    .then(cleanup);',
      '  return promise;',
      '};',
    ];
    const errorPaths = (head: string[]) => changed(before, head).filter(([kind]) => kind === 'error-path' || kind === 'async-failure');
    assert.deepEqual(errorPaths(after), []);
    // Without the catch, the chain no longer takes the failure: the removed error path is asked.
    const uncaught = after.filter((line) => !line.includes('.catch(reject)'));
    assert.deepEqual(errorPaths(uncaught), [['error-path', 2, 'the removed error path']]);
  });

  // Check 79 (auth0/node-jsonwebtoken): `var` made `const` around a kept rounding, a validity test read as a default,
  // and the `!~list.indexOf(x)` idiom spelled out, each asked as a change.
  test('a kept rounding, a chain of predicate tests and !~indexOf spelled out change nothing', () => {
    const floor = 'Math.floor(Date.now() / 1000);';
    assert.deepEqual(one(`  var timestamp = payload.iat || ${floor}`, `  const timestamp = payload.iat || ${floor}`), []);
    assert.deepEqual(
      one('  var t = Math.floor(now / 1000);', '  const t = Math.floor(now / 100);').map(([kind, subject]) => [kind, subject]),
      [['arithmetic', 'the rounding']],
    );
    assert.deepEqual(
      one(
        '  expiresIn: { isValid: function(value) { return isInteger(value) || isString(value); } },',
        '  expiresIn: { isValid: function(value) { return isInteger(value) || (isString(value) && value); } },',
      ).filter(([kind]) => kind === 'default'),
      [],
    );
    assert.deepEqual(
      one('  const limit = options.limit || 10;', '  const limit = options.limit || 20;').map(([kind]) => kind),
      ['default'],
    );
    assert.deepEqual(one('  if (!~algorithms.indexOf(alg)) {', '  if (algorithms.indexOf(alg) === -1) {'), []);
    assert.deepEqual(one('  if (~algorithms.indexOf(alg)) {', '  if (algorithms.indexOf(alg) !== -1) {'), []);
    assert.deepEqual(
      one('  if (!~algorithms.indexOf(alg)) {', '  if (algorithms.indexOf(alg) > 0) {').map(([kind]) => kind),
      ['boundary'],
    );
  });

  test('found reading this repository: JSDoc is not a regex, an assignment is not a default, equality is not a range', () => {
    assert.deepEqual(one('/** Share of the lines kept. */', "/** Share of the old file's lines (how much of the `src/` kept). */"), []);
    assert.deepEqual(
      one(
        '  const routes = lookup.getRoutesHandledBy(files);',
        '  const routes = input.routes.filter((route) => route.chain[0] === path);',
      ),
      [],
    );
    assert.deepEqual(one('  if (count === 0) return;', '  if (count === 1) return;'), [
      ['boundary', 'count', '1', '1 and a value other than 1'],
    ]);
    // Found on express: the `||` of an if joins two tests and supplies no value, so the call on its right is no
    // default. Both names stay in use (no rename), so the changed operand is a condition case, and only that.
    const express = findSemanticChanges(
      'const secure = this.connection.encrypted || this.socket.encrypted;\nif (!val || !trust(this.connection.remoteAddress, 0)) {\n',
      'const secure = this.connection.encrypted || this.socket.encrypted;\nif (!val || !trust(this.socket.remoteAddress, 0)) {\n',
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
    );
    assert.deepEqual(
      express.map((change) => change.kind),
      ['condition'],
    );
    assert.deepEqual(
      one('  const name = input || "anon";', '  const name = input || "guest";').map(([kind]) => kind),
      ['default'],
    );
    // Found on koa: an `if (…)` is no signature, so the assignment after it is no parameter default.
    assert.deepEqual(
      one('    if (body instanceof Blob) stream = from(body);', '    if (body instanceof Blob) stream = from(body.stream());'),
      [],
    );
    const added = findSemanticChanges('a\n', 'a\nif (x > 1) return 1;\nif (y > 2) throw new Error();\nif (z < 3) return 3;\n', [
      { oldStart: 1, oldLines: 0, newStart: 2, newLines: 3 },
    ]);
    assert.deepEqual(
      added.map((change) => [change.kind, change.line]),
      [['boundary', 2]],
      'new code gives one case per hunk',
    );
  });

  test('found on zod: a limit that is a value, not a number, and a line with a presence check before the boundary', () => {
    assert.deepEqual(one('      if (length >= def.minimum) return;', '      if (length > def.minimum) return;'), [
      ['boundary', 'length', 'def.minimum', 'def.minimum − 1, def.minimum and def.minimum + 1'],
    ]);
    assert.deepEqual(
      one(
        'if (guards.minProperties !== undefined && keys.length < guards.minProperties) {',
        'if (guards.minProperties !== undefined && keys.length <= guards.minProperties) {',
      ),
      [['boundary', 'keys.length', 'guards.minProperties', 'guards.minProperties − 1, guards.minProperties and guards.minProperties + 1']],
    );
    // Generics and presence checks draw no boundary.
    assert.deepEqual(one('  const seen: Map<string, number> = new Map();', '  const seen: Map<string, boolean> = new Map();'), []);
    assert.deepEqual(
      one('  if (value !== undefined) return value;', '  if (value !== null) return value;').map(([kind]) => kind),
      ['condition'],
    );
  });

  test('found on a Hono app: an error status passed as an argument is an error path', () => {
    assert.deepEqual(one('    return ctx.body(null, 500);', '    return ctx.body(null, 400);'), [
      ['error-path', 'the error path', '400', 'a request that reaches this line, asserting the new status 400 (was 500)'],
    ]);
    assert.deepEqual(
      one("  return c.json({ error: 'no' }, 404);", "  return c.json({ error: 'gone' }, 410);").map(([kind]) => kind),
      ['error-path'],
    );
    assert.deepEqual(
      one('  return new Response(text, { status: 503 });', '  return new Response(text, { status: 500 });').map(([kind]) => kind),
      ['error-path'],
    );
    assert.deepEqual(one('  return c.json(rows, 200);', '  return c.json(rows, 201);'), [], 'a success status is no error path');
    // Found on socket.io (a first look): an invalid body is now answered 400 through Node's and uWebSockets.js's own
    // response calls, where it was left open.
    const answered = (call: string) =>
      findSemanticChanges(
        '      return this.onError("invalid content");\n',
        `      this.onError("invalid content");\n      return ${call};\n`,
        [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
      ).map((change) => [change.kind, change.limit]);
    assert.deepEqual(answered('res.writeHead(400).end()'), [['error-path', '400']]);
    assert.deepEqual(answered('res.writeStatus("400 Bad Request").end()'), [['error-path', '400']]);
    assert.deepEqual(answered('res.writeHead(200).end()'), []);
  });

  test('found on tRPC: a condition that opens on its line and goes on below is shown whole, not as `if (`', () => {
    const head = [
      'function send() {',
      '        if (',
      '          // the client may be gone already',
      '          abortController.signal.aborted ||',
      '          client.readyState !== WEBSOCKET_OPEN',
      '        ) {',
      '          abort();',
      '        }',
      '}',
    ].join('\n');
    const found = findSemanticChanges('function send() {\n}\n', head, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 7 }]);
    assert.deepEqual(
      found.map((change) => [change.kind, change.line, change.subject, change.after]),
      [
        [
          'condition',
          2,
          '(abortController.signal.aborted || client.readyState !== WEBSOCKET_OPEN)',
          'if (abortController.signal.aborted || client.readyState !== WEBSOCKET_OPEN)',
        ],
      ],
    );
    // One that does not close within eight lines of code is left as written.
    const open = ['if (', ...Array.from({ length: 9 }, (_, index) => `  a${index} ||`), '  b', ') {'].join('\n');
    assert.deepEqual(
      findSemanticChanges('', open, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }]).map((change) => change.after),
      ['if ('],
    );
  });

  test('a changed message, comment or log line changes no decision', () => {
    assert.deepEqual(one("  console.log('hello');", "  console.log('hello world');"), []);
    assert.deepEqual(one('  // at least five', '  // more than five'), []);
    assert.deepEqual(one("  throw new Error('too short');", "  throw new Error('name is too short');"), []);
  });

  test('beyond if: logical assignments, membership tests, normalisation and option flags name the line and the values', () => {
    // Found on ky, outline and got (issue 41): each of these changed behaviour with no `if` in sight.
    assert.deepEqual(one('  retry.methods = retry.methods;', '  retry.methods &&= retry.methods.map((method) => method.toLowerCase());'), [
      ['condition', 'retry.methods &&= …', '', 'retry.methods undefined, empty and set, so that the transform runs only when it should'],
      [
        'normalisation',
        'toLowerCase',
        '',
        "the same value in other cases ('VALUE', 'Value', 'value'), an empty string, and letters outside ASCII ('İ', 'ß')",
      ],
    ]);
    // hono's etag: a trim asks for spaces around the value, not its case (which trim leaves alone).
    assert.deepEqual(
      one('  const tags = header.split(/,\\s*/).map(stripWeak);', "  const tags = header.split(',').map((tag) => stripWeak(tag.trim()));"),
      [
        [
          'normalisation',
          'trim',
          '',
          "the value with spaces, a tab or a newline around it (' value ', '\\tvalue\\n'), the bare value, an empty string and one of spaces only ('   ')",
        ],
      ],
    );
    assert.deepEqual(one('  options.timeout = options.timeout;', '  options.timeout ??= 10000;'), [
      ['default', 'options.timeout', '10000', 'options.timeout undefined and null (it becomes 10000), and a value already set'],
    ]);
    assert.deepEqual(one('  return or(isDone(op), false);', '  return or(isDone(op), TerminalStates.includes(op.state));'), [
      [
        'membership',
        'TerminalStates.includes(op.state)',
        '',
        'op.state that is in TerminalStates, one that is not, and one that differs only in case or type ("1" and 1)',
      ],
    ]);
    // Shown with its strings (`"alpha" in rgb`, not `"" in rgb`); a search for a piece of text looks into a string.
    assert.deepEqual(
      one('  const alpha = 1;', '  const alpha = "alpha" in rgb ? rgb.alpha : 1;').map(([kind, subject]) => [kind, subject]),
      [['membership', '"alpha" in rgb']],
    );
    assert.deepEqual(one('  let index = -1;', '  let index = content.indexOf("\\n", from);'), []);
    assert.deepEqual(one('  return false;', '  return html.includes("<table");'), []);
    assert.deepEqual(
      one('  return false;', '  return roles.includes("admin");').map(([kind, subject]) => [kind, subject]),
      [['membership', 'roles.includes("admin")']],
    );
    // A normalisation added beside one the line already made counts; the one it made does not again.
    assert.deepEqual(
      one('  const ok = name.trim() === other;', '  const ok = name.trim().toLowerCase() === other;').map(([kind, subject]) => [
        kind,
        subject,
      ]),
      [['normalisation', 'toLowerCase']],
    );
    assert.deepEqual(one('  const ok = name.trim() === other;', '  const ok = name.trim() === others;'), []);
    // Found on pino-pretty: a trim the hunk's removed line made, kept on the last of the lines that replace it.
    const split = findSemanticChanges(
      "  return messageFormat.replace(/\\s+/g, ' ').trim()\n",
      "  messageFormat = messageFormat.replace(/[^\\S\\r\\n]+/g, ' ')\n  return messageFormat.trim()\n",
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
    ).map((change) => change.kind);
    assert.deepEqual(split, ['regex']);
    // Found on pino-pretty: `x.p = x.p || y.p` added is `x.p ||= y.p` written out.
    const added = findSemanticChanges(
      '  const a = 1;\n',
      '  const a = 1;\n  colorizer.property = colorizer.property || custom.property\n',
      [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 1 }],
    ).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(added, [['default', 'colorizer.property', 'custom.property']]);
    // Found on pino-pretty: a chain of type tests grown by one link is a changed filter, not a default.
    assert.deepEqual(
      one(
        "  const skipKeys = keys.filter(key => typeof log[key] === 'string' || typeof log[key] === 'number')",
        "  const skipKeys = keys.filter(key => typeof log[key] === 'string' || typeof log[key] === 'number' || typeof log[key] === 'boolean')",
      ).filter(([kind]) => kind === 'default'),
      [],
    );
    assert.deepEqual(one('  const pin = await Pin.findByPk(id);', '  const pin = await Pin.findByPk(id, { rejectOnEmpty: true });'), [
      ['option-flag', 'rejectOnEmpty', 'true', 'an id that matches no record (a 404 or a clear error, not an empty success)'],
    ]);
    assert.deepEqual(
      one('  for (const key in headers) copy(key);', '  for (const name in headers) copy(name);'),
      [],
      'a for…in loop tests nothing',
    );
    // `required: true` of an ORM include is an inner join (outline's memberships of deleted documents), not a field a
    // request must send; the same flag in a schema's field still is.
    const lines = [
      '  const rows = await Membership.findAll({',
      '    include: [',
      '      {',
      '        model: Document,',
      '        required: true,',
      '      },',
      '    ],',
      '  });',
    ];
    const inserted = findSemanticChanges(`${[...lines.slice(0, 4), ...lines.slice(5)].join('\n')}\n`, `${lines.join('\n')}\n`, [
      { oldStart: 5, oldLines: 0, newStart: 5, newLines: 1 },
    ]).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(inserted, [
      [
        'option-flag',
        'required',
        "a row whose associated record is missing, or filtered out by the include's where (required: true makes the include an inner join that drops the row), and one whose record is there",
      ],
    ]);
    assert.deepEqual(
      one('  name: { type: String },', '  name: { type: String, required: true },').map(([kind, , , values]) => [kind, values]),
      [['option-flag', 'a request without the field, and with it empty']],
    );
  });

  // Fourth independent check (hono 4eb022de68): `replace(reg, v ? \`/${v}\` : '')` made `replace(reg, () => …)` so that
  // a `$` in a route parameter is no replacement pattern; nothing was asked.
  test('a replacement given as a function where it was text, or the reverse, asks for the $ patterns a string expands', () => {
    const replacement = (before: string, after: string) => escapingOf(before, after, 44);
    const DOLLARS = "a replacement value holding '$&', '$1', '$$'";
    assert.deepEqual(replacement("  url = url.replace(reg, v ? `/${v}` : '')", "  url = url.replace(reg, () => (v ? `/${v}` : ''))"), [
      ['replace(…, () => …)', 'replace(…, text)', DOLLARS],
    ]);
    assert.deepEqual(replacement('  s = s.replaceAll(/x/g, (m) => m + tail)', '  s = s.replaceAll(/x/g, `${tail}`)'), [
      ['replace(…, text)', 'replace(…, () => …)', DOLLARS],
    ]);
    // A name may hold either; the same kind on both sides changes nothing.
    assert.deepEqual(replacement('  s = s.replace(re, replacer)', '  s = s.replace(re, (m) => m.trim())'), []);
    assert.deepEqual(replacement("  s = s.replace(re, 'a')", "  s = s.replace(re, 'b')"), []);
  });

  // Checks 159-160: superagent's fix `encodeURIComponent(key)` → `encodeURI(key)` and morgan's quote replacement made
  // `JSON.stringify(format)` asked nothing; the characters the two escapings treat differently are the question.
  test('an escaping swapped, added or taken from a replaced line asks for the characters it treats differently', () => {
    const escaping = (before: string, after: string) => escapingOf(before, after, 40);
    const URL_TEXT = 'text holding the characters URL encoding';
    assert.deepEqual(
      escaping(
        "  pairs.push(encodeURIComponent(key) + '=' + encodeURIComponent(val));",
        "  pairs.push(encodeURI(key) + '=' + encodeURIComponent(val));",
      ),
      [['encodeURI', 'encodeURIComponent', URL_TEXT]],
    );
    // send's 8a44fe6: the encodeurl package's `encodeUrl` put around a redirect location (check 171).
    assert.deepEqual(
      escaping("  var loc = collapseLeadingSlashes(path + '/')", "  var loc = encodeUrl(collapseLeadingSlashes(path + '/'))"),
      [['encodeUrl', '', URL_TEXT]],
    );
    assert.deepEqual(escaping(`  var fmt = format.replace(/"/g, '\\\\"')`, '  var fmt = String(JSON.stringify(format))'), [
      ['JSON.stringify', 'replace(/"/)', 'text holding a double quote, a single qu'],
    ]);
    assert.deepEqual(escaping('  const label = name;', '  const label = escapeHtml(name);'), [
      ['escapeHtml', '', "text holding '<', '>', '&', '\"' and \"'\","],
    ]);
    assert.deepEqual(escaping('  const pattern = escapeRegExp(word);', '  const pattern = word;'), [
      ['escapeRegExp (removed)', 'escapeRegExp', "text holding regex metacharacters ('.', "],
    ]);
    // A pattern whose class holds a `/` is read whole; a replacement kept with another pattern is the regex case's.
    assert.deepEqual(escaping("  const safe = html.replace(/[<>/]/g, '');", '  const safe = html;'), [
      ['replace(/[<>/]/) (removed)', 'replace(/[<>/]/)', "text holding '<', '>', '&', '\"' and \"'\","],
    ]);
    assert.deepEqual(escaping("  const safe = html.replace(/[<>]/g, '');", "  const safe = html.replace(/[<>&]/g, '');"), []);
    // A serialiser alone escapes for no other syntax; the same escaping of another value is no change of escaping; a
    // name that only says quote is no call.
    assert.deepEqual(escaping('  res.send(data);', '  res.send(JSON.stringify(data));'), []);
    assert.deepEqual(escaping('  const q = encodeURIComponent(a);', '  const q = encodeURIComponent(b);'), []);
    assert.deepEqual(escaping('  const ok = isQuoted(name);', '  const ok = isQuoted(name) && quoted;'), []);
    assert.deepEqual(escaping("  log('escape(x) failed');", "  log('escape(y) failed');"), []);
    // Python and Go by their own names; a line new to the file is not compared.
    const language = (lang: 'python' | 'go', before: string, after: string) =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], lang)
        .filter((change) => change.kind === 'escaping')
        .map((change) => [change.subject, change.values.slice(0, 40)]);
    assert.deepEqual(language('python', '    q = quote(value)', '    q = quote_plus(value)'), [['quote_plus', URL_TEXT]]);
    assert.deepEqual(language('go', '\tu := url.QueryEscape(v)', '\tu := url.PathEscape(v)'), [['url.PathEscape', URL_TEXT]]);
    assert.deepEqual(language('go', '\ts := strconv.Quote(v)', '\ts := v'), [
      ['strconv.Quote (removed)', 'text holding a double quote, a single qu'],
    ]);
    assert.deepEqual(
      findInNewFile(['const label = escapeHtml(name);'], 'javascript').filter((change) => change.kind === 'escaping'),
      [],
    );
  });

  // Check 43 (node-fetch): three conditions read `protocol` from `parsedURL` where they read it from `options`; their
  // logic is as it was, and the question is whether the two objects hold the same value: one read case, not three.
  test('a condition that reads the same property from another object asks once whether the two differ', () => {
    const base = [
      "  if (!supportedSchemas.has(options.protocol)) throw new TypeError('scheme');",
      "  if (options.protocol === 'data:') return data();",
      "  const send = (options.protocol === 'https:' ? https : http).request;",
      '  send(options);',
      '',
    ].join('\n');
    // `options` lives on (node-fetch destructured `{parsedURL, options}`): no rename explains the edit away.
    const head = base.replaceAll('options.protocol', 'parsedURL.protocol');
    const changes = findSemanticChanges(base, head, [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3 }]);
    assert.deepEqual(
      changes.map((change) => [change.kind, change.line, change.subject, change.limit]),
      [['read', 1, 'parsedURL.protocol', 'options.protocol']],
    );
    // Two objects swapped for two others is no such swap: the condition itself changed.
    const twice = findSemanticChanges(
      '  if (options.protocol === other.protocol) return data();\n  send(options, other);\n',
      '  if (parsedURL.protocol === request.protocol) return data();\n  send(options, other);\n',
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
    );
    assert.deepEqual(
      twice.map((change) => change.kind),
      ['condition'],
    );
  });

  // Issue 41: h3 read `url.pathname` where it read `url.path`, zustand passed `get()` where it passed the stored state;
  // neither line decides anything, and both asked nothing, though the fix is about the input where the two differ.
  // Check 199 (auth0/node-jsonwebtoken 7f9604ac98): `return isInteger(value) || isString(value)` gained `&& value`, the
  // fix (an empty string no longer passes); the pattern read `return … && …` only with no space before the operator.
  test('a returned test that gains or loses an operand is a changed condition; a returned fallback is a default', () => {
    assert.deepEqual(one('    return isInteger(value) || isString(value);', '    return isInteger(value) || (isString(value) && value);'), [
      [
        'condition',
        'isInteger(value) || (isString(value) && value)',
        '',
        'an input for which isInteger(value) || (isString(value) && value) is true and one for which it is false',
      ],
    ]);
    assert.deepEqual(
      one('  return a && b;', '  return a && b && c;').map(([kind, subject]) => [kind, subject]),
      [['condition', 'a && b && c']],
    );
    assert.deepEqual(
      one('  return options.timeout || 1000;', '  return options.timeout || 2000;').map(([kind]) => kind),
      ['default'],
    );
    // As jsonwebtoken writes it: a one-line validator in an options schema.
    const validator = (test: string, message: string) =>
      `  expiresIn: { isValid: function(value) { return ${test}; }, message: '${message}' },`;
    assert.deepEqual(
      one(validator('isInteger(value) || isString(value)', 'm'), validator('isInteger(value) || (isString(value) && value)', 'm')).map(
        ([kind, subject]) => [kind, subject],
      ),
      [['condition', 'isInteger(value) || (isString(value) && value)']],
    );
    // The same test, another message or comment on its line: no decision changed.
    assert.deepEqual(one(validator('isInteger(value) || isString(value)', 'a'), validator('isInteger(value) || isString(value)', 'b')), []);
    assert.deepEqual(one('    return isA(value) || isB(value); // a', '    return isA(value) || isB(value); // b'), []);
  });

  test('another property read or another argument passed: the input where old and new differ', () => {
    assert.deepEqual(one('  const path = event.url.path;', '  const path = event.url.pathname;'), [
      ['read', 'event.url.pathname', 'event.url.path', 'an input for which event.url.path and event.url.pathname hold different values'],
    ]);
    const declared = '  const stateFromStorage = deserialize(raw);';
    const passed = findSemanticChanges(
      `${declared}\n  postRehydrationCallback?.(stateFromStorage, undefined);\n`,
      `${declared}\n  postRehydrationCallback?.(get(), undefined);\n`,
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
    ).map((change) => [change.kind, change.subject, change.limit, change.values]);
    assert.deepEqual(passed, [
      ['read', 'get()', 'stateFromStorage', 'an input for which stateFromStorage and get() differ, passed to postRehydrationCallback'],
    ]);
    // Not another value: a property on the way to the one read (an alias, as `req.connection` of `req.socket`), a
    // method called, a logging call, a literal for a literal, an argument added, an import, a comment.
    const none = [
      ['  const address = req.connection.remoteAddress;', '  const address = req.socket.remoteAddress;'],
      ['  const ok = items.some(isValid);', '  const ok = items.every(isValid);'],
      ['  logger.debug(user.name);', '  logger.debug(user.id);'],
      ['  console.log(options.retry);', '  console.log(options.limit);'],
      ['  wait(100);', '  wait(200);'],
      ['  send(body);', '  send(body, headers);'],
      // hono: an element of an array literal is passed to nothing (it read "passed to return").
      ['  return [regexp, handlerMap, staticMap];', '  return [regexp, handlers.map(toHandler), staticMap];'],
      ["import { parse } from './url.js';", "import { parse } from './path.js';"],
      ['  send(body); // the old body', '  send(body); // the new body'],
    ];
    for (const [before = '', after = ''] of none) assert.deepEqual(one(before, after), [], after);
    // A parameter list declares (socket.io's Decoder took options where it took a reviver): no value is passed. The
    // names live on in the file, so that no rename explains the edit away.
    const listed = (before: string, after: string) =>
      findSemanticChanges(`  use(reviver, opts, options);\n${before}\n`, `  use(reviver, opts, options);\n${after}\n`, [
        { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]);
    const lists = [
      ['  constructor(private reviver?: Reviver) {', '  constructor(opts?: Options | Reviver) {'],
      ['  function decode(text, reviver) {', '  function decode(text, options) {'],
      ['  const decode = (text, reviver) => {', '  const decode = (text, options) => {'],
      ['  decode(text, reviver) {', '  decode(text, options) {'],
    ];
    for (const [before = '', after = ''] of lists) assert.deepEqual(listed(before, after), [], after);
    assert.deepEqual(listed('  decode(text, reviver);', '  decode(text, options);'), [['read', 'options']]);
    // A name renamed throughout the file is the same value under another name.
    const renamed = findSemanticChanges('const saved = load();\ncallback(saved);\n', 'const restored = load();\ncallback(restored);\n', [
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 },
    ]);
    assert.deepEqual(renamed, []);
    // A local made a new field of `this`, assigned the same value (ky's `mainRequest` → `this._originalRequest`).
    const toField = findSemanticChanges(
      'const main = this.request;\nreturn fetch(main, options);\n',
      'this._original = this.request;\nreturn fetch(this._original, options);\n',
      [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 }],
    );
    assert.deepEqual(toField, []);
    // The same argument replaced while the old name lives on is another value.
    const replaced = findSemanticChanges('const saved = load();\ncallback(saved);\n', 'const saved = load();\ncallback(load());\n', [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
    ]).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(replaced, [['read', 'load()', 'saved']]);
    // Found on zustand: the hunk also dropped a comment above the call; the call pairs with the call, not the comment.
    const head = ['  const stateFromStorage = deserialize(raw);', '  if (stale) return;'];
    const withComment = findSemanticChanges(
      `${[...head, '  // TODO: pass get() here', '  // once it is safe', '  postRehydrationCallback?.(stateFromStorage, undefined);'].join('\n')}\n`,
      `${[...head, '  postRehydrationCallback?.(get(), undefined);'].join('\n')}\n`,
      [{ oldStart: 3, oldLines: 3, newStart: 3, newLines: 1 }],
    ).map((change) => [change.kind, change.line, change.subject, change.limit]);
    assert.deepEqual(withComment, [['read', 3, 'get()', 'stateFromStorage']]);
    // The same value replaced in two hunks (ky's `request` for `this.#originalRequest`) asks once.
    const twice = [
      'const request = this.#originalRequest;',
      'fetch(this.#originalRequest, options);',
      '',
      '',
      '',
      'timeout(this.#originalRequest, options);',
    ];
    const both = findSemanticChanges(
      `${twice.join('\n')}\n`,
      `${twice.map((line) => (line.startsWith('const') ? line : line.replace('this.#originalRequest', 'request'))).join('\n')}\n`,
      [
        { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
        { oldStart: 6, oldLines: 1, newStart: 6, newLines: 1 },
      ],
    ).map((change) => [change.kind, change.line, change.subject, change.limit]);
    assert.deepEqual(both, [['read', 2, 'request', 'this.#originalRequest']]);
  });

  // Check 17 (TanStack Query): a callback's parameter renamed where a new local takes its old name, and a multi-line
  // `||` chain reordered, each read as another value.
  test('a binding renamed where it is declared, or a chain reordered, is no other value read', () => {
    const renamedParameter = findSemanticChanges(
      ['list.forEach((query) => {', '  ensureTimers(query)', '  ensureRetry(query, boundary)', '})'].join('\n'),
      [
        'list.forEach((queryOptions) => {',
        '  ensureTimers(queryOptions)',
        '  const query = cache.get(queryOptions.queryHash)',
        '  ensureRetry(queryOptions, boundary, query)',
        '})',
      ].join('\n'),
      [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 }],
    );
    assert.deepEqual(renamedParameter, []);
    // The same edit without the rename where the binding is declared: `query` is still the parameter, another value.
    const passed = findSemanticChanges(
      ['list.forEach((query) => {', '  ensureTimers(query)', '})'].join('\n'),
      ['list.forEach((query) => {', '  ensureTimers(queryOptions)', '})'].join('\n'),
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
    ).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(passed, [['read', 'queryOptions', 'query']]);
    // Both names live on elsewhere in the file, so that no rename throughout it explains the edit away.
    const chain = (links: string[]) =>
      ['  log(options.throwOnError, options.prefetchInRender)', '  if (', ...links, '  ) {', '    stop()', '  }'].join('\n');
    const reordered = findSemanticChanges(
      chain(['    options.suspense ||', '    options.throwOnError ||', '    options.prefetchInRender']),
      chain(['    options.suspense ||', '    options.prefetchInRender ||', '    options.throwOnError']),
      [{ oldStart: 4, oldLines: 2, newStart: 4, newLines: 2 }],
    );
    assert.deepEqual(reordered, []);
    const swapped = findSemanticChanges(
      chain(['    options.suspense ||', '    options.throwOnError']),
      chain(['    options.suspense ||', '    options.prefetchInRender']),
      [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }],
    ).map((change) => [change.kind, change.subject]);
    assert.deepEqual(swapped, [['read', 'options.prefetchInRender']]);
  });

  // Check 17 (TanStack Query): prettier puts a long ternary's test on a line of its own, its `?` opening the next one;
  // the fix's new branch (`status === 'pending'`, `subscribed`) asked nothing.
  test("a ternary's test on a line of its own, the `?` on the next: both outcomes", () => {
    const pending = findSemanticChanges(
      ['  return (', '    this.retryer?.continue() ??', '    this.execute(this.state.variables!)', '  )'].join('\n'),
      [
        '  return (',
        '    this.retryer?.continue() ??',
        "    (this.state.status === 'pending'",
        '      ? this.execute(this.state.variables!)',
        '      : Promise.resolve())',
        '  )',
      ].join('\n'),
      [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 3 }],
    ).map((change) => [change.kind, change.subject]);
    assert.deepEqual(pending, [['condition', "this.state.status === 'pending'"]]);
    const nested = findSemanticChanges(
      ['  options.results = isRestoring', "    ? 'isRestoring'", "    : 'optimistic'"].join('\n'),
      ['  options.results = isRestoring', "    ? 'isRestoring'", '    : subscribed', "      ? 'optimistic'", '      : undefined'].join(
        '\n',
      ),
      [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 3 }],
    ).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(nested, [['condition', 'subscribed', 'an input for which subscribed is true and one for which it is false']]);
    // Shown as written: hono's `'/*'` is a string, not a comment that would have the strings emptied.
    const wildcard = findSemanticChanges(
      ['  const tail = metaChar', '    ? escape(metaChar)', "    : '(?:|/.*)'"].join('\n'),
      ['  const tail = metaChar', '    ? escape(metaChar)', "    : match === '/*'", '      ? TAIL', '      : LABEL'].join('\n'),
      [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 3 }],
    ).map((change) => [change.kind, change.subject]);
    assert.deepEqual(wildcard, [['condition', "match === '/*'"]]);
    // pino-pretty: a ternary the old line made inline, in a template, given a name of its own: the same decision.
    const named = findSemanticChanges(
      '  line += `<${prettifiers.caller ? prettifiers.caller(log.caller) : log.caller}>`',
      [
        '  const prettyCaller = prettifiers.caller',
        "    ? prettifiers.caller(log.caller, 'caller', log)",
        '    : log.caller',
        '  line += `<${prettyCaller}>`',
      ].join('\n'),
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 4 }],
    ).filter((change) => change.kind === 'condition');
    assert.deepEqual(named, []);
    // The test the old code made, its branches rewritten: no new decision.
    const same = findSemanticChanges(
      ['  const mode = isRestoring', "    ? 'isRestoring'", "    : 'optimistic'"].join('\n'),
      ['  const mode = isRestoring', "    ? 'restoring'", "    : 'optimistic'"].join('\n'),
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
    );
    assert.deepEqual(same, []);
  });

  // Check 17 (TanStack Query): `!this.#combinedResult ||` dropped from an `if`, so that a falsy combined result is kept
  // rather than computed again; a deletion alone asked nothing.
  test('a link of a multi-line chain removed with nothing in its place: the input it alone decided', () => {
    const condition = (links: string[]) =>
      [
        '  if (',
        ...links,
        '    this.result !== this.lastResult ||',
        '    combine !== this.lastCombine',
        '  ) {',
        '    recompute()',
        '  }',
      ].join('\n');
    const dropped = findSemanticChanges(condition(['    !this.combinedResult ||']), condition([]), [
      { oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 },
    ]).map((change) => [change.kind, change.line, change.before, change.subject]);
    assert.deepEqual(dropped, [['condition', 2, '!this.combinedResult ||', '!this.combinedResult']]);
    // Still tested by an added line of the change (moved into a name): no case.
    const moved = findSemanticChanges(
      `  const stale = false;\n${condition(['    !this.combinedResult ||'])}\n`,
      `  const stale = !this.combinedResult;\n${condition([])}\n`,
      [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
        { oldStart: 3, oldLines: 1, newStart: 2, newLines: 0 },
      ],
    ).filter((change) => change.after === '');
    assert.deepEqual(moved, []);
    // A removed statement is no link of a chain.
    const statement = findSemanticChanges('  run();\n  stop();\n', '  run();\n', [{ oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 }]);
    assert.deepEqual(statement, []);
  });

  // Check 17 (TanStack Query's broadcast client): `cb()` wrapped in try/finally so that a throwing callback no longer
  // leaves `transaction` set; nothing asked for the callback that throws.
  test('a finally added around a block: a call in it that throws, and the cleanup after', () => {
    const wrapped = findSemanticChanges(
      ['  transaction = true', '  cb()', '  transaction = false'].join('\n'),
      ['  transaction = true', '  try {', '    cb()', '  } finally {', '    transaction = false', '  }'].join('\n'),
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 5 }],
    ).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(wrapped, [['error-path', 4, 'the cleanup']]);
    // A finally the old code had already: no case.
    assert.deepEqual(one('  } finally { release()', '  } finally { release(lock)'), []);
    // Check 18 (vite): a new catch is reached by a failure of what it guards, not by "an input that makes this line run".
    const caught = findSemanticChanges(
      ['  await hook()', '  await close()'].join('\n'),
      ['  try {', '    await hook()', '  } catch (error) {', '    failure = error', '  }', '  await close()'].join('\n'),
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 5 }],
    ).map((change) => [change.kind, change.line, change.values]);
    assert.deepEqual(caught, [['error-path', 3, 'a call the catch guards that throws (or a promise it awaits that rejects)']]);
    // Check 18 (vite): a `try {` wrapped in a new `if`: the `if` is a new condition, not the `try` rewritten.
    const guarded = findSemanticChanges(
      ['  try {', '    root = realpath(root)', '  } catch {}'].join('\n'),
      ['  if (!config.preserveSymlinks) {', '    try {', '      root = realpath(root)', '    } catch {}', '  }'].join('\n'),
      [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 5 }],
    ).map((change) => [change.kind, change.subject]);
    assert.deepEqual(guarded[0], ['condition', '(!config.preserveSymlinks)']);
  });

  // Check 19 (medusa): `transactionId: ulid(),` moved above `...sharedContext,` so that a parent's transaction id is
  // inherited; a key moved across a spread asked nothing.
  test('a key moved above a spread of its object: the spread now wins, the moved value is a default', () => {
    const object = (lines: string[]) => ['  run({', '    context: {', ...lines, '    },', '  })'].join('\n');
    const moved = findSemanticChanges(
      object(['      ...sharedContext,', '      parentKey: key,', '      transactionId: ulid(),']),
      object(['      transactionId: ulid(),', '      ...sharedContext,', '      parentKey: key,']),
      [
        { oldStart: 2, oldLines: 0, newStart: 3, newLines: 1 },
        { oldStart: 5, oldLines: 1, newStart: 5, newLines: 0 },
      ],
    ).map((change) => [change.kind, change.subject, change.limit, change.before, change.after]);
    assert.deepEqual(moved, [
      ['default', 'transactionId', 'ulid()', '...sharedContext, transactionId: ulid()', 'transactionId: ulid(), ...sharedContext'],
    ]);
    // Moved within the keys on the same side of the spread: no case.
    const reordered = findSemanticChanges(
      object(['      ...sharedContext,', '      parentKey: key,', '      transactionId: ulid(),']),
      object(['      ...sharedContext,', '      transactionId: ulid(),', '      parentKey: key,']),
      [{ oldStart: 4, oldLines: 2, newStart: 4, newLines: 2 }],
    );
    assert.deepEqual(reordered, []);
  });

  // Check 19 (medusa): a fallback whose value goes on to the next line, and one that calls a method.
  test('a fallback read whole: its value on the next line, a call in it', () => {
    const split = findSemanticChanges(
      '  const method = options.method || (hasLocal ? "local" : "memory")\n',
      '  const method = options.method ||\n    (hasLocal ? "local" : "nostore")\n',
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
    ).map((change) => [change.kind, change.limit]);
    assert.deepEqual(split, [['default', '(hasLocal ? "local" : "nostore")']]);
    assert.deepEqual(
      one('  return (transaction ?? manager ?? this.manager_) as T', '  return (transaction ?? manager ?? this.freshManager()) as T').map(
        ([kind, , limit]) => [kind, limit],
      ),
      [['default', 'manager ?? this.freshManager()']],
    );
    // A ternary in brackets tests what stands before its `?`, not the whole bracket.
    assert.deepEqual(
      one('    (hasLocal ? "local" : "memory")', '    (hasLocal && !isServer ? "local" : "memory")').map(([kind, subject]) => [
        kind,
        subject,
      ]),
      [['condition', 'hasLocal && !isServer']],
    );
  });

  // Check 20 (click): `if WIN:` in a new branch asked for "an input for which WIN is true"; the platform decides it.
  test('a test of one upper-case constant asks nothing; a test of a value still asks', () => {
    const added = (line: string) =>
      findSemanticChanges('a\n', `a\n${line}\n`, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }]).map((change) => [
        change.kind,
        change.subject,
      ]);
    for (const line of ['  if (WIN) {', '  if (!__DEV__) {', '  if (IS_BROWSER) return;']) assert.deepEqual(added(line), [], line);
    assert.deepEqual(added('  if (isWin) {'), [['condition', '(isWin)']]);
    assert.deepEqual(added('  if (WIN && path.includes(":")) {'), [['condition', '(WIN && path.includes(":"))']]);
    // Check 25 (starlette): `if sys.version_info < (3, 11):` asks nothing; the interpreter decides it, as the platform does.
    assert.deepEqual(added("  if (process.platform === 'win32') {"), []);
    assert.deepEqual(added("  if (process.env.NODE_ENV !== 'production') {"), []);
    // Check 36 (jotai): Vite's build mode, as the build decides it.
    assert.deepEqual(added("    if (import.meta.env?.MODE !== 'production') {"), []);
    const python = (line: string) =>
      findSemanticChanges('a = 1\n', `a = 1\n${line}\n    b = 2\n`, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 2 }], 'python').map(
        (change) => [change.kind, change.subject],
      );
    for (const line of ['if sys.version_info < (3, 11):', 'if sys.platform == "win32":', 'if os.name == "nt":'])
      assert.deepEqual(python(line), [], line);
    assert.deepEqual(python('if version < (3, 11):').length, 1);
  });

  // Check 177 (h3): serveStatic's `if (!options.fallthrough) { throw … } return false;` became `if (options.fallthrough)
  // { return; } throw …`: a fall-through now gives undefined where it gave false, and nothing asked it.
  test('a return of another literal than the return the hunk removed asks what every caller gets', () => {
    const returned = (before: string, after: string) =>
      findSemanticChanges(
        `function f(o) {\n  if (o.m) {\n${before}\n  }\n  return 1;\n}\n`,
        `function f(o) {\n  if (o.m) {\n${after}\n  }\n  return 1;\n}\n`,
        [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }],
      ).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(returned('    return false;', '    return;'), [['return', 'now returns undefined where it returned false', 'false']]);
    assert.deepEqual(returned('    return null;', '    return [];'), [['return', 'now returns [] where it returned null', 'null']]);
    assert.deepEqual(returned("    return 'a';", '    return 0;'), [['return', "now returns 0 where it returned 'a'", "'a'"]]);
    // Without the evidence: the same literal, a value that is no literal, or no removed return.
    assert.deepEqual(returned('    return null; // none', '    return null;'), []);
    assert.deepEqual(
      returned('    return null;', '    return cached;').filter(([kind]) => kind === 'return'),
      [],
    );
    assert.deepEqual(
      returned('    log(o);', '    return false;').filter(([kind]) => kind === 'return'),
      [],
    );
    // As git splits h3's rewrite: `return;` in one hunk, the `return false;` it replaced in the next, a few lines down.
    const guard = [
      'function f(o) {',
      '  if (!o.fallthrough) {',
      '    o.headers.set("allow", "GET");',
      '    throw new Error("x");',
      '  }',
      '  return false;',
      '}',
      '',
    ].join('\n');
    const swapped = [
      'function f(o) {',
      '  if (o.fallthrough) {',
      '    return;',
      '  }',
      '  o.headers.set("allow", "GET");',
      '  throw new Error("x");',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(
      findSemanticChanges(guard, swapped, [
        { oldStart: 2, oldLines: 3, newStart: 2, newLines: 2 },
        { oldStart: 6, oldLines: 1, newStart: 5, newLines: 2 },
      ])
        .filter((change) => change.kind === 'return')
        .map((change) => [change.line, change.subject]),
      [[3, 'now returns undefined where it returned false']],
    );
    // The swapped guard of h3: the condition and the value returned, each once.
    const base = 'function f(o) {\n  if (!o.fallthrough) {\n    throw new Error("x");\n  }\n  return false;\n}\n';
    const head = 'function f(o) {\n  if (o.fallthrough) {\n    return;\n  }\n  throw new Error("x");\n}\n';
    assert.deepEqual(
      findSemanticChanges(base, head, [{ oldStart: 2, oldLines: 4, newStart: 2, newLines: 4 }]).map((change) => [change.kind, change.line]),
      [
        ['condition', 2],
        ['return', 3],
      ],
    );
  });

  // Check 192 (hedgedoc): getRevisionDto gained `.andWhere(FieldNameRevision.noteId, noteId)`, so a revision of another
  // note is no longer served; the route's path-parameter case was all it asked.
  test('a filter link added to a query chain asks for a row the new filter leaves out; a where of no query asks nothing', () => {
    const start = '  const revision = await this.knex(TableRevision)';
    const query = (link: string) =>
      findSemanticChanges(
        [start, '    .select(Field.uuid)', '    .where(Field.uuid, uuid)', '    .first();', ''].join('\n'),
        [start, '    .select(Field.uuid)', '    .where(Field.uuid, uuid)', link, '    .first();', ''].join('\n'),
        [{ oldStart: 4, oldLines: 0, newStart: 4, newLines: 1 }],
      ).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(query('    .andWhere(Field.noteId, noteId)'), [['filter', 'the query now also filters on Field.noteId', 'andWhere']]);
    // hedgedoc's select lists its columns on lines of their own: the statement is read from its start.
    const columns = [
      '  const revision = await this.knex(TableRevision)',
      '    .select(',
      '      Field.uuid,',
      '      Field.patch,',
      '    )',
    ];
    assert.deepEqual(
      findSemanticChanges(
        [...columns, '    .where(Field.uuid, uuid)', '    .first();', ''].join('\n'),
        [...columns, '    .where(Field.uuid, uuid)', '    .andWhere(Field.noteId, noteId)', '    .first();', ''].join('\n'),
        [{ oldStart: 7, oldLines: 0, newStart: 7, newLines: 1 }],
      ).map((change) => [change.kind, change.line]),
      [['filter', 7]],
    );
    assert.deepEqual(query("    .orWhere('public', true)"), [['filter', "the query now also returns rows matching 'public'", 'orWhere']]);
    // Without the evidence: a chain that reads as no query (a collection library's `where` on a list).
    assert.deepEqual(
      findSemanticChanges(
        ['  const open = _(tickets)', '    .filter(Boolean)', '    .value();', ''].join('\n'),
        ['  const open = _(tickets)', '    .filter(Boolean)', "    .where({ state: 'open' })", '    .value();', ''].join('\n'),
        [{ oldStart: 3, oldLines: 0, newStart: 3, newLines: 1 }],
      ).filter((change) => change.kind === 'filter'),
      [],
    );
  });

  // Check 182 (execa): a branch written above an `if` the change kept as its `else if` showed as a rewrite of that `if`
  // ("if (next === 'u' && …) → if (next === '\n')"): it is a new line, and the kept test asks nothing.
  test('a new branch above an if kept as its else-if is new code, not a rewrite of it', () => {
    const base = [
      "if (raw === '\\\\') {",
      "  if (next === 'u' && raw[i + 2] === '{') {",
      '    i = raw.indexOf("}", i + 3);',
      '  }',
      '}',
      '',
    ].join('\n');
    const head = [
      "if (raw === '\\\\') {",
      "  if (next === '\\n') {",
      '    i += 1;',
      "  } else if (next === 'u' && raw[i + 2] === '{') {",
      '    i = raw.indexOf("}", i + 3);',
      '  }',
      '}',
      '',
    ].join('\n');
    const changes = findSemanticChanges(base, head, [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }]);
    assert.deepEqual(
      changes.map((change) => [change.kind, change.line, change.before, change.subject]),
      [['condition', 2, '', "(next === '\\n')"]],
    );
  });

  // Check 180 (codimd): a new `parseUrl` asked "an input for which (url.URL) is true and one for which it is false"; the
  // Node version decides whether the url module has URL, no input does.
  test('a test of whether one of Node own modules has a member asks nothing; the same test of a value still asks', () => {
    const added = (header: string, line: string) => {
      const at = header.split('\n').length;
      return findSemanticChanges(`${header}\n`, `${header}\n${line}\n`, [{ oldStart: at, oldLines: 0, newStart: at + 1, newLines: 1 }]).map(
        (change) => [change.kind, change.subject],
      );
    };
    assert.deepEqual(added("var url = require('url')", '  if (url.URL) {'), []);
    assert.deepEqual(added("import * as crypto from 'node:crypto';", "  if (typeof crypto.randomUUID === 'function') {"), []);
    assert.deepEqual(added("import url from 'url';", '  if (!url.URL) return null;'), []);
    // A binding of a package, or a value's member, is the caller's: still asked.
    assert.deepEqual(added("const got = require('got')", '  if (got.extend) {'), [['condition', '(got.extend)']]);
    assert.deepEqual(added("var url = require('url')", '  if (options.URL) {'), [['condition', '(options.URL)']]);
    // A file that also binds the name otherwise (a parameter `url`): its member may be the caller's.
    assert.deepEqual(added("var url = require('url')\nfunction get(url) {", '  if (url.host) {'), [['condition', '(url.host)']]);
    assert.deepEqual(added("const url = require('node:url')\nconst open = (url) => 1;", '  if (url.URL) {'), [['condition', '(url.URL)']]);
  });

  // Check 15 (socket.io's adapter): `return debug(…)` in a catch became `debug(…)`, so a failed publish no longer stops
  // the local broadcast; nothing asked.
  test('the same statement no longer returned, or now returned: the code after it runs, or stops', () => {
    const catchBlock = (returned: boolean): string =>
      [
        '  try {',
        '    offset = await this.publishAndReturnOffset(message);',
        '  } catch (e) {',
        returned ? '    return debug(' : '    debug("[%s] error while broadcasting message: %s", this.uid, e.message);',
        ...(returned ? ['      "[%s] error while broadcasting message: %s",', '      this.uid,', '      e.message,', '    );'] : []),
        '  }',
        '  super.broadcast(packet, opts);',
      ].join('\n');
    const dropped = findSemanticChanges(`${catchBlock(true)}\n`, `${catchBlock(false)}\n`, [
      { oldStart: 4, oldLines: 5, newStart: 4, newLines: 1 },
    ]).map((change) => [change.kind, change.line, change.subject, change.values]);
    assert.deepEqual(dropped, [
      [
        'exit',
        4,
        'no longer returns here',
        'an input that reaches line 4, asserting what the code after it now does (it stopped there before)',
      ],
    ]);
    assert.deepEqual(
      one('  cleanup(state);', '  return cleanup(state);').map(([kind, subject]) => [kind, subject]),
      [['exit', 'now returns here']],
    );
    // Another statement returned is no exit changed; nor is the return of another value.
    assert.ok(!one('  return cleanup(state);', '  return cleanup(next);').some(([kind]) => kind === 'exit'));
    assert.deepEqual(one('  cleanup(state);', '  return done(state);'), []);
  });

  // Check 26 (undici): the retry policy's last statement became `return setTimeout(…)` to hand its timer back; nothing
  // followed it in the function, so nothing stops running.
  test("a statement returned at the end of a function body stops nothing; at the end of an if's block it still does", () => {
    const body = (opener: string, returned: boolean): string =>
      [
        `  ${opener}`,
        '    const wait = Math.min(minTimeout, maxTimeout)',
        `    ${returned ? 'return ' : ''}setTimeout(() => cb(null), wait)`,
        '  }',
        '  next()',
      ].join('\n');
    const exits = (opener: string): string[] =>
      findSemanticChanges(`${body(opener, false)}\n`, `${body(opener, true)}\n`, [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }])
        .filter((change) => change.kind === 'exit')
        .map((change) => change.subject);
    assert.deepEqual(exits('static [kDefaultRetry] (err, { state, opts }, cb) {'), []);
    assert.deepEqual(exits('function retry (err, cb) {'), []);
    assert.deepEqual(exits('const retry = (err, cb) => {'), []);
    assert.deepEqual(exits('if (shouldWait) {'), ['now returns here']);
    assert.deepEqual(exits('for (const item of items) {'), ['now returns here']);
  });

  // Check 35 (chi's RouteHeaders): `if len(hr) == 0 { next.ServeHTTP(w, r) }` went on to match routes; the fix added the
  // `return` it lacked, and nothing asked.
  test('a return added at the end of an unchanged if block stops what followed the block; not at the end of a function', () => {
    const go = [
      'func (hr HeaderRouter) Handler(next http.Handler) http.Handler {',
      '\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {',
      '\t\tif len(hr) == 0 {',
      '\t\t\t// skip if no routes set',
      '\t\t\tnext.ServeHTTP(w, r)',
      '\t\t}',
      '',
      '\t\tfor header, matchers := range hr {',
      '\t\t\tmatch(header, matchers)',
      '\t\t}',
      '\t})',
      '}',
    ];
    const withReturn = [...go.slice(0, 5), '\t\t\treturn', ...go.slice(5)];
    const added = (base: string[], head: string[], at: number, language: 'javascript' | 'go' = 'go') =>
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${head.join('\n')}\n`,
        [{ oldStart: at - 1, oldLines: 0, newStart: at, newLines: 1 }],
        language,
      ).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(added(go, withReturn, 6), [['exit', 6, 'now returns here']]);
    // JavaScript the same; nothing after the block in its function, nothing stops.
    const js = [
      'function handle(req, res) {',
      '  if (!req.user) {',
      "    res.status(401).send('no');",
      '  }',
      '  res.send(load(req));',
      '}',
    ];
    assert.deepEqual(added(js, [...js.slice(0, 3), '    return;', ...js.slice(3)], 4, 'javascript'), [['exit', 4, 'now returns here']]);
    const last = ['function handle(req, res) {', '  if (!req.user) {', "    res.status(401).send('no');", '  }', '}'];
    assert.deepEqual(added(last, [...last.slice(0, 3), '    return;', ...last.slice(3)], 4, 'javascript'), []);
    // A return in a block that is not an if's, or as a block's only statement, is not this case.
    const loop = ['for (const item of items) {', '  send(item);', '}', 'done();'];
    assert.deepEqual(added(loop, [...loop.slice(0, 2), '  return;', ...loop.slice(2)], 3, 'javascript'), []);
  });

  // Check 37 (fastapi): `if os.path.splitext(final_segment)[1]: return False` removed from the navigation check, and
  // nothing asked.
  test('a guard clause removed whole asks what its inputs now run; one moved elsewhere, or with no exit, does not', () => {
    const removed = (
      base: string[],
      at: number,
      count: number,
      language: 'javascript' | 'python' | 'go' = 'javascript',
      head?: string[],
    ) => {
      const after = head ?? [...base.slice(0, at - 1), ...base.slice(at - 1 + count)];
      return findSemanticChanges(
        `${base.join('\n')}\n`,
        `${after.join('\n')}\n`,
        [{ oldStart: at, oldLines: count, newStart: at - 1, newLines: 0 }],
        language,
      ).map((change) => [change.kind, change.line, change.subject, change.values]);
    };
    const python = [
      'def is_navigation(scope):',
      '    final_segment = path.rsplit("/", 1)[-1]',
      '    if os.path.splitext(final_segment)[1]:',
      '        return False',
      '    return accepts_html(scope)',
    ];
    assert.deepEqual(removed(python, 3, 2, 'python'), [
      [
        'exit',
        3,
        'no longer returns here',
        'an input for which os.path.splitext(final_segment)[1] holds, asserting what the code after it now does (it stopped there before)',
      ],
    ]);
    const js = [
      'function send(req, res) {',
      '  if (!req.user) {',
      '    return res.status(401).end();',
      '  }',
      '  res.json(load(req));',
      '}',
    ];
    assert.deepEqual(
      removed(js, 2, 3).map(([kind, line, subject]) => [kind, line, subject]),
      [['exit', 2, 'no longer returns here']],
    );
    assert.deepEqual(removed(['function f(x) {', '  if (x) return 1;', '  return 2;', '}'], 2, 1).length, 1);
    const go = ['func f(x int) int {', '\tif x < 0 {', '\t\treturn 0', '\t}', '\treturn x', '}'];
    assert.deepEqual(removed(go, 2, 3, 'go').length, 1);
    // Written again below: moved, not removed. No exit in the block: nothing stopped there.
    const moved = [
      'function send(req, res) {',
      '  res.json(load(req));',
      '  if (!req.user) {',
      '    return res.status(401).end();',
      '  }',
      '}',
    ];
    assert.deepEqual(
      findSemanticChanges(`${js.join('\n')}\n`, `${moved.join('\n')}\n`, [
        { oldStart: 2, oldLines: 3, newStart: 1, newLines: 0 },
        { oldStart: 5, oldLines: 0, newStart: 3, newLines: 3 },
      ]).filter((change) => change.kind === 'exit'),
      [],
    );
    assert.deepEqual(removed(['function f(x) {', '  if (x) {', '    log(x);', '  }', '  return 2;', '}'], 2, 3), []);
    // Its test made again by new code (ky 7c7f5fe1b3 moved `_retry`'s guard for methods it does not retry into the caller's
    // ternary): moved. A bare name tested again is no evidence of that.
    const retry = [
      'function run(fn) {',
      '  const isRetriable = retryMethods.has(this._options.method.toLowerCase());',
      '  return isRetriable ? this._retry(fn) : fn;',
      '}',
      '_retry(fn) {',
      '  if (!retryMethods.has(this._options.method.toLowerCase())) {',
      '    return fn;',
      '  }',
      '  return attempt(fn);',
      '}',
    ];
    const guard = (first: string) =>
      findSemanticChanges(
        `${['function run(fn) {', '  return this._retry(fn);', '}', ...retry.slice(4)].join('\n')}\n`,
        `${[...retry.slice(0, 1), first, ...retry.slice(2, 5), ...retry.slice(8)].join('\n')}\n`,
        [
          { oldStart: 2, oldLines: 1, newStart: 2, newLines: 2 },
          { oldStart: 5, oldLines: 3, newStart: 5, newLines: 0 },
        ],
      ).filter((change) => change.kind === 'exit');
    assert.deepEqual(guard(retry[1] ?? ''), []);
    assert.deepEqual(
      guard('  const isRetriable = isRetriableMethod(this._options);').map((change) => change.subject),
      ['no longer returns here'],
    );
    // Check 129 (pocketbase c388ade): a function removed whole, its guard with it: no input reaches what followed.
    const file = ['package core', '', ...go, '', 'func g() int {', '\treturn 1', '}'];
    assert.deepEqual(removed(file, 3, 7, 'go'), []);
    assert.deepEqual(removed(['const a = 1;', ...js, 'const b = 2;'], 2, 7), []);
    assert.deepEqual(removed(['x = 1', ...python, 'y = 2'], 2, 5, 'python'), []);
    // Check 137 (find-my-way): a check the module makes on its own code as it loads, no input reaching it.
    const loadCheck = ['const RE = /a/;', 'if (!isRegexSafe(RE)) {', "  throw new Error('unsafe');", '}', 'module.exports = RE;'];
    assert.deepEqual(removed(loadCheck, 2, 3), []);
    assert.deepEqual(removed(['import sys', 'if sys.version_info < (3, 9):', '    raise ImportError("old")', 'x = 1'], 2, 2, 'python'), []);
    // One on the environment is configuration: still asked.
    const envCheck = ['if (!process.env.SECRET) {', "  throw new Error('SECRET is required');", '}', 'module.exports = 1;'];
    assert.deepEqual(
      removed(envCheck, 1, 3).map(([kind, line]) => [kind, line]),
      [['exit', 1]],
    );
  });

  // Check 36 (jotai): `if (!fns.size)` became `if (!fns!.size)`, and a counter's `c + 1` moved into a new callback.
  test('a non-null assertion changes no decision; arithmetic a removed line already did is moved', () => {
    const pair = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(pair(['    if (!fns.size) {'], ['    if (!fns!.size) {']), []);
    // An exclamation mark in a string is a message changed, not an assertion.
    assert.deepEqual(pair(["    if (mode === 'on!') {"], ["    if (mode === 'on') {"]), [['condition', "(mode === 'on')"]]);
    assert.deepEqual(pair(['    if (!fns.size) {'], ['    if (!fns!.length) {']), [['condition', '(!fns!.length)']]);
    assert.deepEqual(
      pair(
        [
          '    const refreshAtom = atom([() => {}, 0] as [() => void, number])',
          '    refreshAtom.INTERNAL_onInit = (store) => {',
          '      store.set(refreshAtom, ([, c]) => [',
          '        () => store.set(refreshAtom, ([f, c]) => [f, c + 1]),',
          '        c,',
        ],
        [
          '    const refreshAtom = atom(0)',
          '    const triggerRefreshAtom = atom([] as [triggerRefresh?: () => void])',
          '    triggerRefreshAtom.INTERNAL_onInit = (store) => {',
          '      store.set(triggerRefreshAtom, [',
          '        () => store.set(refreshAtom, (c) => c + 1),',
        ],
      ),
      [],
    );
    // New arithmetic still asks, also chained onto an old operation.
    assert.deepEqual(pair(['  const total = price;'], ['  const total = price * 1.2;']), [['arithmetic', 'the arithmetic']]);
    assert.deepEqual(pair(['  return amount * 100;'], ['  return amount * 100 + fee;']), [['arithmetic', 'the arithmetic']]);
    // Counting asks no halves (check 115, objection's `obj[key] = (obj[key] || 0) + 1`), nor a length plus one.
    assert.deepEqual(pair(['  if (!_.has(obj, key)) {'], ['  obj[key] = (obj[key] || 0) + 1;']), []);
    assert.deepEqual(pair(['  const n = items.length;'], ['  const n = items.length + 1;']), []);
    assert.deepEqual(pair(['  const n = items.length;'], ['  const n = items.length * ratio;']), [['arithmetic', 'the arithmetic']]);
  });

  // Check 88 (validator.js isTaxID): `checksum % 11` became `(checksum % 11) % 10`, so a checksum of 10 gives the digit 0.
  test('a remainder added or its modulus changed asks where it wraps, a comparator asks the order, not halves', () => {
    const pair = (before: string, after: string, language?: 'python' | 'go') =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], language).map((change) => [
        change.kind,
        change.subject,
        change.values,
      ]);
    const js = 'a value whose remainder by 10 is 0, one whose remainder is 9, and a negative value';
    assert.deepEqual(
      pair('  return (parseInt(tin[10], 10) === checksum % 11);', '  return (parseInt(tin[10], 10) === ((checksum % 11) % 10));'),
      [['remainder', 'the remainder by 10', `${js} (JavaScript's % keeps the dividend's sign)`]],
    );
    assert.deepEqual(pair('  checksum = 10 - (checksum % 10);', '  checksum = (10 - (checksum % 10)) % 10;'), [
      ['remainder', 'the remainder by 10', `${js} (JavaScript's % keeps the dividend's sign)`],
    ]);
    assert.deepEqual(
      pair('  const slot = hash % 11;', '  const slot = hash % size;').map(([kind, subject]) => [kind, subject]),
      [['remainder', 'the remainder by size']],
    );
    assert.deepEqual(pair('    digit = total % 11', '    digit = total % 11 % 10', 'python'), [
      [
        'remainder',
        'the remainder by 10',
        "a value whose remainder by 10 is 0, one whose remainder is 9, and a negative value (Python's % takes the divisor's sign)",
      ],
    ]);
    // Check 89 (luxon): `.sort()` given a comparator orders by time; its subtraction rounds nothing.
    assert.deepEqual(
      pair('      .sort(),', '      .sort((a, b) => a.toMillis() - b.toMillis()),').map(([kind, subject]) => [kind, subject]),
      [['order', 'the sort order']],
    );
    assert.deepEqual(
      pair('    return sorted(items, key=len)', '    return sorted(items, key=lambda item: item.size)', 'python').map(([kind]) => kind),
      ['order'],
    );
    // The same sort on a line changed elsewhere asks nothing of its order.
    assert.deepEqual(pair('  const names = list.sort(byName);', '  const names = [...list].sort(byName);'), []);
    // Check 90 (loguru): a boundary on a subscript by a string is shown as written, not as the code with strings emptied.
    const added = findSemanticChanges(
      'def emit(self, message):\n    self._handler.handle(message)\n',
      'def emit(self, message):\n    if message.record["level"].no < self._handler.level:\n        return\n    self._handler.handle(message)\n',
      [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 2 }],
      'python',
    ).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(added, [['boundary', 'message.record["level"].no', 'self._handler.level']]);
    // Check 94 (mapstructure): `return err` → `return false, err` gave the function a result; the error path is the same.
    const go = (before: string, after: string) =>
      findSemanticChanges(
        `func f() (bool, error) {\n\tif err != nil {\n${before}\n\t}\n}\n`,
        `func f() (bool, error) {\n\tif err != nil {\n${after}\n\t}\n}\n`,
        [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }],
        'go',
      ).map((change) => change.kind);
    assert.deepEqual(go('\t\treturn err', '\t\treturn false, err'), []);
    assert.deepEqual(go('\t\treturn nil, err', '\t\treturn Config{}, err'), []);
    assert.deepEqual(go('\t\treturn err', '\t\treturn false, fmt.Errorf("decode: %w", err)'), ['error-path']);
    // Check 101 (structlog): `x or []` made `x or ()` is the same nothing; a default in brackets is read whole.
    const defaults = (before: string, after: string) =>
      findSemanticChanges(
        `def f(x):\n    ${before}\n`,
        `def f(x):\n    ${after}\n`,
        [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
        'python',
      ).map((change) => [change.kind, change.limit]);
    assert.deepEqual(defaults('y = tuple(["a"] + (x or []))', 'y = ("a", *tuple(x or ()))'), []);
    assert.deepEqual(defaults('y = tuple(x or [])', 'y = tuple(x or ("b",))'), [['default', '("b",)']]);
    // The same remainder with another operator around it is arithmetic, asked as before.
    assert.deepEqual(
      pair('  return a % 2 + b;', '  return a % 2 - b;').map(([kind]) => kind),
      ['arithmetic'],
    );
  });

  // Check 93 (django-rest-framework): a comprehension's `if` over several lines was shown as `validator not in (`.
  test("a comprehension's condition over several lines is read to the bracket that closes it", () => {
    const base = [
      'def f(kwargs):',
      '    kwargs = [',
      '        v for v in kwargs',
      '        if v is not validators.validate_ipv46_address',
      '    ]',
      '    return kwargs',
      '',
    ].join('\n');
    const head = [
      'def f(kwargs):',
      '    kwargs = [',
      '        v for v in kwargs',
      '        if v not in (',
      '            validators.ipv4,',
      '            validators.ipv6,',
      '        )',
      '    ]',
      '    return kwargs',
      '',
    ].join('\n');
    const changes = findSemanticChanges(base, head, [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 4 }], 'python');
    assert.deepEqual(
      changes.map((change) => [change.kind, change.subject]),
      [['condition', 'v not in (validators.ipv4, validators.ipv6,)']],
    );
  });

  test('an operand given a name, or a renamed variable, changes no decision; a changed operator still does', () => {
    const hunk = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.subject]);
    // Found on ky: the retry condition's operand became a named constant.
    assert.deepEqual(
      hunk(
        ["  if (options.retry > 0 && method !== 'get') {"],
        ['  const canRetry = options.retry > 0;', "  if (canRetry && method !== 'get') {"],
      ),
      [],
    );
    assert.deepEqual(hunk(['  const ok = a && b;', '  if (ok) {'], ['  const valid = a && b;', '  if (valid) {']), []);
    assert.deepEqual(
      hunk(
        ["  if (options.retry > 0 && method !== 'get') {"],
        ['  const canRetry = options.retry > 0;', "  if (canRetry || method !== 'get') {"],
      ),
      [['condition', "(canRetry || method !== 'get')"]],
    );
  });

  // Issue 41: four edits of real bundles that changed no behaviour, each still read as a changed condition or boundary.
  test('an alias read under a new name, a for…of rewritten as an index loop, a hoisted condition: no case', () => {
    const hunk = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(hunk(['  if (req.connection && req.connection.encrypted) {'], ['  if (req.socket && req.socket.encrypted) {']), []);
    assert.deepEqual(hunk(['  if (req.connection.bytesRead > 1024) {'], ['  if (req.socket.bytesRead > 1024) {']), []);
    // The new name said only in a block comment of the old file (express's "trusts the socket address") is still new.
    const doc = ['/**', ' * Trusts the socket address.', ' */'];
    assert.deepEqual(
      findSemanticChanges(
        `${[...doc, '  if (!trust(this.connection.remoteAddress, 0)) {'].join('\n')}\n`,
        `${[...doc, '  if (!trust(this.socket.remoteAddress, 0)) {'].join('\n')}\n`,
        [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }],
      ),
      [],
    );
    assert.deepEqual(
      hunk(
        ['  for (const item of items) {', '    if (item.price > limit) total += 1;'],
        ['  for (let i = 0; i < items.length; i++) {', '    if (items[i].price > limit) total += 1;'],
      ),
      [],
    );
    assert.deepEqual(
      hunk(
        ['  for (const item of items) {', '    if (item.price > limit) total += 1;'],
        [
          '  for (let index = 0; index < items.length; ++index) {',
          '    const entry = items[index];',
          '    if (entry.price > limit) total += 1;',
        ],
      ),
      [],
    );
    assert.deepEqual(
      hunk(
        ['  for (let i = 0; i < items.length; i++) {', '    if (items[i].price > limit) total += 1;'],
        ['  for (const item of items) {', '    if (item.price > limit) total += 1;'],
      ),
      [],
    );
    assert.deepEqual(hunk(['  if (user.active && user.age >= 18) {'], ['  const ok = user.active && user.age >= 18;', '  if (ok) {']), []);
    // ky: an `if` rewritten as a ternary on the same test.
    assert.deepEqual(
      hunk(
        ['  if (modified instanceof globalThis.Response) {', '    response = modified;', '  }'],
        ['  const next = modified instanceof globalThis.Response ? modified : response;', '  response = next;'],
      ),
      [],
    );
    // ky: the name the test reads was declared with its value on the old side, and given it later on the new one, the
    // ternary in a hunk of its own.
    const base = [
      '  const modified = await hook(request);',
      '  if (modified instanceof globalThis.Response) {',
      '    response = modified;',
      '  }',
      '  log(response);',
    ];
    const head = [
      '  let modified;',
      '  modified = await hook(request);',
      '  log(response);',
      '  const next = modified instanceof globalThis.Response ? modified : response;',
      '  response = next;',
    ];
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
        { oldStart: 1, oldLines: 4, newStart: 1, newLines: 2 },
        { oldStart: 6, oldLines: 0, newStart: 4, newLines: 2 },
      ]).map((change) => [change.kind, change.subject]),
      [],
    );
    // The same, with a `:` inside one of the ternary's strings.
    assert.deepEqual(hunk(['  if (page > 1) {'], ["  const label = page > 1 ? 'page:next' : undefined;", '  if (label) {']), []);
    // ky: a value that is there exactly when the old condition held (`c ? x.clone() : undefined`) tested in its place.
    assert.deepEqual(
      hunk(
        ['  if (this.options.retry.limit > 0) {', '    this.request = original.clone();'],
        [
          '  const retryRequest = this.options.retry.limit > 0 ? this.request.clone() : undefined;',
          '  if (retryRequest) {',
          '    this.request = retryRequest;',
        ],
      ),
      [],
    );
  });

  test('a condition extracted word for word into a new function in another hunk: no case (koa)', () => {
    const base = [
      'class App {',
      '  constructor(options) {',
      '    if (options.asyncLocalStorage instanceof AsyncLocalStorage) {',
      '      this.ctxStorage = options.asyncLocalStorage',
      '    }',
      '  }',
      '}',
    ];
    const head = [
      'function getAsyncLocalStorage(options) {',
      '  if (options.asyncLocalStorage instanceof AsyncLocalStorage) {',
      '    return options.asyncLocalStorage',
      '  }',
      '}',
      'class App {',
      '  constructor(options) {',
      '    if (options.snapshot) {',
      '      this.ctxStorage = getAsyncLocalStorage(options)',
      '    }',
      '  }',
      '}',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 5 },
      { oldStart: 3, oldLines: 2, newStart: 8, newLines: 2 },
    ]).map((change) => [change.kind, change.line, change.after]);
    // The extracted test is the old logic; the new `options.snapshot` branch is the change.
    assert.deepEqual(found, [['condition', 8, 'if (options.snapshot)']]);
  });

  test('a membership test extracted word for word into a new function: no case; the new filter still asks (logto)', () => {
    // The old function keeps its own `names`: the extracted copy declares another, so only the line says it moved.
    const base = [
      'export const create = () => {',
      '  const validate = (fields) => {',
      '    const names = fields.map(({ name }) => name);',
      '    const found = lookup(names);',
      '    const duplicates = names.filter(',
      '      (name) => names.indexOf(name) !== names.lastIndexOf(name)',
      '    );',
      '  };',
      '};',
    ];
    const head = [
      'const assertUnique = (fields) => {',
      '  const names = fields.map(({ name }) => name);',
      '  const duplicates = names.filter(',
      '    (name) => names.indexOf(name) !== names.lastIndexOf(name)',
      '  );',
      '};',
      'export const create = () => {',
      '  const validate = (fields) => {',
      '    const names = fields.map(({ name }) => name);',
      '    const found = lookup(names);',
      '    return found.filter(({ name }) => known.has(name));',
      '  };',
      '};',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 6 },
      { oldStart: 5, oldLines: 3, newStart: 11, newLines: 1 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(found, [['membership', 11, 'known.has(name)']]);
  });

  test('a catch split over two hunks asks its error path once: the rethrow of what it caught is the same failure (logto)', () => {
    const base = [
      'async function find(id) {',
      '  const row = await trySafe(async () => load(id));',
      '  return row?.isThirdParty ?? true;',
      '}',
    ];
    const head = [
      'async function find(id) {',
      '  try {',
      '    const row = await load(id);',
      '    return row.isThirdParty;',
      '  } catch (error) {',
      "    if (error instanceof RequestError && error.code === 'not_found') {",
      '      return undefined;',
      '    }',
      '',
      '    throw error;',
      '  }',
      '}',
    ];
    const hunks = [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 7 },
      { oldStart: 3, oldLines: 1, newStart: 9, newLines: 3 },
    ];
    const kinds = (lines: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${lines.join('\n')}\n`, hunks)
        .filter((change) => change.kind === 'error-path')
        .map((change) => change.line);
    assert.deepEqual(kinds(head), [5]);
    // Another error thrown from the catch, or another name rethrown, is a failure of its own.
    assert.deepEqual(kinds(head.map((line) => line.replace('throw error;', "throw new Error('lookup failed');"))), [5, 10]);
    assert.deepEqual(kinds(head.map((line) => line.replace('throw error;', 'throw lastError;'))), [5, 10]);
  });

  test('new code asks one case per hunk, and a known library option its own as well (outline rejectOnEmpty)', () => {
    const base = ['async function list(ctx) {', '  const where = ctx.input.body;', '}'];
    const head = [
      'async function list(ctx) {',
      '  const anchorId = ctx.input.body.documentId;',
      '  if (!anchorId) {',
      '    throw InvalidRequestError("documentId is required");',
      '  }',
      '  const anchor = await Document.findByPk(anchorId, {',
      '    userId: ctx.user.id,',
      '    rejectOnEmpty: true,',
      '  });',
      '  const more = await Document.findAll({ paranoid: false, limit: 10 });',
      '}',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 9 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(found, [
      ['condition', 3, '(!anchorId)'],
      ['option-flag', 8, 'rejectOnEmpty'],
    ]);
  });

  // hono cd31bc196e wrapped `pipeTo` in a new try/finally and gave it `preventAbort: true` beside the `preventClose: true`
  // the removed line had: the flag it gained asks its own case, the one it kept none, and the finally keeps the hunk's case.
  test("a stream option a line gains asks what it does; one a removed line set is moved; neither takes the hunk's case", () => {
    const base = [
      '  async pipe(body) {',
      '    await body.pipeTo(this.writable, { preventClose: true })',
      '    this.writer = this.writable.getWriter()',
      '  }',
    ];
    const head = [
      '  async pipe(body) {',
      '    try {',
      '      await body.pipeTo(this.writable, { preventClose: true, preventAbort: true })',
      '    } finally {',
      '      this.writer = this.writable.getWriter()',
      '    }',
      '  }',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 2, newStart: 2, newLines: 5 },
    ]).map((change) => [change.kind, change.line, change.subject, change.values]);
    assert.deepEqual(found, [
      ['option-flag', 3, 'preventAbort', 'a source stream that errors while piping (is the destination aborted, or left writable?)'],
      ['error-path', 4, 'the cleanup', found[1]?.[3]],
    ]);
    // Replaced in place: only the flag the line did not set before.
    assert.deepEqual(
      one('  await body.pipeTo(dest, { preventClose: true })', '  await body.pipeTo(dest, { preventAbort: true, preventClose: true })').map(
        ([kind, subject]) => [kind, subject],
      ),
      [['option-flag', 'preventAbort']],
    );
    assert.deepEqual(one('  x({ strict: true, required: false })', '  x({ required: false, strict: true })'), []);
  });

  // hono 569b4191a2 counted slashes with `m[0].match(/\//)?.length`, one at most, and fixed it with `g`: the slashes of
  // `/\//` read as a `//` comment, so the two lines were one decision and the pattern's new flag asked nothing.
  test('a pattern that gains or loses a flag asks for a string on which the flag decides; its slashes open no comment', () => {
    assert.deepEqual(one('  const n = m[0].match(/\\//)?.length ?? 0', '  const n = m[0].match(/\\//g)?.length ?? 0'), [
      ['regex', '/\\//g', '', 'a string with two or more matches: the pattern gained g'],
    ]);
    assert.deepEqual(
      one('  const ok = /^a$/i.test(name)', '  const ok = /^a$/.test(name)').map(([, , , values]) => values),
      ['the same text in upper and in lower case: the pattern lost i'],
    );
    assert.deepEqual(
      one('const SLASH = /\\//', 'const SLASH = /\\//g').map(([, , , values]) => values),
      ['a string with two or more matches; the same test or exec called twice in a row (lastIndex carries over): the pattern gained g'],
    );
    // The letters of a pattern are no names: `/^abc$/` → `/^abd$/` is no rename of `abc`.
    assert.deepEqual(
      one('  const ok = /^abc$/.test(name)', '  const ok = /^abd$/.test(name)').map(([kind, subject]) => [kind, subject]),
      [['regex', '/^abd$/']],
    );
    // A quote inside a pattern opens no string.
    assert.deepEqual(
      one('  const parts = s.split(/"/)', "  const parts = s.split(/'/)").map(([kind, subject]) => [kind, subject]),
      [['regex', "/'/"]],
    );
  });

  // yargs-parser ccc3634e32 gave a test's links on a line of their own `&& !arg.match(negative)`: the line sits inside
  // the test `} else if (arg.match(/^--.+/) || (` opens, so it is no chain without a decision.
  test('the links of an if test on a line of their own ask the test when the chain gained, lost or swapped a link', () => {
    const inTest = (above: string[], was: string, now: string, below: string[] = ['  ) {', '    m = 1', '  }', '}']) => {
      const base = ['function f(a, b, c, arg, configuration, negative) {', ...above, was, ...below];
      const head = [...base];
      head[above.length + 1] = now;
      return findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
        { oldStart: above.length + 2, oldLines: 1, newStart: above.length + 2, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]);
    };
    assert.deepEqual(inTest(['  if ('], '    isA(a) && isB(b)', '    isA(a) && isB(b) && !isC(c)'), [
      ['condition', 'isA(a) && isB(b) && !isC(c)'],
    ]);
    assert.deepEqual(
      inTest(
        ['  if (c) {', '  } else if (arg.match(/^--.+/) || ('],
        "    !configuration['short-option-groups'] && arg.match(/^-[^-]+/)",
        "    !configuration['short-option-groups'] && arg.match(/^-[^-]+/) && !arg.match(negative)",
        ['  )) {', '    m = 1', '  }', '}'],
      ).map(([kind]) => kind),
      ['condition'],
    );
    // The test's first link above, its closing bracket on the line: the line's own links, without the bracket.
    assert.deepEqual(
      inTest(['  if (isX(a) ||'], '    isA(a) && isB(b)) {', '    isA(a) && isB(b) && !isC(c)) {', ['    m = 1', '  }', '}']),
      [['condition', 'isA(a) && isB(b) && !isC(c)']],
    );
    assert.deepEqual(inTest(['  if ('], '    isA(a) || isB(b)', '    isA(a) && isB(b)'), [['condition', 'isA(a) && isB(b)']]);
    // An operand read from another name is a read case; a chain outside any test, or below a test that closed, asks nothing.
    assert.deepEqual(inTest(['  if ('], '    isA(a) && isB(b)', '    isA(a) && isB(bb)'), [['read', 'bb']]);
    assert.deepEqual(inTest(['  const ok = call('], '    isA(a) && isB(b)', '    isA(a) && isB(b) && !isC(c)', ['  )', '}']), []);
    assert.deepEqual(inTest(['  if (isA(a)) {'], '    m = isA(a) && isB(b)', '    m = isA(a) && isB(b) && c', ['  }', '}']), []);
  });

  // validator.js b18bde8b7f: `[J,G,V,E]` and `[1,4,5]` read as lists took the comma as a character; the fix dropped it.
  test('a pattern changed only inside its character classes names the characters a class gained or lost', () => {
    const valuesOf = (before: string, after: string) => one(before, after).map(([, , , values]) => values);
    assert.deepEqual(
      valuesOf('  VE: str => /^(VE)?[J,G,V,E]{1}-(\\d{9})$/.test(str),', '  VE: str => /^(VE)?[JGVE]{1}-(\\d{9})$/.test(str),'),
      ["a string with ',' where [J,G,V,E] stands (the old pattern accepts it, the new one refuses it), and a string both accept"],
    );
    // Two classes losing the same character ask once; a range gained, and a negated class read the other way round.
    assert.deepEqual(valuesOf('  const ok = /^[1,4,5]\\d-[1,4,5]$/.test(s)', '  const ok = /^[145]\\d-[145]$/.test(s)'), [
      "a string with ',' where [1,4,5] stands (the old pattern accepts it, the new one refuses it), and a string both accept",
    ]);
    assert.deepEqual(valuesOf('  const ok = /^[a-z]+$/.test(s)', '  const ok = /^[a-z0-9]+$/.test(s)'), [
      'a string with a character in 0-9 where [a-z0-9] stands (the new pattern accepts it, the old one refused it), and a string both accept',
    ]);
    assert.deepEqual(valuesOf('  const bad = /[^a-z_]/.test(s)', '  const bad = /[^a-z]/.test(s)'), [
      "a string with '_' where [^a-z] stands (the new pattern accepts it, the old one refused it), and a string both accept",
    ]);
    // Anything else changed, and the strings are the general ones.
    assert.deepEqual(valuesOf('  const ok = /^[a-z]+$/.test(s)', '  const ok = /^[a-z0-9]*$/.test(s)'), [
      'a string the old pattern accepts and the new one refuses, and the reverse',
    ]);
  });

  test('an object made without a prototype, or asked for its own keys, asks for the keys it inherited (hono c85aead088)', () => {
    assert.deepEqual(one('  const headerData = {};', '  const headerData = Object.create(null);'), [
      ['prototype', 'Object.create(null)', '', 'a key named __proto__, one named constructor, and one named toString'],
    ]);
    assert.deepEqual(
      one('  if (key in cache) return cache[key];', '  if (Object.hasOwn(cache, key)) return cache[key];').map(([kind]) => kind),
      ['condition', 'prototype'],
    );
    // The same construct on both sides, or on a line new to the file, asks nothing of it.
    assert.deepEqual(one('  const a = Object.create(null);', '  const b = Object.create( null );'), []);
    assert.deepEqual(
      findInNewFile(['export function parse() {', '  const out = Object.create(null);', '  return out;', '}'], 'javascript'),
      [],
    );
  });

  test("a ternary that passes an optional value on decides nothing: new code's case is its catch (outline toggleList)", () => {
    const head = [
      'function toggle(node, listStyle) {',
      '  try {',
      '    const converted = convert(node, listStyle ? { listStyle } : undefined);',
      '    return replace(converted);',
      '  } catch (_err) {',
      '    return flatten(node);',
      '  }',
      '}',
    ];
    assert.deepEqual(
      findInNewFile(head, 'javascript').map((change) => [change.kind, change.line]),
      [['error-path', 5]],
    );
    // A ternary that chooses between two values of its own, or passes on another name, is a decision.
    for (const line of ['listStyle ? { listStyle } : DEFAULT_STYLE', 'listStyle ? { style: other } : undefined'])
      assert.deepEqual(
        findInNewFile([head[0] ?? '', `  return convert(node, ${line});`, '}'], 'javascript').map((change) => change.kind),
        ['condition'],
        line,
      );
  });

  test('a `.catch(` a call chain moved to a line of its own is no removed or new error path; a new `.finally` adds none (msw)', () => {
    const base = [
      '    const pending = (',
      '      execute(info) as Promise<Response>',
      '    ).catch((errorOrResponse) => {',
      '      if (errorOrResponse instanceof Response) return errorOrResponse;',
      '      throw errorOrResponse;',
      '    });',
    ];
    const head = [
      '    const pending = (',
      '      execute(info) as Promise<Response>',
      '    )',
      '      .catch((errorOrResponse) => {',
      '        if (errorOrResponse instanceof Response) return errorOrResponse;',
      '        throw errorOrResponse;',
      '      })',
      '      .finally(() => controller.abort());',
    ];
    const changes = (after: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 3, oldLines: 4, newStart: 3, newLines: after.length - 2 },
      ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(changes(head), []);
    // A catch that is really gone is still asked.
    assert.deepEqual(changes(['    const pending = (', '      execute(info) as Promise<Response>', '    );']), [
      ['error-path', 3, 'the removed error path'],
    ]);
  });

  // Check 38 (typeorm): increment's checks folded into a helper the diff matched with decrement's body; its
  // `throw new TypeORMError(` was called a removed error path though the helper throws it word for word.
  test('an error path the head still makes, its message with it, is not removed; one whose message is gone is', () => {
    const check = (message: string) => ['    if (!column)', '      throw new TypeORMError(', `        \`${message}\`,`, '      )'];
    const body = ['    const column = find(path)', ...check('Column ${path} was not found.')];
    const helper = (message: string) => [
      '  helper(op, path) {',
      '    const column = find(path)',
      ...check(message),
      '    return run(op, path)',
      '  }',
    ];
    const base = ['  increment(path) {', ...body, '    return run("+", path)', '  }', ...helper('Column ${path} was not found.')];
    const changes = (message: string) => {
      const head = [
        '  increment(path) {',
        '    return this.helper(',
        '      "+",',
        '      path,',
        '      conditions,',
        '    )',
        '  }',
        ...helper(message),
      ];
      const kept = message === 'Column ${path} was not found.';
      return findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
        { oldStart: 2, oldLines: 6, newStart: 2, newLines: 5 },
        ...(kept ? [] : [{ oldStart: 13, oldLines: 1, newStart: 12, newLines: 1 }]),
      ]).map((change) => [change.kind, change.subject]);
    };
    assert.deepEqual(changes('Column ${path} was not found.'), []);
    assert.deepEqual(changes('No column ${path}.'), [['error-path', 'the removed error path']]);
    // A catch removed is still asked, however many other functions of the file catch alike.
    const save = ['async function save(x) {', '  try {', '    await put(x);', '  } catch (err) {', '    log(err);', '  }', '}'];
    const load = [
      'async function load(id) {',
      '  try {',
      '    return await fetchOne(id);',
      '  } catch (err) {',
      '    return null;',
      '  }',
      '}',
    ];
    const loose = [
      'async function load(id) {',
      '  const row = await fetchOne(id);',
      '  if (!row) {',
      '    return undefined;',
      '  }',
      '  return row;',
      '}',
    ];
    assert.deepEqual(
      findSemanticChanges(`${[...load, ...save].join('\n')}\n`, `${[...loose, ...save].join('\n')}\n`, [
        { oldStart: 2, oldLines: 5, newStart: 2, newLines: 5 },
      ]).map((change) => [change.kind, change.subject]),
      [
        ['condition', '(!row)'],
        ['error-path', 'the removed error path'],
      ],
    );
  });

  test('a link added to a condition written over several lines is a changed condition (msw hasRefCounted)', () => {
    const base = [
      'export function hasRefCounted(value) {',
      '  return (',
      "    typeof Reflect.get(value, 'ref') === 'function' &&",
      "    typeof Reflect.get(value, 'unref') === 'function'",
      '  );',
      '}',
    ];
    const head = [...base.slice(0, 2), '    // setTimeout gives a number in the browser.', '    isObject(value) &&', ...base.slice(2)];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 0, newStart: 3, newLines: 2 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(found, [['condition', 4, 'isObject(value)']]);
    // A link of a call's arguments, an object's value or an arrow's body is no operand of its own.
    const none = (line: string) =>
      findSemanticChanges('const a = 1;\n', `const a = 1;\n${line}\n`, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }]);
    assert.deepEqual(none('  name: options.name ||'), []);
    assert.deepEqual(none('  isOpen && ('), []);
    assert.deepEqual(none('  items.filter((item) => item.ok) &&'), []);
  });

  test('the last link of a multi-line chain asks, not a link the old line already tested (excalidraw)', () => {
    const base = ['  isCapturing() {', "    return this.state.activeTool.type === 'laser';", '  }'];
    const head = [
      '  isCapturing() {',
      '    return (',
      "      this.state.activeTool.type === 'laser' ||",
      "      this.state.activeTool.type === 'custom'",
      '    );',
      '  }',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 4 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(found, [['condition', 4, "this.state.activeTool.type === 'custom'"]]);
    // A link whose optional access a new guard made needless is old too (outline's Document.ts).
    const guarded = findSemanticChanges(
      '  return (\n    (!doc.collection?.isPrivate && !user?.isGuest) ||\n    other\n  );\n',
      '  if (!doc.collection) {\n    return false;\n  }\n  return (\n    (!doc.collection.isPrivate && !user?.isGuest) ||\n    other\n  );\n',
      [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 5 }],
    ).map((change) => change.line);
    assert.ok(!guarded.includes(5), JSON.stringify(guarded));
    // A value the old line only handed to a call was never tested: a new guard on it asks (knex's `releaseConnection`).
    const wrapped = findSemanticChanges(
      "    stream.on('close', () => {\n      this.client.releaseConnection(this.connection);\n    });\n",
      "    stream.on('close', () => {\n      if (this.connection) {\n        this.client.releaseConnection(this.connection);\n      }\n    });\n",
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
    ).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(wrapped, [['condition', 2, '(this.connection)']]);
  });

  test('a ternary outside an if is asked about its test, not the whole line (excalidraw)', () => {
    const found = findSemanticChanges('const a = 1;\n', 'const a = 1;\nconst elementsMap = validate ? arrayToMap(elements) : null;\n', [
      { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 },
    ]).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(found, [['condition', 'validate', 'an input for which validate is true and one for which it is false']]);
    const test = (line: string) =>
      findSemanticChanges('const a = 1;\n', `const a = 1;\n${line}\n`, [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }]).map(
        (change) => change.subject,
      );
    // zod: comparisons after the assignment; trpc: an object's key, a spread's bracket.
    assert.deepEqual(test('const optional = ctx.io === "input" ? inputOptin(item) === "optional" : false;'), ['ctx.io === "input"']);
    assert.deepEqual(test('  servers: args.serverUrl ? [{ url: args.serverUrl }] : undefined,'), ['args.serverUrl']);
    assert.deepEqual(test('  ...(options.servers?.length ? { servers: options.servers } : {}),'), ['options.servers?.length']);
  });

  test('a test inverted into an early exit decides nothing new; a flipped test that keeps its body does (logto)', () => {
    const guard = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.line]);
    // `if (x) { write }` → `if (!x) return; write`.
    assert.deepEqual(
      guard(
        ['  if (domain?.tenantId) {', '    await save(domain);', '  }'],
        ['  if (!domain?.tenantId) {', '    return;', '  }', '  await save(domain);'],
      ),
      [],
    );
    // A returned bound → an early `return false` on its complement.
    assert.deepEqual(
      guard(['    client.id.length <= maxLength,'], ['    if (client.id.length > maxLength) {', '      return false;', '    }']),
      [],
    );
    // The same test flipped with its body kept is a decision that changed.
    assert.deepEqual(guard(['  if (isAllowed) {', '    run();'], ['  if (!isAllowed) {', '    run();']), [['condition', 1]]);
    // So is one that left before and leaves now on the other side.
    assert.deepEqual(guard(['  if (isAllowed) return;'], ['  if (!isAllowed) return;']), [['condition', 1]]);
    // And one whose old block had work after it: the early exit now skips `audit()` when there is no tenant.
    assert.deepEqual(
      findSemanticChanges(
        ['  if (domain?.tenantId) {', '    await save(domain);', '  }', '  audit(domain);'].join('\n'),
        ['  if (!domain?.tenantId) {', '    return;', '  }', '  await save(domain);', '  audit(domain);'].join('\n'),
        [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 }],
      ).map((change) => [change.kind, change.line]),
      [['condition', 1]],
    );
    // Or an else.
    assert.deepEqual(
      guard(['  if (ready) {', '    run();', '  } else {', '    wait();', '  }'], ['  if (!ready) {', '    return;', '  }', '  run();']),
      [['condition', 1]],
    );
    // A test of several links inverted by De Morgan (checker's own build-routes.ts, read by this session's review).
    assert.deepEqual(
      guard(
        ["  if (a.kind === 'route' && a.routeKind === 'api') {", '    routes.push(id);', '  }'],
        ["  if (a.kind !== 'route' || a.routeKind !== 'api') return;", '  routes.push(id);'],
      ),
      [],
    );
    // An old `if` without braces governs its next line's one statement.
    assert.deepEqual(
      guard(
        ["  if (a.kind === 'route' && a.routeKind === 'api')", '    routes.push(id);', '});'],
        ["  if (a.kind !== 'route' || a.routeKind !== 'api') return;", '  routes.push(id);', '});'],
      ),
      [],
    );
    // Not when something ran after it on both paths.
    assert.deepEqual(
      guard(['  if (ready)', '    run();', '  audit();'], ['  if (!ready) return;', '  run();', '  audit();']).map(([kind]) => kind),
      ['condition'],
    );
    // Not when one link is not negated, nor when the operators are mixed.
    assert.deepEqual(
      guard(['  if (a && b) {', '    run();', '  }'], ['  if (!a || b) return;', '  run();']).map(([kind]) => kind),
      ['condition'],
    );
    assert.deepEqual(
      guard(['  if (a && (b || c)) {', '    run();', '  }'], ['  if (!a || !b || !c) return;', '  run();']).map(([kind]) => kind),
      ['condition'],
    );
  });

  test('a comparison a removed line made is moved, not a new boundary; a new limit still asks (outline)', () => {
    const base = [
      '  return documents.filter(',
      '    (doc) =>',
      '      !doc.collection?.isPrivate ||',
      '      doc.memberships.length > 0 ||',
      '      doc.groupMemberships.length > 0',
      '  );',
    ];
    const head = [
      '  return documents.filter((doc) => {',
      '    if (doc.memberships.length > 0) {',
      '      return true;',
      '    }',
      '    return doc.groupMemberships.length > 1;',
      '  });',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 1, oldLines: 6, newStart: 1, newLines: 6 },
    ]).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(
      found.filter(([kind]) => kind === 'boundary'),
      [['boundary', 'doc.groupMemberships.length', '1']],
    );
  });

  test('an if rewritten below a removed declaration pairs with the if it replaced (check 32: mikro-orm)', () => {
    const base = [
      '  // partial extraction is unsound for to-one relations',
      '  const toOne = [ONE_TO_ONE, MANY_TO_ONE].includes(prop.kind);',
      '',
      "  if (child.length > 0 && (op === '$and' || !toOne || child.length === where[op].length)) {",
      '    subCond[op] = child;',
      '  }',
    ];
    const head = [
      '  // partial extraction is unsound',
      "  if (child.length > 0 && (op === '$and' || child.length === where[op].length)) {",
      '    subCond[op] = child;',
      '  }',
    ];
    const changes = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 1, oldLines: 4, newStart: 1, newLines: 2 },
    ]);
    assert.deepEqual(
      changes.map((change) => [change.kind, change.line, change.subject]),
      [['condition', 2, "(child.length > 0 && (op === '$and' || child.length === where[op].length))"]],
    );
  });

  test('a removed comparison negated into a named test keeps its boundary; a new limit beside it still asks (check 26: undici)', () => {
    const base = [
      '  const charCode = value.charCodeAt(0)',
      "  if ((charCode < 48 || charCode > 57) && value[0] !== '-') {",
      '    return skip()',
      '  }',
    ];
    const head = [
      '  const charCode = value.charCodeAt(0)',
      '  const startsWithDigit = charCode >= 48 && charCode <= 57',
      "  const startsWithSignedDigit = value[0] === '-' && value.length > 1",
      '  if (!startsWithDigit && !startsWithSignedDigit) {',
      '    return skip()',
      '  }',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 },
    ]).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(
      found.filter(([kind]) => kind === 'boundary'),
      [['boundary', 'value.length', '1']],
    );
  });

  test('a pattern a removed line already had is moved, not changed; a changed one beside it still asks (outline)', () => {
    const base = [
      'function escapeQuery(query) {',
      '  const re = /^[a-z]+$/;',
      '  if (!re.test(query)) return query;',
      '  return query',
      '    .replace(/\\\\/g, "\\\\\\\\")',
      '    .replace(/:/g, "\\\\:");',
      '}',
    ];
    const head = [
      'function escapeQuery(query) {',
      '  const re = /^[a-z0-9]+$/;',
      '  if (!re.test(query)) return query;',
      '  return query.replace(/\\\\/g, "\\\\\\\\");',
      '}',
    ];
    // `return query` pairs with `return query.replace(/\\/g, …)`: the pattern was the chain's first, not a new one.
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      { oldStart: 4, oldLines: 3, newStart: 4, newLines: 1 },
    ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(found, [['regex', '/^[a-z0-9]+$/']]);
  });

  test('a condition hoisted into a name whose initialiser spans lines and adds `!!`, read in another hunk: no case (outline)', () => {
    const base = [
      'function list(statusFilter, where) {',
      '  if (!statusFilter) where.push(1);',
      '  const query = [];',
      '  if (statusFilter?.includes(StatusFilter.Archived)) {',
      '    query.push(2);',
      '  }',
      '}',
    ];
    const head = [
      'function list(statusFilter, where) {',
      '  const includeArchived = !!statusFilter?.includes(',
      '    StatusFilter.Archived',
      '  );',
      '  if (!statusFilter) where.push(1);',
      '  const query = [];',
      '  if (includeArchived) {',
      '    query.push(2);',
      '  }',
      '}',
    ];
    const found = (lines: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${lines.join('\n')}\n`, [
        { oldStart: 1, oldLines: 0, newStart: 2, newLines: 3 },
        { oldStart: 4, oldLines: 1, newStart: 7, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(found(head), []);
    // A name that holds another decision is a changed condition: one `!` is no `!!`.
    assert.deepEqual(found(head.map((line) => line.replace('!!statusFilter', '!statusFilter'))), [['condition', '(includeArchived)']]);
  });

  test('a membership test hoisted into a name, read in another hunk, where a later function declares the same name: no case (zod)', () => {
    const base = [
      'function handleProperty(key, input, result) {',
      '  if (result.value === undefined) {',
      '    if (key in input) {',
      '      result.value = undefined;',
      '    }',
      '  }',
      '}',
      'function handleTuple(i, input) {',
      '  return i;',
      '}',
    ];
    const head = [
      'function handleProperty(key, input, result) {',
      '  const isPresent = key in input;',
      '  if (result.value === undefined) {',
      '    if (isPresent) {',
      '      result.value = undefined;',
      '    }',
      '  }',
      '}',
      'function handleTuple(i, input) {',
      '  const isPresent = i < input.length;',
      '  return i;',
      '}',
    ];
    const found = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 },
      { oldStart: 3, oldLines: 1, newStart: 4, newLines: 1 },
      { oldStart: 8, oldLines: 0, newStart: 10, newLines: 1 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    // `isPresent` on line 4 reads as the nearest declaration before it (line 2), `key in input`, the removed condition;
    // the membership test it holds was made by that removed line. The tuple's new bound is new.
    assert.deepEqual(found, [['boundary', 10, 'i']]);
  });

  test('a counting loop rewritten (`while (size--)` as `for (let i = 0; i < size; i++)`) runs as often: no case (axios)', () => {
    const base = ['const make = (size = 16) => {', "  let str = '';", '  while (size--) {', '    str += pick();', '  }', '};'];
    const head = [
      'const make = (size = 16) => {',
      "  let str = '';",
      '  const values = new Uint32Array(size);',
      '  for (let i = 0; i < size; i++) {',
      '    str += pick(values[i]);',
      '  }',
      '};',
    ];
    const hunks = [{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 3 }];
    assert.deepEqual(findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunks), []);
    // One more turn is a changed boundary still.
    const more = head.map((line) => line.replace('i < size', 'i <= size'));
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${more.join('\n')}\n`, hunks).map((change) => [change.kind, change.line]),
      [['boundary', 4]],
    );
  });

  test('a loop condition that lost a clause to a break in its body decides what it did (zod); without the break it changed', () => {
    const base = [
      'let minItems = items.length;',
      'while (minItems > 0 && (items[minItems - 1] as Item)._zod[optKey] === "optional") {',
      '  minItems--;',
      '}',
    ];
    const head = [
      'let minItems = items.length;',
      'while (minItems > 0) {',
      '  const optional = isOptional(items[minItems - 1]);',
      '  if (!optional) break;',
      '  minItems--;',
      '}',
    ];
    const changes = (after: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 2, oldLines: 1, newStart: 2, newLines: after.length - 3 },
      ]).map((change) => [change.kind, change.line]);
    assert.deepEqual(
      changes(head).filter(([kind]) => kind === 'condition' || kind === 'boundary'),
      [['condition', 4]],
    );
    // The same clause dropped with no break to take its place: the loop now runs to zero.
    assert.deepEqual(
      changes(['let minItems = items.length;', 'while (minItems > 0) {', '  minItems--;', '}']).filter(([kind]) => kind === 'condition'),
      [['condition', 2]],
    );
  });

  // Check 58 (immerjs/immer): `if (method === "push" && args.length > 0)` → `if (method === "push")` inside a new
  // `if (changed)` whose `changed` tests `args.length > 0` for a push asked for both outcomes of the push test.
  test('a clause a condition lost that another hunk tests word for word was moved; dropped outright it changed', () => {
    const base = [
      'function f(method, args, state, before) {',
      '  run()',
      '  x()',
      '  y()',
      '  if (method === "push" && args.length > 0) {',
      '    insert(state, args)',
      '  }',
      '}',
    ];
    const head = [
      'function f(method, args, state, before) {',
      '  run()',
      '  const changed = method === "push" ? args.length > 0 : before > 0',
      '  if (!changed) return',
      '  x()',
      '  y()',
      '  if (method === "push") {',
      '    insert(state, args)',
      '  }',
      '}',
    ];
    const lines = (hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number }[], after: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${after.join('\n')}\n`, hunks)
        .filter((change) => change.kind === 'condition')
        .map((change) => change.line);
    const moved = lines(
      [
        { oldStart: 3, oldLines: 0, newStart: 3, newLines: 2 },
        { oldStart: 5, oldLines: 1, newStart: 7, newLines: 1 },
      ],
      head,
    );
    assert.equal(moved.includes(7), false, JSON.stringify(moved));
    const dropped = head.filter((line) => !/changed/.test(line));
    assert.deepEqual(lines([{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 }], dropped), [5]);
    // A bare name dropped from the test is said on other lines for other reasons: still a changed condition.
    const bare = (text: string) => text.replace('args.length > 0', 'ok');
    const bareChanges = findSemanticChanges(`${base.map(bare).join('\n')}\n`, `${head.map(bare).join('\n')}\n`, [
      { oldStart: 3, oldLines: 0, newStart: 3, newLines: 2 },
      { oldStart: 5, oldLines: 1, newStart: 7, newLines: 1 },
    ]).filter((change) => change.kind === 'condition');
    assert.ok(
      bareChanges.some((change) => change.line === 7),
      JSON.stringify(bareChanges),
    );
  });

  test('the same rewrites that also change the logic still name it: an operator, an operand, a literal, another loop', () => {
    const hunk = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(hunk(['  if (req.connection.bytesRead > 1024) {'], ['  if (req.socket.bytesRead >= 1024) {']), [
      ['boundary', 1, 'req.socket.bytesRead'],
    ]);
    assert.deepEqual(hunk(['  if (user.active && user.age >= 18) {'], ['  const ok = user.active && user.age > 18;', '  if (ok) {']), [
      ['boundary', 1, 'user.age'],
      ['condition', 2, '(ok)'],
    ]);
    assert.deepEqual(hunk(['  if (a && b) {'], ['  const ok = a && b && c;', '  if (ok) {']), [['condition', 2, '(ok)']]);
    // A ternary on another test than the `if` it replaced is a changed condition.
    assert.deepEqual(
      hunk(
        ['  if (modified instanceof globalThis.Response) {', '    response = modified;', '  }'],
        ['  const next = modified instanceof Response || isResponseLike(modified) ? modified : response;', '  response = next;'],
      ).map(([kind, line]) => [kind, line]),
      [['condition', 1]],
    );
    // The value is there when the condition does not hold: the opposite decision, asked once, where it is tested.
    assert.deepEqual(
      hunk(['  if (limit > 0) {'], ['  const spare = limit > 0 ? undefined : fallback();', '  if (spare) {']).map(([kind, line]) => [
        kind,
        line,
      ]),
      [['condition', 2]],
    );
    assert.deepEqual(hunk(["  if (mode === 'gold') {"], ["  if (mode === 'platinum') {"]), [['condition', 1, "(mode === 'platinum')"]]);
    // A new loop over every element (engine.io's send loop, check 119) draws no boundary a test moves a value across;
    // one whose bound changed does.
    assert.deepEqual(hunk(['  packets.forEach((packet) => send(packet));'], ['  for (let i = 0; i < packets.length; i++) {']), []);
    assert.deepEqual(
      hunk(['  for (let i = 0; i <= packets.length; i++) {'], ['  for (let i = 0; i < packets.length; i++) {']).map(([kind]) => kind),
      ['boundary'],
    );
    // Over a range fixed in the code (ohash's collation table, check 256): no input moves its bounds.
    assert.deepEqual(hunk(['  const weights = [];'], ['  for (let code = 65 /* A */; code <= 90 /* Z */; code++) {']), []);
    assert.deepEqual(
      hunk(['  for (let code = 65; code <= 89; code++) {'], ['  for (let code = 65; code <= 90; code++) {']).map(([kind]) => kind),
      ['boundary'],
    );
    // Last element first (qs's parseObject, check 225): no boundary either; a reverse loop whose bound moved asks one.
    assert.deepEqual(hunk(['  var root = chain.shift();'], ['  for (var i = chain.length - 1; i >= 0; --i) {']), []);
    assert.deepEqual(
      hunk(['  for (var i = chain.length - 1; i > 0; --i) {'], ['  for (var i = chain.length - 1; i >= 0; --i) {']).map(([kind]) => kind),
      ['boundary'],
    );
    // A new loop that drains the list it tests (qs's compactQueue) stops when the list is empty by construction: no
    // condition. One whose list the body never takes from, or a `while` in place of another loop test, is asked.
    const drain = ['  while (queue.length) {', '    var item = queue.pop();', '    visit(item);', '  }'];
    assert.deepEqual(hunk(['  visit(root);'], drain), []);
    assert.deepEqual(
      hunk(['  visit(root);'], ['  while (queue.length) {', '    next(queue[0]);', '  }']).map(([kind]) => kind),
      ['condition'],
    );
    assert.deepEqual(
      hunk(['  while (queue.length > 1) {'], drain).map(([kind]) => kind),
      ['condition'],
    );
    // Stops one element early: not the loop it replaced. A length less one is a count: the boundary asks it, no halves.
    assert.deepEqual(
      hunk(['  for (const item of items) {'], ['  for (let i = 0; i < items.length - 1; i++) {']).map(([kind]) => kind),
      ['boundary'],
    );
    // `min` → `max` where both names are still used: another value, not a rename.
    assert.deepEqual(
      findSemanticChanges('const min = 1;\nconst max = 9;\nif (x > min) {\n', 'const min = 1;\nconst max = 9;\nif (x > max) {\n', [
        { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]),
      [['boundary', 'x']],
    );
    // A method called under another name is another function (`Math.round` → `Math.floor`), not a rename (the bundle
    // keeps one of the two cases of the line, the heavier rounding). The comparison names the call it bounds.
    assert.deepEqual(
      hunk(['  if (Math.round(total) > 0) {'], ['  if (Math.floor(total) > 0) {']).map(([kind, , subject]) => [kind, subject]),
      [
        ['boundary', 'Math.floor(total)'],
        ['arithmetic', 'the rounding'],
      ],
    );
  });

  test('a test moved from a removed helper and negated into a guard is the old test; the new test beside it is asked (defu, check 236)', () => {
    const base = [
      'function isObject(value) {',
      '  return value !== null && typeof value === "object";',
      '}',
      '',
      'function merge(target, defaults) {',
      '  if (!isObject(defaults)) {',
      '    return merge(target, {});',
      '  }',
      '  return 1;',
      '}',
    ];
    const head = (guard: string) => [
      'function merge(target, defaults) {',
      '  if (!isPlainObject(defaults)) {',
      '    return merge(target, {});',
      '  }',
      '  return 1;',
      '}',
      '',
      'function isPlainObject(value) {',
      `  if (${guard}) {`,
      '    return false;',
      '  }',
      '  const prototype = Object.getPrototypeOf(value);',
      '  return prototype === null || prototype === Object.prototype;',
      '}',
    ];
    const changes = (guard: string) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${head(guard).join('\n')}\n`, [
        { oldStart: 1, oldLines: 4, newStart: 1, newLines: 0 },
        { oldStart: 6, oldLines: 1, newStart: 2, newLines: 1 },
        { oldStart: 10, oldLines: 0, newStart: 7, newLines: 8 },
      ]).map((change) => [change.kind, change.line, change.subject]);
    const prototypeTest = ['condition', 13, 'prototype === null || prototype === Object.prototype'];
    assert.deepEqual(changes('value === null || typeof value !== "object"'), [prototypeTest]);
    // Another test than the one removed, negated or not, is asked.
    assert.deepEqual(changes('value === undefined || typeof value !== "object"')[0], [
      'condition',
      9,
      '(value === undefined || typeof value !== "object")',
    ]);
  });

  test('a continue made a break leaves the loop there; the reverse reads the items after (negotiator, check 245)', () => {
    const base =
      "for (var j = 0; j < params.length; j++) {\n  if (params[j] === 'q') {\n    q = 1;\n    continue;\n  }\n  out.push(params[j]);\n}\n";
    const swap = (from: string, to: string) =>
      findSemanticChanges(base.replace('continue;', from), base.replace('continue;', to), [
        { oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 },
      ]).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(swap('continue;', 'break;'), [
      [
        'exit',
        'now leaves the loop here',
        'a list with more items after the one that reaches line 4, asserting that they are no longer read',
      ],
    ]);
    assert.deepEqual(swap('break;', 'continue;'), [
      [
        'exit',
        'now goes on to the next item here',
        'a list with more items after the one that reaches line 4, asserting that they are read now',
      ],
    ]);
  });

  test('a copy by spread where Object.assign({}, …) copied the same source, or the reverse, asks an own __proto__ key (defu, check 234)', () => {
    const one = (before: string, after: string) =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]).map((change) => [
        change.kind,
        change.subject,
      ]);
    assert.deepEqual(one('  const object = Object.assign({}, defaults);', '  const object = { ...defaults };'), [
      ['prototype', '{ ...defaults }'],
    ]);
    assert.deepEqual(one('  return { ...opts };', '  return Object.assign({}, opts);'), [['prototype', 'Object.assign({}, opts)']]);
    // Another source is another value, not another copy.
    assert.deepEqual(one('  const o = Object.assign({}, a);', '  const o = { ...b };'), []);
  });

  test('a comparison flipped in place, its block untouched, is a changed decision; moved and inverted elsewhere it is not', () => {
    const flip = (before: string, after: string, body = ['    go(n);', '  }']) =>
      findSemanticChanges(`${[before, ...body].join('\n')}\n`, `${[after, ...body].join('\n')}\n`, [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      ]).map((change) => [change.kind, change.subject, change.values]);
    assert.deepEqual(flip('  if (n === 1) {', '  if (n !== 1) {'), [['boundary', 'n', '1 and a value other than 1']]);
    assert.deepEqual(flip('  if (n > 1) {', '  if (n <= 1) {'), [['boundary', 'n', '0, 1 and 2']]);
    // The test negated into another statement keeps its boundary (undici's digit test): no case.
    assert.deepEqual(
      findSemanticChanges(
        '  if (code < 48) {\n    return false;\n  }\n',
        '  const digit = code >= 48;\n  if (!digit) {\n    return false;\n  }\n',
        [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
      ).filter((change) => change.kind === 'boundary'),
      [],
    );
  });

  test('a for…in made a loop over Object.keys of the same object lists no inherited key; the reverse lists them (defu, check 233)', () => {
    const one = (before: string, after: string) =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]).map((change) => [
        change.kind,
        change.subject,
        change.limit,
      ]);
    assert.deepEqual(one('  for (const key in baseObject) {', '  for (const key of Object.keys(baseObject as Record<string, any>)) {'), [
      ['own-keys', 'baseObject', 'only its own keys are listed now; the inherited one is skipped'],
    ]);
    assert.deepEqual(one('  for (const [k, v] of Object.entries(opts)) {', '  for (const k in opts) {'), [
      ['own-keys', 'opts', 'the keys it inherits are listed now as well'],
    ]);
    // Another object, or a loop new to the file, asks nothing of the kind.
    assert.deepEqual(
      one('  for (const key in defaults) {', '  for (const key of Object.keys(overrides)) {').filter(([kind]) => kind === 'own-keys'),
      [],
    );
    assert.deepEqual(
      findSemanticChanges('\n', '  for (const key of Object.keys(input)) {\n', [
        { oldStart: 1, oldLines: 0, newStart: 1, newLines: 1 },
      ]).filter((change) => change.kind === 'own-keys'),
      [],
    );
  });

  test('a fallback chain whose reads changed order reads another value when both are set (koa-router, check 229)', () => {
    const hunk = (before: string[], after: string[]) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after.join('\n')}\n`, [
        { oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length },
      ]).map((change) => [change.kind, change.subject, change.limit, change.values]);
    const reordered = [
      'read',
      'router.opts.routerPath || ctx.newRouterPath || ctx.path || ctx.routerPath',
      'router.opts.routerPath || ctx.routerPath || ctx.path',
      'an input that sets both ctx.path and ctx.routerPath (the new order reads ctx.path, the old one read ctx.routerPath)',
    ];
    // On one line, and with the value on the line after its `=`.
    const old = ['    const path = router.opts.routerPath || ctx.routerPath || ctx.path;'];
    assert.deepEqual(hunk(old, ['    const path = router.opts.routerPath || ctx.newRouterPath || ctx.path || ctx.routerPath;']), [
      reordered,
    ]);
    assert.deepEqual(hunk(old, ['    const path =', '      router.opts.routerPath || ctx.newRouterPath || ctx.path || ctx.routerPath;']), [
      reordered,
    ]);
    assert.deepEqual(
      hunk(['  return opts.id ?? headers.id;'], ['  return headers.id ?? opts.id;']).map(([kind, , , values]) => [kind, values]),
      [['read', 'an input that sets both headers.id and opts.id (the new order reads headers.id, the old one read opts.id)']],
    );
    // The same order with a link added asks what a new fallback asks, not a read; a test with `&&` is no chain.
    assert.deepEqual(
      hunk(['  const name = opts.name || env.NAME;'], ['  const name = opts.name || env.NAME || cfg.name;']).map(([kind]) => kind),
      ['default'],
    );
    assert.equal(
      hunk(['  const ok = a.x || b.y;'], ['  const ok = b.y && a.x;']).some(([kind]) => kind === 'read'),
      false,
    );
  });

  test('a fallback operator swapped (`??` for `||`) changes which values take the same fallback (Unleash)', () => {
    assert.deepEqual(one('    groupId: params?.groupId ?? featureName,', '    groupId: params?.groupId || featureName,'), [
      [
        'default',
        'params?.groupId',
        'featureName',
        "params?.groupId as '', 0 and false, which now become featureName (?? kept them), and params?.groupId undefined",
      ],
    ]);
    assert.deepEqual(one('  const port = options.port || 3000;', '  const port = options.port ?? 3000;'), [
      [
        'default',
        'options.port',
        '3000',
        "options.port as '', 0 and false, which are now kept (|| replaced them by 3000), and options.port undefined",
      ],
    ]);
    // The same operator and fallback with another operand is no swap.
    assert.deepEqual(one('  const port = options.port ?? 3000;', '  const port = config.port ?? 3000;'), []);
  });

  // Check 137 (find-my-way): `path.replace(OPTIONAL_PARAM_REGEXP, '$2')` became `… || '/'` and no edge case asked
  // which paths now become '/'.
  // Check 140 (dateutil): `del self[mstridx]` became `other = self[mstridx - 1]` and got the rounding case (.5, -0.5);
  // an index offset asks the ends of the list.
  test('an index offset asks the ends of the list, not a rounding', () => {
    const pair = (before: string, after: string, language: 'javascript' | 'python' | 'go') =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], language).map((change) => [
        change.kind,
        change.subject,
        change.values,
      ]);
    assert.deepEqual(pair('        del self[mstridx]', '        other = self[mstridx - 1]', 'python'), [
      ['boundary', 'mstridx', '0 (then self[mstridx - 1] reads from the end, no IndexError), 1 and the last index'],
    ]);
    assert.deepEqual(pair('  const next = parts[i];', '  const next = parts[i + 1];', 'javascript'), [
      ['boundary', 'i', 'the last index (then parts[i + 1] reads past the end and is undefined) and the one below it'],
    ]);
    // Arithmetic beside the offset is still arithmetic.
    assert.deepEqual(
      pair('  const total = prices[i];', '  const total = prices[i - 1] * 1.2;', 'javascript').map(([kind]) => kind),
      ['arithmetic'],
    );
  });

  test('a fallback added to a value the line already computed asks the values it now replaces', () => {
    assert.deepEqual(
      one(
        "    const pathOptional = path.replace(OPTIONAL_PARAM_REGEXP, '$2')",
        "    const pathOptional = path.replace(OPTIONAL_PARAM_REGEXP, '$2') || '/'",
      ),
      [
        [
          'default',
          "path.replace(OPTIONAL_PARAM_REGEXP, '$2')",
          "'/'",
          "path.replace(OPTIONAL_PARAM_REGEXP, '$2') as '' (an empty result), 0, false, undefined and null, which now become '/', and a value it keeps",
        ],
      ],
    );
    // Inside a call's arguments: the argument is the operand (find-my-way's `params.push(matchedParameters[i] ?? '')`).
    assert.deepEqual(
      one('      params.push(matchedParameters[i])', "      params.push(matchedParameters[i] ?? '')").map(([kind, subject]) => [
        kind,
        subject,
      ]),
      [['default', 'matchedParameters[i]']],
    );
    assert.deepEqual(one('  return options.retries;', '  return options.retries ?? 2;'), [
      ['default', 'options.retries', '2', 'options.retries as undefined and null, which now become 2, and a value it keeps'],
    ]);
    // A fallback that comes with another edit of the line is not only a fallback: no default case from it.
    assert.deepEqual(
      one('  const name = user.name;', '  const name = user.displayName || user.name;').filter(([kind]) => kind === 'default'),
      [],
    );
  });

  test('a link joined to a test a removed line made asks the new test, not the old membership (Unleash)', () => {
    const base = ['const features = this.features.filter((feature) =>', '  featureNames.includes(feature.name),', ');'];
    const head = [
      'const features = this.features.filter(',
      '  (feature) =>',
      '    featureNames.includes(feature.name) && !feature.archived,',
      ');',
    ];
    const changes = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 3 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(changes, [['condition', 3, 'featureNames.includes(feature.name) && !feature.archived']]);
    // Reformatted only: the same test, no case.
    const same = head.map((line) => line.replace(' && !feature.archived', ''));
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${same.join('\n')}\n`, [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3 }]),
      [],
    );
  });

  test('a condition changed only by the value a read case names asks once, as the read (Unleash)', () => {
    const base = [
      'function warn(token) {',
      '  if (this.warned.has(token.name)) {',
      '    return;',
      '  }',
      '  this.warned.add(token.name);',
      '}',
    ];
    const head = [
      'function warn(token) {',
      '  const key = `${token.name}:${token.alias}`;',
      '  if (this.warned.has(key)) {',
      '    return;',
      '  }',
      '  this.warned.add(key);',
      '}',
    ];
    const changes = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 2 },
      { oldStart: 5, oldLines: 1, newStart: 6, newLines: 1 },
    ]).map((change) => [change.kind, change.line, change.subject, change.limit]);
    assert.deepEqual(changes, [['read', 6, 'key', 'token.name']]);
  });

  test('a value made a ternary asks its test; a ternary whose test stays asks nothing new (hoppscotch)', () => {
    assert.deepEqual(one('    currentValue: "",', '    currentValue: v.secret ? "" : v.currentValue,'), [
      ['condition', 'v.secret', '', 'an input for which v.secret is true and one for which it is false'],
    ]);
    assert.deepEqual(
      one('  const label = "none";', '  const label = count > 1 ? "many" : "one";').map(([kind]) => kind),
      ['boundary'],
    );
    assert.deepEqual(
      one('    value: v.secret ? "" : v.value,', '    value: v.secret ? "" : v.value.trim(),').map(([kind]) => kind),
      ['normalisation'],
    );
  });

  test('a test given only a normalisation asks it as a normalisation, and the same edit in two hunks asks once (hoppscotch)', () => {
    const loop = (key: string) => [
      '  for (const header of headers) {',
      `    if (SKIP.has(${key})) continue`,
      '    out.push(header)',
      '  }',
    ];
    const base = [
      'function a(headers, out) {',
      ...loop('header.key.toLowerCase()'),
      '}',
      'function b(headers, out) {',
      ...loop('header.key.toLowerCase()'),
      '}',
    ];
    const head = base.map((line) => line.replace('header.key.toLowerCase()', 'header.key.trim().toLowerCase()'));
    const changes = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
      { oldStart: 9, oldLines: 1, newStart: 9, newLines: 1 },
    ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(changes, [['normalisation', 3, 'trim']]);
    // Another test besides the normalisation is a changed condition still.
    const other = base.map((line) =>
      line.replace('SKIP.has(header.key.toLowerCase())', 'SKIP.has(header.key.trim().toLowerCase()) || !header.active'),
    );
    const kinds = findSemanticChanges(`${base.join('\n')}\n`, `${other.join('\n')}\n`, [
      { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
    ]).map((change) => change.kind);
    assert.deepEqual(kinds, ['condition', 'normalisation']);
  });

  // Check 142 (humanize e5a3976): `".%if" % (precision - (exponent % 3) - 1)` got `max(0, …)` and no case asked for a
  // precision below the exponent's digits.
  test('a value the line now clamps asks both sides of the bound', () => {
    const pair = (before: string, after: string, language: 'javascript' | 'python') =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], language).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]);
    assert.deepEqual(
      pair(
        '    value_ = format(value, ".%if" % (precision - (exponent % 3) - 1))',
        '    value_ = format(value, ".%if" % max(0, precision - (exponent % 3) - 1))',
        'python',
      ),
      [['boundary', 'precision - (exponent % 3) - 1', '0', 'below 0 (now 0), exactly 0, and above it']],
    );
    assert.deepEqual(pair('  const size = Number(limit);', '  const size = Math.min(Number(limit), 100);', 'javascript'), [
      ['boundary', 'Number(limit)', '100', 'above 100 (now 100), exactly 100, and below it'],
    ]);
    // A clamp the line had already asks nothing new.
    assert.deepEqual(pair('  const size = Math.min(limit, 100);', '  let size = Math.min(limit, 100);', 'javascript'), []);
  });

  // Check 143 (samber/lo 64b0378): `return result, err` became `var zero R` and `return zero, err` in four functions;
  // each was asked as a removed error path and a new one ("the input that used to fail here").
  test('a Go error return that now hands back the zero value is one read case, not two error paths', () => {
    const fn = (body: string[]) => [
      'func ReduceErr[T, R any](collection []T, accumulator func(R, T) (R, error), initial R) (R, error) {',
      '\tfor i := range collection {',
      '\t\tresult, err := accumulator(initial, collection[i])',
      '\t\tif err != nil {',
      ...body,
      '\t\t}',
      '\t\tinitial = result',
      '\t}',
      '\treturn initial, nil',
      '}',
    ];
    const base = fn(['\t\t\treturn result, err']);
    const head = fn(['\t\t\tvar zero R', '\t\t\treturn zero, err']);
    assert.deepEqual(
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${head.join('\n')}\n`,
        [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 2 }],
        'go',
      ).map((change) => [change.kind, change.line, change.subject, change.limit, change.values]),
      [['read', 6, 'zero', 'result', 'a failure (err not nil) after result holds a partial value']],
    );
  });

  // Check 145 (validators 7c0e605): `if is_private and (` became `if (`, and the case read "an input for which ( is true".
  test('a Python condition that drops its first operand before a bracket asks that operand', () => {
    const base = [
      'def check(value, is_private):',
      '    if is_private and (',
      '        value.startswith("10.")',
      '    ):',
      '        return True',
    ];
    const head = ['def check(value, is_private):', '    if (', '        value.startswith("10.")', '    ):', '        return True'];
    assert.deepEqual(
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${head.join('\n')}\n`,
        [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
        'python',
      ).map((change) => [change.kind, change.subject, change.values]),
      [['condition', 'is_private', 'an input that only is_private decided before: the condition no longer tests it']],
    );
  });

  // Check 144 (fastify-cors 365a08e): `.then(…)` and `.then(…).catch(next)` joined onto one line were asked as a changed
  // error path; `indexOf('*')` was shown as `indexOf("")`.
  test('a catch the hunk had on the same chain is no changed error path; a comparison is shown as written', () => {
    const base = [
      '        if (ret && typeof ret.then === "function") {',
      '          ret.then(options => Object.assign({}, defaultOptions, options))',
      '            .then(corsOptions => addCorsHeadersHandler(fastify, corsOptions, req, reply, next)).catch(next)',
      '          return',
    ];
    const head = [
      '        if (ret && typeof ret.then === "function") {',
      '          ret.then(options => addCorsHeadersHandler(fastify, normalizeCorsOptions(options), req, reply, next)).catch(next)',
      '          return',
    ];
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 1 }]).map(
        (change) => change.kind,
      ),
      [],
    );
    assert.deepEqual(
      one('  if (opts.origin === true) {', "  if (Array.isArray(opts.origin) && opts.origin.indexOf('*') !== -1) {").map(
        ([kind, subject]) => [kind, subject],
      ),
      [['condition', "(Array.isArray(opts.origin) && opts.origin.indexOf('*') !== -1)"]],
    );
  });

  // Check 143 (samber/lo c70160e): `make(Slice, 0, initialSize-len(indexes))` was asked .5, -0.5 and negatives.
  test("arithmetic only in a Go make's capacity asks nothing; in its length it is arithmetic", () => {
    const pair = (before: string, after: string) =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], 'go').map(
        (change) => change.kind,
      );
    assert.deepEqual(pair('\tresult := make(Slice, 0, initialSize)', '\tresult := make(Slice, 0, initialSize-len(indexes))'), []);
    assert.deepEqual(pair('\tresult := make(Slice, size)', '\tresult := make(Slice, size/2)'), ['arithmetic']);
  });

  // Check 143 (samber/lo c70160e): `for _, item := range collection` became `for i := range collection` and
  // `predicate(item)` became `predicate(collection[i])`: the same element, asked as a changed condition.
  test('a Go range value read by its index instead is the same value: no condition case', () => {
    const filter = (loop: string, element: string) => [
      'func Filter[T any](collection []T, predicate func(item T) bool) []T {',
      '\tj := 0',
      `\t${loop}`,
      `\t\tif predicate(${element}) {`,
      `\t\t\tcollection[j] = ${element}`,
      '\t\t\tj++',
      '\t\t}',
      '\t}',
      '\treturn collection[:j]',
      '}',
    ];
    const base = filter('for _, item := range collection {', 'item');
    const head = filter('for i := range collection {', 'collection[i]');
    const hunk = [{ oldStart: 3, oldLines: 3, newStart: 3, newLines: 3 }];
    assert.deepEqual(findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunk, 'go'), []);
    // Another element is another value.
    const other = filter('for i := range collection {', 'collection[j]');
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${other.join('\n')}\n`, hunk, 'go').map((change) => change.kind),
      ['condition'],
    );
  });

  // Check 143 (samber/lo): Zip2 … Zip9 each gained `|| !yield(item)` after `ok == [N]bool{}`: eight condition cases.
  test('a condition edited alike in hunks that differ only by a number asks once', () => {
    const zip = (n: number, after: boolean) => [
      `func Zip${n}() {`,
      `	if ok == [${n}]bool{}${after ? ' || !yield(item)' : ''} {`,
      '		return',
      '	}',
      '}',
    ];
    const base = [...zip(2, false), ...zip(3, false)];
    const head = [...zip(2, true), ...zip(3, true)];
    const hunks = [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      { oldStart: 7, oldLines: 1, newStart: 7, newLines: 1 },
    ];
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunks, 'go').map((change) => [change.kind, change.line]),
      [['condition', 2]],
    );
    // Another edit in the second hunk is its own question.
    const other = [...zip(2, true), ...zip(3, false).map((line) => line.replace('ok == [3]bool{}', 'ok != [3]bool{}'))];
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${other.join('\n')}\n`, hunks, 'go').map((change) => [change.kind, change.line]),
      [
        ['condition', 2],
        ['condition', 7],
      ],
    );
  });

  test('a catch with no binding is an error path; a ternary inside a call tests what stands before its ? (sentry)', () => {
    const base = ['export function url(options) {', '  return String(toUrl(options));', '}'];
    const head = [
      'export function url(options) {',
      '  try {',
      '    return String(toUrl(options));',
      '  } catch {',
      "    return '';",
      '  }',
      '}',
    ];
    const caught = findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 5 },
    ]);
    assert.deepEqual(
      caught.map((change) => [change.kind, change.line, change.after]),
      [['error-path', 4, '} catch']],
    );
    assert.deepEqual(one('  return new URL(path, base);', "  return new URL(path.startsWith('//') ? `${base}${path}` : path, base);"), [
      ['condition', "path.startsWith('//')", '', "an input for which path.startsWith('//') is true and one for which it is false"],
    ]);
  });

  test('a comment the changed line took the place of is shown as no line it replaced (Unleash)', () => {
    const changes = findSemanticChanges(
      '  // prevent querying the same secret twice\n  this.block(secret);\n',
      '  if (found && !active) {\n  this.block(secret);\n',
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
    );
    assert.deepEqual(
      changes.map((change) => [change.kind, change.before, change.after]),
      [['condition', '', 'if (found && !active)']],
    );
  });
});

/** The changes of a hunk that replaces line `line` of `before` by the same line of `after` (lines joined by `\n`). */
const replaced = (language: 'python' | 'go', before: string[], after: string[], line = 1) =>
  findSemanticChanges(
    `${before.join('\n')}\n`,
    `${after.join('\n')}\n`,
    [{ oldStart: line, oldLines: 1, newStart: line, newLines: 1 }],
    language,
  );

describe('findSemanticChanges: operands joined the other way (check 168, go-cmp d5fcb38)', () => {
  const pair = (before: string, after: string, language: 'javascript' | 'python' | 'go') =>
    findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], language).map((change) => [
      change.kind,
      change.subject,
    ]);

  test('&& made || (or `and` made `or`) in what a line returns or assigns is a changed condition', () => {
    assert.deepEqual(pair('  return isPrint(r) && isSpace(r);', '  return isPrint(r) || isSpace(r);', 'javascript'), [
      ['condition', 'isPrint(r) || isSpace(r)'],
    ]);
    assert.deepEqual(pair('  const ok = a && b;', '  const ok = a || b;', 'javascript'), [['condition', 'a || b']]);
    assert.deepEqual(pair('    return a and b', '    return a or b', 'python'), [['condition', 'a or b']]);
    // Go's one-line function literal returns its test.
    assert.deepEqual(
      pair(
        '\tisPrintSpace := func(r rune) bool { return unicode.IsPrint(r) && unicode.IsSpace(r) }',
        '\tisPrintSpace := func(r rune) bool { return unicode.IsPrint(r) || unicode.IsSpace(r) }',
        'go',
      ),
      [['condition', 'unicode.IsPrint(r) || unicode.IsSpace(r)']],
    );
  });

  test('an operand replaced, or || made ??, is no flipped operator', () => {
    assert.deepEqual(pair('  return a && b;', '  return a && c;', 'javascript'), []);
    assert.deepEqual(
      pair('  const v = a || b;', '  const v = a ?? b;', 'javascript').map(([kind]) => kind),
      ['default'],
    );
    assert.deepEqual(pair('\tf := func() bool { return a }', '\tf := func() bool { return b }', 'go'), []);
  });
});

describe('findSemanticChanges: a returned chain split into guards (check 175, go-playground/form 5e42369)', () => {
  const base = [
    'func hasValue(field reflect.Value) bool {',
    '\tswitch field.Kind() {',
    '\tdefault:',
    '\t\treturn field.IsValid() && field.Interface() != reflect.Zero(field.Type()).Interface()',
    '\t}',
    '}',
  ];
  const head = [
    'func hasValue(field reflect.Value) bool {',
    '\tswitch field.Kind() {',
    '\tdefault:',
    '\t\tif !field.IsValid() {',
    '\t\t\treturn false',
    '\t\t}',
    '\t\tif !field.Type().Comparable() {',
    '\t\t\treturn true',
    '\t\t}',
    '\t\treturn field.Interface() != reflect.Zero(field.Type()).Interface()',
    '\t}',
    '}',
  ];

  test('a guard on an operand the old line returned is old logic; the new guard beside it is asked', () => {
    const changes = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${head.join('\n')}\n`,
      [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 7 }],
      'go',
    );
    assert.deepEqual(
      changes.filter((change) => change.kind === 'condition').map((change) => [change.line, change.subject]),
      [[7, '!field.Type().Comparable()']],
    );
    // The same in JavaScript: `return a && b` made `if (!a) return false;` then `return b`.
    const js = findSemanticChanges(
      'function ok(user) {\n  return user.active && user.age > 17;\n}\n',
      'function ok(user) {\n  if (!user.active) return false;\n  if (user.banned) return false;\n  return user.age > 17;\n}\n',
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }],
      'javascript',
    );
    assert.deepEqual(
      js.filter((change) => change.kind === 'condition').map((change) => change.subject),
      ['(user.banned)'],
    );
  });
});

describe('findSemanticChanges: a default the change removed (check 167, uuid afe6232)', () => {
  const removing = (base: readonly string[], head: readonly string[], hunks: Hunk[]) =>
    findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunks, 'javascript').map((change) => [
      change.kind,
      change.line,
      change.subject,
      change.limit,
    ]);
  const body = ['  if (native.randomUUID && !buf && !options) {', '    return native.randomUUID();', '  }', '  return fill(options);', '}'];

  test('`options ??= {}` removed asks for a call without options; `opts = opts || {}` the same with the falsy values', () => {
    assert.deepEqual(
      removing(
        ['function v4(options, buf) {', '  options ??= {};', '', ...body],
        ['function v4(options, buf) {', ...body],
        [{ oldStart: 2, oldLines: 2, newStart: 1, newLines: 0 }],
      ),
      [['default', 2, 'options', 'undefined, now that "options ??= {}" is removed']],
    );
    assert.deepEqual(
      removing(
        ['function v4(options, buf) {', '  options = options || {};', ...body],
        ['function v4(options, buf) {', ...body],
        [{ oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 }],
      ),
      [['default', 2, 'options', 'the value as given, now that "options = options || {}" is removed']],
    );
  });

  test('a default given another way (a parameter default) or made again elsewhere is no removed default', () => {
    assert.deepEqual(
      removing(
        ['function v4(options, buf) {', '  options ??= {};', ...body],
        ['function v4(options = {}, buf) {', ...body],
        [
          { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
          { oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 },
        ],
      ).filter(([kind]) => kind === 'default'),
      [],
    );
    assert.deepEqual(
      removing(
        ['function v4(options, buf) {', '  options ??= {};', ...body],
        ['function v4(options, buf) {', ...body],
        [{ oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 }],
      ).length,
      1,
    );
  });
});

describe('findSemanticChanges on validation schemas: what a changed schema accepts', () => {
  const ZOD = 'import { z } from "zod";';
  /** One replaced (or, with `before` undefined, inserted) line of a schema file that imports `header`. */
  const schemaLine = (before: string | undefined, after: string, header = ZOD) => {
    const base = [header, 'export const Body = z.object({', '  name: z.string(),', ...(before === undefined ? [] : [before]), '});'];
    const head = [header, 'export const Body = z.object({', '  name: z.string(),', after, '});'];
    const hunk = { oldStart: 4, oldLines: before === undefined ? 0 : 1, newStart: 4, newLines: 1 };
    return findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [hunk]).map((change) => [
      change.kind,
      change.subject,
      change.limit,
      change.values,
    ]);
  };

  test('found on outline: a field made required names the field and the clients that omit it', () => {
    assert.deepEqual(schemaLine('  collectionId: z.uuid().nullish(),', '  collectionId: z.uuid(),'), [
      [
        'validation',
        'collectionId',
        'nullish() removed',
        'a request without collectionId and one with collectionId: null (accepted before, refused now: existing clients that omit it break)',
      ],
    ]);
    assert.deepEqual(schemaLine('  limit: z.number().int().max(100),', '  limit: z.number().int().max(25).optional(),'), [
      [
        'validation',
        'limit',
        'max(100) removed, max(25) added, optional() added',
        'a request without limit (refused before, accepted now: the code after validation must handle the missing value)',
      ],
    ]);
    // Each side's missing value is its own: `optional()` lets a field be left out, `nullable()` be null, not both.
    assert.equal(
      schemaLine('  note: z.string(),', '  note: z.string().nullable(),')[0]?.[3],
      'a request with note: null (refused before, accepted now: the code after validation must handle the missing value)',
    );
  });

  test('a bound, a format and a base type; a new required field; yup and joi as well as zod', () => {
    assert.deepEqual(schemaLine('  name: z.string().min(1),', '  name: z.string().min(3),')[0]?.slice(0, 4), [
      'validation',
      'name',
      'min(1) removed, min(3) added',
      'name exactly at, just inside and just outside each limit (min(1) and min(3)), and empty',
    ]);
    assert.deepEqual(schemaLine('  id: z.string(),', '  id: z.uuid(),')[0]?.slice(0, 3), [
      'validation',
      'id',
      'string() removed, uuid() added',
    ]);
    assert.deepEqual(schemaLine(undefined, '  locale: z.string().min(2),'), [
      [
        'validation',
        'locale',
        'a new required field',
        'a request from a client that does not send locale (refused now), and one that sends it empty or malformed',
      ],
    ]);
    assert.deepEqual(schemaLine(undefined, '  locale: z.string().optional(),'), [], 'a new optional field refuses nobody');
    // A default given another value still lets the field be left out: not "refused now".
    assert.deepEqual(schemaLine('  size: z.number().default(10),', '  size: z.number().default(20),'), [
      ['validation', 'size', 'default(10) removed, default(20) added', 'a request without size (it now gets default(20))'],
    ]);
    assert.deepEqual(
      schemaLine('  size: z.number().default(10),', '  size: z.number().optional(),')[0]?.slice(0, 3),
      ['validation', 'size', 'default(10) removed, optional() added'],
      'still omittable: neither tightened nor loosened',
    );
    assert.deepEqual(schemaLine('  age: yup.number().required(),', '  age: yup.number(),', "import * as yup from 'yup';")[0]?.slice(0, 3), [
      'validation',
      'age',
      'required() removed',
    ]);
    assert.deepEqual(
      schemaLine('  age: Joi.number().min(0),', '  age: Joi.number().min(18),', "const Joi = require('joi');")[0]?.slice(0, 3),
      ['validation', 'age', 'min(0) removed, min(18) added'],
    );
  });

  // Fourth independent check (outline 4845da08ac): the field's chain broken one link per line, `.optional()` added
  // last, was read from its first line alone as "string() removed, min(1) removed, max(…) removed".
  test('a chain broken one link per line is read whole: only the link it gained is the change', () => {
    const base = [ZOD, 'export const Body = z.object({', '  client_name: z.string().min(1).max(100),', '});'];
    const head = [
      ZOD,
      'export const Body = z.object({',
      '  client_name: z',
      '    .string()',
      '    .min(1)',
      '    .max(100)',
      '    .optional(),',
      '});',
    ];
    const hunk = { oldStart: 3, oldLines: 1, newStart: 3, newLines: 5 };
    assert.deepEqual(
      findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, [hunk]).map((change) => [
        change.kind,
        change.subject,
        change.limit,
      ]),
      [['validation', 'client_name', 'optional() added']],
    );
  });

  test('without a schema library imported, a .min( or .optional( is not a schema; Math.min never is', () => {
    assert.deepEqual(schemaLine('  size: list.min(1),', '  size: list.min(3),', "import { list } from './list';"), []);
    assert.deepEqual(
      schemaLine('  size: Math.min(a, 1),', '  size: Math.min(a, 3),').filter(([kind]) => kind === 'validation'),
      [],
    );
    assert.deepEqual(
      schemaLine('  name: z.string().describe("a"),', '  name: z.string().describe("b"),'),
      [],
      'a description accepts the same',
    );
  });
});

describe('findSemanticChanges on Python: its own comments, conditions, errors and slices', () => {
  // Check 78 (rich's segment.py and panel.py): a loop on `True`, a failed invariant removed, a join of styles.
  test('a loop on a literal, a removed AssertionError and a join by + ask nothing; a + with a number is arithmetic', () => {
    const body = ['def split(text, cut):', '    pos = 0', '    return text'];
    assert.deepEqual(
      changed(body, [...body.slice(0, 2), '    while True:', '        pos += 1', '        break', '    return text'], 'python'),
      [],
    );
    assert.deepEqual(changed(['def f():', '    raise AssertionError("Will never reach here")'], ['def f():', '    pass'], 'python'), []);
    assert.deepEqual(
      changed(['def f():', '    raise ValueError("bad")'], ['def f():', '    pass'], 'python').map(([kind]) => kind),
      ['error-path'],
    );
    const joined = changed(
      ['def f(style):', '    border = get_style(b)'],
      ['def f(style):', '    border = style + get_style(b)'],
      'python',
    );
    assert.deepEqual(joined, []);
    const counted = changed(['def f(style):', '    width = get_width(b)'], ['def f(style):', '    width = get_width(b) + 1'], 'python');
    assert.deepEqual(
      counted.map(([kind]) => kind),
      ['arithmetic'],
    );
  });

  // Check 78 (rich's cells.py): `if codepoint > table[-1][1]:` became `last_entry = table[-1]` and
  // `if codepoint > last_entry[1]:`, and was asked for a bound on codepoint.
  test('a comparison whose operand was given a name in the hunk is the same bound; a moved bound is not', () => {
    const before = ['def size(codepoint, table):', '    if codepoint > table[-1][1]:', '        return 1', '    return 0'];
    const named = [
      'def size(codepoint, table):',
      '    last_entry = table[-1]',
      '    if codepoint > last_entry[1]:',
      '        return 1',
      '    return 0',
    ];
    assert.deepEqual(changed(before, named, 'python'), []);
    const moved = [...named.slice(0, 2), '    if codepoint >= last_entry[1]:', ...named.slice(3)];
    assert.deepEqual(changed(before, moved, 'python'), [['boundary', 3, 'codepoint']]);
  });

  // Check 56 (encode/uvicorn): `assert self.process.pid is not None`, there for the type checker, asked for a pid of None.
  test('an assert that narrows a type asks nothing; an assert on a value does', () => {
    const added = (line: string) =>
      findSemanticChanges(
        'def f(self):\n    pass\n',
        `def f(self):\n${line}\n    pass\n`,
        [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }],
        'python',
      ).map((change) => change.kind);
    assert.deepEqual(added('    assert self.process.pid is not None'), []);
    assert.deepEqual(added('    assert isinstance(self.app, Callable)'), []);
    // Check 75 (aio-libs/yarl): the negated check and `is None` narrow as well.
    assert.deepEqual(added('    assert not isinstance(encode_host_size, object)'), []);
    assert.deepEqual(added('    assert self.transport is None'), []);
    assert.deepEqual(added('    assert self.process.pid > 0'), ['boundary']);
  });

  test("a loop's variable renamed in the hunk leaves the tests of it as they were; a new test still asks (check 31: flask)", () => {
    const base = [
      '        funcs = self.before_request_funcs[None]',
      '        for bp in request.blueprints:',
      '            if bp in self.before_request_funcs:',
      '                funcs = chain(funcs, self.before_request_funcs[bp])',
    ];
    const head = [
      '        funcs = []',
      '        for name in chain([None], reversed(request.blueprints)):',
      '            if name in self.before_request_funcs:',
      '                funcs = chain(funcs, self.before_request_funcs[name])',
      '            if name in self.skipped:',
      '                break',
    ];
    const changes = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${head.join('\n')}\n`,
      [{ oldStart: 1, oldLines: 4, newStart: 1, newLines: 6 }],
      'python',
    );
    assert.deepEqual(
      changes.filter((change) => change.kind === 'condition' || change.kind === 'membership').map((change) => change.subject),
      ['name in self.skipped'],
    );
  });

  test('a value made conditional asks its test; a conditional that was there asks only when its test changed (check 28: httpx)', () => {
    assert.deepEqual(
      replaced('python', ['        return [content]'], ['        return [content] if content else []']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['condition', 'content']],
    );
    assert.deepEqual(
      replaced('python', ['        return [content] if content else []'], ['        return [content] if content else ()']),
      [],
    );
  });

  // Check 25 (starlette): the fix moved one line into the `else:` above it by its indentation alone; nothing was asked.
  test("a line indented into a block asks that block's test; one taken out of a block asks the old test", () => {
    const base = [
      'def lookup(self, directory, path):',
      '    if self.follow_symlink:',
      '        full = abspath(path)',
      '    else:',
      '        full = realpath(path)',
      '    directory = realpath(directory)',
      '    return full, directory',
    ];
    const head = base.map((line) => (line === '    directory = realpath(directory)' ? `    ${line}` : line));
    const into = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${head.join('\n')}\n`,
      [{ oldStart: 6, oldLines: 1, newStart: 6, newLines: 1 }],
      'python',
    );
    assert.deepEqual(
      into.map((change) => [change.kind, change.line, change.subject]),
      [['condition', 6, 'not (self.follow_symlink)']],
    );
    const out = findSemanticChanges(
      `${head.join('\n')}\n`,
      `${base.join('\n')}\n`,
      [{ oldStart: 6, oldLines: 1, newStart: 6, newLines: 1 }],
      'python',
    );
    assert.deepEqual(
      out.map((change) => [change.kind, change.subject, change.values.endsWith('now runs in both')]),
      [['condition', 'not (self.follow_symlink)', true]],
    );
  });

  // Check 172 (tablib 234f434): a new `if self.headers:` above the loops it now holds was asked, and so was the loop
  // the diff moved under it in a hunk of its own, about the same test.
  test('a line moved under a test the change itself writes asks that test once, where it is written', () => {
    const base = [
      'def stack(self, other):',
      '    for column in self.headers:',
      '        add(self[column])',
      '',
      '    for column in other.headers:',
      '        add(other[column])',
      '    return done',
    ];
    const head = [
      'def stack(self, other):',
      '    if self.headers:',
      '        for column in self.headers:',
      '            add(self[column])',
      '',
      '        for column in other.headers:',
      '            add(other[column])',
      '    else:',
      '        add_all(self)',
      '    return done',
    ];
    // The hunks as the change's diff pairs them: the second loop moved in a hunk of its own.
    const changes = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${head.join('\n')}\n`,
      [
        { oldStart: 2, oldLines: 2, newStart: 2, newLines: 3 },
        { oldStart: 5, oldLines: 2, newStart: 6, newLines: 4 },
      ],
      'python',
    );
    assert.deepEqual(
      changes.filter((change) => change.kind === 'condition').map((change) => [change.line, change.subject]),
      [[2, 'self.headers']],
    );
  });

  // Check 176 (sqlparse 111b35c): `tmp_token.value == 'AS'` → `tmp_token.value.upper() == 'AS'` asked the condition,
  // which took the line's one question from the normalisation.
  test('a test whose only edit normalises the value it compares asks the normalisation, not a condition', () => {
    const kinds = (before: string, after: string, language: 'python' | 'go') =>
      findSemanticChanges(`${before}\n`, `${after}\n`, [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }], language).map(
        (change) => change.kind,
      );
    assert.deepEqual(kinds("        if tmp_token.value == 'AS':", "        if tmp_token.value.upper() == 'AS':", 'python'), [
      'normalisation',
    ]);
    assert.deepEqual(kinds('\tif method == "GET" {', '\tif strings.ToUpper(method) == "GET" {', 'go'), ['normalisation']);
    // Another edit of the test beside it is a condition still.
    assert.deepEqual(kinds("        if value == 'AS':", "        if value.upper() == 'AS' or strict:", 'python'), [
      'condition',
      'normalisation',
    ]);
  });

  // Check 176 (sqlparse 5ca50a2): a condition continued with backslashes was shown with them.
  test('a condition continued with backslashes is read, and shown, as one line without them', () => {
    const [change] = findSemanticChanges(
      'def f(self, ttype, unified):\n    return 0\n',
      "def f(self, ttype, unified):\n    if self._seen_begin and \\\n            (ttype is T.Keyword) and \\\n            unified in ('WORK',):\n        return 1\n    return 0\n",
      [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 4 }],
      'python',
    );
    assert.deepEqual([change?.kind, change?.subject], ['condition', "self._seen_begin and (ttype is T.Keyword) and unified in ('WORK',)"]);
    assert.doesNotMatch(change?.after ?? '', /\\/);
  });

  test('a boundary on len(), an `is None` presence check (no limit None), and True/False are no limit', () => {
    assert.deepEqual(replaced('python', ['    if len(items) >= 5:'], ['    if len(items) > 5:']), [
      {
        kind: 'boundary',
        line: 1,
        before: 'if len(items) >= 5:',
        after: 'if len(items) > 5:',
        subject: 'len(items)',
        limit: '5',
        values: '4, 5 and 6',
      },
    ]);
    assert.deepEqual(replaced('python', ['    if user.banned == True:'], ['    if user is None:']), [
      {
        kind: 'condition',
        line: 1,
        before: 'if user.banned == True:',
        after: 'if user is None:',
        subject: 'user is None',
        limit: '',
        values: 'an input for which user is None and one for which it is set',
      },
    ]);
    assert.deepEqual(
      replaced('python', ['    if user is not None and user.active:'], ['    if user is not None and user.active and user.verified:']),
      [
        {
          kind: 'condition',
          line: 1,
          before: 'if user is not None and user.active:',
          after: 'if user is not None and user.active and user.verified:',
          subject: 'user is not None and user.active and user.verified',
          limit: '',
          values: 'an input for which user is not None and user.active and user.verified is true and one for which it is false',
        },
      ],
    );
  });

  test('a membership test counts; the `in` of a for loop or of a comprehension iterates and does not', () => {
    assert.deepEqual(replaced('python', ['    if role == "admin":'], ['    if role not in ALLOWED_ROLES:']), [
      {
        kind: 'condition',
        line: 1,
        before: 'if role == "admin":',
        after: 'if role not in ALLOWED_ROLES:',
        subject: 'role not in ALLOWED_ROLES',
        limit: '',
        values: 'an input for which role not in ALLOWED_ROLES is true and one for which it is false',
      },
      {
        kind: 'membership',
        line: 1,
        before: 'if role == "admin":',
        after: 'if role not in ALLOWED_ROLES:',
        subject: 'role not in ALLOWED_ROLES',
        limit: '',
        values: 'role that is in ALLOWED_ROLES, one that is not, and one that differs only in case or type ("1" and 1)',
      },
    ]);
    assert.deepEqual(replaced('python', ['    for role in roles:'], ['    for role in user.roles:']), [], 'a for loop tests nothing');
    assert.deepEqual(
      replaced('python', ['    names = [user.name for user in users]'], ['    names = [user.name for user in active_users]']),
      [],
      'a comprehension iterates',
    );
    assert.deepEqual(
      replaced(
        'python',
        ['    names = [user.name for user in users]'],
        ['    names = [user.name for user in users if user.role in STAFF]'],
      ).map((change) => [change.kind, change.subject]),
      [['membership', 'user.role in STAFF']],
      "a comprehension's filter still tests",
    );
    // Check 140 (dateutil): a number counted by range has no case or type to miss.
    assert.deepEqual(
      replaced('python', ['            missing = []'], ['            missing = [x for x in range(3) if x not in strids.values()]']).map(
        (change) => [change.kind, change.values],
      ),
      [['membership', 'x that is in strids.values() and one that is not']],
    );
  });

  test('an except clause names the classes it catches; raise, abort and FastAPI or Flask statuses are error paths with the new status', () => {
    assert.deepEqual(replaced('python', ['    except KeyError:'], ['    except (KeyError, ValueError) as error:']), [
      {
        kind: 'error-path',
        line: 1,
        before: 'except KeyError:',
        after: 'except (KeyError, ValueError) as error:',
        subject: 'the handler of KeyError, ValueError',
        limit: '',
        values: 'an input that raises KeyError, ValueError here, and one that raises another exception (it must not be caught here)',
      },
    ]);
    assert.deepEqual(
      replaced(
        'python',
        ['        raise HTTPException(status_code=404, detail="order not found")'],
        ['        raise HTTPException(status_code=403, detail="order not found")'],
      ),
      [
        {
          kind: 'error-path',
          line: 1,
          before: 'raise HTTPException(status_code=404, detail="order not found")',
          after: 'raise HTTPException(status_code=403, detail="order not found")',
          subject: 'the error path',
          limit: '403',
          values: 'a request that reaches this line, asserting the new status 403 (was 404)',
        },
      ],
    );
    assert.deepEqual(
      replaced('python', ['        return jsonify(error="missing"), 404'], ['        return jsonify(error="missing"), 410']).map(
        (change) => [change.kind, change.limit, change.values],
      ),
      [['error-path', '410', 'a request that reaches this line, asserting the new status 410 (was 404)']],
    );
    // The `if` above the abort did not change: only the status did.
    assert.deepEqual(
      replaced(
        'python',
        ['def show(user):', '    if user is None:', '        abort(404)'],
        ['def show(user):', '    if user is None:', '        abort(403)'],
        3,
      ),
      [
        {
          kind: 'error-path',
          line: 3,
          before: 'abort(404)',
          after: 'abort(403)',
          subject: 'the error path',
          limit: '403',
          values: 'a request that reaches this line, asserting the new status 403 (was 404)',
        },
      ],
    );
  });

  test("a version check's slice of sys.version_info is no boundary on a length (check 44: attrs)", () => {
    assert.deepEqual(replaced('python', ['PY_3_12_PLUS = True'], ['PY_3_13_PLUS = sys.version_info[:2] >= (3, 13)']), []);
    assert.deepEqual(
      replaced('python', ['first = args'], ['first = args[:2]']).map((change) => [change.kind, change.subject]),
      [['boundary', 'len(args)']],
    );
  });

  test('a slice bound is a boundary on the length; floor division is arithmetic, not a comment; a # comment is no change', () => {
    assert.deepEqual(replaced('python', ['    return items[:10]'], ['    return items[:20]']), [
      {
        kind: 'boundary',
        line: 1,
        before: 'return items[:10]',
        after: 'return items[:20]',
        subject: 'len(items)',
        limit: '20',
        values: '19, 20 and 21',
      },
    ]);
    assert.deepEqual(
      replaced('python', ['    return rows'], ['    return rows[1:]']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]),
      [['boundary', 'len(rows)', '1', '0, 1 and 2']],
    );
    // Check 21 (cobra): a bound counted from the collection's own length is tried on 0, 1 and 2 items, not on
    // "(len(args)-1) − 1"; the same slice a removed line took, copied into a new slice, asks nothing.
    assert.deepEqual(
      replaced('go', ['\treturn args'], ['\treturn args[:len(args)-1]']).map((change) => [change.kind, change.values]),
      [['boundary', 'len(args) is 0, 1 and 2']],
    );
    const copied = findSemanticChanges(
      '\ttrimmed := args[:len(args)-1]\n',
      '\ttrimmed := make([]string, len(args)-1)\n\tcopy(trimmed, args[:len(args)-1])\n',
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2 }],
      'go',
    ).filter((change) => change.kind === 'boundary');
    assert.deepEqual(copied, []);
    assert.deepEqual(replaced('python', ['    pages = total // size'], ['    pages = total // size + 1']), [
      {
        kind: 'arithmetic',
        line: 1,
        before: 'pages = total // size',
        after: 'pages = total // size + 1',
        subject: 'the arithmetic',
        limit: '',
        values: '.5, -0.5, 0 and a negative value',
      },
    ]);
    assert.deepEqual(replaced('python', ['    # at least five items'], ['    # more than five items']), []);
    assert.deepEqual(replaced('python', ['    print("retry if count > 5 else stop")'], ['    print("retry if count > 6 else stop")']), []);
    // A line inside a docstring is text, whatever it says.
    assert.deepEqual(
      replaced(
        'python',
        ['def f(x):', '    """', '    Returns x if x > 5.', '    """'],
        ['def f(x):', '    """', '    Returns x if x >= 5.', '    """'],
        3,
      ),
      [],
    );
  });

  test('defaults (parameter, or, .get), normalisation and rounding', () => {
    assert.deepEqual(
      replaced('python', ['def page(items, size=20, tz=None):'], ['def page(items, size=50, tz=None):']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]),
      [['default', 'size', '50', 'a call without size (and with None)']],
    );
    assert.deepEqual(
      replaced(
        'python',
        ['def page(', '    items,', '    size: int = 20,', '):'],
        ['def page(', '    items,', '    size: int = 50,', '):'],
        3,
      ).map((change) => [change.kind, change.subject, change.limit]),
      [['default', 'size', '50']],
      'a parameter on its own line of a def',
    );
    assert.deepEqual(
      replaced('python', ['call(', '    size=20,', ')'], ['call(', '    size=50,', ')'], 2),
      [],
      'a keyword argument is no default',
    );
    assert.deepEqual(
      replaced('python', ['    limit = params.get("limit", 20)'], ['    limit = params.get("limit", 50)']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
      ]),
      [['default', 'params.get("limit")', '50']],
    );
    assert.deepEqual(
      replaced('python', ['    name = name or "anon"'], ['    name = name or "guest"']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
      ]),
      [['default', 'the missing value', '"guest"']],
    );
    assert.deepEqual(
      replaced('python', ['    key = email.strip()'], ['    key = email.strip().casefold()']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['normalisation', 'casefold']],
    );
    assert.deepEqual(
      replaced('python', ['    total = round(amount, 2)'], ['    total = math.floor(amount * 100) / 100']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['arithmetic', 'the rounding']],
    );
  });
});

describe('findSemanticChanges on Go: nil checks, error returns, http.Status names and slices', () => {
  // Check 57 (go-playground/validator): five fixes changed a pattern kept in a constant (`e164RegexString =
  // "^\\+?[1-9]\\d{7,14}$"`) that `lazyRegexCompile(e164RegexString)` compiles, and asked nothing about the pattern.
  test('a pattern kept in a constant the file compiles is a changed pattern; a constant nothing compiles is not', () => {
    const file = (pattern: string, compiled: string) =>
      [
        'const (',
        `\te164RegexString = "${pattern}"`,
        '\tlabel = "e164"',
        ')',
        '',
        'var (',
        `\te164Regex = lazyRegexCompile(${compiled})`,
        ')',
      ].join('\n');
    const changed = (
      compiled: string,
      language: 'go' | 'javascript' | 'python' = 'go',
      base = file('^\\\\+?[1-9]\\\\d{1,14}$', compiled),
      head = file('^\\\\+?[1-9]\\\\d{7,14}$', compiled),
    ) =>
      findSemanticChanges(`${base}\n`, `${head}\n`, [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }], language).map((change) => [
        change.kind,
        change.line,
      ]);
    assert.deepEqual(changed('e164RegexString'), [['regex', 2]]);
    assert.deepEqual(changed('label'), []);
    // A template compiled by name is no pattern: only a regular expression's compiler counts.
    const template = (text: string) => `// Greeting.\nconst GREETING = '${text}';\nexport const render = Handlebars.compile(GREETING);`;
    assert.deepEqual(changed('', 'javascript', template('Hello {{name}}'), template('Hi {{name}}')), []);
    const js = (pattern: string) =>
      `// Digits only.\nconst DIGITS = '${pattern}';\nexport const isDigits = (text) => new RegExp(DIGITS).test(text);`;
    assert.deepEqual(
      changed('', 'javascript', js('^[0-9]+$'), js('^[0-9]*$')).map(([kind]) => kind),
      ['regex'],
    );
    const py = (pattern: string) => `import re\nDIGITS_RE = r"${pattern}"\nMATCHER = re.compile(DIGITS_RE)`;
    assert.deepEqual(
      changed('', 'python', py('^[0-9]+$'), py('^[0-9]*$')).map(([kind]) => kind),
      ['regex'],
    );
  });

  // Check 52 (spf13/viper): the same `case "durationSlice":` block added to both branches of find asked twice.
  test('a block of new code written in two hunks asks once; a short idiom in two hunks asks for each', () => {
    const block = (value: string) => [
      `\tcase "${value}":`,
      '\t\ts := strings.TrimPrefix(flag.ValueString(), "[")',
      '\t\treturn cast.ToDurationSlice(strings.Split(s, ","))',
    ];
    const file = (first: string[], second: string[]) =>
      ['func find() any {', '\tswitch a {', ...first, '\t}', '\tswitch b {', ...second, '\t}', '\treturn nil', '}'].join('\n');
    const lines = (changes: SemanticChange[]) => changes.map((change) => [change.kind, change.line]);
    const twice = (first: string[], second: string[]) =>
      lines(
        findSemanticChanges(
          `${file([], [])}\n`,
          `${file(first, second)}\n`,
          [
            { oldStart: 2, oldLines: 0, newStart: 3, newLines: first.length },
            { oldStart: 4, oldLines: 0, newStart: 5 + first.length, newLines: second.length },
          ],
          'go',
        ),
      );
    assert.deepEqual(twice(block('durationSlice'), block('durationSlice')), [['condition', 3]]);
    assert.deepEqual(twice(block('durationSlice'), block('intSlice')), [
      ['condition', 3],
      ['condition', 8],
    ]);
    const check = ['\tif err != nil {', '\t\treturn err', '\t}'];
    assert.deepEqual(twice(check, check).length, 2);
  });

  test("a sentinel error's definition is no error path; returning it, or an error made in place, is (check 45: gorilla/mux)", () => {
    const kinds = (before: string, after: string) => replaced('go', [before], [after]).map((change) => change.kind);
    assert.deepEqual(kinds('\tErrNotFound = errors.New("no route")', '\tErrMethodMismatch = errors.New("method is not allowed")'), []);
    assert.deepEqual(kinds('var errStop = 1', 'var errStop = fmt.Errorf("stop")'), []);
    assert.deepEqual(kinds('\treturn nil', '\treturn ErrMethodMismatch'), ['error-path']);
    assert.deepEqual(kinds('\terr = nil', '\terr = errors.New("bad input")'), ['error-path']);
  });

  test('a flag that starts the other way asks as a changed default when a line below tests it (check 30: echo)', () => {
    const flipped = (language: 'javascript' | 'python' | 'go', before: string[], after: string[]) =>
      findSemanticChanges(
        `${before.join('\n')}\n`,
        `${after.join('\n')}\n`,
        [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
        language,
      )
        .filter((change) => change.kind === 'default')
        .map((change) => [change.subject, change.limit]);
    assert.deepEqual(
      flipped('go', ['\tpathUnescape := true', '\tif !pathUnescape {', '\t}'], ['\tpathUnescape := false', '\tif !pathUnescape {', '\t}']),
      [['pathUnescape', 'false']],
    );
    assert.deepEqual(
      flipped(
        'python',
        ['    unescape = True', '    if unescape and x:', '        pass'],
        ['    unescape = False', '    if unescape and x:', '        pass'],
      ),
      [['unescape', 'False']],
    );
    assert.deepEqual(
      flipped('javascript', ['  let strict = true;', '  return strict ? a : b;'], ['  let strict = false;', '  return strict ? a : b;']),
      [['strict', 'false']],
    );
    // Written below a new comment, as echo wrote it.
    const commented = findSemanticChanges(
      '\tpathUnescape := true\n\tif pathUnescape {\n\t}\n',
      '\t// URL.Path is already decoded\n\t// so it must not be unescaped again\n\tpathUnescape := false\n\tif pathUnescape {\n\t}\n',
      [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 3 }],
      'go',
    );
    assert.deepEqual(
      commented.map((change) => [change.kind, change.line, change.subject]),
      [['default', 3, 'pathUnescape']],
    );
    // A flag no line below tests decides nothing here.
    assert.deepEqual(flipped('javascript', ['  let done = false;', '  log(done);'], ['  let done = true;', '  log(done);']), []);
  });

  test('a returned chain that goes on below its line is the whole condition (check 30: echo)', () => {
    const head = [
      'func isPreflight(r *http.Request) bool {',
      '\treturn r.Method == http.MethodOptions &&',
      '\t\tr.Header.Get("Origin") != "" &&',
      '\t\tr.Header.Get("Access-Control-Request-Method") != ""',
      '}',
    ];
    const changes = findSemanticChanges('', `${head.join('\n')}\n`, [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 5 }], 'go');
    assert.deepEqual(
      changes.map((change) => [change.kind, change.subject]),
      [['condition', 'r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get(…)']],
    );
  });

  test('a short line moved with the line above it into a new block is moved, not a new error path (check 27: gin)', () => {
    const base = [
      'func save(dir string) error {',
      '\tif err = os.Chmod(dir, mode); err != nil {',
      '\t\treturn err',
      '\t}',
      '\treturn nil',
      '}',
    ];
    const head = [
      'func save(dir string) error {',
      '\tif errors.Is(statErr, os.ErrNotExist) {',
      '\t\tif err = os.Chmod(dir, mode); err != nil {',
      '\t\t\treturn err',
      '\t\t}',
      '\t}',
      '\treturn nil',
      '}',
    ];
    const changes = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${head.join('\n')}\n`,
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 4 }],
      'go',
    );
    assert.deepEqual(
      changes.map((change) => [change.kind, change.line, change.subject]),
      [['condition', 2, 'errors.Is(statErr, os.ErrNotExist)']],
    );
    // New code around a `return err` (nothing above it moved) still asks its decision.
    const added = findSemanticChanges(
      `${['func save() error {', '\treturn nil', '}'].join('\n')}\n`,
      `${['func save() error {', '\tif err = os.Chmod(dir, mode); err != nil {', '\t\treturn err', '\t}', '\treturn nil', '}'].join('\n')}\n`,
      [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 3 }],
      'go',
    );
    assert.deepEqual(
      added.map((change) => change.kind),
      ['condition'],
    );
  });

  test('`err != nil` is a presence check: no boundary, and a changed call inside the if changes no decision', () => {
    assert.deepEqual(replaced('go', ['\tif err := load(path); err != nil {'], ['\tif err := loadAll(path); err != nil {']), []);
    assert.deepEqual(replaced('go', ['\tif err != nil {'], ['\tif err != nil && !retry {']), [
      {
        kind: 'condition',
        line: 1,
        before: 'if err != nil',
        after: 'if err != nil && !retry',
        subject: 'err != nil && !retry',
        limit: '',
        values: 'an input for which err != nil && !retry is true and one for which it is false',
      },
    ]);
    assert.deepEqual(
      replaced('go', ['\tif user == nil || user.Banned {'], ['\tif user == nil {']).map((change) => [
        change.kind,
        change.subject,
        change.values,
      ]),
      [['condition', 'user == nil', 'an input for which user is nil and one for which it is not']],
    );
    assert.deepEqual(
      replaced('go', ['\tif len(items) >= 5 {'], ['\tif len(items) > 5 {']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]),
      [['boundary', 'len(items)', '5', '4, 5 and 6']],
    );
  });

  // Check 84 (uber-go/zap): `newGroups := make([]string, len(h.groups)+1)` was asked for halves and negatives.
  test('arithmetic on lengths and whole numbers counts: no halves to ask; on other values it is arithmetic', () => {
    const kinds = (after: string) => replaced('go', ['\treturn h.withFields(group)'], [after]).map((change) => change.kind);
    assert.deepEqual(kinds('\tnewGroups := make([]string, len(h.groups)+1)'), []);
    assert.deepEqual(kinds('\tlast := len(items) - 1'), []);
    assert.deepEqual(kinds('\tshare := total / len(h.groups)'), ['arithmetic']);
  });

  // Check 80 (golang-jwt): `if curveBits%8 > 0` was asked for "8 is -1, 0 and 1", and `len(sig) != 2*m.KeySize` for 2.
  test('a comparison with arithmetic on either side compares the whole of it', () => {
    const bound = (before: string, after: string) =>
      replaced('go', [before], [after]).map((change) => [change.kind, change.subject, change.limit]);
    assert.deepEqual(bound('\tif curveBits > 0 {', '\tif curveBits%8 > 0 {'), [['boundary', 'curveBits%8', '0']]);
    assert.deepEqual(bound('\tif len(sig) != 2*size {', '\tif len(sig) != 2*m.KeySize {'), [['condition', 'len(sig) != 2*m.KeySize', '']]);
    assert.deepEqual(bound('\tfor i < len(args) {', '\tfor i < len(args)-1 {'), [['boundary', 'i', 'len(args)-1']]);
  });

  // Check 77 (testify's mock.go): the operands of an unchanged test given names in the if's header.
  test('names an if header binds read as their values: the same test is no new condition', () => {
    const before = ['\t\tif !equal(want[i].Interface(), got[i].Interface()) {'];
    const named = ['\t\tif w, g := want[i].Interface(), got[i].Interface(); !equal(w, g) {'];
    assert.deepEqual(replaced('go', before, named), []);
    const changedTest = ['\t\tif w, g := want[i].Interface(), got[i].Interface(); !equal(g, w) && strict {'];
    assert.deepEqual(
      replaced('go', before, changedTest).map((change) => [change.kind, change.subject]),
      [['condition', '!equal(g, w) && strict']],
    );
    // One value that gives two names (`v, ok := m[k]`) binds nothing to read through: a new test, and a lookup.
    const lookup = replaced('go', ['\tif m[k] != nil {'], ['\tif v, ok := m[k]; ok && v != nil {']);
    assert.deepEqual(
      lookup.map((change) => change.kind),
      ['condition', 'membership'],
    );
  });

  test('a status given as http.StatusForbidden is shown as 403; an error return is an error path', () => {
    assert.deepEqual(
      replaced('go', ['\t\thttp.Error(w, "no access", http.StatusNotFound)'], ['\t\thttp.Error(w, "no access", http.StatusForbidden)']),
      [
        {
          kind: 'error-path',
          line: 1,
          before: 'http.Error(w, "no access", http.StatusNotFound)',
          after: 'http.Error(w, "no access", http.StatusForbidden)',
          subject: 'the error path',
          limit: '403',
          values: 'a request that reaches this line, asserting the new status 403 (was 404)',
        },
      ],
    );
    assert.deepEqual(
      replaced(
        'go',
        ['\t\tc.JSON(404, gin.H{"error": "gone"})'],
        ['\t\tc.AbortWithStatusJSON(http.StatusGone, gin.H{"error": "gone"})'],
      ).map((change) => [change.kind, change.limit]),
      [['error-path', '410']],
    );
    assert.deepEqual(
      replaced('go', ['\tc.JSON(http.StatusOK, rows)'], ['\tc.JSON(http.StatusCreated, rows)']),
      [],
      'a success status is no error path',
    );
    assert.deepEqual(
      replaced('go', ['\t\treturn nil, nil'], ['\t\treturn nil, fmt.Errorf("load %s: %w", path, err)']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['error-path', 'the error path']],
    );
  });

  test('slice bounds, membership, normalisation, loops, cases; comments, raw strings and pointer types change nothing', () => {
    assert.deepEqual(replaced('go', ['\treturn items[:limit]'], ['\treturn items[:max]']), [
      {
        kind: 'boundary',
        line: 1,
        before: 'return items[:limit]',
        after: 'return items[:max]',
        subject: 'len(items)',
        limit: 'max',
        values: 'max − 1, max and max + 1',
      },
    ]);
    assert.deepEqual(
      replaced('go', ['\tv := cache[key]'], ['\tv, ok := cache[key]']).map((change) => [change.kind, change.subject, change.values]),
      [
        [
          'membership',
          'v, ok := cache[key]',
          'key that is in cache, one that is not, and one that differs only in case or surrounding spaces',
        ],
      ],
    );
    assert.deepEqual(
      replaced('go', ['\tif role == "admin" {'], ['\tif slices.Contains(admins, role) {']).map((change) => [change.kind, change.subject]),
      [
        ['condition', 'slices.Contains(admins, role)'],
        ['membership', 'slices.Contains(admins, role)'],
      ],
    );
    assert.deepEqual(
      replaced('go', ['\tkey := strings.TrimSpace(name)'], ['\tkey := strings.ToLower(strings.TrimSpace(name))']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['normalisation', 'ToLower']],
    );
    assert.deepEqual(
      replaced('go', ['\tfor i := 0; i < n; i++ {'], ['\tfor i := 0; i <= n; i++ {']).map((change) => [
        change.kind,
        change.subject,
        change.limit,
      ]),
      [['boundary', 'i', 'n']],
    );
    assert.deepEqual(
      replaced('go', ['\tfor _, item := range items {'], ['\tfor _, item := range pending {']),
      [],
      'a range loop tests nothing',
    );
    assert.deepEqual(
      replaced('go', ['\tcase "admin":'], ['\tcase "admin", "owner":']).map((change) => [change.kind, change.values]),
      [['condition', 'a value matched by case "admin", "owner", and one that reaches another case']],
    );
    assert.deepEqual(replaced('go', ['\tcase v := <-jobs:'], ['\tcase v := <-pending:']), [], 'a select case waits on a channel');
    // Found on gin (context.go): a status range rewritten with net/http names moves only its upper end.
    assert.deepEqual(
      replaced('go', ['\tcase status >= 100 && status <= 199:'], ['\tcase status >= http.StatusContinue && status < http.StatusOK:']).map(
        (change) => [change.kind, change.subject, change.limit, change.values],
      ),
      [['boundary', 'status', '200', '199, 200 and 201']],
    );
    assert.deepEqual(replaced('go', ['\t// at least 5'], ['\t// more than 5']), []);
    assert.deepEqual(
      replaced('go', ['q := `', 'SELECT * FROM users WHERE age > 18', '`'], ['q := `', 'SELECT * FROM users WHERE age > 21', '`'], 2),
      [],
    );
    assert.deepEqual(replaced('go', ['/*', 'limit > 5', '*/'], ['/*', 'limit > 6', '*/'], 2), []);
    assert.deepEqual(replaced('go', ['func Save(order Order) error {'], ['func Save(order *Order) error {']), []);
    assert.deepEqual(
      replaced('go', ['\ttotal := math.Round(x*100) / 100'], ['\ttotal := math.Floor(x*100) / 100']).map((change) => [
        change.kind,
        change.subject,
      ]),
      [['arithmetic', 'the rounding']],
    );
  });
});

describe('a Python status change through checker ai', () => {
  let fixture: ChangeFixture;
  const handler = (status: number) =>
    [
      'from flask import Flask, abort',
      '',
      'app = Flask(__name__)',
      '',
      '',
      '@app.get("/users/<int:user_id>")',
      'def show_user(user_id):',
      '    user = find_user(user_id)',
      '    if user is None:',
      `        abort(${status})`,
      '    return {"id": user_id}',
      '',
    ].join('\n');
  before(() => {
    fixture = createChangeFixture(
      { 'pyproject.toml': '[project]\nname = "users"\n', 'users/__init__.py': '', 'users/views.py': handler(404) },
      { 'users/views.py': handler(403) },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the edge case names the changed abort line and the new status 403', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    const all = [...bundle.evidence.edgeCases.top, ...bundle.evidence.edgeCases.overflow];
    const errorPath = all.filter((edge) => edge.provenance.endsWith('#edge-case/changed-error-path'));
    assert.deepEqual(
      errorPath.map((edge) => [edge.title, edge.trigger]),
      [
        [
          'users/views.py:10 changes the error path (abort(404) → abort(403))',
          'a request that reaches this line, asserting the new status 403 (was 404)',
        ],
      ],
    );
  });
});

describe('semantic edge cases come first and name the changed line (checker analyze)', () => {
  const base = {
    'package.json': JSON.stringify({ name: 'names', version: '1.0.0', type: 'module' }),
    'src/validate.ts': [
      'export function isValidName(value: string): boolean {',
      '  const trimmed = value.trim();',
      '  const parts = trimmed.split(/\\s+/);',
      '  if (trimmed.length >= 3) return parts.length > 0;',
      '  return false;',
      '}',
      '',
    ].join('\n'),
  };
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(base, {
      'src/validate.ts': base['src/validate.ts'].replace('trimmed.length >= 3', 'trimmed.length > 3'),
    });
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('the boundary edge case is first, names line 4 and the values 2, 3 and 4; no generic signal from an unchanged line', () => {
    const [first] = analysis.edgeCases.top;
    assert.ok(first !== undefined);
    assert.match(first.provenance, /^semantic-edge-cases@1\.41\.0#edge-case\/changed-boundary$/);
    assert.equal(
      first.title,
      'src/validate.ts:4 changes a boundary on trimmed.length (if (trimmed.length >= 3) return parts.length > 0; → if (trimmed.length > 3) return parts.length > 0;)',
    );
    assert.equal(first.trigger, 'trimmed.length is 2, 3 and 4');
    assert.equal(first.confidence, 'high');
    // The regex `/\s+/` sits on line 3, which did not change.
    const all = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow];
    assert.equal(
      all.some((edge) => edge.provenance.endsWith('#edge-case/catastrophic-regex')),
      false,
    );
  });
});

describe('one line, one question: a signal case on a line whose changed decision already asks is dropped (issue 41)', () => {
  /** The edge-case rules that ask about line 2 of `path` when it changes from `before` to `after` (`ai`'s analysis). */
  const askedOnLine2 = async (path: string, before: string, after: string): Promise<string[]> => {
    const fixture = createChangeFixture(
      { 'package.json': JSON.stringify({ name: 'lines', version: '1.0.0', type: 'module' }), [path]: before },
      { [path]: after },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      return [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .filter((edge) => edge.title.startsWith(`${path}:2 `))
        .map((edge) => edge.provenance.replace(/^.*#/, ''));
    } finally {
      fixture.repo.cleanup();
    }
  };

  // Check 74 (unjs/ofetch 933e754): a new mergeFetchOptions asked its first `if (defaults?.params && input?.params)` (new
  // code asks once per hunk), then `if (defaults?.query && input?.query)` as an optional field "silently undefined".
  test('an optional read a new if only tests for truth, or tested above, asks nothing; one read on into a value still does', async () => {
    const asked = async (second: string): Promise<string[]> => {
      const path = 'src/merge.ts';
      const merge = (body: string[]): string =>
        [
          'export function merge(input?: { q?: string; n?: string }, defaults?: { q?: string; n?: string }): string {',
          ...body,
          "  return '';",
          '}',
          '',
        ].join('\n');
      const fixture = createChangeFixture(
        { 'package.json': JSON.stringify({ name: 'lines', version: '1.0.0', type: 'module' }), [path]: merge([]) },
        { [path]: merge(['  if (defaults?.q && input?.q) return defaults.q + input.q;', `  ${second}`]) },
      );
      try {
        const analysis = await analyzeFixture(fixture);
        return [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
          .filter((edge) => edge.title.startsWith(path))
          .map((edge) => `${edge.title.split(' ')[0]} ${edge.provenance.replace(/^.*#/, '')}`);
      } finally {
        fixture.repo.cleanup();
      }
    };
    assert.deepEqual(await asked('if (defaults?.n && !input?.n) return defaults.n;'), ['src/merge.ts:2 edge-case/changed-condition']);
    // And a read under an `if` that tested its holder (`...defaults?.params` inside that `if`'s block) finds it there.
    assert.deepEqual(await asked('if (input?.n) {\n    return input?.n;\n  }'), ['src/merge.ts:2 edge-case/changed-condition']);
    assert.deepEqual(await asked('const n = input?.n;'), [
      'src/merge.ts:2 edge-case/changed-condition',
      'src/merge.ts:3 edge-case/missing-optional',
    ]);
  });

  test('the changed default of an environment read asks once, as a default', async () => {
    const config = (fallback: number): string =>
      `export function readTimeout(): string {\n  const timeout = process.env.TIMEOUT ?? '${fallback}';\n  return timeout;\n}\n`;
    assert.deepEqual(await askedOnLine2('src/config.ts', config(3000), config(5000)), ['edge-case/changed-default']);
  });

  test('a length test that a changed condition makes asks once, as that condition, not again as an empty list (hono)', async () => {
    const header = (guarded: boolean): string =>
      [
        'export function cookieHeader(cookies: string[], headers: Record<string, string>): void {',
        guarded ? '  if (cookies.length > 0) headers.Cookie = cookies.join("; ");' : '  headers.Cookie = cookies.join("; ");',
        '}',
        '',
      ].join('\n');
    const onLine2 = await askedOnLine2('src/client.ts', header(false), header(true));
    assert.equal(onLine2.length, 1, JSON.stringify(onLine2));
    assert.notEqual(onLine2[0], 'edge-case/empty-collection');
  });

  // Check 117 (pelletier/go-toml): `Raw: p.Range(b[:1]),` asked its slice bound, then an empty list reaching `b[:1]`.
  test('a Go slice whose changed bound its line asks is not asked again as an empty list', async () => {
    const parse = (raw: string): string => `package toml\n\nfunc parseInline(b []byte) Node {\n\treturn Node{Raw: ${raw}}\n}\n`;
    const fixture = createChangeFixture(
      { 'go.mod': 'module example.com/toml\n\ngo 1.22\n', 'parser.go': parse('b') },
      { 'parser.go': parse('b[:1]') },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const asked = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .filter((edge) => edge.title.startsWith('parser.go:4 '))
        .map((edge) => edge.provenance.replace(/^.*#/, ''));
      assert.deepEqual(asked, ['edge-case/changed-boundary']);
    } finally {
      fixture.repo.cleanup();
    }
  });

  // Check 51 (werkzeug) and check 53 (ufo): `if rv is None or rv[0].merge_slashes is False:` and
  // `if (sindex === 1 && segments[segments.length - 1]?.endsWith(":/"))` each asked their condition and an empty list.
  test('an element read inside a changed condition asks once, as that condition, not again as an empty list', async () => {
    const join = (guarded: boolean): string =>
      [
        'export function lastIsProtocol(segments: string[], index: number): boolean {',
        guarded ? '  if (index === 1 && segments[0]?.endsWith(":/")) return true;' : '  if (index === 1) return true;',
        '  return false;',
        '}',
        '',
      ].join('\n');
    assert.deepEqual(await askedOnLine2('src/join.ts', join(false), join(true)), ['edge-case/changed-condition']);
  });

  test('failure cases need work to leave half-done, and an awaited Promise.all asks once, as concurrency (logto)', async () => {
    const pkg = JSON.stringify({ name: 'resources', version: '1.0.0', type: 'module' });
    const before = [
      'export async function setDefault(db: Db, cache: Cache, id: string): Promise<void> {',
      '  await db.resources.update({ id, isDefault: true });',
      '}',
      'export async function readDefault(cache: Cache, ids: string[]): Promise<unknown> {',
      '  return cache.get(ids[0]);',
      '}',
      '',
    ];
    const after = [
      'export async function setDefault(db: Db, cache: Cache, id: string): Promise<void> {',
      '  await db.resources.update({ id, isDefault: true });',
      '  await Promise.all([id].map(async (key) => cache.invalidate(key)));',
      '}',
      'export async function readDefault(cache: Cache, ids: string[]): Promise<unknown> {',
      '  const [first, second] = await Promise.all(ids.map(async (key) => cache.get(key)));',
      '  await cache.get(String(second));',
      '  return first;',
      '}',
      '',
    ];
    const fixture = createChangeFixture(
      { 'package.json': pkg, 'src/resources.ts': before.join('\n') },
      { 'src/resources.ts': after.join('\n') },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const failures = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .filter((edge) => /#edge-case\/(?:rejected-promise|partial-failure)$/.test(edge.provenance))
        .map((edge) => [edge.title.replace(/ .*$/, ''), edge.provenance.replace(/^.*#/, '')]);
      // Line 3 invalidates after a write: one case, as concurrency. Lines 6 and 7 only read: none.
      assert.deepEqual(failures, [['src/resources.ts:3', 'edge-case/partial-failure']]);
    } finally {
      fixture.repo.cleanup();
    }
  });

  test('a rejection a changed catch makes is its answer, not another failure to force (yup: catchValidationError)', async () => {
    const lazy = (catches: boolean, rejects: string): string =>
      [
        'export function run(fn: () => Promise<unknown>): Promise<unknown> {',
        ...(catches
          ? ['  try {', '    return fn();', '  } catch (err) {', `    if (isValidation(err)) return ${rejects};`, '    throw err;', '  }']
          : ['  return fn();']),
        '}',
        'function isValidation(err: unknown): boolean {',
        '  return err instanceof Error;',
        '}',
        '',
      ].join('\n');
    const cases = async (head: string): Promise<string[]> => {
      const fixture = createChangeFixture(
        { 'package.json': JSON.stringify({ name: 'lazy', version: '1.0.0', type: 'module' }), 'src/lazy.ts': lazy(false, '') },
        { 'src/lazy.ts': head },
      );
      try {
        const analysis = await analyzeFixture(fixture);
        return [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
          .filter((edge) => /#edge-case\/(?:rejected-promise|changed-error-path)$/.test(edge.provenance))
          .map((edge) => `${edge.title.replace(/ .*$/, '')} ${edge.provenance.replace(/^.*#/, '')}`);
      } finally {
        fixture.repo.cleanup();
      }
    };
    assert.deepEqual(await cases(lazy(true, 'Promise.reject(err)')), ['src/lazy.ts:4 edge-case/changed-error-path']);
  });
});

/** The `path:line` of each edge case of one semantic rule that analysing `head` over `base` gives. */
async function listCaseLines(rule: string, base: Record<string, string>, head: Record<string, string>): Promise<string[]> {
  const fixture = createChangeFixture(base, head);
  try {
    const analysis = await analyzeFixture(fixture);
    return [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
      .filter((edge) => edge.provenance.endsWith(`#edge-case/${rule}`))
      .map((edge) => edge.title.replace(/ .*$/, ''));
  } finally {
    fixture.repo.cleanup();
  }
}

describe('a line moved from another file of the change (check 46: pillarjs/router)', () => {
  const pkg = JSON.stringify({ name: 'router', version: '1.0.0' });
  const METHODS = 'const methods = METHODS.map((method) => method.toLowerCase())';
  const module = (lines: string[]): string =>
    ["const { METHODS } = require('node:http')", ...lines, 'module.exports = methods', ''].join('\n');
  const normalisations = (base: Record<string, string>, head: Record<string, string>): Promise<string[]> =>
    listCaseLines('changed-normalisation', { 'package.json': pkg, ...base }, head);

  test('a line another file removed word for word asks nothing where it lands; a line nobody removed still asks', async () => {
    const base = { 'lib/route.js': module(['const flat = true', METHODS]), 'index.js': module(['const flat = true']) };
    const moved = { 'lib/route.js': module(['const flat = true']), 'index.js': module(['const flat = true', METHODS]) };
    assert.deepEqual(await normalisations(base, moved), []);
    assert.deepEqual(await normalisations(base, { 'index.js': moved['index.js'] }), ['index.js:3']);
  });
});

describe('a guard moved to another file of the change (check 92: uptime-kuma)', () => {
  const pkg = JSON.stringify({ name: 'kuma', version: '1.0.0' });
  const monitor = (steam: boolean): string =>
    [
      'exports.beat = async function beat(monitor, setting) {',
      ...(steam
        ? [
            "  if (monitor.type === 'steam') {",
            "    const steamAPIKey = await setting('steamAPIKey');",
            '    if (!steamAPIKey) {',
            "      throw new Error('Steam API Key not found');",
            '    }',
            '    return steamAPIKey;',
            '  }',
          ]
        : []),
      '  return null;',
      '};',
      '',
    ].join('\n');
  const steam = [
    'exports.check = async function check(setting) {',
    "  const steamAPIKey = await setting('steamAPIKey');",
    '  if (!steamAPIKey) {',
    "    throw new Error('Steam API Key not found');",
    '  }',
    '  return steamAPIKey;',
    '};',
    '',
  ].join('\n');
  const exits = (base: Record<string, string>, head: Record<string, string>): Promise<string[]> =>
    listCaseLines('changed-exit', { 'package.json': pkg, ...base }, head);

  test('a removed guard another file adds asks nothing; one nobody adds still asks', async () => {
    const base = { 'server/monitor.js': monitor(true), 'server/steam.js': 'exports.check = null;\n' };
    assert.deepEqual(await exits(base, { 'server/monitor.js': monitor(false), 'server/steam.js': steam }), []);
    assert.deepEqual(await exits(base, { 'server/monitor.js': monitor(false) }), ['server/monitor.js:2']);
  });
});

describe('a test moved to another file of the change (msw)', () => {
  const pkg = JSON.stringify({ name: 'cookies', version: '1.0.0', type: 'module' });
  const decorate = (forwards: boolean): string =>
    [
      'export function decorate(response: Response, cookies: string[]): Response {',
      ...(forwards
        ? ["  if (typeof document !== 'undefined') {", '    for (const cookie of cookies) document.cookie = cookie;', '  }']
        : []),
      '  return response;',
      '}',
      '',
    ].join('\n');
  const forward = (test: string): string =>
    [
      'export function forward(cookies: string[]): void {',
      `  if (${test}) {`,
      '    return;',
      '  }',
      '  for (const cookie of cookies) document.cookie = cookie;',
      '}',
      '',
    ].join('\n');
  const conditions = (base: Record<string, string>, head: Record<string, string>): Promise<string[]> =>
    listCaseLines('changed-condition', { 'package.json': pkg, ...base }, head);

  test('inverted into an early exit where another file dropped it: no case; a test nobody removed still asks', async () => {
    const base = { 'src/decorate.ts': decorate(true), 'src/forward.ts': 'export {};\n' };
    assert.deepEqual(
      await conditions(base, { 'src/decorate.ts': decorate(false), 'src/forward.ts': forward("typeof document === 'undefined'") }),
      [],
    );
    // The same new function while the decorator keeps its test: a new decision.
    assert.deepEqual(await conditions(base, { 'src/forward.ts': forward("typeof document === 'undefined'") }), ['src/forward.ts:2']);
    // Another test than the one removed: a new decision too.
    assert.deepEqual(
      await conditions(base, { 'src/decorate.ts': decorate(false), 'src/forward.ts': forward("typeof window === 'undefined'") }),
      ['src/forward.ts:2'],
    );
  });

  test('a test that differs from the removed one only in a string is another test', async () => {
    const guard = (method: string, exits: boolean): string =>
      [
        'export function handle(request: { method: string }, out: string[]): void {',
        `  if (request.method !== '${method}') {`,
        exits ? '    return;' : "    out.push('not allowed');",
        '  }',
        '}',
        '',
      ].join('\n');
    assert.deepEqual(
      await conditions(
        { 'src/decorate.ts': guard('GET', false), 'src/forward.ts': 'export {};\n' },
        { 'src/decorate.ts': 'export {};\n', 'src/forward.ts': guard('POST', false) },
      ),
      ['src/forward.ts:2'],
    );
  });

  test('a bare name tested in another file is no move of it (ky: `if (deleted)` in two scopes)', async () => {
    const guard = (name: string, exits: boolean): string =>
      [
        `export function run(${name}: Set<string> | undefined, out: string[]): void {`,
        `  if (${name}) {`,
        exits ? '    return;' : `    for (const key of ${name}) out.push(key);`,
        '  }',
        '}',
        '',
      ].join('\n');
    assert.deepEqual(
      await conditions(
        { 'src/decorate.ts': guard('deleted', false), 'src/forward.ts': 'export {};\n' },
        { 'src/decorate.ts': 'export {};\n', 'src/forward.ts': guard('deleted', true) },
      ),
      ['src/forward.ts:2'],
    );
  });
});

describe('a .catch on a changed error path asks once (msw)', () => {
  test('the changed error path stays; the asynchronous-failure case of its line goes; an await after a write still asks', async () => {
    const pkg = JSON.stringify({ name: 'sse', version: '1.0.0', type: 'module' });
    const before = [
      'export class Client {',
      '  constructor(private controller: Controller) {}',
      '  error(): void {',
      '    this.controller.error();',
      '  }',
      '  retry(retry: number): void {',
      '    this.controller.enqueue(encode(retry));',
      '  }',
      '}',
      '',
    ];
    const after = [
      'export class Client {',
      '  constructor(private writer: Writer) {}',
      '  error(): void {',
      '    this.writer.abort().catch((error) => {',
      "      console.error('Failed to abort the stream', error);",
      '    });',
      '  }',
      '  retry(retry: number): void {',
      '    this.writer',
      '      .write(encode(retry))',
      '      .catch((error) => {',
      "        console.error('Failed to send a retry packet', error);",
      '      });',
      '  }',
      '}',
      '',
    ];
    // An await after a write, outside any try, on a line that is no error path: its failure case still asks.
    const flush = (closes: boolean): string =>
      `export async function flush(db: Db, writer: Writer): Promise<void> {\n  await db.save({ flushed: true });\n${closes ? '  await writer.close();\n' : ''}}\n`;
    const fixture = createChangeFixture(
      { 'package.json': pkg, 'src/client.ts': before.join('\n'), 'src/flush.ts': flush(false) },
      { 'src/client.ts': after.join('\n'), 'src/flush.ts': flush(true) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const cases = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .filter((edge) => /#edge-case\/(?:rejected-promise|changed-error-path)$/.test(edge.provenance))
        .map((edge) => [edge.title.replace(/ .*$/, ''), edge.provenance.replace(/^.*#/, '')])
        .sort();
      // Line 9 starts the chain whose `.catch(` (line 11) asks: the same failure too.
      assert.deepEqual(cases, [
        ['src/client.ts:11', 'edge-case/changed-error-path'],
        ['src/client.ts:4', 'edge-case/changed-error-path'],
        ['src/flush.ts:3', 'edge-case/rejected-promise'],
      ]);
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a changed validation schema names the route it guards (checker analyze)', () => {
  const SCHEMA = [
    "import { z } from 'zod';",
    'export const CreateOrder = z.object({',
    '  sku: z.string(),',
    '  note: z.string().optional(),',
    '});',
    '',
  ].join('\n');
  const base = {
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', dependencies: { express: '^4.0.0', zod: '^4.0.0' } }),
    'src/schemas.ts': SCHEMA,
    'src/routes.ts': [
      "import express from 'express';",
      "import { CreateOrder } from './schemas';",
      'export const router = express.Router();',
      "router.post('/orders', (req, res) => {",
      '  const order = CreateOrder.parse(req.body);',
      '  res.status(201).json(order);',
      '});',
      '',
    ].join('\n'),
    'src/app.ts': [
      "import express from 'express';",
      "import { router } from './routes';",
      'const app = express();',
      "app.use('/api', router);",
      'export default app;',
      '',
    ].join('\n'),
  };
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(base, { 'src/schemas.ts': SCHEMA.replace('z.string().optional()', 'z.string()') });
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('a field made required: the route that parses the body, the field, and the requests to send', () => {
    const all = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow];
    const validation = all.filter((edge) => edge.provenance.endsWith('#edge-case/changed-validation'));
    assert.equal(validation.length, 1);
    const [edge] = validation;
    assert.equal(
      edge?.title,
      'src/schemas.ts:4 changes what the schema accepts for note: optional() removed (note: z.string().optional(), → note: z.string(),)',
    );
    assert.equal(edge?.scope, 'POST /api/orders');
    assert.equal(
      edge?.trigger,
      'POST /api/orders receives a request without note (accepted before, refused now: existing clients that omit it break)',
    );
    assert.equal(
      edge?.recommendedProof,
      'a request test of POST /api/orders (or a parse test of the schema at src/schemas.ts:4) that sends those inputs and asserts which are accepted and which refused with a validation error',
    );
  });
});

describe('edits that change no behaviour get no condition case; real logic changes do, one per line (checker ai)', () => {
  const spacer = (name: string) => [`export function ${name}(): string {`, `  return '${name}';`, '}', ''];
  const source = (edits: { secure: string[]; count: string[]; ship: string[]; adult: string; tier: string; retry: string }) =>
    [
      "import type { IncomingMessage } from 'node:http';",
      '',
      'export function isSecure(req: IncomingMessage): boolean {',
      ...edits.secure,
      '  return false;',
      '}',
      '',
      ...spacer('first'),
      'export function countExpensive(items: { price: number }[], limit: number): number {',
      '  let total = 0;',
      ...edits.count,
      '  return total;',
      '}',
      '',
      ...spacer('second'),
      'export function canShip(order: { paid: boolean; address?: string }): boolean {',
      ...edits.ship,
      '  return false;',
      '}',
      '',
      ...spacer('third'),
      'export function isAdult(age: number): boolean {',
      edits.adult,
      '  return false;',
      '}',
      '',
      ...spacer('fourth'),
      'export function tierOf(points: number, mode: string): string {',
      edits.tier,
      "  return 'basic';",
      '}',
      '',
      ...spacer('fifth'),
      'export function retries(attempt: number, options: { limit?: number }): boolean {',
      edits.retry,
      '  return false;',
      '}',
      '',
    ].join('\n');
  const baseSource = source({
    secure: ['  if (req.connection && req.connection.encrypted) return true;'],
    count: ['  for (const item of items) {', '    if (item.price > limit) total += 1;', '  }'],
    ship: ['  if (order.paid && order.address !== undefined) return true;'],
    adult: '  if (age > 18) return true;',
    tier: "  if (points > 100 && mode === 'gold') return 'gold';",
    retry: '  if (attempt < 3) return (options.limit ??= 5) > attempt;',
  });
  const headSource = source({
    secure: ['  if (req.socket && req.socket.encrypted) return true;'],
    count: ['  for (let i = 0; i < items.length; i++) {', '    if (items[i].price > limit) total += 1;', '  }'],
    ship: ['  const ready = order.paid && order.address !== undefined;', '  if (ready) return true;'],
    adult: '  if (age >= 18) return true;',
    tier: "  if (points > 100 && mode === 'platinum') return 'gold';",
    retry: '  if (attempt < 4) return (options.limit ??= 6) > attempt;',
  });
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      { 'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }), 'src/shop.ts': baseSource },
      { 'src/shop.ts': headSource },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the alias, the index loop and the hoisted condition ask nothing; >= 18, the literal and the retry line ask once each', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    const decisions = [...bundle.evidence.edgeCases.top, ...bundle.evidence.edgeCases.overflow]
      .filter((edge) => edge.provenance.startsWith('semantic-edge-cases@'))
      .map((edge) => [edge.scope, edge.provenance.replace(/^.*#/, '')])
      .sort(([a = ''], [b = '']) => a.localeCompare(b, 'en', { numeric: true }));
    const lineOf = (text: string) => headSource.split('\n').indexOf(text) + 1;
    assert.deepEqual(decisions, [
      [`src/shop.ts:${lineOf('  if (age >= 18) return true;')}`, 'edge-case/changed-boundary'],
      [`src/shop.ts:${lineOf("  if (points > 100 && mode === 'platinum') return 'gold';")}`, 'edge-case/changed-condition'],
      // A boundary (weight 9) and a default (8) on one line: the boundary alone.
      [`src/shop.ts:${lineOf('  if (attempt < 4) return (options.limit ??= 6) > attempt;')}`, 'edge-case/changed-boundary'],
    ]);
  });
});

describe('refactors a fix made on the way ask nothing; the decisions they carry still do (check 47: sindresorhus/p-queue)', () => {
  const changes = (base: string[], head: string[], hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number }[]) =>
    findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunks).map((change) => [change.kind, change.line, change.subject]);

  test('a value put in list shape whatever shape it came in has no branch to test; a test choosing another value has', () => {
    const base = ['function on(event, listener) {', '  emitter.on(event, listener);', '}'];
    const head = (line: string) => [
      'function on(events, listener) {',
      line,
      '  for (const event of list) emitter.on(event, listener);',
      '}',
    ];
    const hunks = [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3 }];
    assert.deepEqual(changes(base, head('  const list = Array.isArray(events) ? events : [events];'), hunks), []);
    assert.deepEqual(changes(base, head("  const list = typeof events === 'string' ? [ events ] : events;"), hunks), []);
    assert.deepEqual(changes(base, head('  const list = Array.isArray(events) ? events : defaults;'), hunks), [
      ['condition', 2, 'Array.isArray(events)'],
    ]);
  });

  test('a guard extracted into a new method, inverted into an early exit, is the removed test; another test is new', () => {
    const base = (test: string) => [
      'class Queue {',
      '  pause() {',
      `    if (${test}) {`,
      '      this.timeoutId = setTimeout(resume, delay);',
      '    }',
      '    return true;',
      '  }',
      '  other() {',
      '    return 1;',
      '  }',
      '}',
    ];
    const head = [
      'class Queue {',
      '  pause() {',
      '    this.createTimeout(delay);',
      '    return true;',
      '  }',
      '  other() {',
      '    return 1;',
      '  }',
      '  createTimeout(delay) {',
      '    if (this.timeoutId !== undefined) {',
      '      return;',
      '    }',
      '    this.timeoutId = setTimeout(resume, delay);',
      '  }',
      '}',
    ];
    const hunks = [
      { oldStart: 3, oldLines: 3, newStart: 3, newLines: 1 },
      { oldStart: 10, oldLines: 0, newStart: 9, newLines: 6 },
    ];
    assert.deepEqual(changes(base('this.timeoutId === undefined'), head, hunks), []);
    assert.deepEqual(changes(base('this.intervalId === undefined'), head, hunks), [['condition', 10, '(this.timeoutId !== undefined)']]);
  });

  test('a rejection inlined where the value is reached by a longer path is the removed one; another value is a new error path', () => {
    const base = [
      'function race(operation, signal) {',
      '  return new Promise((resolve, reject) => {',
      "    signal.addEventListener('abort', () => {",
      '      reject(signal.reason);',
      '    });',
      '  });',
      '}',
      'function run(options) {',
      '  let listener;',
      '  return work();',
      '}',
    ];
    const head = (line: string) => [
      'function run(options) {',
      '  let listener;',
      '  const aborted = new Promise((resolve, reject) => {',
      '    listener = () => {',
      line,
      '    };',
      '  });',
      '  return work();',
      '}',
    ];
    const hunks = [
      { oldStart: 1, oldLines: 7, newStart: 0, newLines: 0 },
      { oldStart: 9, oldLines: 0, newStart: 3, newLines: 5 },
    ];
    assert.deepEqual(changes(base, head('      reject(options.signal!.reason);'), hunks), []);
    assert.deepEqual(changes(base, head('      reject(options.error!.reason);'), hunks), [['error-path', 5, 'the error path']]);
  });
});

// Checks 146-158 (yargs, postcss, hapi, bottle, gjson, ajv, multidict, boltons: first looks at repositories nobody here tuned on).
describe('findSemanticChanges: checks 146-158', () => {
  /** Kind, line and subject of the changes between two versions, given their hunks. */
  const between = (base: string[], head: string[], hunks: Hunk[], language: 'javascript' | 'go' = 'javascript') =>
    findSemanticChanges(`${base.join('\n')}\n`, `${head.join('\n')}\n`, hunks, language).map((change) => [
      change.kind,
      change.line,
      change.subject,
    ]);

  test('a length bound moved beside an element read asks its boundary; a slice a removed line took to it does not (gjson)', () => {
    const go = (operator: string) => [
      'package gjson',
      '',
      'func unquote(value string) string {',
      `\tif len(value) ${operator} 2 && value[0] == '"' &&`,
      `\t\tvalue[len(value)-1] == '"' {`,
      '\t\treturn value[1 : len(value)-1]',
      '\t}',
      '\treturn value',
      '}',
    ];
    assert.deepEqual(between(go('>'), go('>='), [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }], 'go'), [
      ['boundary', 4, 'len(value)'],
    ]);
    // The slice a removed line took, to the same bound, checked now: the bound is old.
    const sliced = between(
      ['package p', '', 'func f(value string) string {', '\treturn value[:2]', '}'],
      ['package p', '', 'func f(value string) string {', '\tif len(value) >= 2 {', '\t\treturn value[:2]', '\t}', '\treturn value', '}'],
      [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 4 }],
      'go',
    );
    assert.deepEqual(
      sliced.filter(([kind]) => kind === 'boundary'),
      [],
    );
  });

  test('a name whose spelling the change fixed throughout the file decides what it decided (gjson)', () => {
    const go = (name: string, reset: boolean) => [
      'package gjson',
      '',
      'func parse(path string) int {',
      `\t${name} := 0`,
      ...(reset ? [`\t${name} = 0`] : []),
      '\tfor i := 0; i < len(path); i++ {',
      `\t\tif ${name} == 0 && path[i] == '@' {`,
      `\t\t\t${name} = i`,
      '\t\t}',
      '\t}',
      `\treturn ${name}`,
      '}',
    ];
    const hunks = [
      { oldStart: 4, oldLines: 1, newStart: 4, newLines: 2 },
      { oldStart: 6, oldLines: 2, newStart: 7, newLines: 2 },
      { oldStart: 10, oldLines: 1, newStart: 11, newLines: 1 },
    ];
    assert.deepEqual(between(go('modifer', false), go('modifier', true), hunks, 'go'), []);
    // A name the head still says elsewhere is another value, not a spelling: the bound is new.
    const limits = (name: string) => [
      'package p',
      '',
      'func f(a, b int) int {',
      `\tif ${name} == 0 {`,
      '\t\treturn a',
      '\t}',
      '\treturn b',
      '}',
    ];
    assert.deepEqual(between(limits('a'), limits('b'), [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }], 'go'), [
      ['boundary', 4, 'b'],
    ]);
  });

  test('a bracketed group added as the last link of a condition is its new test (postcss)', () => {
    const base = [
      'function pushBody(nodes, i) {',
      '  if (',
      '    i < nodes.length - 1 &&',
      "    child.type === 'atrule' &&",
      '    !child.nodes',
      '  ) {',
      '    semicolon = true',
      '  }',
      '}',
    ];
    const head = [
      'function pushBody(nodes, i) {',
      '  if (',
      '    i < nodes.length - 1 &&',
      "    ((child.type === 'atrule' && !child.nodes) ||",
      "      (child.type === 'decl' && child.prop.startsWith('--')))",
      '  ) {',
      '    semicolon = true',
      '  }',
      '}',
    ];
    assert.deepEqual(between(base, head, [{ oldStart: 4, oldLines: 2, newStart: 4, newLines: 2 }]), [
      ['condition', 5, "(child.type === 'decl' && child.prop.startsWith('--'))"],
    ]);
  });

  test("a bound that is a power is the power, not its base (boltons's Bits)", () => {
    const py = (operator: string) => [
      'def check(val, len_):',
      `    if val ${operator} 2 ** len_:`,
      '        raise ValueError(val)',
      '    return val',
    ];
    const changes = findSemanticChanges(
      `${py('>').join('\n')}\n`,
      `${py('>=').join('\n')}\n`,
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      'python',
    );
    assert.deepEqual(
      changes.map((change) => [change.kind, change.subject, change.limit, change.values]),
      [['boundary', 'val', '2 ** len_', '2 ** len_ − 1, 2 ** len_ and 2 ** len_ + 1']],
    );
  });

  test('a raise that is the whole body of a newly asked branch is that branch, asked once (tomli)', () => {
    const base = ['def parse(nested, key):', '    nest = nested.get_or_create(key)', '    return nest'];
    const head = [
      'def parse(nested, key):',
      '    if nested.is_frozen(key):',
      '        raise DecodeError("Can not overwrite a value")',
      '    nest = nested.get_or_create(key)',
      '    return nest',
    ];
    const python = (lines: string[]) =>
      findSemanticChanges(
        `${base.join('\n')}\n`,
        `${lines.join('\n')}\n`,
        [{ oldStart: 2, oldLines: 0, newStart: 2, newLines: 2 }],
        'python',
      ).map((change) => [change.kind, change.line]);
    // Added lines ask one question per hunk already; replaced in place, the raise would be asked again.
    const replaced = findSemanticChanges(
      `${base.join('\n')}\n`,
      `${['def parse(nested, key):', '    if nested.is_frozen(key):', '        raise DecodeError("Can not overwrite a value")', '    return nested'].join('\n')}\n`,
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 3 }],
      'python',
    ).map((change) => [change.kind, change.line]);
    assert.deepEqual(python(head), [['condition', 2]]);
    assert.deepEqual(replaced, [['condition', 2]]);
  });

  test('text joined with + is no arithmetic; a sum of numbers still is (postcss)', () => {
    const at = (result: string, first: string, second: string) => [
      'function atruleStart(str, node) {',
      `  let name = ${first}`,
      `  let params = ${second}`,
      '  let afterName = node.raws.afterName',
      `  return ${result}`,
      '}',
    ];
    const hunks = [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 }];
    const text = ["'@' + node.name", "node.params ? str.rawValue(node, 'params') : ''"] as const;
    assert.deepEqual(between(at('name + params', ...text), at('name + afterName + params', ...text), hunks), []);
    const numbers = ['node.count', 'node.size'] as const;
    assert.deepEqual(between(at('name + params', ...numbers), at('name + afterName + params', ...numbers), hunks), [
      ['arithmetic', 5, 'the arithmetic'],
    ]);
  });
});

describe('an escaping changed (checks 159-160: superagent, morgan)', () => {
  test('the pack asks it once per replaced line, naming the line', async () => {
    const pkg = JSON.stringify({ name: 'client', version: '1.0.0' });
    const client = (encode: string): string =>
      [
        'function pushPair(pairs, key, val) {',
        '  if (val === null) {',
        `    pairs.push(${encode}(key));`,
        '    return;',
        '  }',
        `  pairs.push(${encode}(key) + '=' + encodeURIComponent(val));`,
        '}',
        'module.exports = pushPair;',
        '',
      ].join('\n');
    assert.deepEqual(
      await listCaseLines(
        'changed-escaping',
        { 'package.json': pkg, 'src/client.js': client('encodeURIComponent') },
        { 'src/client.js': client('encodeURI') },
      ),
      ['src/client.js:3', 'src/client.js:6'],
    );
  });
});

describe('renames that keep a value, and an option read under a new name (checks 270 and 273: unstorage, koa-bodyparser)', () => {
  test('a default written as a constant declared with the old value asks nothing; another value still asks', () => {
    const before = ['const driver = (opts = {}) => {', '  const table = opts.table || "storage";', '  return table;', '};'];
    const after = (value: string) => [
      `const DEFAULT_TABLE_NAME = ${value};`,
      'const driver = (opts = {}) => {',
      '  const table = opts.table || DEFAULT_TABLE_NAME;',
      '  return table;',
      '};',
    ];
    const hunks = [
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 },
      { oldStart: 2, oldLines: 1, newStart: 3, newLines: 1 },
    ];
    const defaults = (value: string) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after(value).join('\n')}\n`, hunks)
        .filter((change) => change.kind === 'default')
        .map((change) => [change.line, change.limit]);
    assert.deepEqual(defaults("'storage'"), []);
    assert.deepEqual(defaults('"unstorage"'), [[3, 'DEFAULT_TABLE_NAME']]);
  });

  test('a property read from an options object under a new name is another value; a renamed variable is not', () => {
    const options = (read: string) => [
      '/** formLimit: the limit of the urlencoded body */',
      'function formOptions(opts) {',
      '  var formOpts = {};',
      '  copy(opts).to(formOpts);',
      `  formOpts.limit = ${read};`,
      '  return formOpts;',
      '}',
    ];
    assert.deepEqual(changed(options('opts.urlencodedLimit'), options('opts.formLimit')), [['read', 5, 'opts.formLimit']]);
    // The file gives the new property its value: a field renamed, read where it was.
    const field = (name: string) => [
      'class Cache {',
      `  reset() { this.${name} = new Map(); }`,
      `  get(key) { return this.${name}.get(key); }`,
      '}',
    ];
    assert.deepEqual(changed(field('store'), field('entries')), []);
  });

  test('an await of a tagged template whose only change is a renamed name asks no rejection case; a new query asks', async () => {
    const pkg = JSON.stringify({ name: 'storage', version: '1.0.0' });
    const driver = (renamed: boolean, added: boolean): string =>
      [
        'export function createDriver(opts) {',
        `  ${renamed ? 'const tableName = opts.tableName;' : 'opts.tableName = opts.tableName;'}`,
        '  return {',
        '    async removeItem(key) {',
        '      await opts.database.sql /* sql */ `INSERT INTO log VALUES (${key})`;',
        `      await opts.database.sql /* sql */ \`DELETE FROM {\${${renamed ? 'tableName' : 'opts.tableName'}}} WHERE key=\${key}\`;`,
        ...(added ? ['      await opts.database.sql `DELETE FROM cache`;'] : []),
        '    },',
        '  };',
        '}',
        '',
      ].join('\n');
    const rejections = (added: boolean) =>
      listCaseLines(
        'rejected-promise',
        { 'package.json': pkg, 'src/driver.js': driver(false, false) },
        { 'src/driver.js': driver(true, added) },
      );
    // After a write of the same function, the renamed delete asks nothing: the same query was awaited there before.
    assert.deepEqual(await rejections(false), []);
    assert.deepEqual(await rejections(true), ['src/driver.js:7']);
  });

  test('an await in a function declared inside a factory follows no write of a sibling function', async () => {
    const pkg = JSON.stringify({ name: 'storage', version: '1.0.0' });
    const driver = (call: string): string =>
      [
        'export function createDriver(db) {',
        '  async function setItem(key, value) {',
        '    await db.sql `INSERT INTO kv VALUES (${key}, ${value})`;',
        '  }',
        '  async function getItem(key) {',
        `    return await ${call}(key);`,
        '  }',
        '  return { setItem, getItem };',
        '}',
        '',
      ].join('\n');
    const base = { 'package.json': pkg, 'src/driver.js': driver('db.read') };
    assert.deepEqual(await listCaseLines('rejected-promise', base, { 'src/driver.js': driver('db.readCached') }), []);
  });

  test('an emptiness test written another way is the same decision; a new limit or the other side still asks (check 269)', () => {
    assert.deepEqual(one('    if (!keys?.length) {', '    if (keys.length === 0) {'), []);
    assert.deepEqual(one('    if (!keys.length) {', '    if (keys.length < 1) {'), []);
    assert.deepEqual(one('    if (keys.length > 0) {', '    if (keys.length !== 0) {'), []);
    assert.deepEqual(
      one('    if (!keys.length) {', '    if (keys.length <= 1) {').map(([kind, subject, limit]) => [kind, subject, limit]),
      [['boundary', 'keys.length', '1']],
    );
    assert.deepEqual(
      one('    if (keys.length === 0) {', '    if (keys.length > 0) {').map(([kind, subject, limit]) => [kind, subject, limit]),
      [['boundary', 'keys.length', '0']],
    );
  });

  test('a new loop over a list in chunks asks the length against the chunk size, not the index (check 268)', () => {
    const before = ['async function clear(keys) {', '  await Promise.all(keys.map((key) => remove(key)));', '}'];
    const after = (step: string) => [
      'async function clear(keys) {',
      `  for (let i = 0; i < keys.length; i += ${step}) {`,
      `    await Promise.all(keys.slice(i, i + ${step}).map((key) => remove(key)));`,
      '  }',
      '}',
    ];
    const hunks = [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 3 }];
    const cases = (step: string) =>
      findSemanticChanges(`${before.join('\n')}\n`, `${after(step).join('\n')}\n`, hunks).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]);
    assert.deepEqual(cases('MAX_DELETES'), [
      [
        'boundary',
        'keys.length',
        'MAX_DELETES',
        '0, 1, MAX_DELETES, MAX_DELETES + 1 and 2 × MAX_DELETES + 1 (each item handled once, the last chunk partial, full or none)',
      ],
    ]);
    // One at a time is every element: no case, as before.
    assert.deepEqual(cases('1'), []);
  });

  test('a value kept under a new name (assigned in place, now declared) reads the same; another name still asks (check 270)', () => {
    const base = [
      'const driver = (opts = {}) => {',
      '  opts.base = resolve(opts.base);',
      '  const file = (key) => {',
      '    const resolved = join(opts.base!, key);',
      '    return resolved;',
      '  };',
      '  return { file, options: opts };',
      '};',
    ];
    const head = (read: string) => [
      'const driver = (opts = {}) => {',
      '  const base = resolve(opts.base);',
      '  const file = (key) => {',
      `    const resolved = join(${read}, key);`,
      '    return resolved;',
      '  };',
      '  return { file, options: { ...opts, base } };',
      '};',
    ];
    const hunks = [
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      { oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 },
      { oldStart: 7, oldLines: 1, newStart: 7, newLines: 1 },
    ];
    const reads = (read: string) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${head(read).join('\n')}\n`, hunks)
        .filter((change) => change.kind === 'read')
        .map((change) => [change.line, change.subject, change.limit]);
    assert.deepEqual(reads('base'), []);
    assert.deepEqual(reads('root'), [[4, 'root', 'opts.base!']]);
  });

  test('a path separator joined on is text, not arithmetic: the changed check asks as a condition (check 288)', () => {
    const check = (joined: string) => [
      '  join(name) {',
      '    const dir = path.resolve(this.uploadDir);',
      '    const target = path.resolve(dir, name);',
      `    if (!target.startsWith(${joined})) {`,
      '      return dir;',
      '    }',
      '    return target;',
      '  }',
    ];
    assert.deepEqual(changed(check('dir'), check('dir + path.sep')), [['condition', 4, '(!target.startsWith(dir + path.sep))']]);
    assert.deepEqual(changed(check('this.root'), check('this.root + path.sep')), [
      ['condition', 4, '(!target.startsWith(this.root + path.sep))'],
    ]);
    // Numbers added still ask the arithmetic, beside the condition.
    assert.deepEqual(
      changed(check('dir'), check('offset + 1')).map(([kind]) => kind),
      ['condition', 'arithmetic'],
    );
  });

  test('a default option changed in an object named for defaults asks the callers that leave it out (check 287)', () => {
    const options = (name: string, value: string) => [
      `const ${name} = {`,
      '  maxFields: 1000,',
      `  maxFiles: ${value},`,
      '  maxFileSize: 200 * 1024 * 1024,',
      '};',
    ];
    const hunks = [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }];
    const cases = (name: string, was: string, now: string) =>
      findSemanticChanges(`${options(name, was).join('\n')}\n`, `${options(name, now).join('\n')}\n`, hunks).map((change) => [
        change.kind,
        change.subject,
        change.limit,
        change.values,
      ]);
    assert.deepEqual(cases('DEFAULT_OPTIONS', 'Infinity', '1000'), [
      [
        'default',
        'maxFiles',
        '1000',
        'a call that leaves maxFiles out (now 1000, Infinity before), one at the new value and one past it, and one that sets it',
      ],
    ]);
    // An object not named for defaults, or a value that is no literal, asks nothing here.
    assert.deepEqual(cases('LIMITS', 'Infinity', '1000'), []);
    assert.deepEqual(cases('DEFAULT_OPTIONS', 'Infinity', 'os.cpus().length'), []);
  });

  test("a test's && links made nested tests are the old test; a new branch beside them still asks (check 291)", () => {
    const base = ["    if (a === 'style' && options.parseStyleAttributes) {", '      parse(value);', '    }'];
    const head = (inner: string) => [
      "    if (a === 'style') {",
      `      if (${inner}) {`,
      '        parse(value);',
      '      } else if (options.allowedStyles) {',
      "        throw new Error('allowedStyles needs parseStyleAttributes');",
      '      }',
      '    }',
    ];
    assert.deepEqual(changed(base, head('options.parseStyleAttributes')), [['condition', 4, '(options.allowedStyles)']]);
    // Another inner test is new: the hunk's one question goes to it.
    assert.deepEqual(changed(base, head('options.parseStyles')), [['condition', 2, '(options.parseStyles)']]);
  });

  test('an early return of nothing unwrapped into its negation around the rest asks nothing (check 300: hookable)', () => {
    const base = [
      'export function serial(hooks, args) {',
      '  if (hooks.length === 0) {',
      '    return;',
      '  }',
      '',
      '  const task = createTask(args.shift());',
      '',
      '  return next(hooks, args, task, 0);',
      '}',
    ];
    const head = (test: string, after: string[] = []) => [
      'export function serial(hooks, args) {',
      `  if (${test}) {`,
      '    return next(hooks, args, createTask(args.shift()), 0);',
      '  }',
      ...after,
      '}',
    ];
    const cases = (lines: string[]) =>
      findSemanticChanges(`${base.join('\n')}\n`, `${lines.join('\n')}\n`, [
        { oldStart: 2, oldLines: 7, newStart: 2, newLines: lines.length - 2 },
      ]).map((change) => [change.kind, change.line, change.subject]);
    assert.deepEqual(cases(head('hooks.length > 0')), []);
    assert.deepEqual(cases(head('hooks.length !== 0')), []);
    // Another bound, or code after the block that the empty list now reaches, changes what an input gets.
    assert.deepEqual(cases(head('hooks.length > 1')), [['boundary', 2, 'hooks.length']]);
    assert.deepEqual(cases(head('hooks.length > 0', ['  return null;'])), [
      ['boundary', 2, 'hooks.length'],
      ['return', 5, 'now returns null where it returned undefined'],
    ]);
  });

  test("a ternary's branch line that holds a ternary of its own asks that test, not the branch mark (check 306: raw-body)", () => {
    const lines = (branch: string) => ['    string = chunks.length === 1', `      ? ${branch}`, '      : Buffer.concat(chunks, total)'];
    assert.deepEqual(
      changed(
        lines('chunks[0]'),
        lines('(Buffer.isBuffer(first) ? first : Buffer.from(first.buffer, first.byteOffset, first.byteLength))'),
      ),
      [['condition', 2, 'Buffer.isBuffer(first)']],
    );
  });

  test("an arrow's predicate body that gains a negation is a changed condition (check 308: meow)", () => {
    const rule = (negation: string) => [
      'const filters = {',
      '  defaultNotInChoices: {',
      `    filter: ([, flag]) => flag.default && Array.isArray(flag.choices) && ${negation}[flag.default].flat().every((value) => flag.choices.includes(value)),`,
      "    message: 'Each default must be a choice',",
      '  },',
      '};',
    ];
    const [found, ...more] = changed(rule(''), rule('!'));
    assert.deepEqual([found?.[0], found?.[1], more], ['condition', 3, []]);
    // The arrow's body, not its parameters.
    assert.match(String(found?.[2]), /^flag\.default && Array\.isArray\(flag\.choices\) && !\[/);
    // An arrow passed to a call is not the line's own (parse-server's `Array.from(y).every(c => c >= '0' && c <= '9')`,
    // commander's `cmd._hasHelpOption && args.find(arg => arg === long || arg === short)`).
    assert.deepEqual(changed(['  const x = 1;'], ["  const isIndex = Array.from(y).every(c => c >= '0' && c <= '9');"]), []);
    assert.deepEqual(
      changed(
        ['  const help = args.find(arg => arg === cmd.long || arg === cmd.short);'],
        ['  const help = cmd.hasHelp && args.find(arg => arg === cmd.long || arg === cmd.short);'],
      ),
      [],
    );
    // An arrow that returns a fallback is a default, not a test.
    assert.deepEqual(
      changed(['const timeout = (options) => options.timeout || 1000;'], ['const timeout = (options) => options.timeout || 2000;']).map(
        ([kind]) => kind,
      ),
      ['default'],
    );
  });

  test('a search compared with where "not found" starts asks found or not; a moved bound still asks its values (check 311)', () => {
    const lines = (extra: string[]) => [
      '  if (needsQuotes',
      '    || escaped.indexOf(delimiter) > -1',
      ...extra,
      "    || escaped.charAt(0) === ' ')",
      '    quote();',
    ];
    assert.deepEqual(changed(lines([]), lines(['    || value.indexOf(quoteChar) > -1'])), [
      ['condition', 3, 'value.indexOf(quoteChar) > -1'],
    ]);
    assert.deepEqual(changed(['  if (a.indexOf(b) > -1) {'], ['  if (a.indexOf(b) > 0) {']), [['boundary', 1, 'a.indexOf(b)']]);
  });

  test("links of a ternary's test are a condition, not a fallback; a ternary given as a fallback still is one (check 322)", () => {
    assert.deepEqual(
      one(
        '  return malformedAuthority || malformedEncoding ? undefined : normalized',
        '  return malformedAuthority || malformedEncoding || malformedScheme ? undefined : normalized',
      ).map(([kind, subject]) => [kind, subject]),
      [['condition', 'malformedAuthority || malformedEncoding || malformedScheme']],
    );
    assert.deepEqual(
      one('  const port = options.port || 80', '  const port = options.port || (secure ? 443 : 80)').map(([kind, subject]) => [
        kind,
        subject,
      ]),
      [
        ['condition', 'secure'],
        ['default', 'the missing value'],
      ],
    );
  });
});

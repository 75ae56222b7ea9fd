// The tokens below are synthetic fakes (security.md §6). gitleaks:allow
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Config } from '../../../src/model/config.js';
import { isCheckerError } from '../../../src/model/diagnostic.js';
import { isExecutionAllowed, loadConfig as loadConfigFromEnv } from '../../../src/app/load/load-config.js';
import { parseConfigText } from '../../../src/repo-text/config-text.js';
import { formatAjvError, MAX_DATA_DEPTH, toFieldPath } from '../../../src/repo-text/schema-errors.js';
import type { LoadedConfigData } from '../../../src/model/config.js';
import { createNodeEnv } from '../../../src/io/node-env.js';
import { getValidator, validateOrThrow } from '../../../src/io/schema.js';
import { makeTempDir, writeTree } from '../../helpers/git-repo.js';
import type { FileTree } from '../../helpers/git-repo.js';

const loadConfig = (root: string): Promise<LoadedConfigData> => loadConfigFromEnv(createNodeEnv(root));

const SEED = 20260101;
const cleanups: Array<() => void> = [];
after(() => {
  for (const cleanup of cleanups) cleanup();
});

function makeRepo(files: FileTree = {}): string {
  const base = makeTempDir('checker-config-');
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  mkdirSync(repo);
  mkdirSync(join(base, 'outside'));
  writeTree(repo, files);
  return repo;
}

async function rejectsWith(promise: Promise<unknown>, code: string, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isCheckerError(error), `expected CheckerError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

const FULL_CONFIG_YAML = `
schemaVersion: 1
safety:
  allowCommands: true
toolAdapters:
  agentProcess:
    command: my-agent --non-interactive
    args: ["--quiet"]
    timeoutMs: 600000
    profile: claude-code
    bundleFormat: json
  browserTestRunner: { enabled: true, command: npx, args: [playwright, test], timeoutMs: 120000 }
  coverage: { enabled: false, command: c8 }
  mutationTester: { enabled: false, command: stryker }
  staticAnalyzer: { enabled: true, command: eslint, args: ["."] }
  apiFuzzer: { enabled: false, command: schemathesis }
  contractTester: { enabled: false, command: pact-verifier }
checks:
  lint:
    command: npm run lint
    description: ESLint over the sources
    timeoutMs: 60000
    paths: ["src/**/*.ts"]
  unit:
    argv: [node, --test]
products:
  targets:
    web:
      baseUrl: http://localhost:3000
      kind: ui
      start: { command: npm run dev }
      healthcheck: { path: /health, timeoutMs: 30000 }
    api:
      baseUrl: https://api.localhost:8443/v1
      kind: api
investigation:
  provider:
    kind: byok
    endpoint: https://llm.example.invalid/v1
    model: some-model
    apiKeyEnv: CHECKER_PROVIDER_KEY
analysis:
  assertionHelpers: [expectValid, t.assertSnapshot]
  maxFileBytes: 2097152
  ignore: ["fixtures/**"]
  defaultBranch: main
context:
  maxNodes: 120
`;

const FULL_CONFIG: Config = {
  schemaVersion: 1,
  safety: { allowCommands: true },
  toolAdapters: {
    agentProcess: {
      command: 'my-agent --non-interactive',
      args: ['--quiet'],
      timeoutMs: 600000,
      profile: 'claude-code',
      bundleFormat: 'json',
    },
    browserTestRunner: { enabled: true, command: 'npx', args: ['playwright', 'test'], timeoutMs: 120000 },
    coverage: { enabled: false, command: 'c8' },
    mutationTester: { enabled: false, command: 'stryker' },
    staticAnalyzer: { enabled: true, command: 'eslint', args: ['.'] },
    apiFuzzer: { enabled: false, command: 'schemathesis' },
    contractTester: { enabled: false, command: 'pact-verifier' },
  },
  checks: {
    lint: { command: 'npm run lint', description: 'ESLint over the sources', timeoutMs: 60000, paths: ['src/**/*.ts'] },
    unit: { argv: ['node', '--test'] },
  },
  products: {
    targets: {
      web: {
        baseUrl: 'http://localhost:3000',
        kind: 'ui',
        start: { command: 'npm run dev' },
        healthcheck: { path: '/health', timeoutMs: 30000 },
      },
      api: { baseUrl: 'https://api.localhost:8443/v1', kind: 'api' },
    },
  },
  investigation: {
    provider: { kind: 'byok', endpoint: 'https://llm.example.invalid/v1', model: 'some-model', apiKeyEnv: 'CHECKER_PROVIDER_KEY' },
  },
  analysis: {
    assertionHelpers: ['expectValid', 't.assertSnapshot'],
    maxFileBytes: 2097152,
    ignore: ['fixtures/**'],
    defaultBranch: 'main',
  },
  context: { maxNodes: 120 },
};

describe('loadConfig: valid files', () => {
  it('returns an empty config when no file exists', async () => {
    assert.deepEqual(await loadConfig(makeRepo()), { config: {}, sources: [], diagnostics: [] });
  });

  it('accepts every documented key', async () => {
    const repo = makeRepo({ '.checker/config.yml': FULL_CONFIG_YAML });
    const loaded = await loadConfig(repo);
    assert.deepEqual(loaded, {
      config: FULL_CONFIG,
      sources: ['.checker/config.yml'],
      diagnostics: [],
      files: [{ file: '.checker/config.yml', config: FULL_CONFIG }],
    });
    assert.equal(isExecutionAllowed(loaded.config), true);
  });

  it('reads checker.config.yaml, JSON-style YAML and empty files', async () => {
    assert.deepEqual((await loadConfig(makeRepo({ 'checker.config.yaml': '{"safety": {"allowCommands": false}}' }))).config, {
      safety: { allowCommands: false },
    });
    assert.deepEqual(await loadConfig(makeRepo({ 'checker.config.yml': '' })), {
      config: {},
      sources: ['checker.config.yml'],
      diagnostics: [],
      files: [{ file: 'checker.config.yml', config: {} }],
    });
  });

  it('reads YAML True as the boolean true', async () => {
    const loaded = await loadConfig(makeRepo({ '.checker/config.yml': 'safety:\n  allowCommands: True\n' }));
    assert.equal(isExecutionAllowed(loaded.config), true);
  });

  it('never reads .checker/local/config.yml', async () => {
    const repo = makeRepo({
      '.checker/local/config.yml': 'safety:\n  allowCommands: true\n',
      '.checker/local/checker.config.yml': 'safety:\n  allowCommands: true\n',
    });
    const loaded = await loadConfig(repo);
    assert.deepEqual(loaded, { config: {}, sources: [], diagnostics: [] });
    assert.equal(isExecutionAllowed(loaded.config), false);
  });
});

describe('loadConfig: the execution gate is never coerced', () => {
  const cases: Array<[string, string]> = [
    ['yes', 'safety.allowCommands must be true or false (got string "yes")'],
    ['"true"', 'safety.allowCommands must be true or false (got string "true")'],
    ['1', 'safety.allowCommands must be true or false (got number 1)'],
    ['on', 'safety.allowCommands must be true or false (got string "on")'],
    ['null', 'safety.allowCommands must be true or false (got null)'],
    ['[true]', 'safety.allowCommands must be true or false (got array)'],
  ];
  for (const [value, message] of cases) {
    it(`refuses allowCommands: ${value}`, async () => {
      const repo = makeRepo({ '.checker/config.yml': `safety:\n  allowCommands: ${value}\n` });
      await rejectsWith(loadConfig(repo), 'config/invalid', `.checker/config.yml: ${message}`);
    });
  }

  it('isExecutionAllowed is true only for boolean true', () => {
    assert.equal(isExecutionAllowed({}), false);
    assert.equal(isExecutionAllowed({ safety: {} }), false);
    assert.equal(isExecutionAllowed({ safety: { allowCommands: false } }), false);
    assert.equal(isExecutionAllowed({ safety: { allowCommands: true } }), true);
  });
});

describe('loadConfig: schema errors name the field', () => {
  const cases: Array<[string, string, string]> = [
    ['unknown top-level key', 'telemetry: true\n', '.checker/config.yml: unknown key telemetry'],
    ['misspelt safety key', 'safety:\n  allowComands: true\n', '.checker/config.yml: unknown key safety.allowComands'],
    [
      'secret in config',
      'investigation:\n  provider:\n    kind: byok\n    apiKey: sk_live_FAKEfake0000TESTtest1111\n',
      '.checker/config.yml: unknown key investigation.provider.apiKey',
    ],
    [
      'bad profile',
      'toolAdapters:\n  agentProcess:\n    command: agent\n    profile: gpt\n',
      '.checker/config.yml: toolAdapters.agentProcess.profile must be one of "generic", "codex", "claude-code", "cursor", "pi", "opencode", "desktop" (got string "gpt")',
    ],
    [
      'bad bundle format',
      'toolAdapters:\n  agentProcess:\n    command: agent\n    bundleFormat: html\n',
      '.checker/config.yml: toolAdapters.agentProcess.bundleFormat must be one of "markdown", "json" (got string "html")',
    ],
    [
      'adapter without enabled',
      'toolAdapters:\n  coverage:\n    command: c8\n',
      '.checker/config.yml: missing required key toolAdapters.coverage.enabled',
    ],
    [
      'check with both forms',
      'checks:\n  lint:\n    command: a\n    argv: [b]\n',
      '.checker/config.yml: checks.lint must have exactly one of "command" or "argv"',
    ],
    [
      'check with a hostile name',
      'checks:\n  "../x":\n    command: a\n',
      '.checker/config.yml: checks["../x"] is not a valid name: must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"',
    ],
    [
      'non-http base URL',
      'products:\n  targets:\n    web:\n      baseUrl: "file:///etc/passwd"\n      kind: ui\n',
      '.checker/config.yml: products.targets.web.baseUrl must match pattern "^https?://" (got string "file:///etc/passwd")',
    ],
    [
      'bad provider kind',
      'investigation:\n  provider:\n    kind: hosted\n',
      '.checker/config.yml: investigation.provider.kind must be one of "local", "byok" (got string "hosted")',
    ],
    ['float maxNodes', 'context:\n  maxNodes: 1.5\n', '.checker/config.yml: context.maxNodes must be a whole number (got number 1.5)'],
    ['schemaVersion 2', 'schemaVersion: 2\n', '.checker/config.yml: schemaVersion must be 1 (got number 2)'],
    ['top-level list', '- a\n- b\n', '.checker/config.yml: the document must be a mapping (key: value lines) (got array)'],
    [
      'an assertion helper that is not a name',
      'analysis:\n  assertionHelpers: ["expect; rm -rf /"]\n',
      '.checker/config.yml: analysis.assertionHelpers[0] must match pattern "^[A-Za-z_$][A-Za-z0-9_$.]{0,199}$" (got string "expect; rm -rf /")',
    ],
    [
      'assertion helpers as a string',
      'analysis:\n  assertionHelpers: verify\n',
      '.checker/config.yml: analysis.assertionHelpers must be a list (got string "verify")',
    ],
  ];
  for (const [name, yaml, message] of cases) {
    it(`refuses ${name}`, async () => {
      await rejectsWith(loadConfig(makeRepo({ '.checker/config.yml': yaml })), 'config/invalid', message);
    });
  }

  it('hints at the allowed keys for an unknown key', async () => {
    await assert.rejects(loadConfig(makeRepo({ '.checker/config.yml': 'safety:\n  allowComands: true\n' })), (error: unknown) => {
      assert.ok(isCheckerError(error));
      assert.equal(error.hint, 'remove it or check its spelling; allowed keys here: allowCommands');
      assert.deepEqual(error.location, { file: '.checker/config.yml' });
      return true;
    });
  });

  it(`refuses data nested deeper than ${MAX_DATA_DEPTH} levels before validation`, async () => {
    const deep = `checks: ${'['.repeat(100)}${']'.repeat(100)}\n`;
    await rejectsWith(
      loadConfig(makeRepo({ '.checker/config.yml': deep })),
      'config/invalid',
      `.checker/config.yml is nested deeper than ${MAX_DATA_DEPTH} levels`,
    );
  });
});

describe('loadConfig: YAML errors', () => {
  it('reports file, line and column of a duplicate key without echoing the secret on that line', async () => {
    const secret = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    const repo = makeRepo({
      '.checker/config.yml': `safety:\n  allowCommands: false\ninvestigation:\n  token: ${secret}\n  token: hunter2hunter2\n`,
    });
    await assert.rejects(loadConfig(repo), (error: unknown) => {
      assert.ok(isCheckerError(error));
      assert.equal(error.code, 'config/yaml');
      assert.equal(error.message, '.checker/config.yml:5:3: Map keys must be unique');
      assert.deepEqual(error.location, { file: '.checker/config.yml', line: 5, col: 3 });
      assert.equal(error.message.includes('ghp_'), false);
      assert.equal(error.message.includes('hunter2'), false);
      return true;
    });
  });

  it('reports a syntax error with its position and no source text', async () => {
    const repo = makeRepo({ '.checker/config.yml': 'safety:\n  allowCommands: [true\npassword: Fake-P4ssw0rd-For-Tests\n' });
    await assert.rejects(loadConfig(repo), (error: unknown) => {
      assert.ok(isCheckerError(error));
      assert.equal(error.code, 'config/yaml');
      assert.match(error.message, /^\.checker\/config\.yml:\d+:\d+: /);
      assert.equal(error.message.includes('Fake-P4ssw0rd'), false);
      assert.equal(error.message.includes('\n'), false);
      return true;
    });
  });

  it('refuses a billion-laughs document', async () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i <= 9; i += 1) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
    await rejectsWith(
      loadConfig(makeRepo({ '.checker/config.yml': `${lines.join('\n')}\n` })),
      'config/yaml',
      '.checker/config.yml: alias expansion limit exceeded (excessive YAML aliases)',
    );
  });

  it('refuses multiple documents and 20,000-deep flow nesting as config/yaml', async () => {
    await rejectsWith(
      loadConfig(makeRepo({ 'checker.config.yml': 'safety: {}\n---\nsafety: {allowCommands: true}\n' })),
      'config/yaml',
      'checker.config.yml:2:1: Source contains multiple documents; please use YAML.parseAllDocuments()',
    );
    await rejectsWith(
      loadConfig(makeRepo({ 'checker.config.yml': `x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n` })),
      'config/yaml',
      /^checker\.config\.yml/,
    );
  });

  it('refuses invalid UTF-8 and oversized files', async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, 'checker.config.yml'), Buffer.from([0x73, 0x3a, 0x20, 0xff]));
    await rejectsWith(loadConfig(repo), 'input/invalid-utf8', 'config file "checker.config.yml" is not valid UTF-8');
    await rejectsWith(
      loadConfig(makeRepo({ 'checker.config.yml': `# ${'x'.repeat(300 * 1024)}\n` })),
      'input/too-large',
      /^config file "checker\.config\.yml" is \d+ bytes, over the 262144-byte limit$/,
    );
  });
});

describe('loadConfig: two files', () => {
  it('merges key by key with .checker/config.yml winning', async () => {
    const repo = makeRepo({
      '.checker/config.yml': 'checks:\n  lint:\n    command: eslint .\ncontext:\n  maxNodes: 50\n',
      'checker.config.yml':
        'checks:\n  lint:\n    command: npm run lint\n  unit:\n    argv: [node, --test]\ncontext:\n  maxNodes: 200\nanalysis:\n  defaultBranch: trunk\n',
    });
    assert.deepEqual(await loadConfig(repo), {
      config: {
        checks: { lint: { command: 'eslint .' }, unit: { argv: ['node', '--test'] } },
        context: { maxNodes: 50 },
        analysis: { defaultBranch: 'trunk' },
      },
      sources: ['.checker/config.yml', 'checker.config.yml'],
      diagnostics: [],
      files: [
        { file: '.checker/config.yml', config: { checks: { lint: { command: 'eslint .' } }, context: { maxNodes: 50 } } },
        {
          file: 'checker.config.yml',
          config: {
            checks: { lint: { command: 'npm run lint' }, unit: { argv: ['node', '--test'] } },
            context: { maxNodes: 200 },
            analysis: { defaultBranch: 'trunk' },
          },
        },
      ],
    });
  });

  it('keeps a safety value set in only one file', async () => {
    const repo = makeRepo({
      '.checker/config.yml': 'context:\n  maxNodes: 50\n',
      'checker.config.yml': 'safety:\n  allowCommands: true\n',
    });
    const loaded = await loadConfig(repo);
    assert.equal(isExecutionAllowed(loaded.config), true);
    assert.deepEqual(loaded.diagnostics, []);
  });

  for (const [first, second] of [
    ['true', 'false'],
    ['false', 'true'],
  ]) {
    it(`fails closed when the files disagree on allowCommands (${first} vs ${second})`, async () => {
      const repo = makeRepo({
        '.checker/config.yml': `safety:\n  allowCommands: ${first}\n`,
        'checker.config.yml': `safety:\n  allowCommands: ${second}\n`,
      });
      const loaded = await loadConfig(repo);
      assert.deepEqual(loaded.config, { safety: { allowCommands: false } });
      assert.equal(isExecutionAllowed(loaded.config), false);
      assert.deepEqual(loaded.diagnostics, [
        {
          code: 'config/safety-conflict',
          severity: 'warn',
          message: '.checker/config.yml and checker.config.yml disagree on safety.allowCommands; using the fail-closed value false',
          hint: 'set safety.allowCommands in one config file only, or make the files agree',
          location: { file: '.checker/config.yml' },
        },
      ]);
    });
  }

  it('warns when both .yml and .yaml exist and lets .yml win', async () => {
    const repo = makeRepo({ '.checker/config.yml': 'context:\n  maxNodes: 5\n', '.checker/config.yaml': 'context:\n  maxNodes: 6\n' });
    const loaded = await loadConfig(repo);
    assert.deepEqual(loaded.config, { context: { maxNodes: 5 } });
    assert.deepEqual(
      loaded.diagnostics.map((d) => d.code),
      ['config/duplicate-file'],
    );
  });
});

describe('loadConfig: hostile files', () => {
  it('refuses __proto__ keys and never pollutes Object.prototype', async () => {
    const documents = [
      '__proto__:\n  polluted: yes\n',
      'safety:\n  __proto__:\n    polluted: yes\n',
      'checks:\n  __proto__:\n    command: x\n',
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    ];
    for (const document of documents) {
      const repo = makeRepo({ '.checker/config.yml': document, 'checker.config.yml': document });
      await assert.rejects(loadConfig(repo), (error: unknown) => isCheckerError(error) && error.code === 'config/invalid');
      assert.equal(Reflect.get({}, 'polluted'), undefined);
    }
  });

  it('keeps a check named constructor as plain data', async () => {
    const repo = makeRepo({
      '.checker/config.yml': 'checks:\n  constructor:\n    command: x\n',
      'checker.config.yml': 'checks:\n  prototype:\n    command: y\n',
    });
    const loaded = await loadConfig(repo);
    assert.deepEqual(Object.entries(loaded.config.checks ?? {}), [
      ['constructor', { command: 'x' }],
      ['prototype', { command: 'y' }],
    ]);
    assert.equal(Reflect.get({}, 'polluted'), undefined);
    assert.equal(typeof Object.prototype.constructor, 'function');
  });

  it('merges two files with nested records without sharing or polluting prototypes', async () => {
    const repo = makeRepo({
      '.checker/config.yml': 'products:\n  targets:\n    web: {baseUrl: "http://localhost:1", kind: ui}\n',
      'checker.config.yml': 'products:\n  targets:\n    api: {baseUrl: "http://localhost:2", kind: api}\n',
    });
    const loaded = await loadConfig(repo);
    assert.deepEqual(Object.keys(loaded.config.products?.targets ?? {}).sort(), ['api', 'web']);
    assert.equal(Object.getPrototypeOf(loaded.config), Object.prototype);
    assert.equal(Reflect.get({}, 'polluted'), undefined);
  });

  it('refuses a config symlinked to a file outside the repository', async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, '..', 'outside', 'config.yml'), 'safety:\n  allowCommands: true\n');
    symlinkSync(join(repo, '..', 'outside', 'config.yml'), join(repo, 'checker.config.yml'));
    await rejectsWith(loadConfig(repo), 'input/outside-repo', 'config file "checker.config.yml" resolves outside the repository (symlink)');
  });

  it('refuses a .checker folder symlinked outside the repository', async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, '..', 'outside', 'config.yml'), 'safety:\n  allowCommands: true\n');
    symlinkSync(join(repo, '..', 'outside'), join(repo, '.checker'));
    await rejectsWith(
      loadConfig(repo),
      'input/outside-repo',
      'config file ".checker/config.yml" resolves outside the repository (symlink)',
    );
  });

  it('accepts a config symlinked inside the repository', async () => {
    const repo = makeRepo({ 'config/shared.yml': 'context:\n  maxNodes: 7\n' });
    symlinkSync('config/shared.yml', join(repo, 'checker.config.yml'));
    assert.deepEqual((await loadConfig(repo)).config, { context: { maxNodes: 7 } });
  });

  it('random YAML never throws anything but a CheckerError and never opens the gate', () => {
    const token = fc.constantFrom(
      'safety:',
      'allowCommands:',
      ' ',
      '\n',
      '  ',
      'true',
      'yes',
      '"true"',
      '1',
      '&a',
      '*a',
      '[',
      ']',
      '{',
      '}',
      ',',
      '- ',
      '__proto__:',
      '<<: *a',
      '---',
      '!!js/function',
      '\t',
      ':',
      '#',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        try {
          const data = parseConfigText(text, 'fuzz.yml');
          const config = validateOrThrow<Config>('config', data ?? {}, { code: 'config/invalid', file: 'fuzz.yml' });
          if (isExecutionAllowed(config)) assert.ok(/allowCommands:\s*true/.test(text), text);
        } catch (error) {
          assert.ok(isCheckerError(error), `non-CheckerError for ${JSON.stringify(text)}: ${String(error)}`);
          assert.ok(['config/yaml', 'config/invalid'].includes(error.code));
        }
        return true;
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe('schema helpers', () => {
  it('converts JSON pointers to readable field paths', () => {
    assert.equal(toFieldPath(''), '');
    assert.equal(toFieldPath('/checks/lint/paths/0'), 'checks.lint.paths[0]');
    assert.equal(toFieldPath('/checks/a~1b c'), 'checks["a/b c"]');
    assert.equal(toFieldPath('/safety', 'allowCommands'), 'safety.allowCommands');
  });

  it('caches compiled validators', () => {
    assert.equal(getValidator('config'), getValidator('config'));
  });

  it('refuses schema names that could escape schemas/', () => {
    assert.throws(
      () => getValidator('../package'),
      (error: unknown) => isCheckerError(error) && error.code === 'internal/schema-name',
    );
  });

  it('redacts secrets that appear in the offending value', () => {
    const validate = getValidator('config');
    assert.equal(validate({ safety: { allowCommands: 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X' } }), false);
    const first = validate.errors?.[0];
    assert.ok(first !== undefined);
    assert.equal(formatAjvError(first).message, 'safety.allowCommands must be true or false (got string "[REDACTED:github-token]")');
  });

  it('says a wrong type in the words of a YAML author: a mapping, a list, true or false, a whole number', () => {
    const validate = getValidator('config');
    const said = (config: unknown) => {
      assert.equal(validate(config), false);
      const first = validate.errors?.[0];
      assert.ok(first !== undefined);
      const { message, hint } = formatAjvError(first);
      return [message, hint];
    };
    assert.deepEqual(said({ analysis: 5 }), [
      'analysis must be a mapping (key: value lines) (got number 5)',
      'set analysis to a mapping (key: value lines) (no quotes for booleans and numbers)',
    ]);
    assert.deepEqual(said({ tests: { dependsOn: {} } }), [
      'tests.dependsOn must be a list (got object)',
      'set tests.dependsOn to a list (no quotes for booleans and numbers)',
    ]);
  });
});

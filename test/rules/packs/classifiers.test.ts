import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadBuiltinPacks, validatePackData } from '../../helpers/packs.js';
import { isCheckerError } from '../../../src/model/diagnostic.js';
import type { ClassifierSection, LoadedPack, RulePack } from '../../../src/model/rules.js';
import { createPathClassifier, createPathClassTest, mergeClassifiers } from '../../../src/rules/classifiers.js';

const builtin = await loadBuiltinPacks();
const builtinClasses = createPathClassifier(mergeClassifiers(builtin));

/** The TypeScript regexes the built-in classifier pack replaced: its data must classify every path the same. */
const FORMER = {
  auth: /(?:^|[/._-])(?:auth\w*|login|logout|signin|signup|session|sessions|oauth\d*|jwt|passport|permissions?|rbac|acl|password|passwords|credentials?|tokens?)(?:[/._-]|$)/i,
  payment:
    /(?:^|[/._-])(?:payments?|billing|invoices?|checkout|stripe|paypal|money|prices?|pricing|charges?|refunds?|subscriptions?|wallets?|ledger|currency|currencies)(?:[/._-]|$)/i,
  migration: /(?:^|\/)(?:migrations?|migrate)\/|\.sql$|(?:^|\/)schema\.prisma$|(?:^|\/)(?:db|database)\/(?:[^/]+\/)*schema[^/]*$/i,
  generated: /(?:^|\/)(?:dist|build|generated|__generated__|vendor|node_modules)\/|\.generated\.|\.min\.[cm]?js$|\.pb\.[jt]s$/i,
  lockfile: /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|deno\.lock)$/,
} as const;

const PATHS = [
  'src/auth/login.ts',
  'src/authentication.ts',
  'src/AuthService.ts',
  'src/oauth2/callback.ts',
  'src/user-session.ts',
  'src/sessions/store.ts',
  'src/permissions.ts',
  'src/api/tokens.ts',
  'src/author.ts',
  'src/billing/invoice.ts',
  'src/billing-engine/charge.ts',
  'src/receivables/settle.ts',
  'src/checkout.tsx',
  'src/pricing/total.ts',
  'src/priceless.ts',
  'src/money.ts',
  'lib/stripe_webhook.js',
  'db/migrations/001_init.sql',
  'migrate/20240101.ts',
  'prisma/schema.prisma',
  'src/db/tables/schema.ts',
  'database/schema-v2.sql',
  'queries/report.SQL',
  'dist/index.js',
  'packages/a/build/out.js',
  'src/__generated__/types.ts',
  'src/api.generated.ts',
  'vendor/lib.js',
  'public/app.min.js',
  'proto/user.pb.ts',
  'src/builder.ts',
  'package-lock.json',
  'apps/web/yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'deno.lock',
  'src/lock.ts',
  'README.md',
  'src/cart.ts',
];

const FORMER_WORDS = [
  ...['auth', 'authz', 'login', 'logout', 'signin', 'signup', 'session', 'sessions', 'oauth', 'oauth2', 'jwt', 'passport'],
  ...['permission', 'permissions', 'rbac', 'acl', 'password', 'passwords', 'credential', 'credentials', 'token', 'tokens'],
  ...['payment', 'payments', 'billing', 'invoice', 'invoices', 'checkout', 'stripe', 'paypal', 'money', 'price', 'prices'],
  ...['pricing', 'charge', 'charges', 'refund', 'refunds', 'subscription', 'subscriptions', 'wallet', 'wallets', 'ledger'],
  ...['currency', 'currencies', 'migration', 'migrations', 'migrate', 'generated', 'vendor', 'build', 'dist'],
];
PATHS.push(...FORMER_WORDS.flatMap((word) => [`src/${word}/index.ts`, `src/${word}.ts`, `src/user-${word}_x.ts`]));

describe('the built-in classifiers pack', () => {
  // A class added after the TypeScript regexes were replaced (check 18, vite's playground/).
  test('an example, playground or demo folder is an example; a word inside a name is not', () => {
    const examples = ['examples/react/src/index.tsx', 'playground/hmr/dep.js', 'packages/ui/demo/app.ts', 'site/playgrounds/a.ts'];
    // Check 24 (sentry-javascript): the apps its end-to-end suites drive, one folder per framework.
    examples.push('dev-packages/e2e-tests/test-applications/hono-4/src/route-groups/test-route-patterns.ts', 'test-apps/next/app/page.tsx');
    // Go leaves folders named `_…` out of its packages: chi keeps its example programs in `_examples/`.
    examples.push('_examples/fileserver/main.go');
    for (const path of examples) assert.equal(builtinClasses(path).example, true, path);
    for (const path of ['src/example.ts', 'src/examples-loader.ts', 'src/demo-mode.ts', 'src/cart.ts', 'src/e2e-tests-runner.ts'])
      assert.equal(builtinClasses(path).example, false, path);
  });

  test('classifies every path as the TypeScript regexes it replaced did', () => {
    for (const path of PATHS) {
      const expected = {
        auth: FORMER.auth.test(path),
        payment: FORMER.payment.test(path),
        migration: FORMER.migration.test(path),
        generated: FORMER.generated.test(path),
        lockfile: FORMER.lockfile.test(path),
      };
      const { example: _example, ...former } = builtinClasses(path);
      assert.deepEqual(former, expected, path);
    }
  });

  test('one class asked alone (task grounding asks generated of every scored file) answers as the whole classifier', () => {
    const paths = [...PATHS, 'packages/web/dist/app.js', 'lib/vendor/x.min.js', 'src/api.pb.ts', 'src/distance.ts'];
    for (const name of ['generated', 'auth', 'example'] as const) {
      const isInClass = createPathClassTest(mergeClassifiers(builtin), name);
      // Asked twice: the second answer comes from what the first remembered.
      for (const path of [...paths, ...paths]) assert.equal(isInClass(path), builtinClasses(path)[name], `${name} ${path}`);
    }
  });

  test('is a pack of classes only: no rules, every path and signal class declared', () => {
    const loaded = builtin.find((entry) => entry.pack.id === 'classifiers');
    assert.ok(loaded !== undefined);
    assert.deepEqual(loaded.pack.rules, []);
    assert.deepEqual(Object.keys(loaded.pack.classifiers?.paths ?? {}).sort(), [
      'auth',
      'example',
      'generated',
      'lockfile',
      'migration',
      'payment',
    ]);
    assert.deepEqual(Object.keys(loaded.pack.classifiers?.signals ?? {}).sort(), ['auth', 'money', 'pagination']);
  });
});

function repositoryPack(classifiers: ClassifierSection): LoadedPack {
  const pack: RulePack = {
    schemaVersion: 1,
    id: 'repo:team',
    version: '1.0.0',
    kind: 'risk',
    subject: 'changed-file',
    description: 'team classes',
    rules: [],
    classifiers,
  };
  return { pack, source: 'repository', file: '.checker/rules/team.yml' };
}

describe('a repository pack extends the built-in classes', () => {
  test('words, prefixes, globs and regexes add paths to a class', () => {
    const classify = createPathClassifier(
      mergeClassifiers([
        ...builtin,
        repositoryPack({
          paths: {
            payment: { words: ['receivables'], globs: ['src/ar/**'], regexes: ['^lib/settle-[0-9]+\\.ts$'] },
            auth: { prefixes: ['sso'] },
          },
        }),
      ]),
    );
    assert.equal(classify('src/receivables/settle.ts').payment, true);
    assert.equal(classify('src/ar/post.ts').payment, true);
    assert.equal(classify('lib/settle-42.ts').payment, true);
    assert.equal(classify('lib/settle-x.ts').payment, false);
    assert.equal(classify('src/ssoProvider/index.ts').auth, true);
    assert.equal(classify('src/billing/invoice.ts').payment, true, 'the built-in words still apply');
  });

  test('exclude globs and removeWords take paths out of a class', () => {
    const classify = createPathClassifier(
      mergeClassifiers([...builtin, repositoryPack({ paths: { auth: { exclude: ['src/session-replay/**'], removeWords: ['tokens'] } } })]),
    );
    assert.equal(classify('src/session-replay/player.ts').auth, false);
    assert.equal(classify('src/sessions/store.ts').auth, true);
    assert.equal(classify('src/design/tokens.ts').auth, false);
    assert.equal(builtinClasses('src/design/tokens.ts').auth, true);
  });

  test('signal words merge the same way', () => {
    const merged = mergeClassifiers([
      ...builtin,
      repositoryPack({ signals: { money: { words: ['fee', 'fees'], removeWords: ['total'] } } }),
    ]);
    assert.ok(merged.signals.money.words.includes('fee'));
    assert.ok(!merged.signals.money.words.includes('total'));
    assert.ok(merged.signals.money.words.includes('price'));
  });
});

const packWith = (classifiers: unknown): Record<string, unknown> => ({
  schemaVersion: 1,
  id: 'team',
  version: '1.0.0',
  kind: 'risk',
  subject: 'changed-file',
  description: 'team classes',
  rules: [],
  classifiers,
});

function refusal(data: unknown): { code: string; message: string; hint: string | undefined } {
  try {
    validatePackData('.checker/rules/team.yml', data);
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    return { code: error.code, message: error.message, hint: error.toDiagnostic().hint };
  }
  assert.fail('the pack was accepted');
}

describe('classifier validation', () => {
  test('accepts a pack of classes with no rules', () => {
    const pack = validatePackData('.checker/rules/team.yml', packWith({ paths: { payment: { globs: ['src/ar/**'] } } }));
    assert.deepEqual(pack.classifiers, { paths: { payment: { globs: ['src/ar/**'] } } });
  });

  test('a pack with no classifiers still needs a rule', () => {
    const { classifiers: _none, ...withoutClassifiers } = packWith({});
    const { code, message } = refusal(withoutClassifiers);
    assert.equal(code, 'pack/invalid');
    assert.match(message, /rules/);
  });

  for (const [name, classifiers, field, hintHas] of [
    ['an unknown path class', { paths: { payments: { words: ['ar'] } } }, 'classifiers.paths.payments', 'payment'],
    ['an unknown signal class', { signals: { currency: { words: ['fee'] } } }, 'classifiers.signals.currency', 'money'],
    ['a glob RE2 cannot run', { paths: { payment: { globs: ['src/!(x)/**'] } } }, 'classifiers.paths.payment.globs[0]', undefined],
    ['a bad exclude glob', { paths: { auth: { exclude: ['!(a)'] } } }, 'classifiers.paths.auth.exclude[0]', undefined],
    ['a regex with lookahead', { paths: { payment: { regexes: ['pay(?!ments)'] } } }, 'classifiers.paths.payment.regexes[0]', undefined],
    ['a word with a slash', { paths: { payment: { words: ['a/b'] } } }, 'classifiers.paths.payment.words[0]', undefined],
    ['an unknown field', { paths: { payment: { patterns: ['x'] } } }, 'classifiers.paths.payment', undefined],
  ] as const) {
    test(`refuses ${name}, naming the field`, () => {
      const { code, message, hint } = refusal(packWith(classifiers));
      assert.equal(code, 'pack/invalid');
      assert.ok(message.includes(field), message);
      if (hintHas !== undefined) assert.ok(hint?.includes(hintHas), hint);
    });
  }
});

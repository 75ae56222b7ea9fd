/**
 * zod 4.6.x: a schema library that publishes its TypeScript sources (`src/**`) beside the compiled output
 * (`v4/**\/*.js|.cjs|.d.ts|.d.cts`). Its own tests import the package by name (`zod/v4`), which resolves
 * (without zod's private `@zod/source` condition) to the compiled output, so a test reaches a changed
 * source through the source's compiled mirror; a few tests import a module by relative path and name.
 *
 * Five changes, each labelled by reading the diff and the code:
 *  - the 4.6.5 → 4.6.6 release (a size cap checked before elements are parsed, in schemas.ts, compile.ts
 *    and util.ts, with tests added to array/map/set tests, and the compiled mirrors of all of it);
 *  - a one-line off-by-one made by hand in `fromJSONSchema`'s object guard;
 *  - a type-only change (an optional member added to an interface);
 *  - a docs-only change (README);
 *  - a test-only change (an assertion added to a test).
 */
import type { ChangeKind } from '../../../src/model/analysis.js';
import { buildRealCorpus } from '../../../bench/corpus.js';
import { rmSync } from 'node:fs';
import { readPackageFiles } from '../../helpers/eval-corpus.js';
import { buildEditedRepo, type CaseRepo, type EvalCase, type TextEdit } from '../case.js';

const VERSION = '4.6.6';

/** zod 4.6.6, every file of the package, and one hand-made commit on top. */
const buildEdited = async (edits: readonly TextEdit[], message: string): Promise<CaseRepo> =>
  buildEditedRepo(readPackageFiles('zod', VERSION, 'all'), edits, message);

/** Generated mirrors of a source in this package: `v4/core/x.{js,cjs,d.ts,d.cts}` for `src/v4/core/x.ts`. */
const mirrors = (stem: string, kind: ChangeKind): Record<string, ChangeKind> =>
  Object.fromEntries(['js', 'cjs', 'd.ts', 'd.cts'].map((extension) => [`${stem}.${extension}`, kind]));

/** Texts no task may carry in any zod case: proof asked of compiled output, of docs, of a test file itself. */
const NEVER = [
  {
    text: /(?:Prove|exercises|calls|uses).*\bv4\/core\/[\w-]+\.(?:c?js|d\.c?ts)\b/,
    why: 'compiled output is proven through its TypeScript source, never on its own',
  },
  { text: /README/, why: 'documentation does not run' },
  { text: /\.test\.test\./, why: 'a test file is the proof; it gets no test of its own' },
];

export const ZOD_RELEASE: EvalCase = {
  id: 'zod-4.6.6-release',
  kind: 'library release',
  description:
    'zod 4.6.5 → 4.6.6: an array/map/set size cap is checked before any element is parsed (3 source files, 3 test files, version bump, compiled mirrors)',
  async build() {
    const corpus = await buildRealCorpus({ package: 'zod', versions: ['4.6.5', VERSION] });
    return {
      dir: corpus.dir,
      base: corpus.baseOid,
      head: corpus.headOid,
      cleanup: () => rmSync(corpus.dir, { recursive: true, force: true }),
    };
  },
  expect: {
    changeKinds: {
      'package.json': 'manifest',
      'src/v4/core/schemas.ts': 'runtime',
      'src/v4/core/compile.ts': 'runtime',
      'src/v4/core/util.ts': 'runtime',
      'src/v4/core/versions.ts': 'runtime',
      'src/v4/classic/tests/array.test.ts': 'test',
      'src/v4/classic/tests/map.test.ts': 'test',
      'src/v4/classic/tests/set.test.ts': 'test',
      ...mirrors('v4/core/schemas', 'generated'),
      ...mirrors('v4/core/util', 'generated'),
      'v4/core/compile.js': 'generated',
      'v4/core/compile.cjs': 'generated',
      'v4/core/versions.js': 'generated',
      'v4/core/versions.cjs': 'generated',
    },
    maxTasks: 12,
    // A behaviour change in the core parser, reached by most of the package, with only static proof.
    riskLevels: ['medium', 'high'],
    // schemas.ts, compile.ts, util.ts and versions.ts; nothing for mirrors, tests or the manifest.
    proofTasks: 4,
    mustTasks: [
      {
        kind: 'proof',
        text: /src\/v4\/core\/schemas\.ts.*extend src\/v4\/classic\/tests\/(?:array|map|set)\.test\.ts/,
        why: 'the release itself adds a size-cap test to array.test.ts, map.test.ts and set.test.ts (one per schema the change touches): one of them is the test to extend or run',
      },
      { kind: 'proof', text: /src\/v4\/core\/util\.ts.*sizeCaps/, why: 'sizeCaps is the new helper both parsers call' },
    ],
    mustNotTasks: [
      ...NEVER,
      { text: /package\.json/, why: 'a version bump of the manifest changes no dependency' },
      { text: /Strengthen the weak test in src\/v4\/(?:classic|mini)\//, why: 'no weak classic/mini test is the proof of a changed line' },
    ],
  },
};

export const ZOD_ONE_LINE_FIX: EvalCase = {
  id: 'zod-min-properties-off-by-one',
  kind: 'one-line fix',
  description:
    "fromJSONSchema's object guard made to refuse an object with exactly minProperties keys (`<` → `<=`, src/v4/classic/from-json-schema.ts:175)",
  build: () =>
    buildEdited(
      [
        {
          path: 'src/v4/classic/from-json-schema.ts',
          search: 'keys.length < guards.minProperties',
          replace: 'keys.length <= guards.minProperties',
        },
      ],
      'from-json-schema: minProperties is exclusive',
    ),
  expect: {
    changeKinds: { 'src/v4/classic/from-json-schema.ts': 'runtime' },
    maxTasks: 12,
    // One line in a module that few files reach, with a test importing it: not a high-risk change.
    riskLevels: ['low', 'medium'],
    proofTasks: 1,
    mustTasks: [
      {
        kind: 'proof',
        text: /from-json-schema\.ts.*src\/v4\/classic\/tests\/from-json-schema\.test\.ts/,
        why: 'from-json-schema.test.ts imports fromJSONSchema and already tests minProperties (line 1312)',
      },
      {
        kind: 'edge-case',
        text: /from-json-schema\.ts:175.*guards\.minProperties/,
        why: 'the changed comparison: test at, just below and just above minProperties',
      },
    ],
    mustNotTasks: [
      ...NEVER,
      { text: /huge|100,000|pagination|catastrophic/i, why: 'generic signals on unchanged lines are not about this change' },
    ],
    semanticEdgeCase: {
      file: 'src/v4/classic/from-json-schema.ts',
      line: 175,
      kind: 'boundary',
      values: /guards\.minProperties − 1, guards\.minProperties and guards\.minProperties \+ 1/,
    },
  },
};

export const ZOD_TYPE_ONLY: EvalCase = {
  id: 'zod-type-only',
  kind: 'type-only',
  description: 'an optional `trim?: boolean` member added to the $ZodStringDef interface (src/v4/core/schemas.ts)',
  build: () =>
    buildEdited(
      [
        {
          path: 'src/v4/core/schemas.ts',
          after: 'export interface $ZodStringDef extends $ZodTypeDef {',
          search: '  coerce?: boolean;\n',
          replace: '  coerce?: boolean;\n  /** Trim the input before the checks run. */\n  trim?: boolean;\n',
        },
      ],
      'types: $ZodStringDef.trim',
    ),
  expect: {
    changeKinds: { 'src/v4/core/schemas.ts': 'type-only' },
    maxTasks: 1,
    riskLevels: ['low'],
    proofTasks: 0,
    mustTasks: [
      { kind: 'review', text: /Type-check.*src\/v4\/core\/schemas\.ts.*tsc --noEmit/, why: 'a type change is proven by the type checker' },
    ],
    mustNotTasks: [...NEVER, { text: /coverage|edge case/i, why: 'nothing new runs: no coverage run, no runtime edge case' }],
  },
};

export const ZOD_DOCS_ONLY: EvalCase = {
  id: 'zod-docs-only',
  kind: 'docs-only',
  description: 'the README introduction reworded (two lines)',
  build: () =>
    buildEdited([{ path: 'README.md', search: '## What is Zod?', replace: '## What is Zod, and why use it?' }], 'docs: README heading'),
  expect: {
    changeKinds: { 'README.md': 'docs' },
    maxTasks: 0,
    riskLevels: ['low'],
    proofTasks: 0,
    mustTasks: [],
    mustNotTasks: NEVER,
  },
};

export const ZOD_TEST_ONLY: EvalCase = {
  id: 'zod-test-only',
  kind: 'test-only',
  description: 'an assertion added to the minProperties test of from-json-schema.test.ts',
  build: () =>
    buildEdited(
      [
        {
          path: 'src/v4/classic/tests/from-json-schema.test.ts',
          search: '  expect(z.toJSONSchema(schema)).toMatchObject({ minProperties: 1, maxProperties: 2 });',
          replace:
            '  expect(z.toJSONSchema(schema)).toMatchObject({ minProperties: 1, maxProperties: 2 });\n  expect(schema.safeParse({}).success).toBe(false);',
        },
      ],
      'test: an empty object is below minProperties',
    ),
  expect: {
    changeKinds: { 'src/v4/classic/tests/from-json-schema.test.ts': 'test' },
    maxTasks: 2,
    riskLevels: ['low'],
    proofTasks: 0,
    mustTasks: [],
    mustNotTasks: [...NEVER, { text: /from-json-schema\.ts\b(?!.*test)/, why: 'the source did not change: no proof of it is asked' }],
  },
};

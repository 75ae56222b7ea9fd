/**
 * Rule packs (design.md, "Rule packs"): the pack format, the facts each subject exposes to rules,
 * the operators a condition may use, and the findings evaluation produces. The fact catalogue and
 * operator names live here, not in src/rules, because src/io validates packs and may import only model.
 */

import type { GroundingWeightsSection } from './grounding.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const PACK_KINDS = [
  'risk',
  'decay',
  'weak-test',
  'missing-test',
  'stale-assertion',
  'proof',
  'edge-case',
  'pattern',
  'tool',
  'context-weight',
] as const;
export type PackKind = (typeof PACK_KINDS)[number];

export const SUBJECT_KINDS = [
  'changed-file',
  'changed-export',
  'test-case',
  'test-file',
  'route',
  'repository',
  'edge-kind',
  'change',
  'changed-line',
  'changed-signal',
  'changed-semantic',
  'asserted-literal',
] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export interface FactCondition {
  fact: string;
  operator: string;
  value: JsonValue;
  /** A restricted JSONPath into the fact value: `$.name`, `$.list[0]`. */
  path?: string;
}
export interface AllCondition {
  all: Condition[];
}
export interface AnyCondition {
  any: Condition[];
}
export interface NotCondition {
  not: Condition;
}
/** Refers to an entry of the pack's `sharedConditions`. */
export interface ConditionReference {
  condition: string;
}
export type TopLevelCondition = AllCondition | AnyCondition | NotCondition | ConditionReference;
export type Condition = TopLevelCondition | FactCondition;

export type Confidence = 'low' | 'medium' | 'high';

export interface RuleEventParams {
  weight: number;
  messageId?: string;
  message?: string;
  proof?: string;
  signal?: string;
  task?: string;
  trigger?: string;
  expectedBehavior?: string;
  userVisibleFailure?: string;
  scope?: string;
  recommendedProof?: string;
  confidence?: Confidence;
  /** What code evidence the template needs before it fires, in words (edge-case and risk packs state it for every rule). */
  evidence?: string;
  tool?: string;
  why?: string;
  install?: string;
  edgeKind?: string;
}

export interface RuleEvent {
  /** Always the rule id. */
  type: string;
  params: RuleEventParams;
}

export interface Rule {
  /** `<pack kind>/<kebab-name>`. */
  id: string;
  description: string;
  rationale: string;
  since?: string;
  deprecated?: boolean;
  replacedBy?: string;
  /** 1-100; higher runs (and sorts) first. Default 1. */
  priority?: number;
  conditions: TopLevelCondition;
  event: RuleEvent;
}

/** Path classes a pack may extend; each becomes a changed-file fact (`isAuthPath`, …) or a change kind. */
export const PATH_CLASSES = ['auth', 'payment', 'migration', 'generated', 'example', 'lockfile'] as const;
export type PathClass = (typeof PATH_CLASSES)[number];

/** Signal classes whose word lists a pack may extend (identifier words such as `authToken`, `pageSize`, `price`). */
export const SIGNAL_WORD_CLASSES = ['auth', 'pagination', 'money'] as const;
export type SignalWordClass = (typeof SIGNAL_WORD_CLASSES)[number];

/**
 * One path class. A path is in the class when a word, prefix, glob or regex matches and no `exclude` glob
 * does; words and prefixes match a name between `/`, `.`, `_` and `-`. Matching ignores case.
 */
export interface PathClassData {
  description?: string;
  words?: string[];
  prefixes?: string[];
  globs?: string[];
  /** RE2 syntax. */
  regexes?: string[];
  exclude?: string[];
  /** Words taken out of the merged list (a repository pack removing a built-in word). */
  removeWords?: string[];
}

/** One signal class: the words of identifiers (`pageSize` → page, size) that raise it. */
export interface SignalClassData {
  description?: string;
  words?: string[];
  prefixes?: string[];
  removeWords?: string[];
}

/** Classifier data a pack may carry; class names are keys of PATH_CLASSES and SIGNAL_WORD_CLASSES (validation names unknown ones). */
export interface ClassifierSection {
  paths?: Record<string, PathClassData>;
  signals?: Record<string, SignalClassData>;
}

export interface RulePack {
  schemaVersion: 1;
  id: string;
  version: string;
  kind: PackKind;
  subject: SubjectKind;
  description: string;
  rules: Rule[];
  /** Message templates by messageId; `{{fact}}` placeholders are filled from the subject's facts. */
  messages?: Record<string, string>;
  /** Task-grounding weights (the context-weights pack); a repository pack overrides single keys. */
  grounding?: GroundingWeightsSection;
  /** Named conditions that rules refer to with `{condition: name}`. */
  sharedConditions?: Record<string, TopLevelCondition>;
  /** Path and signal classes; a pack that carries them may have no rules. */
  classifiers?: ClassifierSection;
}

export type PackSource = 'builtin' | 'repository';

export interface LoadedPack {
  /** Repository packs carry the id `repo:<id>` so they never shadow a built-in pack. */
  pack: RulePack;
  source: PackSource;
  /** Package-relative (`rules/x/pack.yaml`) or repository-relative (`.checker/rules/x.yml`) path. */
  file: string;
}

/** One thing rules are evaluated against: a changed file, a test case, a route… */
export interface FactSubject {
  subject: SubjectKind;
  /** Stable id, usually the graph node id (`file:src/a.ts`). */
  id: string;
  facts: Record<string, unknown>;
}

export interface Finding {
  /** Stable hash of `packId|ruleId|subjectId`. */
  id: string;
  packId: string;
  packVersion: string;
  ruleId: string;
  kind: PackKind;
  subject: SubjectKind;
  subjectId: string;
  priority: number;
  weight: number;
  messageId?: string;
  /** Rendered message: placeholders filled from the subject's facts. */
  message: string;
  proof?: string;
  /** The event params, with placeholders in string values filled. */
  params: RuleEventParams;
  /** `pack-id@version#rule-id`. */
  provenance: string;
}

export type FactType = 'string' | 'number' | 'boolean' | 'string[]' | 'number[]' | 'object' | 'object[]';

export interface FactDeclaration {
  type: FactType;
  description: string;
}

/** The facts a rule may name for each subject; the fact builders must supply every one. */
export type FactCatalogue = Readonly<Record<SubjectKind, Readonly<Record<string, FactDeclaration>>>>;

const fact = (type: FactType, description: string): FactDeclaration => ({ type, description });

export const FACT_CATALOGUE: FactCatalogue = {
  'changed-file': {
    path: fact('string', 'repository-relative POSIX path'),
    previousPath: fact('string', 'base-side path for renames, else the same as path'),
    changedHunks: fact('string', "the changed lines a contributor cites: 'lines 4-5, 9', 'line 12', 'deleted', 'renamed, no line changed'"),
    changeKind: fact(
      'string',
      'docs | config | manifest | lockfile | generated | rename | comment-or-format | type-only | binary | test | runtime (only runtime and test changes run)',
    ),
    status: fact('string', 'added | modified | deleted | renamed'),
    manifestChanges: fact(
      'string[]',
      'package.json fields that changed and can change behaviour (dependencies, engines, exports, scripts …; not version or description); `locked versions` for a lockfile',
    ),
    manifestChangeCount: fact('number', 'how many such fields changed'),
    role: fact('string', 'source | test | config | doc | manifest | other'),
    language: fact('string', 'ts | tsx | js | jsx | json | yaml | markdown | other'),
    extension: fact('string', 'file extension with the dot, `` when none'),
    additions: fact('number', 'added lines'),
    deletions: fact('number', 'deleted lines'),
    hunkCount: fact('number', 'changed hunks'),
    isBinary: fact('boolean', 'binary or undecodable content'),
    changedExportCount: fact('number', 'exports added, modified or removed'),
    fanIn: fact('number', 'files that import this file directly'),
    reachedFiles: fact('number', 'files that reach this file through imports (transitively)'),
    reachedRoutes: fact('number', 'routes whose handler chain the change of this file reaches (docs/routes.md)'),
    reachedRoutesLabel: fact('string', '`1 route`, `3 routes`: reachedRoutes for wording'),
    reachingTests: fact('number', 'test files that reach this file'),
    reachingTestsLabel: fact('string', '`1 test file`, `3 test files`: reachingTests for wording'),
    isAuthPath: fact('boolean', 'path or signals point at authentication/authorisation'),
    isPaymentPath: fact('boolean', 'path or signals point at payments, billing or money'),
    isMigration: fact('boolean', 'database migration'),
    isConfig: fact('boolean', 'configuration file'),
    isManifest: fact('boolean', 'package manifest or lockfile'),
    isTest: fact('boolean', 'test file'),
    isDocOnly: fact('boolean', 'documentation only'),
    isGenerated: fact(
      'boolean',
      'generated, vendored or compiled output (a `.js` beside its `.d.ts` whose `.ts` source is in the repository)',
    ),
    commentOnly: fact('boolean', 'every changed line is a comment or whitespace'),
    proofState: fact('string', 'runtime-proven | runtime-unproven | static-only | mocked-boundary | unproven'),
    owners: fact('string[]', 'CODEOWNERS handles'),
    ownerCount: fact('number', 'number of owners'),
    churn: fact('number', 'commits touching this file in the history window'),
    authorCount: fact('number', 'distinct authors in the history window'),
    complexityDelta: fact('number', 'change in summed cyclomatic complexity'),
    signals: fact('string[]', 'edge-case signal kinds found in changed lines (parse-number, date-time, …)'),
    changedLines: fact('number', 'additions plus deletions'),
    formattingOnly: fact('boolean', 'only whitespace and layout changed (same tokens and comments)'),
    lowSignal: fact('boolean', 'nothing new runs: a documentation, comment-only, formatting-only, type-only or compiled-output change'),
    lowSignalReason: fact(
      'string',
      "why the change is low signal ('documentation', 'comments or formatting', 'type declarations …', 'compiled output …'), '' otherwise",
    ),
    invariantsTouched: fact('number', 'memory invariants whose paths or text match this file'),
    regressionsTouched: fact('number', 'memory regressions whose paths or text match this file'),
    testsUpdated: fact('boolean', 'a test file that reaches this file changed in the same change'),
    testsStale: fact('boolean', 'the file changed more recently than every test that reaches it, and no reaching test changed now'),
    proofReason: fact('string', 'why the changed-path proof has its state'),
    proofTask: fact('string', 'repair task of the changed-path proof, empty when proven'),
    missedPartners: fact(
      'string[]',
      'co-change partners this change did not touch: files that changed in at least 70% (and at least 4) of the mined commits that changed this file, with a lift of at least 1.5 ([history](history.md))',
    ),
    missedPartnerCount: fact('number', 'how many missed partners'),
    missedPartnerEvidence: fact(
      'string',
      "up to three: '<partner> changed in 4 of the 5 commits that changed <path> (<oids>)'; '' when none",
    ),
    fixCount: fact('number', 'fix and revert commits that changed this file in the mined window'),
    fixScore: fact('number', "fixCount weighted by age from the window's newest commit (half-life 180 days), two decimals"),
    fixRatio: fact('number', 'fixCount over the commits that changed the file in the window, as a whole percentage'),
    fixCommits: fact('string[]', "the fix commits cited, '<oid7> <subject>', newest first (at most five)"),
    fixEvidence: fact('string', "'3 of its 5 recent commits were fixes or reverts (<oids>)'; '' when none"),
    isHotspot: fact('boolean', 'churn × complexity ranks in the top tenth of the repository (score at least 20, at least 3 commits)'),
    hotspotScore: fact('number', 'churn in the mined window × summed function complexity at HEAD; 0 when not a hotspot'),
    hotspotEvidence: fact('string', "'churn 12 × complexity 30 = 360, rank 1 of 40 files'; '' when not a hotspot"),
  },
  'changed-export': {
    path: fact('string', 'declaring file'),
    name: fact('string', 'export name, `default` for default exports'),
    exportKind: fact('string', 'function | class | const | type | interface | …'),
    change: fact('string', 'added | modified | removed'),
    typeOnly: fact('boolean', 'type-level export'),
    isDefault: fact('boolean', 'default export'),
    importerCount: fact('number', 'files importing this export by name'),
    reachedFiles: fact('number', 'files reaching this export transitively'),
    reachedRoutes: fact('number', 'routes whose handlers reach this export'),
    reachingTests: fact('number', 'test files reaching this export'),
    lineCount: fact('number', 'lines in the declaration'),
    complexityDelta: fact('number', 'change in cyclomatic complexity'),
    proofState: fact('string', 'runtime-proven | runtime-unproven | static-only | mocked-boundary | unproven'),
    signals: fact('string[]', 'edge-case signal kinds inside the declaration'),
  },
  'test-case': {
    file: fact('string', 'test file path'),
    title: fact('string', 'full title, parts joined with ` > `'),
    titlePath: fact('string[]', 'titles from the outermost describe to this case'),
    assertions: fact(
      'number',
      'assertions counted in the callback; for a test that shows none, one per asserting helper it calls that a file of the repository puts on the global object (a setup file’s `global.equal = equal`)',
    ),
    trivialAssertions: fact('number', 'assertions that are trivially true'),
    snapshotAssertions: fact('number', 'snapshot assertions'),
    unawaitedAssertions: fact('number', 'assertions in callbacks whose promise is neither awaited nor returned'),
    swallowedErrors: fact('number', 'catch blocks with no assertion and no rethrow'),
    modifiers: fact('string[]', 'skip | only | todo | conditional (runs only where a condition holds: skipIf, runIf)'),
    isAsync: fact('boolean', 'async callback or done argument'),
    mockCount: fact('number', 'mocks in the test file'),
    mocksUnitUnderTest: fact('boolean', 'the file mocks the module the test is about'),
    coversChangedFile: fact('boolean', 'the test file reaches a changed file'),
    lineCount: fact('number', 'lines in the test callback'),
  },
  'test-file': {
    path: fact('string', 'test file path'),
    framework: fact('string', 'vitest | jest | node | mocha | unknown'),
    testCount: fact('number', 'test cases'),
    skippedCount: fact('number', 'skipped or todo test cases'),
    onlyCount: fact('number', 'focused (.only) test cases'),
    assertionCount: fact('number', 'assertions over all cases'),
    mocks: fact('string[]', 'mocked module specifiers'),
    mockCount: fact('number', 'mocked modules'),
    mocksChangedFile: fact('boolean', 'a mocked module resolves to a changed file'),
    testedFiles: fact('number', 'source files the test file reaches'),
    isChanged: fact('boolean', 'the test file itself changed'),
  },
  route: {
    method: fact('string', 'upper-case HTTP method, ALL or PAGE'),
    path: fact('string', 'route path with mount prefixes'),
    framework: fact('string', 'express | fastify | hono | koa | nestjs | nextjs-* | openapi'),
    kind: fact('string', 'api | ui'),
    file: fact('string', 'handler file'),
    middleware: fact('string[]', 'middleware of the chain, outermost first (app, mount, router, route level)'),
    hasAuthMiddleware: fact(
      'boolean',
      'a middleware of the chain authenticates, shown by its code (an auth library, or it responds 401/403)',
    ),
    authMiddleware: fact('string[]', 'the evidence-backed authentication middleware'),
    authEvidence: fact(
      'string',
      'what the first authentication middleware rests on (`uses jsonwebtoken (verify)`, `responds 401 (…)`), empty when none',
    ),
    hasNameOnlyAuth: fact(
      'boolean',
      'a middleware is named like authentication but its code shows no credential check (or cannot be seen)',
    ),
    nameOnlyAuth: fact('string[]', 'middleware named like authentication without evidence'),
    hasRateLimit: fact('boolean', 'a middleware of the chain limits the request rate (a rate-limit library, or it responds 429)'),
    hasValidation: fact('boolean', 'a middleware of the chain validates the request (a validation library, or it responds 400/422)'),
    isMutation: fact('boolean', 'POST, PUT, PATCH or DELETE'),
    params: fact('string[]', 'path parameter names'),
    paramCount: fact('number', 'how many path parameters'),
    request: fact('string', '`a GET request`, `an OPTIONS request`, `a request of any method`, `a page visit`, for wording'),
    changed: fact('boolean', 'the change reaches the route through its handler chain (docs/routes.md)'),
    chainChanged: fact(
      'boolean',
      "a changed line lies in the route's own chain: its registration, its handler, a middleware, a function it calls or one that function calls (not only in code further down)",
    ),
    handlerChanged: fact(
      'boolean',
      "a changed line lies in the route's registration or its handler (where it is defined): not only in a middleware or code they call",
    ),
    registrationChanged: fact(
      'boolean',
      "a changed line lies in the route's registration outside its handler: its path, its middleware list, a decorator (a change inside the handler's body leaves the chain in front of it as it was)",
    ),
    viaSharedMiddleware: fact(
      'boolean',
      'the change reaches the route only through a middleware of its chain (that middleware or code it calls changed), and other routes it reaches through the same middleware: not through its registration, its handler or code the handler calls',
    ),
    viaSharedCode: fact(
      'boolean',
      'the change reaches the route only through code its handler or a middleware calls (not its registration, its handler, a middleware or a function near it), and more than three reached routes reach the same changed function that way: a shared helper, proven by its own test',
    ),
    guardChanged: fact(
      'boolean',
      'the change reaches the route through one of its authentication middlewares (`authMiddleware` or `nameOnlyAuth`): the guard itself, a function it calls or one that function calls changed, unless that function is shared code (`viaSharedCode` for the routes that reach it outside their chains), or the guard changed only behind an option its registrations on this route all leave out (`auth()` for a change inside `if (options.optional …)`)',
    ),
    reachingTests: fact('number', 'test files reaching the handler'),
    handlerWrites: fact(
      'boolean',
      'the handler, or a function it calls, writes stored state on a changed file (create, insert, save, update, upsert, increment, SQL INSERT/UPDATE)',
    ),
    handlerWrite: fact('string', 'the first such write and where (`db.pin.create at src/pins.ts:12`), empty when none is seen'),
    handlerCreates: fact(
      'boolean',
      'the handler, or a function it calls, makes a write a repeat adds to (create, insert, save, increment, decrement, SQL INSERT) in code the change touched (the handler itself, or the function around the write): an update or upsert that sets values ends in the same state when sent twice',
    ),
    handlerCreate: fact('string', 'the first such write and where (`db.pin.create at src/pins.ts:12`), empty when none is seen'),
    readsBody: fact(
      'boolean',
      'the handler, or a function it calls, reads the request body on a changed line, or in code whose error answer changed (`req.body`, `await c.req.json()`, `@Body()`, `request.get_json()`, `c.ShouldBindJSON`)',
    ),
    bodyRead: fact('string', 'the first such read and where (`req.body at src/pins.ts:9`), empty when none is seen'),
  },
  repository: {
    fileCount: fact('number', 'scanned files'),
    sourceFileCount: fact('number', 'source files'),
    testFileCount: fact('number', 'test files'),
    routeCount: fact('number', 'routes found'),
    languages: fact('string[]', 'languages present'),
    frameworks: fact('string[]', 'frameworks detected (express, react, next, …)'),
    dependencies: fact('string[]', 'declared dependency names over all manifests'),
    testRunner: fact('string', 'detected test runner, `none` when none'),
    packageManager: fact('string', 'npm | pnpm | yarn | bun | none'),
    hasTypeScript: fact('boolean', 'a tsconfig.json exists'),
    hasCoverage: fact('boolean', 'coverage is configured or a report exists'),
    hasLockfile: fact('boolean', 'a lockfile exists'),
    hasCi: fact('boolean', 'CI configuration exists'),
    hasCodeowners: fact('boolean', 'a CODEOWNERS file exists'),
    hasLinter: fact('boolean', 'a linter is configured'),
    workspaceCount: fact('number', 'workspace packages'),
    hasOpenApi: fact('boolean', 'an OpenAPI or Swagger document declares routes'),
    uiRouteCount: fact('number', 'UI routes (pages) found'),
    apiRouteCount: fact('number', 'API routes found'),
    parserSignalCount: fact('number', 'parse-number, parse-json, date-time, money and regex signals over all files'),
  },
  'edge-kind': {
    edgeKind: fact('string', 'imports | reexports | uses | tests | mocks | handles | owns | mentions | …'),
    fromKind: fact('string', 'node kind the edge starts at'),
    toKind: fact('string', 'node kind the edge ends at'),
    typeOnly: fact('boolean', 'type-only import edge'),
    taskKind: fact('string', 'what the context is for: change | preflight | investigate'),
  },
  change: {
    fileCount: fact('number', 'changed files'),
    signalFileCount: fact('number', 'changed files that are not low-signal'),
    changedLines: fact('number', 'added plus deleted lines over files that are not low-signal'),
    owners: fact('string[]', 'CODEOWNERS handles of the changed files that are not low-signal'),
    ownerCount: fact('number', 'distinct owners of the changed files that are not low-signal'),
    areaCount: fact('number', 'distinct top-level folders among files that are not low-signal'),
    impactedFiles: fact('number', 'files reached through imports from the changed files'),
    impactedRoutes: fact('number', 'routes impacted by the change'),
    lowSignal: fact('boolean', 'every changed file is low signal (documentation, comments, formatting, types or generated output)'),
  },
  'changed-line': {
    path: fact('string', 'repository-relative POSIX path'),
    line: fact('number', 'head-side line number (1-based)'),
    text: fact('string', 'the added line, at most 400 characters'),
    fileRole: fact('string', 'source | test | config | doc | manifest | other'),
    language: fact('string', 'ts | tsx | js | jsx | json | yaml | markdown | other'),
    extension: fact('string', 'file extension with the dot, `` when none'),
  },
  'changed-signal': {
    path: fact('string', 'file holding the signal'),
    line: fact('number', 'line of the signal'),
    signalKind: fact(
      'string',
      'parse-number | parse-json | date-time | money | collection | optional-access | async-failure | promise-concurrency | pagination | auth | regex | env-config | …',
    ),
    detail: fact('string', 'source excerpt or callee name, at most 80 characters'),
    inChangedLines: fact('boolean', 'the signal sits on an added or modified line'),
    fileRole: fact('string', 'source | test | config | doc | manifest | other'),
    functionName: fact('string', 'enclosing top-level function, `` when none'),
    isAsyncFunction: fact('boolean', 'the enclosing function is async'),
    routeMethods: fact('string[]', 'methods of routes declared or handled in the file'),
    isRouteFile: fact('boolean', 'the file declares or handles a route'),
    authCheck: fact(
      'string',
      "for an auth-word signal, what its line does to check credentials (verifies a token, compares a secret, calls an auth API, reads the request credentials or the user's role, refuses with 401 or 403); empty when it shows none, and for a secret compared in a function that refuses only as invalid input (400, 422: a form field of a caller already signed in)",
    ),
    envChecked: fact(
      'boolean',
      'for a read of the environment, a condition on its line or on a line that encloses it tests the same variable (`if (process.env.X) { … process.env.X … }`)',
    ),
    dateFormatter: fact(
      'boolean',
      'for a date-time signal, it builds a date formatter (`new Intl.DateTimeFormat(locale, { timeZone })`), which formats dates and builds none',
    ),
    writesBefore: fact(
      'boolean',
      'the enclosing function (the file, at module level) writes stored state on a line before this one: work a failure here would leave half-done',
    ),
    functionWrites: fact('boolean', 'the enclosing function writes stored state (a `write` signal on any of its lines)'),
  },
  'changed-semantic': {
    path: fact('string', 'changed file'),
    line: fact('number', 'head-side line of the change'),
    semanticKind: fact(
      'string',
      'boundary | default | condition | error-path | regex | arithmetic | membership | normalisation | escaping | option-flag | prototype | own-keys | validation | read | exit | return | filter: what the diff changed in the decision',
    ),
    before: fact('string', 'the replaced line, trimmed (empty for an added line), at most 80 characters'),
    after: fact('string', 'the new line, trimmed, at most 80 characters'),
    edit: fact('string', '`<before> → <after>`, `new line: <after>` for an added line, or `removed line: <before>` for a removed one'),
    subject: fact('string', 'what the decision is about: `value.length`, a parameter, the regex'),
    limit: fact('string', 'the limit of a boundary or the new default, `` otherwise'),
    values: fact('string', 'concrete inputs to try (`4, 5 and 6`)'),
    functionName: fact('string', 'enclosing top-level function, `` when none'),
    routes: fact('string[]', '`METHOD path` of the routes whose handler chain the change of the file reaches'),
    where: fact('string', 'those routes (at most 3, then `and N more`), or `<path>:<line>` when the change reaches none'),
    fileRole: fact('string', 'source | test | config | doc | manifest | other'),
    changeKind: fact('string', 'the change kind of the file (only runtime changes get semantic subjects)'),
  },
  'asserted-literal': {
    path: fact('string', 'changed source file whose hunk replaced the literal'),
    line: fact('number', 'head-side line of the replacement (the first line of the hunk when nothing replaced it)'),
    literalKind: fact(
      'string',
      'message (a string of 12+ characters or 3+ words) | default (a default parameter, option, `??`/`||` fallback or initialiser)',
    ),
    name: fact('string', 'the option or binding whose default changed, `` for a message'),
    before: fact('string', 'the old literal as written on the base side, at most 120 characters'),
    after: fact('string', 'the literal that replaced it, `` when none did, at most 120 characters'),
    replacement: fact('string', '`"<after>"` for wording, or `nothing` when the literal is gone'),
    testFile: fact('string', 'test file holding the old value'),
    testLine: fact(
      'number',
      "line of the test file holding it (a message: its text, or a template's static parts in order; a default: the old value within 40 characters of the name, on an assertion)",
    ),
    excerpt: fact('string', 'that test line, trimmed, at most 160 characters'),
    reachesChange: fact('boolean', 'the test file reaches the changed file (imports, routes or tests.dependsOn)'),
  },
};

/** Operators json-rules-engine ships. */
export const ENGINE_OPERATORS = [
  'equal',
  'notEqual',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
] as const;

/** Operators checker adds (src/rules/operators). */
export const CUSTOM_OPERATORS = ['matchesGlob', 'matchesRegex', 'intersects', 'startsWithAny', 'endsWithAny'] as const;
export type CustomOperatorName = (typeof CUSTOM_OPERATORS)[number];

/** json-rules-engine operator decorators, written `decorator:operator` (`someFact:matchesGlob`). */
export const OPERATOR_DECORATORS = ['someFact', 'someValue', 'everyFact', 'everyValue', 'swap', 'not'] as const;

export const RULE_LIMITS = {
  /** Longest `matchesRegex` pattern. */
  regexSourceLength: 200,
  /** Longest string `matchesRegex` tests; longer fact values are cut. */
  regexInputLength: 4096,
  /** Largest compiled RE2 program (instructions) a `matchesRegex` pattern may have: RE2's work per tested character grows with it. */
  regexProgramSize: 500,
  /**
   * Work repository patterns may do in one evaluation run, in tested characters × program instructions
   * (RE2's worst-case bound); about 10 s on the slowest patterns measured (docs/rule-packs.md).
   */
  regexWorkPerRun: 50_000_000,
  /** Longest glob given to `matchesGlob`. */
  globLength: 500,
} as const;

/**
 * `{{name}}` placeholders in messages; `subjectId` is always available beside the facts. `{{name | noun}}` renders a
 * count with its noun in the right number: `{{reachedRoutes | route}}` → `1 route`, `3 routes`.
 */
export const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*([a-z][a-z -]{0,39}[a-z])\s*)?\}\}/g;

/**
 * The changed-path proof messages: src/rules/proof.ts decides a state and picks one of these ids with its
 * data; the `proof` pack's `messages` supplies the words, and a repository proof pack may override any id.
 * Each id lists the data its `{{placeholders}}` may name. Reason ids name the state; `-task` ids the repair.
 */
export const PROOF_MESSAGE_DATA = {
  'unproven-deleted': ['path'],
  'unproven-deleted-task': ['path'],
  unproven: ['path'],
  'unproven-message-only': ['path', 'lines'],
  'unproven-task': ['path', 'sibling', 'exercise', 'onLines', 'command'],
  'mocked-boundary-deleted': ['path', 'mockers'],
  'mocked-boundary-deleted-task': ['path', 'mockers', 'mocks'],
  'mocked-boundary': ['path', 'mockers'],
  'mocked-boundary-task': ['path', 'sibling', 'exercise', 'onLines', 'mockers', 'mocks', 'neverRuns'],
  'static-deleted': ['path', 'tests', 'testFiles'],
  'static-deleted-task': ['path', 'importers'],
  'static-no-coverage': ['path', 'tests', 'testFiles', 'reaches'],
  'static-no-coverage-task': ['path', 'command', 'lines', 'executes', 'nearest', 'exercise'],
  'static-stale-coverage': ['path', 'tests', 'testFiles', 'reaches'],
  'static-stale-coverage-task': ['path', 'command', 'lines', 'runs', 'nearest'],
  'static-no-changed-lines': ['path'],
  'static-no-changed-lines-task': ['path', 'nearest'],
  'static-message-only': ['path', 'lines'],
  'static-not-executable': ['path', 'lines'],
  'static-not-executable-task': ['path', 'Lines', 'holds', 'nearest'],
  'runtime-proven': ['path', 'coveredLines'],
  'runtime-unproven-none-ran': ['path', 'uncoveredLines'],
  'runtime-unproven-some-ran': ['path', 'covered', 'instrumented', 'uncoveredLines'],
  'runtime-unproven-task': ['path', 'nearest', 'exercise', 'uncoveredLines', 'executes', 'them'],
} as const satisfies Record<string, readonly string[]>;
export type ProofMessageId = keyof typeof PROOF_MESSAGE_DATA;

/** One proof message: its id and the data for its placeholders, rendered with the packs' words. */
export type ProofMessage = {
  [Id in ProofMessageId]: { messageId: Id; data: Record<(typeof PROOF_MESSAGE_DATA)[Id][number], string | number> };
}[ProofMessageId];

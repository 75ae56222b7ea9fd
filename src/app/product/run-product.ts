import type { Env } from '../../model/env.js';
import type { RouteNode } from '../../model/graph.js';
import type { ApiCheckSpec } from '../../model/product-check.js';
import type { PageVisit, ProductExploration } from '../../model/product-exploration.js';
import type { ProductRunReport } from '../../model/product-run.js';
import type { ProductFailures } from '../../model/product-plan.js';
import type { ProductResultReport } from '../../model/product-result.js';
import type { z } from 'zod';
import type { productFailureSchema } from '../../model/product-failure.js';
import { CheckerError, isCheckerError } from '../../model/diagnostic.js';
import type { ChangeSet } from '../../model/change.js';
import { compareText } from '../../text/compare-text.js';
import { countOf } from '../../text/plural.js';
import { sanitizeUntrustedText } from '../../text/redact/redact.js';
import { buildRepositoryGraph } from '../build-graph.js';
import { decideGate, loadTrustedConfig } from '../load/trusted-config.js';
import { contradictsContract, generateApiChecks, judgeApiAnswer, renderApiTestSource, toPathSlug } from './api-checks.js';
import { mergeUiTestSource, renderUiTestSource } from './ui-test-source.js';
import { LATEST_FAILURES, LATEST_RUN, mergeRerun, readLatestFailures, readLatestRun } from './latest.js';
import { MAX_WORKTREE_BYTES, MAX_WORKTREE_FILES, STALE_WORKTREE_MS } from '../differential.js';
import { DEFAULT_HEALTH_TIMEOUT_MS, findProductTarget, type ProductTargetRun, runProductTarget } from './target.js';

type FailureBundle = z.infer<typeof productFailureSchema>;
type RunCheck = ProductRunReport['checks'][number];

const API_TIMEOUT_MS = 10_000;
/** exploreProduct's own default time budget. */
const DEFAULT_EXPLORATION_MS = 60_000;
/** A UI rerun is not started with less time than this left. */
const MIN_RERUN_MS = 5_000;
const TEXT_MAX = 2000;

export interface ProductOptions {
  target: string;
  /** The user asked (`checker product`, MCP `confirmExecution: true`); `safety.allowCommands: true` is the other half. */
  confirmed: boolean;
  /** Write the generated API checks as a node:test file under .checker/local/product-tests/<target>/. */
  generateApiTests?: boolean;
  /** Send the generated API checks to the target (an `api` target always does); a run that sends them also writes the file. */
  runGeneratedApiTests?: boolean;
  /**
   * Run exactly this check (`ui:…` or `api:…`), as a failure bundle's rerun command does. Its outcome replaces the
   * check's in the latest report and failures of the same target; the other checks and failures stay.
   */
  testId?: string;
  /**
   * Time the checks may take (an MCP call's deadline less the time to stop and answer): exploration is cut to what is
   * left, and an API check with too little time left is not sent (skipped, said so).
   */
  budgetMs?: number;
  /** The change's base (default: the merge-base with the default branch); its changed files come first in impactedFiles. */
  base?: string;
  /**
   * Bring the target up again from the base revision (a worktree under .checker/local/worktrees/) and rerun there
   * every failure that reproduced: passing at base confirms the change introduced it.
   */
  atBase?: boolean;
  /** Record a Playwright trace of the exploration (`pages/trace.zip`), an artifact of every UI failure. */
  trace?: boolean;
  /** `--trust-changed-config`: use the target as the change configures it when it alters the base's (never over MCP). */
  trustChangedConfig?: boolean;
}

/** What `checker product` did: the target's lifecycle, the run report (latest.json) and a failure bundle per failed check. */
export interface ProductResult {
  run: ProductTargetRun<Workflows>;
  report?: ProductRunReport;
  failures: FailureBundle[];
  /** `.checker/local/…` paths of generated test files and of the stored report. */
  written: string[];
  change?: ProductResultReport['change'];
  baseRun?: ProductResultReport['baseRun'];
  limitations: Limitation[];
}

type Limitation = { code: string; message: string };

interface Workflows {
  checks: RunCheck[];
  failures: FailureBundle[];
  written: string[];
  /** What a rerun at base needs: the API checks as sent, and the routes for the UI checks' files. */
  apiChecks: ApiCheckSpec[];
  routes: RouteNode[];
  executablePath: string | undefined;
  /** Failures that failed again on the automatic rerun and no likelier class explains: what a base run can confirm. */
  reproduced: Set<string>;
}

/**
 * `checker product --target <name>`: brings the target up (runProductTarget: gate, setup, start, health, always
 * teardown), explores a `ui` target in a real browser and turns each page into checks (loads, no console or page
 * errors, visible main content, internal links resolve), sends the generated API checks (an `api` target, or
 * `--run-generated-api-tests`), reruns every failure once to tell flaky from reproducible, and writes
 * `.checker/local/product-runs/<runId>/report.json`, `product-runs/latest.json` and one failure bundle (spec 2.1) per
 * failed check, each with the command that reruns exactly it.
 */
export async function runProduct(env: Env, options: ProductOptions): Promise<ProductResult> {
  const trust = {
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.trustChangedConfig === true ? { trustChangedConfig: true } : {}),
  };
  const loaded = await loadTrustedConfig(env, trust);
  const target = findProductTarget(loaded.config, options.target, loaded.trust);
  const executablePath = loaded.config.products?.browser?.executablePath;
  const limitations: Limitation[] = loaded.diagnostics
    .filter((item) => item.code === 'config/changed-by-range' || item.code === 'config/trusted-change')
    .map((item) => ({ code: item.code, message: item.message }));
  const gateOpen = decideGate(loaded, options.confirmed).open;
  const change = gateOpen ? await readProductChange(env, options.base, loaded.config.analysis?.defaultBranch, limitations) : undefined;
  const endsAt = options.budgetMs === undefined ? Number.POSITIVE_INFINITY : env.now().getTime() + options.budgetMs;
  const leftMs = (): number => endsAt - env.now().getTime();
  /** The browser's share of what is left: all of it up to its own default, never under a second. */
  const browserBudget = (share: number): { timeBudgetMs?: number } =>
    Number.isFinite(endsAt) ? { timeBudgetMs: Math.max(1000, Math.min(DEFAULT_EXPLORATION_MS, Math.floor(leftMs() * share))) } : {};
  const run = await runProductTarget(env, { target: options.target, confirmed: options.confirmed, ...trust }, async (context) => {
    const repository = await buildRepositoryGraph(env);
    const routes: RouteNode[] = [];
    repository.kg.graph.forEachNode((_id, attributes) => {
      if (attributes.kind === 'route') routes.push(attributes);
    });
    routes.sort((a, b) => compareText(a.path, b.path) || compareText(a.method, b.method));
    const written: string[] = [];
    const checks: RunCheck[] = [];
    const failures: FailureBundle[] = [];
    const reproduced = new Set<string>();
    const wanted = (id: string): boolean => options.testId === undefined || options.testId === id;

    const allApiChecks = generateApiChecks(options.target, routes);
    const apiChecks = allApiChecks.filter((check) => wanted(check.id));
    if (options.testId?.startsWith('api:') === true && apiChecks.length === 0)
      throw unknownTestId(
        options.testId,
        allApiChecks.map((check) => check.id),
      );
    const runApi = target.kind === 'api' || options.runGeneratedApiTests === true || options.testId?.startsWith('api:') === true;
    // Every API check that is sent points at its kept test (spec 2.4), so a run that sends them writes the file too.
    const apiSource = { path: `.checker/local/product-tests/${options.target}/api.generated.test.mjs`, baseUrl: context.baseUrl };
    if (options.generateApiTests === true || runApi) {
      // The kept file holds every generated check, whatever --test-id ran.
      const path = apiSource.path.replace(/^\.checker\/local\//, '');
      await env.writeArtifact(path, renderApiTestSource(options.target, context.baseUrl, allApiChecks), { mode: 'replace' });
      written.push(apiSource.path);
    }
    if (runApi) {
      for (const check of apiChecks) {
        if (leftMs() < 2 * API_TIMEOUT_MS) {
          checks.push({
            ...toApiRunCheck(check, { passed: true, actual: 'not sent' }, undefined, apiSource),
            status: 'skipped',
            actual: `not sent: the call's time budget (${options.budgetMs} ms) is used up; run checker product for no limit`,
          });
          continue;
        }
        const first = await sendApiCheck(env, context.baseUrl, check);
        const second = first.passed ? undefined : await sendApiCheck(env, context.baseUrl, check);
        const result = toApiRunCheck(check, first, second, apiSource);
        checks.push(result);
        if (result.status !== 'failed') continue;
        const failure = toApiFailure(options.target, context.baseUrl, check, { first, second }, apiSource);
        failures.push(failure.bundle);
        if (failure.reproduced) reproduced.add(check.id);
      }
    }

    if (target.kind === 'ui' && options.testId?.startsWith('api:') !== true) {
      const startPaths = routes.filter((route) => route.routeKind === 'ui' && !/[:*[{]/.test(route.path)).map((route) => route.path);
      const onlyPath = options.testId === undefined ? undefined : pathOfUiCheck(options.testId, options.target);
      const exploration = await env.exploreProduct({
        baseUrl: context.baseUrl,
        ...(onlyPath === undefined ? { startPaths } : { startPaths: [onlyPath], maxDepth: 0 }),
        artifactsFolder: `${context.artifactFolder}/pages`,
        ...(executablePath === undefined ? {} : { executablePath }),
        ...(options.trace === true ? { trace: true } : {}),
        ...browserBudget(0.5),
      });
      const testSource = `product-tests/${options.target}/ui.generated.spec.mjs`;
      const fresh = renderUiTestSource(options.target, context.baseUrl, exploration);
      // A --test-id rerun explores one page: its test replaces that page's in the kept file, the other pages' stay.
      const kept = options.testId === undefined ? fresh : mergeUiTestSource(await env.readArtifact(testSource), fresh);
      await env.writeArtifact(testSource, kept, { mode: 'replace' });
      written.push(`.checker/local/${testSource}`);
      const first = toUiChecks(options.target, exploration, routes, `.checker/local/${testSource}`).filter((item) => wanted(item.check.id));
      if (options.testId !== undefined && first.length === 0)
        throw unknownTestId(
          options.testId,
          toUiChecks(options.target, exploration, routes, `.checker/local/${testSource}`).map((item) => item.check.id),
        );
      const failedPaths = [...new Set(first.filter((item) => item.check.status === 'failed').map((item) => item.page.path))];
      // A rerun needs time of its own: without it the failures stay unconfirmed (classified unknown).
      const rerun =
        failedPaths.length === 0 || leftMs() < MIN_RERUN_MS
          ? []
          : toUiChecks(
              options.target,
              await env.exploreProduct({
                baseUrl: context.baseUrl,
                startPaths: failedPaths,
                maxDepth: 0,
                artifactsFolder: `${context.artifactFolder}/rerun`,
                ...(executablePath === undefined ? {} : { executablePath }),
                ...browserBudget(1),
              }),
              routes,
              `.checker/local/${testSource}`,
            );
      for (const item of first) {
        checks.push(item.check);
        if (item.check.status !== 'failed') continue;
        const again = rerun.find((other) => other.check.id === item.check.id);
        const failure = toUiFailure(options.target, context.baseUrl, item, again);
        failures.push(failure.bundle);
        if (failure.reproduced) reproduced.add(item.check.id);
      }
    }
    return { checks, failures, written, apiChecks, routes, executablePath, reproduced };
  });

  if (run.status === 'not-run') return { run, failures: [], written: [], limitations };
  const checks = [...(run.result?.checks ?? [])];
  const changed = new Set((change?.files ?? []).map((file) => file.path));
  const failures = (run.result?.failures ?? []).map((failure) => withChangedFirst(failure, changed));
  const baseRun =
    options.atBase === true && run.result !== undefined && change !== undefined
      ? await confirmAtBase(env, {
          target: options.target,
          change,
          head: run.result,
          runFolder: run.runFolder,
          limitations,
          leftMs,
          browserBudget,
          healthTimeoutMs: target.healthcheck?.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS,
        })
      : undefined;
  if (options.atBase === true && change === undefined)
    limitations.push({
      code: 'product/no-base',
      message: 'the base revision is unknown (see the limitation above), so nothing was rerun at base',
    });
  const verdict = { reproduced: run.result?.reproduced ?? new Set<string>(), baseRun, changed: change === undefined ? undefined : changed };
  failures.splice(0, failures.length, ...failures.map((failure) => withBaseVerdict(failure, verdict)));
  if (run.failure !== undefined) {
    const id = `workflow:${options.target}:${run.failure.phase}`;
    checks.push({ id, kind: 'workflow', status: 'failed', title: `bring up target ${options.target}`, actual: clean(run.failure.message) });
    failures.push(toEnvironmentFailure(options.target, run.baseUrl, id, run));
  }
  const report: ProductRunReport = { schemaVersion: 1, target: options.target, generatedAt: env.now().toISOString(), checks };
  env.validate('product-run', report, { code: 'internal/product-run' });
  const written = [...(run.result?.written ?? [])];
  const folder = run.runFolder?.replace(/^\.checker\/local\//, '') ?? `product-runs/${run.runId ?? 'run'}`;
  await env.writeArtifact(`${folder}/report.json`, `${JSON.stringify(report, null, 2)}\n`, { mode: 'create' });
  for (const [index, failure] of failures.entries()) {
    env.validate('product-failure', failure, { code: 'internal/product-failure' });
    await env.writeArtifact(`${folder}/failures/${String(index + 1).padStart(3, '0')}.json`, `${JSON.stringify(failure, null, 2)}\n`, {
      mode: 'create',
    });
  }
  const thisRun: ProductFailures = {
    schemaVersion: 1,
    kind: 'product-failures',
    target: options.target,
    generatedAt: report.generatedAt,
    runFolder: `.checker/local/${folder}`,
    failures,
  };
  const previous = options.testId === undefined ? undefined : await readPrevious(env, options.target, limitations);
  const latest =
    previous === undefined
      ? { run: report, failures: thisRun }
      : mergeRerun(previous, {
          checks,
          failures,
          at: report.generatedAt,
          runFolder: `.checker/local/${folder}`,
          cameUp: run.failure === undefined,
        });
  env.validate('product-run', latest.run, { code: 'internal/product-run' });
  env.validate('product-failures', latest.failures, { code: 'internal/product-failures' });
  await env.writeArtifact(LATEST_RUN, `${JSON.stringify(latest.run, null, 2)}\n`, { mode: 'replace' });
  await env.writeArtifact(LATEST_FAILURES, `${JSON.stringify(latest.failures, null, 2)}\n`, { mode: 'replace' });
  written.push(`.checker/local/${folder}/report.json`, `.checker/local/${LATEST_RUN}`, `.checker/local/${LATEST_FAILURES}`);
  const changeSummary =
    change === undefined || change.base.oid === undefined
      ? undefined
      : { base: change.base.ref, baseOid: change.base.oid, changedFiles: change.files.length };
  return {
    run,
    report,
    failures,
    written,
    ...(changeSummary === undefined ? {} : { change: changeSummary }),
    ...(baseRun === undefined ? {} : { baseRun }),
    limitations,
  };
}

/**
 * The change a product run is read against: `--base` (a bad ref is an error before anything starts), else the
 * merge-base with the default branch; without git the run goes on and says why files are not ordered.
 */
async function readProductChange(
  env: Env,
  base: string | undefined,
  defaultBranch: string | undefined,
  limitations: Limitation[],
): Promise<ChangeSet | undefined> {
  try {
    const git = await env.openGit();
    return await git.readChange({
      ...(base === undefined ? {} : { base }),
      ...(defaultBranch === undefined ? {} : { defaultBranch }),
    });
  } catch (error) {
    if (!isCheckerError(error) || base !== undefined) throw error;
    limitations.push({
      code: 'product/no-change',
      message: `cannot read the change (${error.message}); impacted files are not ordered changed-first`,
    });
    return undefined;
  }
}

/**
 * The latest report and failures a `--test-id` rerun of `target` merges into; undefined (the rerun becomes the latest
 * report) when there are none, they are unreadable, or they are another target's (said as a limitation).
 */
async function readPrevious(
  env: Env,
  target: string,
  limitations: Limitation[],
): Promise<{ run: ProductRunReport; failures: ProductFailures } | undefined> {
  const [run, failures] = await Promise.all([readLatestRun(env), readLatestFailures(env)]);
  if (run === undefined || failures === undefined) return undefined;
  if (run.target === target && failures.target === target) return { run, failures };
  limitations.push({
    code: 'product/latest-replaced',
    message: `the latest report was of target ${run.target}; this rerun of ${target} replaced it (run checker product --target ${run.target} to see its checks again)`,
  });
  return undefined;
}

/** The failure's impacted files with the ones this change touches first, and, when there are any, that said as evidence. */
function withChangedFirst(failure: FailureBundle, changed: ReadonlySet<string>): FailureBundle {
  const touched = failure.impactedFiles.filter((file) => changed.has(file));
  if (touched.length === 0) return failure;
  const rest = failure.impactedFiles.filter((file) => !changed.has(file));
  return {
    ...failure,
    impactedFiles: [...touched, ...rest],
    classificationEvidence: [
      ...(failure.classificationEvidence ?? []),
      clean(`this change touches ${touched.join(', ')}, which serve the check`),
    ],
  };
}

interface ApiOutcome {
  passed: boolean;
  actual: string;
  status?: number;
}

async function sendApiCheck(env: Env, baseUrl: string, check: ApiCheckSpec): Promise<ApiOutcome> {
  const body =
    check.request.bodyBytes === undefined ? check.request.body : JSON.stringify({ padding: 'x'.repeat(check.request.bodyBytes) });
  const answer = await env.httpRequest(new URL(check.request.path, baseUrl).href, {
    method: check.request.method,
    headers: check.request.headers,
    ...(body === undefined ? {} : { body }),
    timeoutMs: API_TIMEOUT_MS,
  });
  if (!answer.ok) return { passed: false, actual: `no answer: ${answer.error}` };
  const verdict = judgeApiAnswer(check, { status: answer.status, body: answer.body });
  return { passed: verdict.passed, actual: verdict.actual, status: answer.status };
}

/** Where the generated API checks are kept, and the base URL a user runs them against. */
interface ApiTestSource {
  path: string;
  baseUrl: string;
}

function toApiRunCheck(check: ApiCheckSpec, first: ApiOutcome, second: ApiOutcome | undefined, source: ApiTestSource): RunCheck {
  return {
    id: check.id,
    kind: 'api',
    status: first.passed ? 'passed' : 'failed',
    title: check.title,
    expected: check.expect.expected,
    actual: clean(second === undefined ? first.actual : `${first.actual}; on the rerun: ${second.actual}`),
    impactedFiles: check.files,
    artifacts: [toApiTestArtifact(check, source)],
  };
}

/** The kept node:test file of the generated API checks, with the command that runs only this check's test. */
function toApiTestArtifact(check: ApiCheckSpec, source: ApiTestSource): FailureBundle['artifacts'][number] {
  const pattern = `^${check.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `;
  return {
    kind: 'test-source',
    path: source.path,
    label: 'the generated API checks as a node:test file',
    description: `run only this check's test: BASE_URL=${source.baseUrl} node --test --test-name-pattern='${pattern}' ${source.path}`,
  };
}

function rerunCommand(target: string, id: string): string {
  return `checker product --target ${target} --test-id ${id}`;
}

/**
 * The failure bundle of a failed API check. One that failed again and that neither its contract nor credentials
 * explain is `reproduced`: `unknown` here, until withBaseVerdict weighs what the base revision showed.
 */
function toApiFailure(
  target: string,
  baseUrl: string,
  check: ApiCheckSpec,
  outcomes: { first: ApiOutcome; second: ApiOutcome | undefined },
  source: ApiTestSource,
): { bundle: FailureBundle; reproduced: boolean } {
  const { first, second } = outcomes;
  const flaky = second?.passed === true;
  const contradiction = flaky ? undefined : contradictsContract(check, first.status);
  const auth = !check.concern.startsWith('no-credentials') && (first.status === 401 || first.status === 403);
  const classification = flaky
    ? 'likely-flaky'
    : contradiction !== undefined
      ? 'generated-test-weakness'
      : auth
        ? 'auth-or-test-data-failure'
        : 'unknown';
  const evidence = flaky
    ? [`failed (${first.actual}), then passed on the automatic rerun (${second?.actual ?? ''})`]
    : contradiction !== undefined
      ? [contradiction, `the check expected ${check.expect.expected}`]
      : auth
        ? [`answered ${first.status} without credentials: the check needs a user or test data`]
        : [`failed twice: ${first.actual}; then ${second?.actual ?? ''}`];
  const steps = check.steps.map((label, index) => ({ index, label, status: 'passed' as const }));
  const failedIndex = steps.length - 1;
  const bundle: FailureBundle = {
    schemaVersion: 1,
    id: `failure:${check.id}`,
    checkId: check.id,
    checkKind: 'api',
    priority: first.status !== undefined && first.status >= 500 ? 'high' : contradiction !== undefined ? 'low' : 'medium',
    target: { id: target, baseUrl },
    title: check.title,
    summary: clean(`${check.request.method} ${check.request.path}: expected ${check.expect.expected}; got ${first.actual}`),
    classification,
    classificationConfidence: flaky ? 0.7 : contradiction !== undefined ? 0.8 : auth ? 0.6 : 0.5,
    classificationEvidence: evidence.map((item) => clean(item)),
    failedStep: {
      index: failedIndex,
      label: steps[failedIndex]?.label ?? check.title,
      status: 'failed',
      expected: check.expect.expected,
      actual: clean(first.actual),
    },
    neighboringSteps: steps.slice(0, failedIndex),
    artifacts: [toApiTestArtifact(check, source)],
    expected: check.expect.expected,
    actual: clean(first.actual),
    impactedFiles: check.files,
    rootCauseHypothesis:
      contradiction !== undefined
        ? `the generated check expects more than ${check.contract?.document ?? 'the contract'} promises for ${check.route.method} ${check.route.path}`
        : `the handler of ${check.route.method} ${check.route.path} (${check.route.file}:${check.route.line}) does not handle this request`,
    suggestedFixTasks: [
      auth
        ? `Give the check what ${check.route.method} ${check.route.path} needs (a test user or fixture the target's setup creates), or confirm that ${first.status} without credentials is intended; it answered ${clean(first.actual, 300)}`
        : contradiction !== undefined
          ? `Decide which is right for ${check.route.method} ${check.route.path}: if ${check.expect.expected} is the intent, declare it in ${check.contract?.document ?? 'the contract'} and make the handler (${check.route.file}:${check.route.line}) answer it; otherwise drop this generated check (it answered ${clean(first.actual, 300)}, as documented)`
          : `Make ${check.route.method} ${check.route.path} (${check.route.file}:${check.route.line}) answer ${check.expect.expected}; it answered ${clean(first.actual, 300)}`,
      `Rerun only this check: ${rerunCommand(target, check.id)}`,
    ],
    rerunCommand: rerunCommand(target, check.id),
  };
  return { bundle, reproduced: classification === 'unknown' };
}

interface UiCheck {
  check: RunCheck;
  page: PageVisit;
  label: string;
}

const UI_CONCERNS = ['loads', 'no-errors', 'main-content', 'links-resolve'] as const;

/** Four checks per visited page: it loads without error, no console or page errors, visible main content, internal links resolve. */
function toUiChecks(target: string, exploration: ProductExploration, routes: readonly RouteNode[], testSource: string): UiCheck[] {
  const checks: UiCheck[] = [];
  for (const page of exploration.pages) {
    const pathname = new URL(page.url).pathname;
    const files = routes.filter((route) => route.path === pathname).map((route) => route.file);
    const artifacts = [
      ...(page.screenshot === undefined ? [] : [{ kind: 'screenshot' as const, path: page.screenshot, label: pathname }]),
      ...(page.domSnapshot === undefined ? [] : [{ kind: 'dom-snapshot' as const, path: page.domSnapshot, label: pathname }]),
      { kind: 'test-source' as const, path: testSource, label: 'the generated Playwright test of every page' },
      ...(exploration.trace === undefined
        ? []
        : [{ kind: 'trace' as const, path: exploration.trace, label: 'npx playwright show-trace <path>: the whole exploration' }]),
    ];
    for (const concern of UI_CONCERNS) {
      const { passed, expected, actual, label } = judgePage(page, concern);
      checks.push({
        page,
        label,
        check: {
          id: `ui:${target}:${toPathSlug(pathname)}:${concern}`,
          kind: 'ui',
          status: passed ? 'passed' : 'failed',
          title: `${pathname}: ${label}`,
          expected,
          actual: clean(actual),
          ...(files.length === 0 ? {} : { impactedFiles: files }),
          artifacts,
        },
      });
    }
  }
  return checks;
}

function judgePage(
  page: PageVisit,
  concern: (typeof UI_CONCERNS)[number],
): { passed: boolean; expected: string; actual: string; label: string } {
  switch (concern) {
    case 'loads': {
      const passed = page.navigationError === undefined && page.status !== undefined && page.status < 400;
      return {
        passed,
        label: 'loads without error',
        expected: 'the page answers below 400',
        actual: page.navigationError ?? `status ${page.status ?? 'none'}`,
      };
    }
    case 'no-errors': {
      const errors = [...page.pageErrors.map((text) => `uncaught: ${text}`), ...page.consoleErrors.map((text) => `console: ${text}`)];
      return {
        passed: errors.length === 0,
        label: 'no console or page errors',
        expected: 'no uncaught error and no console error',
        actual: errors.length === 0 ? 'none' : errors.join('; '),
      };
    }
    case 'main-content':
      return {
        passed: page.hasMainContent,
        label: 'shows visible main content',
        expected: 'visible text in main, [role=main] or body',
        actual: page.hasMainContent ? 'visible' : 'nothing visible',
      };
    default: {
      const broken = page.links.filter((link) => link.resolved === false);
      return {
        passed: broken.length === 0,
        label: 'internal links resolve',
        expected: 'every same-origin link answers below 400',
        actual:
          broken.length === 0
            ? 'all resolve'
            : broken.map((link) => `${new URL(link.url).pathname} (${link.status ?? link.error ?? 'no answer'})`).join(', '),
      };
    }
  }
}

/**
 * The failure bundle of a failed page check. One that failed again on the rerun and that a missing session does not
 * explain is `reproduced`: `unknown` here, until withBaseVerdict weighs what the base revision showed.
 */
function toUiFailure(
  target: string,
  baseUrl: string,
  item: UiCheck,
  again: UiCheck | undefined,
): { bundle: FailureBundle; reproduced: boolean } {
  const { check, page } = item;
  const flaky = again?.check.status === 'passed';
  type Step = FailureBundle['failedStep'];
  const opened = page.navigationError === undefined;
  const open: Step = { index: 0, label: `open ${page.path}`, status: opened ? 'passed' : 'failed' };
  const judged: Step = {
    index: 1,
    label: item.label,
    status: 'failed',
    expected: check.expected ?? item.label,
    actual: check.actual ?? 'failed',
  };
  const loads = check.id.endsWith(':loads');
  const refused = (status: number | undefined): boolean => status === 401 || status === 403;
  const broken = page.links.filter((link) => link.resolved === false);
  const auth =
    !flaky &&
    (loads
      ? refused(page.status)
      : check.id.endsWith(':links-resolve') && broken.length > 0 && broken.every((link) => refused(link.status)));
  const refusedBy = loads
    ? `${page.path} answered ${page.status ?? ''}`
    : `every broken link answered 401 or 403 (${broken.map((link) => `${new URL(link.url).pathname} ${link.status ?? ''}`).join(', ')})`;
  const failedStep: Step = loads
    ? { ...open, status: 'failed', expected: judged.expected ?? item.label, actual: judged.actual ?? 'failed' }
    : judged;
  const neighboringSteps: Step[] = loads ? [] : [open];
  const bundle: FailureBundle = {
    schemaVersion: 1,
    id: `failure:${check.id}`,
    checkId: check.id,
    checkKind: 'ui',
    priority: check.id.endsWith(':loads') || check.id.endsWith(':no-errors') ? 'high' : 'medium',
    target: { id: target, baseUrl },
    title: check.title,
    summary: clean(`${page.path}: expected ${check.expected ?? ''}; got ${check.actual ?? ''}`),
    classification: flaky ? 'likely-flaky' : auth ? 'auth-or-test-data-failure' : 'unknown',
    classificationConfidence: flaky ? 0.7 : auth ? 0.6 : again === undefined ? 0.3 : 0.5,
    classificationEvidence: [
      flaky
        ? 'passed when the page was opened again'
        : auth
          ? `${refusedBy} to a browser without a session: the check needs a signed-in user or test data`
          : again === undefined
            ? 'the page could not be opened again for a rerun'
            : `failed again on the rerun: ${again.check.actual ?? ''}`,
    ].map((text) => clean(text)),
    failedStep,
    neighboringSteps,
    artifacts: check.artifacts ?? [],
    expected: check.expected ?? item.label,
    actual: check.actual ?? 'failed',
    impactedFiles: check.impactedFiles ?? [],
    suggestedFixTasks: [
      auth
        ? `${refusedBy} without a session: if that is intended, the page needs a signed-in check (a test user the target's setup creates); if not, fix the page's access rule`
        : `Fix ${page.path} (${item.label}): expected ${check.expected ?? item.label}; got ${clean(check.actual ?? '', 300)}`,
      `Rerun only this check: ${rerunCommand(target, check.id)}`,
    ],
    rerunCommand: rerunCommand(target, check.id),
  };
  return { bundle, reproduced: !flaky && !auth && again !== undefined };
}

function toEnvironmentFailure(target: string, baseUrl: string, id: string, run: ProductTargetRun<Workflows>): FailureBundle {
  const failure = run.failure;
  const phases = run.phases.map((phase, index) => ({ index, label: `${phase.name}: ${clean(phase.reason, 300)}`, status: phase.status }));
  const failedIndex = Math.max(
    0,
    phases.findIndex((phase) => phase.status === 'failed'),
  );
  return {
    schemaVersion: 1,
    id: `failure:${id}`,
    checkId: id,
    checkKind: 'workflow',
    priority: 'high',
    target: { id: target, baseUrl },
    title: `Target ${target} could not be brought up (${failure?.phase ?? 'start'})`,
    summary: clean(failure?.message ?? 'the target failed'),
    classification: 'environment-failure',
    classificationConfidence: 0.9,
    classificationEvidence: (failure?.evidence ?? []).map((item) => clean(item)).filter((item) => item !== ''),
    failedStep: phases[failedIndex] ?? { index: 0, label: 'bring up the target', status: 'failed' },
    neighboringSteps: phases.filter((_phase, index) => index !== failedIndex),
    artifacts: [],
    expected: `target ${target} starts and its healthcheck answers`,
    actual: clean(failure?.message ?? 'failed'),
    impactedFiles: [],
    suggestedFixTasks: [`Fix the target's ${failure?.phase ?? 'start'} (see the evidence), then rerun: checker product --target ${target}`],
    rerunCommand: `checker product --target ${target}`,
  };
}

/** The page path a `ui:<target>:<slug>:<concern>` id names (`root` → `/`, `a.b` → `/a/b`). */
function pathOfUiCheck(id: string, target: string): string | undefined {
  const match = new RegExp(`^ui:${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(.+):[a-z-]+$`).exec(id);
  if (match === null) return undefined;
  const slug = match[1] ?? '';
  return slug === 'root' ? '/' : `/${slug.split('.').join('/')}`;
}

function clean(text: string, max = TEXT_MAX): string {
  const cleaned = sanitizeUntrustedText(text, max).trim();
  return cleaned === '' ? '(empty)' : cleaned;
}

/**
 * `--at-base`: once the head target is down, brings it up again from the base revision and reruns each failure that
 * reproduced at head exactly as it ran there, within what is left of the time budget. The worktree is removed in any case.
 */
async function confirmAtBase(
  env: Env,
  input: {
    target: string;
    change: ChangeSet;
    head: Workflows;
    runFolder: string | undefined;
    limitations: Limitation[];
    leftMs: () => number;
    browserBudget: (share: number) => { timeBudgetMs?: number };
    /** The target's healthcheck timeout: bringing it up at base may take that long. */
    healthTimeoutMs: number;
  },
): Promise<NonNullable<ProductResultReport['baseRun']>> {
  const { target, change, head, limitations, leftMs } = input;
  const ref = change.base.ref;
  const oid = change.base.oid ?? '';
  const reproduced = head.failures.filter((failure) => head.reproduced.has(failure.checkId));
  const notRun = (reason: string): NonNullable<ProductResultReport['baseRun']> => ({
    ref,
    oid,
    status: 'not-run',
    reason,
    phases: [],
    checks: [],
  });
  if (reproduced.length === 0) return notRun('no failure reproduced at head, so there was nothing to rerun at base');
  if (oid === '') return notRun('the base has no commit');
  if (leftMs() < input.healthTimeoutMs + MIN_RERUN_MS)
    return notRun(
      `the call's time budget has ${Math.max(0, Math.floor(leftMs() / 1000))} s left, less than bringing the target up at base may take (its healthcheck timeout, ${Math.ceil(input.healthTimeoutMs / 1000)} s, and ${MIN_RERUN_MS / 1000} s to rerun); run checker product --at-base for no limit`,
    );
  const folder = `${input.runFolder?.replace(/^\.checker\/local\//, '') ?? 'product-runs/run'}/base`;
  const name = `${folder.split('/')[1] ?? 'run'}-base`;
  let worktree: { name: string; removed: boolean } | undefined;
  const swept = await env.removeWorktrees({ olderThanMs: env.now().getTime() - STALE_WORKTREE_MS });
  if (swept.length > 0)
    limitations.push({
      code: 'product/stale-worktrees',
      message: `removed ${countOf(swept.length, 'worktree')} a killed run left in .checker/local/worktrees/ (${swept.join(', ')})`,
    });
  try {
    const written = await env.createWorktree({ name, commit: oid, maxFiles: MAX_WORKTREE_FILES, maxBytes: MAX_WORKTREE_BYTES });
    worktree = { name, removed: false };
    if (written.incomplete !== undefined) return { ...notRun(`the base worktree was not written whole (${written.incomplete})`), worktree };
    const ids = new Set(reproduced.map((failure) => failure.checkId));
    const run = await runProductTarget(
      env,
      { target, confirmed: true, cwd: written.path, artifactFolder: folder, base: oid },
      async (context) => {
        const results: NonNullable<ProductResultReport['baseRun']>['checks'] = [];
        for (const check of head.apiChecks.filter((item) => ids.has(item.id))) {
          // A check with too little time left is not sent: it gets no verdict at base (withBaseVerdict says so).
          if (leftMs() < 2 * API_TIMEOUT_MS) continue;
          const outcome = await sendApiCheck(env, context.baseUrl, check);
          results.push({ id: check.id, status: outcome.passed ? 'passed' : 'failed', actual: clean(outcome.actual) });
        }
        const uiFailures = reproduced.filter((failure) => failure.checkKind === 'ui');
        const paths = [
          ...new Set(uiFailures.map((failure) => pathOfUiCheck(failure.checkId, target)).filter((path) => path !== undefined)),
        ];
        if (paths.length > 0 && leftMs() >= MIN_RERUN_MS) {
          const exploration = await env.exploreProduct({
            baseUrl: context.baseUrl,
            startPaths: paths,
            maxDepth: 0,
            artifactsFolder: `${context.artifactFolder}/pages`,
            ...(head.executablePath === undefined ? {} : { executablePath: head.executablePath }),
            ...input.browserBudget(1),
          });
          for (const item of toUiChecks(target, exploration, head.routes, '')) {
            if (ids.has(item.check.id))
              results.push({
                id: item.check.id,
                status: item.check.status === 'passed' ? 'passed' : 'failed',
                actual: item.check.actual ?? '',
              });
          }
        }
        return results;
      },
    );
    const reason =
      run.failure === undefined
        ? `brought up from ${ref} (${oid.slice(0, 7)}) and reran ${countOf(run.result?.length ?? 0, 'failure')} there`
        : `the target did not come up at ${ref} (${oid.slice(0, 7)}): ${run.failure.message}`;
    return {
      ref,
      oid,
      status: run.failure === undefined ? 'passed' : 'failed',
      reason: clean(reason),
      phases: run.phases,
      checks: run.result ?? [],
      worktree,
    };
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    limitations.push({ code: 'product/base-worktree', message: `the base revision could not be brought up: ${error.message}` });
    return { ...notRun(`the base worktree could not be written: ${error.message}`), ...(worktree === undefined ? {} : { worktree }) };
  } finally {
    const removed = await env.removeWorktrees({ names: [name] });
    if (worktree !== undefined) worktree.removed = removed.includes(name);
  }
}

/**
 * The verdict on a failure that reproduced at head (spec 2.1 classification): only one shown to pass at base is a
 * `confirmed-regression` (this change introduced it); one that fails there too was there before (`unknown`, said so);
 * without a base verdict it stays `unknown` with the reason and what the change does or does not touch.
 */
function withBaseVerdict(
  failure: FailureBundle,
  input: {
    reproduced: ReadonlySet<string>;
    baseRun: NonNullable<ProductResultReport['baseRun']> | undefined;
    changed: ReadonlySet<string> | undefined;
  },
): FailureBundle {
  if (!input.reproduced.has(failure.checkId)) return failure;
  const { baseRun } = input;
  const evidence = failure.classificationEvidence ?? [];
  const atBase = baseRun?.checks.find((check) => check.id === failure.checkId);
  const where = baseRun === undefined ? '' : `${baseRun.ref} (${baseRun.oid.slice(0, 7)})`;
  if (atBase?.status === 'passed')
    return {
      ...failure,
      classification: 'confirmed-regression',
      classificationConfidence: 0.9,
      classificationEvidence: [...evidence, clean(`passes at base ${where}: this change introduced it`)],
    };
  if (atBase?.status === 'failed')
    return {
      ...failure,
      classification: 'unknown',
      classificationConfidence: 0.5,
      classificationEvidence: [
        ...evidence,
        clean(`fails at base ${where} too (${atBase.actual}): it was there before this change, so it is not this change's regression`),
      ],
    };
  const files = failure.impactedFiles;
  const untouched = input.changed !== undefined && files.length > 0 && files.every((file) => !input.changed?.has(file));
  const shown = `${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`;
  return {
    ...failure,
    classification: 'unknown',
    classificationConfidence: 0.5,
    classificationEvidence: [
      ...evidence,
      ...(untouched
        ? [clean(`this change touches none of the files that serve the check (${shown}): nothing ties the failure to it`)]
        : []),
      clean(
        baseRun === undefined
          ? `not compared with the base revision, so not confirmed as this change's regression: ${failure.rerunCommand} --at-base (MCP: atBase: true) tells`
          : `not rerun at base ${where} (${baseRun.reason}), so not confirmed as this change's regression`,
      ),
    ],
  };
}

/** The result as `checker product` prints it (schemas/product-result.schema.json). */
export function toProductResultReport(result: ProductResult): ProductResultReport {
  const { run } = result;
  const failed = run.status === 'failed' || (result.report?.checks ?? []).some((check) => check.status === 'failed');
  return {
    schemaVersion: 1,
    kind: 'product',
    target: run.target,
    baseUrl: run.baseUrl,
    gate: run.gate,
    status: run.status === 'not-run' ? 'not-run' : failed ? 'failed' : 'passed',
    ...(run.runId === undefined ? {} : { runId: run.runId }),
    ...(run.runFolder === undefined ? {} : { runFolder: run.runFolder }),
    phases: run.phases,
    ...(run.failure === undefined ? {} : { failure: run.failure }),
    ...(result.report === undefined ? {} : { report: result.report }),
    failures: result.failures,
    ...(result.change === undefined ? {} : { change: result.change }),
    ...(result.baseRun === undefined ? {} : { baseRun: result.baseRun }),
    ...(result.limitations.length === 0 ? {} : { limitations: result.limitations }),
    written: result.written,
  };
}

/** A --test-id that names no check this run generated: said with the ids it did generate, after the target is down. */
function unknownTestId(id: string, known: readonly string[]): CheckerError {
  const shown = known.slice(0, 8).join(', ');
  return new CheckerError('product/unknown-test-id', `no generated check ${JSON.stringify(id)} in this run`, {
    hint:
      known.length === 0
        ? 'this target generated no check of that kind; run checker product --target <name> without --test-id to see them'
        : `use one of: ${shown}${known.length > 8 ? ` and ${known.length - 8} more` : ''}`,
  });
}

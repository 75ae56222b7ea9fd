/**
 * What each capability does, written once for both adapters: the CLI lists the title and shows the
 * description under `checker <command> --help`; the MCP server uses the same title and description and
 * adds only its own argument notes (src/mcp/texts.ts). Fixed text: nothing from a repository or a previous
 * call ever reaches it (security threat 14).
 */
export interface CommandText {
  /** One line: the CLI command list and the MCP tool title. */
  title: string;
  /** What it returns and when to use it. */
  description: string;
}

export const COMMAND_TEXTS = {
  analysis: {
    title: 'Analyze a change (full merge-safety analysis)',
    description:
      'The complete deterministic analysis of a change: changed and impacted files, route/API impacts, symbol-level import impacts, changed-path proof (which tests really reach each changed file), weak and missing tests, merge-risk and decay scores with their contributors, ranked edge cases, memory and decision context, findings and limitations. Use it when you need everything at once; the narrower reports return subsets of the same analysis.',
  },
  impact: {
    title: 'Impact map of a change',
    description:
      'What a change reaches: changed files, impacted files (reverse import reach with distance and path), impacted areas and owners, route/API impacts, and symbol-level import impacts of changed exports when detectable. Use it to decide what else to read or retest before editing further.',
  },
  auditTests: {
    title: 'Audit the tests of a change',
    description:
      'Test evidence for a change: changed-path proof per changed file (runtime-proven, runtime-unproven, static-only, mocked-boundary, unproven), runtime coverage evidence when present, weak-test and missing-test findings, and the test files and configured checks recommended to run (nothing is run). Use it to find what still needs a test.',
  },
  edgeCases: {
    title: 'Suggest edge cases for a change',
    description:
      'Ranked edge-case scenarios for a change, each with trigger, expected behaviour, user-visible failure, scope, provenance, confidence and recommended proof: the top eight plus the rest as ranked overflow. Use it to plan tests beyond the happy path.',
  },
  tools: {
    title: 'Recommend local tools for this repository',
    description:
      "Local open-source tools (test runners, coverage, mutation, static analysis, API fuzzing, contract testing) that fit the repository's shape, with why each fits. Installs nothing, runs nothing, no network.",
  },
  patterns: {
    title: 'Search pattern packs in a change',
    description:
      'Matches of the local pattern packs (built-in and .checker/rules) in the changed lines, grouped by rule with file and line. Use it to spot risky constructs introduced by a change.',
  },
  redteam: {
    title: 'Red-team merge-safety report',
    description:
      'Deterministic merge-safety report for a reviewer: merge-risk breakdown, impacted areas, changed-path proof, weak and missing tests, edge cases, configured checks (listed, not run), memory summary, ordered fix tasks and safety flags. Use it before approving or merging.',
  },
  agentBundle: {
    title: 'Agent task bundle for a change',
    description:
      'A hand-off bundle for a user-owned coding agent: a copy-paste prompt, changed files, impacted areas and routes, symbol impacts, changed-path proof with repair tasks, weak and missing tests, product failures from the latest product run, risk and decay breakdowns, edge cases, configured checks (not run), repo-local skill summaries (never executed), tasks, and safety notes. The profile only changes the hand-off wording; no agent or model is called.',
  },
  preflight: {
    title: 'Preflight brief before coding',
    description:
      'A before-coding brief for a task, no git diff needed: likely impacted areas, candidate files and route/API surfaces grounded in repository evidence, matched memory, invariants, architecture notes and design contracts, configured checks as follow-up proof (willRun=false), a proof plan, non-goals, confidence and unresolved questions. Requirement evidence, repository evidence and suggestions are kept apart. When the task cannot be grounded, it says so (low confidence, no candidate files) instead of inventing scope.',
  },
  session: {
    title: 'Durable agent session (start, context, checkpoint, finish)',
    description: 'Keeps one coding task in a durable session file under .checker/local/agent-sessions/<sessionId>.json.',
  },
  sessionStart: {
    title: 'Start a durable agent session',
    description:
      'stores the task, requirements, base revision, preflight guidance, memory, design constraints and proof obligations (an existing session id is never overwritten)',
  },
  sessionContext: {
    title: 'Refresh the context of an agent session',
    description:
      'refreshes the bounded task context (written to .checker/local/task-context.json) and flags the session stale when files changed since the last observation',
  },
  sessionCheckpoint: {
    title: 'Record a plan or diff checkpoint in an agent session',
    description: 'records your plan or diff summary (redacted, stored as untrusted)',
  },
  sessionFinish: {
    title: 'Finish an agent session',
    description:
      'records the tree and returns the verification boundary (allowed configured checks and acceptance criteria still needing proof)',
  },
  taskContext: {
    title: 'Task context packet',
    description:
      'A bounded, task-scoped context packet: the most relevant files, routes, tests, decision records, memory, owners and proof references for a task, each with a stable evidence id, a ranked relevance explanation, provenance, trust class and freshness, plus the selected graph edges and what was left out. Its node budget bounds its size. Use it to load just enough context before editing.',
  },
  graph: {
    title: 'Repository knowledge graph',
    description:
      'Builds the repository knowledge graph and reports its counts, parse failures, skipped files and unresolved imports: what the analysis can and cannot see.',
  },
  mcp: {
    title: 'Local MCP server over stdio',
    description:
      'Starts the local MCP server over stdio for one repository: report-only tools; logs go to stderr, stdout carries the protocol.',
  },
  ci: {
    title: 'Run the merge-safety analysis in CI (range from the CI, SARIF, job summary, PR comment)',
    description:
      'Detects the CI (GitHub Actions with its event payload, GitLab CI merge requests, Buildkite, CircleCI, Azure Pipelines, Jenkins; --base/--head otherwise) and the range it builds, says what it detected, runs the analysis checker analyze and checker ai run, and writes the analysis, the task bundle, SARIF 2.1.0, a job summary and a pull-request comment body under .checker/local/ci/ (and $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT when set). A shallow clone that lacks the base stops with the fetch-depth fix. Report-only: runs no check.',
  },
  execute: {
    title: 'Run the configured checks',
    description:
      'Runs the checks configured under checks: in .checker/config.yml, without a shell, only when safety.allowCommands is true; checks with paths run only when the change touches them. Otherwise it reports what would run and what is missing, and starts nothing.',
  },
  differential: {
    title: 'Run the configured checks on base and on head, and compare',
    description:
      'Runs the checks configured under checks: in .checker/config.yml on the base revision (a temporary worktree under .checker/local/worktrees/, written from git objects, node_modules linked) and on head, reruns once on both sides where the outcomes differ, and reports per check: regression (pass to fail), fixed, still failing, passing, flaky, not comparable, with durations. Same gate as execute: only when safety.allowCommands is true; otherwise it reports what would run and starts nothing. Worktrees are removed afterwards, also on failure or interrupt.',
  },
  product: {
    title: 'Run a product target and check it in a real browser and over HTTP',
    description:
      'Brings up products.targets.<name> (setup, start in its own process group, healthcheck; always teardown), explores a ui target in a system Chromium (same origin only) and checks each page: loads, no console or page errors, visible main content, links resolve; sends the generated API checks (an api target, or --run-generated-api-tests). Reruns each failure once (only one that also passes at the base revision, --at-base, is a confirmed regression), writes .checker/local/product-runs/<runId>/ and latest.json (a --test-id run updates only its check there), and a failure bundle per failed check with the command that reruns exactly it and its kept generated test. Same gate as execute: only when safety.allowCommands is true.',
  },
  rules: {
    title: 'Rule packs (list, validate)',
    description: 'The rule packs the analysis runs: the built-in packs and those in .checker/rules.',
  },
  rulesList: {
    title: 'List rule packs',
    description: 'Lists the built-in and repository rule packs and their rules.',
  },
  rulesValidate: {
    title: 'Validate rule packs',
    description:
      'Validates a rule-pack file, or every pack in .checker/rules; errors name the pack, rule and field, and an invalid pack exits with code 2.',
  },
} as const satisfies Record<string, CommandText>;

/** The four session operations, in the order the session tool lists them. */
export const SESSION_OPERATION_TEXTS = {
  start: COMMAND_TEXTS.sessionStart,
  context: COMMAND_TEXTS.sessionContext,
  checkpoint: COMMAND_TEXTS.sessionCheckpoint,
  finish: COMMAND_TEXTS.sessionFinish,
} as const;

/**
 * Which CI runs checker and which range it is building, read from the variables each CI sets (and, on GitHub Actions,
 * the event payload file). Pure: the caller reads the environment and the payload. Every value read from the
 * environment is a candidate only; `run-ci.ts` checks it as a git revision before use.
 */

export type CiProvider = 'github-actions' | 'gitlab-ci' | 'buildkite' | 'circleci' | 'azure-pipelines' | 'jenkins' | 'none';

/** One way to name a side of the range: tried in order, the first that resolves wins. */
export interface RefCandidate {
  ref: string;
  /** Where it came from, for the explanation: `GITHUB_EVENT_PATH pull_request.base.sha`. */
  source: string;
  /** Take the merge-base of this ref and the head (a target branch whose tip may have moved on). */
  mergeBase?: boolean;
}

export interface CiDetection {
  provider: CiProvider;
  /** Human name: `GitHub Actions`. */
  name: string;
  event: 'pull-request' | 'push' | 'manual' | 'unknown';
  /** Pull or merge request number when the CI names one. */
  pullRequest?: string;
  base: RefCandidate[];
  head: RefCandidate[];
  /** One sentence per fact used, in the order used. */
  notes: string[];
}

export type EnvVars = Readonly<Record<string, string | undefined>>;

const ZERO_SHA = /^0{40}$/;
const SHA = /^[0-9a-f]{40}$/i;

const NAMES: Record<CiProvider, string> = {
  'github-actions': 'GitHub Actions',
  'gitlab-ci': 'GitLab CI',
  buildkite: 'Buildkite',
  circleci: 'CircleCI',
  'azure-pipelines': 'Azure Pipelines',
  jenkins: 'Jenkins',
  none: 'no CI',
};

function value(env: EnvVars, name: string): string | undefined {
  const found = env[name]?.trim();
  return found === undefined || found === '' ? undefined : found;
}

/** `refs/heads/main` → `main`; other names unchanged. */
function branchName(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** A target branch: the remote-tracking branch first (what a CI checkout fetches), then a local one. */
function branchCandidates(branch: string, source: string): RefCandidate[] {
  const name = branchName(branch);
  return [
    { ref: `origin/${name}`, source, mergeBase: true },
    { ref: name, source, mergeBase: true },
  ];
}

function sha(ref: string | undefined): string | undefined {
  return ref !== undefined && SHA.test(ref) && !ZERO_SHA.test(ref) ? ref.toLowerCase() : undefined;
}

function record(input: unknown): Record<string, unknown> | undefined {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
}

function stringAt(input: unknown, ...path: string[]): string | undefined {
  let current: unknown = input;
  for (const key of path) current = record(current)?.[key];
  return typeof current === 'string' ? current : typeof current === 'number' ? String(current) : undefined;
}

export function detectCi(env: EnvVars, githubEvent?: unknown): CiDetection {
  if (value(env, 'GITHUB_ACTIONS') === 'true') return detectGithub(env, githubEvent);
  if (value(env, 'GITLAB_CI') !== undefined) return detectGitlab(env);
  if (value(env, 'BUILDKITE') === 'true') return detectBuildkite(env);
  if (value(env, 'CIRCLECI') === 'true') return detectCircle(env);
  if (value(env, 'TF_BUILD') !== undefined) return detectAzure(env);
  if (value(env, 'JENKINS_URL') !== undefined || value(env, 'JENKINS_HOME') !== undefined) return detectJenkins(env);
  return { provider: 'none', name: NAMES.none, event: 'unknown', base: [], head: [], notes: ['no CI variables found'] };
}

function detectGithub(env: EnvVars, payload: unknown): CiDetection {
  const eventName = value(env, 'GITHUB_EVENT_NAME') ?? 'unknown';
  const notes = [`GITHUB_EVENT_NAME=${eventName}`];
  const base: RefCandidate[] = [];
  const head: RefCandidate[] = [];
  const githubSha = sha(value(env, 'GITHUB_SHA'));
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const baseSha = sha(stringAt(payload, 'pull_request', 'base', 'sha'));
    const headSha = sha(stringAt(payload, 'pull_request', 'head', 'sha'));
    const number = stringAt(payload, 'pull_request', 'number') ?? stringAt(payload, 'number');
    if (baseSha !== undefined) base.push({ ref: baseSha, source: 'GITHUB_EVENT_PATH pull_request.base.sha', mergeBase: true });
    const baseRef = value(env, 'GITHUB_BASE_REF');
    if (baseRef !== undefined) base.push(...branchCandidates(baseRef, 'GITHUB_BASE_REF'));
    // pull_request checks out the test merge commit (GITHUB_SHA); its diff with the base is the pull request as it would
    // merge. pull_request_target runs on the base branch, where GITHUB_SHA is the base tip: the head sha comes first there.
    const fromSha = githubSha === undefined ? [] : [{ ref: githubSha, source: 'GITHUB_SHA' }];
    const fromPayload = headSha === undefined ? [] : [{ ref: headSha, source: 'GITHUB_EVENT_PATH pull_request.head.sha' }];
    head.push(...(eventName === 'pull_request_target' ? [...fromPayload, ...fromSha] : [...fromSha, ...fromPayload]));
    if (payload === undefined) notes.push('no event payload (GITHUB_EVENT_PATH unset or unreadable)');
    return {
      provider: 'github-actions',
      name: NAMES['github-actions'],
      event: 'pull-request',
      ...(number === undefined || !/^\d{1,10}$/.test(number) ? {} : { pullRequest: number }),
      base,
      head,
      notes,
    };
  }
  if (eventName === 'push') {
    const before = stringAt(payload, 'before');
    if (before !== undefined && ZERO_SHA.test(before)) notes.push('the push created the branch (before is all zeros)');
    const beforeSha = sha(before);
    if (beforeSha !== undefined) base.push({ ref: beforeSha, source: 'GITHUB_EVENT_PATH before' });
    const after = sha(stringAt(payload, 'after'));
    if (githubSha !== undefined) head.push({ ref: githubSha, source: 'GITHUB_SHA' });
    if (after !== undefined) head.push({ ref: after, source: 'GITHUB_EVENT_PATH after' });
    return { provider: 'github-actions', name: NAMES['github-actions'], event: 'push', base, head, notes };
  }
  if (githubSha !== undefined) head.push({ ref: githubSha, source: 'GITHUB_SHA' });
  return { provider: 'github-actions', name: NAMES['github-actions'], event: 'manual', base, head, notes };
}

function detectGitlab(env: EnvVars): CiDetection {
  const base: RefCandidate[] = [];
  const head: RefCandidate[] = [];
  const iid = value(env, 'CI_MERGE_REQUEST_IID');
  const commit = sha(value(env, 'CI_COMMIT_SHA'));
  if (commit !== undefined) head.push({ ref: commit, source: 'CI_COMMIT_SHA' });
  if (iid !== undefined) {
    const diffBase = sha(value(env, 'CI_MERGE_REQUEST_DIFF_BASE_SHA'));
    if (diffBase !== undefined) base.push({ ref: diffBase, source: 'CI_MERGE_REQUEST_DIFF_BASE_SHA' });
    const targetSha = sha(value(env, 'CI_MERGE_REQUEST_TARGET_BRANCH_SHA'));
    if (targetSha !== undefined) base.push({ ref: targetSha, source: 'CI_MERGE_REQUEST_TARGET_BRANCH_SHA', mergeBase: true });
    const target = value(env, 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME');
    if (target !== undefined) base.push(...branchCandidates(target, 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME'));
    return {
      provider: 'gitlab-ci',
      name: NAMES['gitlab-ci'],
      event: 'pull-request',
      ...(/^\d{1,10}$/.test(iid) ? { pullRequest: iid } : {}),
      base,
      head,
      notes: [`merge request pipeline (CI_MERGE_REQUEST_IID=${/^\d{1,10}$/.test(iid) ? iid : '?'})`],
    };
  }
  const before = value(env, 'CI_COMMIT_BEFORE_SHA');
  const notes = ['branch pipeline'];
  if (before !== undefined && ZERO_SHA.test(before)) notes.push('CI_COMMIT_BEFORE_SHA is all zeros (new branch or first pipeline)');
  const beforeSha = sha(before);
  if (beforeSha !== undefined) base.push({ ref: beforeSha, source: 'CI_COMMIT_BEFORE_SHA' });
  return { provider: 'gitlab-ci', name: NAMES['gitlab-ci'], event: 'push', base, head, notes };
}

function detectBuildkite(env: EnvVars): CiDetection {
  const head: RefCandidate[] = [];
  const commit = sha(value(env, 'BUILDKITE_COMMIT'));
  if (commit !== undefined) head.push({ ref: commit, source: 'BUILDKITE_COMMIT' });
  const pr = value(env, 'BUILDKITE_PULL_REQUEST');
  const target = value(env, 'BUILDKITE_PULL_REQUEST_BASE_BRANCH');
  if (pr !== undefined && pr !== 'false' && target !== undefined) {
    return {
      provider: 'buildkite',
      name: NAMES.buildkite,
      event: 'pull-request',
      ...(/^\d{1,10}$/.test(pr) ? { pullRequest: pr } : {}),
      base: branchCandidates(target, 'BUILDKITE_PULL_REQUEST_BASE_BRANCH'),
      head,
      notes: ['pull request build'],
    };
  }
  return { provider: 'buildkite', name: NAMES.buildkite, event: 'push', base: [], head, notes: ['branch build'] };
}

function detectCircle(env: EnvVars): CiDetection {
  const head: RefCandidate[] = [];
  const commit = sha(value(env, 'CIRCLE_SHA1'));
  if (commit !== undefined) head.push({ ref: commit, source: 'CIRCLE_SHA1' });
  const prUrl = value(env, 'CIRCLE_PULL_REQUEST');
  const number = prUrl === undefined ? undefined : /\/pull\/(\d{1,10})$/.exec(prUrl)?.[1];
  // CircleCI names no target branch; the default-branch merge-base (checker's own default) is the base.
  return {
    provider: 'circleci',
    name: NAMES.circleci,
    event: prUrl === undefined ? 'push' : 'pull-request',
    ...(number === undefined ? {} : { pullRequest: number }),
    base: [],
    head,
    notes: ['CircleCI names no target branch: the base is the merge-base with the default branch'],
  };
}

function detectAzure(env: EnvVars): CiDetection {
  const head: RefCandidate[] = [];
  const commit = sha(value(env, 'BUILD_SOURCEVERSION'));
  const target = value(env, 'SYSTEM_PULLREQUEST_TARGETBRANCH');
  const id = value(env, 'SYSTEM_PULLREQUEST_PULLREQUESTID') ?? value(env, 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER');
  if (commit !== undefined) head.push({ ref: commit, source: 'BUILD_SOURCEVERSION' });
  if (target !== undefined) {
    return {
      provider: 'azure-pipelines',
      name: NAMES['azure-pipelines'],
      event: 'pull-request',
      ...(id !== undefined && /^\d{1,10}$/.test(id) ? { pullRequest: id } : {}),
      base: branchCandidates(target, 'SYSTEM_PULLREQUEST_TARGETBRANCH'),
      head,
      notes: ['pull request validation build'],
    };
  }
  return { provider: 'azure-pipelines', name: NAMES['azure-pipelines'], event: 'push', base: [], head, notes: ['branch build'] };
}

function detectJenkins(env: EnvVars): CiDetection {
  const head: RefCandidate[] = [];
  const commit = sha(value(env, 'GIT_COMMIT'));
  if (commit !== undefined) head.push({ ref: commit, source: 'GIT_COMMIT' });
  const changeId = value(env, 'CHANGE_ID');
  const target = value(env, 'CHANGE_TARGET');
  if (changeId !== undefined && target !== undefined) {
    return {
      provider: 'jenkins',
      name: NAMES.jenkins,
      event: 'pull-request',
      ...(/^\d{1,10}$/.test(changeId) ? { pullRequest: changeId } : {}),
      base: branchCandidates(target, 'CHANGE_TARGET'),
      head,
      notes: ['change request build (CHANGE_ID)'],
    };
  }
  const previous = sha(value(env, 'GIT_PREVIOUS_SUCCESSFUL_COMMIT')) ?? sha(value(env, 'GIT_PREVIOUS_COMMIT'));
  const base: RefCandidate[] =
    previous === undefined
      ? []
      : [
          {
            ref: previous,
            source: value(env, 'GIT_PREVIOUS_SUCCESSFUL_COMMIT') !== undefined ? 'GIT_PREVIOUS_SUCCESSFUL_COMMIT' : 'GIT_PREVIOUS_COMMIT',
          },
        ];
  return { provider: 'jenkins', name: NAMES.jenkins, event: 'push', base, head, notes: ['branch build'] };
}

/** The fetch-depth advice for a shallow clone, in the words of the CI that made it. */
export function shallowHint(provider: CiProvider): string {
  switch (provider) {
    case 'github-actions':
      return 'Give actions/checkout the history: `with: { fetch-depth: 0 }` (or fetch the base: `git fetch --no-tags --depth=<n> origin <base>`).';
    case 'gitlab-ci':
      return 'Set `GIT_DEPTH: 0` (or a depth that reaches the target branch) in the job variables.';
    case 'buildkite':
      return 'Drop `--depth` from BUILDKITE_GIT_CLONE_FLAGS / BUILDKITE_GIT_FETCH_FLAGS, or run `git fetch --unshallow` before checker.';
    case 'azure-pipelines':
      return 'Set `fetchDepth: 0` on the checkout step (shallow fetch is the default for new pipelines).';
    case 'circleci':
    case 'jenkins':
      return 'Clone with full history (no shallow clone / depth option), or run `git fetch --unshallow` before checker.';
    default:
      return 'Run `git fetch --unshallow` (or clone without --depth) so the base revision is present.';
  }
}

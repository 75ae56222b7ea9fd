import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectCi, shallowHint } from '../../src/app/ci/detect-ci.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

describe('detectCi: candidates from CI variables, nothing taken on trust', () => {
  it('a push that created the branch (before all zeros) has no base candidate and says why', () => {
    const detection = detectCi({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push', GITHUB_SHA: SHA_B }, { before: ZERO, after: SHA_B });
    assert.deepEqual(detection.base, []);
    assert.deepEqual(detection.head, [
      { ref: SHA_B, source: 'GITHUB_SHA' },
      { ref: SHA_B, source: 'GITHUB_EVENT_PATH after' },
    ]);
    assert.ok(detection.notes.includes('the push created the branch (before is all zeros)'));
    const gitlab = detectCi({ GITLAB_CI: 'true', CI_COMMIT_BEFORE_SHA: ZERO, CI_COMMIT_SHA: SHA_B });
    assert.deepEqual(gitlab.base, []);
  });

  it('ignores values that are not commit ids or request numbers', () => {
    const detection = detectCi(
      { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: '$(touch /tmp/pwned)' },
      { pull_request: { number: '7; rm -rf /', base: { sha: 'HEAD~1' }, head: { sha: SHA_A.toUpperCase() } } },
    );
    assert.deepEqual(detection.head, [{ ref: SHA_A, source: 'GITHUB_EVENT_PATH pull_request.head.sha' }]);
    assert.deepEqual(detection.base, []);
    assert.equal(detection.pullRequest, undefined);
    assert.equal(detectCi({ JENKINS_URL: 'x', CHANGE_ID: 'PR-1', CHANGE_TARGET: 'main' }).pullRequest, undefined);
  });

  it('pull_request_target (run on the base branch) takes the payload head first, pull_request the merge commit', () => {
    const payload = { pull_request: { number: 3, base: { sha: SHA_A }, head: { sha: SHA_B } } };
    const env = { GITHUB_ACTIONS: 'true', GITHUB_SHA: SHA_A };
    assert.deepEqual(
      detectCi({ ...env, GITHUB_EVENT_NAME: 'pull_request_target' }, payload).head.map((candidate) => candidate.source),
      ['GITHUB_EVENT_PATH pull_request.head.sha', 'GITHUB_SHA'],
    );
    assert.deepEqual(
      detectCi({ ...env, GITHUB_EVENT_NAME: 'pull_request' }, payload).head.map((candidate) => candidate.source),
      ['GITHUB_SHA', 'GITHUB_EVENT_PATH pull_request.head.sha'],
    );
  });

  it('a target branch is tried as origin/<branch> then <branch>, to its merge-base; refs/heads/ is removed', () => {
    const detection = detectCi({ TF_BUILD: 'True', SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/release/2.x', BUILD_SOURCEVERSION: SHA_A });
    assert.deepEqual(detection.base, [
      { ref: 'origin/release/2.x', source: 'SYSTEM_PULLREQUEST_TARGETBRANCH', mergeBase: true },
      { ref: 'release/2.x', source: 'SYSTEM_PULLREQUEST_TARGETBRANCH', mergeBase: true },
    ]);
  });

  it('the first CI marker wins, an unknown GitHub event is manual, and no marker is no CI', () => {
    assert.equal(detectCi({ GITHUB_ACTIONS: 'true', GITLAB_CI: 'true' }).provider, 'github-actions');
    assert.equal(detectCi({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'workflow_dispatch' }).event, 'manual');
    assert.equal(detectCi({ GITHUB_ACTIONS: 'false', BUILDKITE: 'true', BUILDKITE_PULL_REQUEST: 'false' }).event, 'push');
    assert.deepEqual(detectCi({ CI: 'true' }), {
      provider: 'none',
      name: 'no CI',
      event: 'unknown',
      base: [],
      head: [],
      notes: ['no CI variables found'],
    });
  });

  it('the shallow-clone hint names the CI setting that fixes it', () => {
    assert.match(shallowHint('github-actions'), /fetch-depth: 0/);
    assert.match(shallowHint('gitlab-ci'), /GIT_DEPTH: 0/);
    assert.match(shallowHint('azure-pipelines'), /fetchDepth: 0/);
    assert.match(shallowHint('buildkite'), /BUILDKITE_GIT_CLONE_FLAGS/);
    assert.match(shallowHint('none'), /git fetch --unshallow/);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCodeowners, getOwnerType } from '../../src/graph/codeowners.js';

/** The example CODEOWNERS file from GitHub's documentation ("About code owners"), verbatim in substance. */
const GITHUB_EXAMPLE = `# This is a comment.
# Each line is a file pattern followed by one or more owners.

# These owners will be the default owners for everything in
# the repo. Unless a later match takes precedence,
# @global-owner1 and @global-owner2 will be requested for
# review when someone opens a pull request.
*       @global-owner1 @global-owner2

# Order is important; the last matching pattern takes the most
# precedence. When someone opens a pull request that only
# modifies JS files, only @js-owner and not the global
# owner(s) will be requested for a review.
*.js    @js-owner #This is an inline comment.

# You can also use email addresses if you prefer. They'll be
# used to look up users just like we do for commit author
# emails.
*.go docs@example.com

# Teams can be specified as code owners as well. Teams should
# be identified in the format @org/team-name. Teams must have
# explicit write access to the repository. In this example,
# the octocats team in the octo-org organization owns all .txt files.
*.txt @octo-org/octocats

# In this example, @doctocat owns any files in the build/logs
# directory at the root of the repository and any of its
# subdirectories.
/build/logs/ @doctocat

# The \`docs/*\` pattern will match files like
# \`docs/getting-started.md\` but not further nested files like
# \`docs/build-app/troubleshooting.md\`.
docs/*  docs@example.com

# In this example, @octocat owns any file in an apps directory
# anywhere in your repository.
apps/ @octocat

# In this example, @doctocat owns any file in the \`/docs\`
# directory in the root of your repository and any of its
# subdirectories.
/docs/ @doctocat

# In this example, any change inside the \`/scripts\` directory
# will require approval from @doctocat or @octocat.
/scripts/ @doctocat @octocat

# In this example, @octocat owns any file in a \`/logs\` directory such as
# \`/build/logs\`, \`/scripts/logs\`, and \`/deeply/nested/logs\`. Any changes
# in a \`/logs\` directory will require approval from @octocat.
**/logs @octocat

# In this example, @octocat owns any file in the \`/apps\`
# directory in the root of your repository except for the \`/apps/github\`
# subdirectory, as its owners are left empty. Without an owner, changes
# to \`apps/github\` can be made with the approval of any user who has
# write access to the repository.
/apps/ @octocat
/apps/github

# In this example, @octocat owns any file in the \`/apps\`
# directory in the root of your repository except for the \`/apps/github\`
# subdirectory, as this subdirectory has its own owner @doctocat
/apps/ @octocat
/apps/github @doctocat
`;

test("parses every rule of GitHub's example file, stripping comments", () => {
  const codeowners = parseCodeowners('.github/CODEOWNERS', GITHUB_EXAMPLE);
  assert.deepEqual(
    codeowners.rules.map((rule) => [rule.line, rule.pattern, rule.owners.join(' ')]),
    [
      [8, '*', '@global-owner1 @global-owner2'],
      [14, '*.js', '@js-owner'],
      [19, '*.go', 'docs@example.com'],
      [25, '*.txt', '@octo-org/octocats'],
      [30, '/build/logs/', '@doctocat'],
      [35, 'docs/*', 'docs@example.com'],
      [39, 'apps/', '@octocat'],
      [44, '/docs/', '@doctocat'],
      [48, '/scripts/', '@doctocat @octocat'],
      [53, '**/logs', '@octocat'],
      [60, '/apps/', '@octocat'],
      [61, '/apps/github', ''],
      [66, '/apps/', '@octocat'],
      [67, '/apps/github', '@doctocat'],
    ],
  );
  assert.deepEqual(codeowners.diagnostics, []);
});

test('resolves owners of the example file with last-match-wins', () => {
  const codeowners = parseCodeowners('.github/CODEOWNERS', GITHUB_EXAMPLE);
  const cases: [string, string[]][] = [
    ['README.md', ['@global-owner1', '@global-owner2']],
    ['.github/workflows/ci.yml', ['@global-owner1', '@global-owner2']],
    ['src/index.js', ['@js-owner']],
    ['src/deep/nested/util.js', ['@js-owner']],
    ['cmd/main.go', ['docs@example.com']],
    ['notes/todo.txt', ['@octo-org/octocats']],
    ['build/logs/app.log', ['@octocat']],
    ['build/other/app.log', ['@global-owner1', '@global-owner2']],
    ['docs/getting-started.md', ['@doctocat']],
    ['docs/build-app/troubleshooting.md', ['@doctocat']],
    ['lib/apps/view.ts', ['@octocat']],
    ['apps/web/index.html', ['@octocat']],
    ['apps/github/readme.md', ['@doctocat']],
    ['apps/githubber/readme.md', ['@octocat']],
    ['scripts/deploy.sh', ['@doctocat', '@octocat']],
    ['scripts/logs/run.log', ['@octocat']],
    ['deeply/nested/logs/trace.txt', ['@octocat']],
  ];
  for (const [path, owners] of cases) assert.deepEqual(codeowners.ownersOf(path), owners, path);
  assert.equal(codeowners.matchPath('apps/github/readme.md')?.rule.line, 67);
});

test('docs/* matches direct children only, unlike .gitignore', () => {
  const codeowners = parseCodeowners('CODEOWNERS', 'docs/*  docs@example.com\n');
  assert.deepEqual(codeowners.ownersOf('docs/getting-started.md'), ['docs@example.com']);
  assert.deepEqual(codeowners.ownersOf('docs/build-app/troubleshooting.md'), []);
  assert.equal(codeowners.matchPath('docs/build-app/troubleshooting.md'), undefined);
  assert.equal(codeowners.matchPath('src/docs/a.md'), undefined);
});

test('a line with no owners unsets ownership for what it matches', () => {
  const codeowners = parseCodeowners('CODEOWNERS', '/apps/ @octocat\n/apps/github\n');
  assert.deepEqual(codeowners.ownersOf('apps/web/page.tsx'), ['@octocat']);
  assert.deepEqual(codeowners.ownersOf('apps/github/page.tsx'), []);
  assert.equal(codeowners.matchPath('apps/github/page.tsx')?.rule.line, 2);
});

test("anchoring, trailing slashes, ** and ? follow GitHub's semantics", () => {
  const codeowners = parseCodeowners(
    'CODEOWNERS',
    ['/build/logs/ @anchored', 'apps/ @anywhere', 'src/**/fixture.js @double', 'file?.md @single', '\\#notes.md @hash', '*.JS @upper'].join(
      '\n',
    ),
  );
  assert.deepEqual(codeowners.ownersOf('build/logs/x.log'), ['@anchored']);
  assert.deepEqual(codeowners.ownersOf('pkg/build/logs/x.log'), []);
  assert.deepEqual(codeowners.ownersOf('x/y/apps/z.ts'), ['@anywhere']);
  assert.deepEqual(codeowners.ownersOf('apps'), []);
  assert.deepEqual(codeowners.ownersOf('src/fixture.js'), ['@double']);
  assert.deepEqual(codeowners.ownersOf('src/a/b/fixture.js'), ['@double']);
  assert.deepEqual(codeowners.ownersOf('lib/src/fixture.js'), []);
  assert.deepEqual(codeowners.ownersOf('file1.md'), ['@single']);
  assert.deepEqual(codeowners.ownersOf('file10.md'), []);
  assert.deepEqual(codeowners.ownersOf('#notes.md'), ['@hash']);
  assert.deepEqual(codeowners.ownersOf('a.js'), []);
  assert.deepEqual(codeowners.ownersOf('A.JS'), ['@upper']);
});

test('skips lines with invalid owners or patterns and reports them', () => {
  const codeowners = parseCodeowners('.github/CODEOWNERS', '*.ts @ok not-an-owner\nsrc/*** @team\n*.md @org/docs-team\n');
  assert.deepEqual(
    codeowners.rules.map((rule) => rule.pattern),
    ['*.md'],
  );
  assert.deepEqual(
    codeowners.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.location?.line]),
    [
      ['codeowners/invalid-owner', 1],
      ['codeowners/invalid-pattern', 2],
    ],
  );
  assert.equal(
    codeowners.diagnostics[0]?.message,
    'CODEOWNERS line 1: "not-an-owner" is not an @user, @org/team or email; the line is skipped.',
  );
});

test('classifies owner handles', () => {
  assert.equal(getOwnerType('@octocat'), 'user');
  assert.equal(getOwnerType('@octo-org/octocats'), 'team');
  assert.equal(getOwnerType('docs@example.com'), 'email');
  assert.equal(getOwnerType('octocat'), undefined);
  assert.equal(getOwnerType('@'), undefined);
});

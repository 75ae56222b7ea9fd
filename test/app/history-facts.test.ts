import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { getPreflightReport } from '../../src/app/preflight.js';
import { runAgentBundle } from '../../src/app/run-agent-bundle.js';
import { getTaskContext } from '../../src/app/task-context.js';
import type { Env } from '../../src/model/env.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import { analyzeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCliAsync } from '../helpers/cli.js';
import { createTestEnv } from '../helpers/test-env.js';
import { commitAt } from '../helpers/dated-git.js';
import { createRepo } from '../helpers/git-repo.js';

const cart = (variant: number): string => `export function total(items: number[], coupon?: string): number {
  let sum = 0;
  for (const item of items) {
    if (item < 0) throw new Error('negative');
    if (item > 1000) sum += item * 0.9;
    else sum += item;
  }
  if (coupon === 'HALF') return sum / 2;
  if (coupon === 'TENOFF' && sum > 10) return sum - 10;
  return sum + ${variant};
}
`;

const PICK = (value: number): string => `export function pick(x: number): number {\n  return x > ${value} ? x : ${value};\n}\n`;
const FILLERS = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts'];

/**
 * A scripted history: an initial import and a formatting commit that both change more files than
 * `history.massChangeFiles` (6) and must be ignored; four commits changing the migration and the schema together; fix,
 * feature, revert of that feature and an issue-closing commit on the cart. The change then edits the migration (not
 * the schema) and the cart.
 */
function buildHistory(): { fixture: ChangeFixture; oids: Record<string, string> } {
  const repo = createRepo();
  const oids: Record<string, string> = {};
  const files: Record<string, string> = {
    '.checker/config.yml': 'history:\n  massChangeFiles: 6\n',
    'package.json': JSON.stringify({ name: 'shop', type: 'module' }),
    'src/db/migrate.ts': 'export const steps = [];\n',
    'src/db/schema.ts': 'export const columns = [];\n',
    'src/cart.ts': cart(0),
    'test/cart.test.ts': "import { total } from '../src/cart.js';\ntotal([]);\n",
  };
  for (const filler of FILLERS) files[filler] = 'export const value = 0;\n';
  files['src/a.ts'] = PICK(0);
  repo.write(files);
  oids.initial = commitAt(repo, 'initial import', '2025-01-01T00:00:00Z');
  for (let step = 1; step <= 4; step += 1) {
    repo.write({
      'src/db/migrate.ts': `export const steps = [${Array.from({ length: step }, (_, index) => index).join(', ')}];\n`,
      'src/db/schema.ts': `export const columns = [${Array.from({ length: step }, (_, index) => `'c${index}'`).join(', ')}];\n`,
    });
    oids[`column${step}`] = commitAt(repo, `feat: add column ${step}`, `2025-02-0${step}T00:00:00Z`);
  }
  repo.write({ 'src/cart.ts': cart(1) });
  oids.fix = commitAt(repo, 'fix: round the cart total', '2025-03-01T00:00:00Z');
  repo.write({ 'src/cart.ts': cart(2), 'src/a.ts': PICK(1) });
  oids.feature = commitAt(repo, 'feat: discount', '2025-03-02T00:00:00Z');
  repo.write({ 'src/cart.ts': cart(1), 'src/a.ts': PICK(0) });
  oids.revert = commitAt(repo, `Revert "feat: discount"\n\nThis reverts commit ${oids.feature}.`, '2025-03-03T00:00:00Z');
  repo.write({ 'src/cart.ts': cart(3), 'test/cart.test.ts': "import { total } from '../src/cart.js';\ntotal([1]);\n" });
  oids.closes = commitAt(repo, 'cart: handle an empty cart\n\nCloses #12', '2025-03-04T00:00:00Z');
  const formatted: Record<string, string> = {};
  for (const path of [...FILLERS, 'src/db/migrate.ts', 'src/db/schema.ts', 'test/cart.test.ts']) formatted[path] = `// formatted\n${path}`;
  repo.write({
    ...formatted,
    'src/db/migrate.ts': 'export const steps = [0, 1, 2, 3]; // formatted\n',
    'src/db/schema.ts': "export const columns = ['c0', 'c1', 'c2', 'c3']; // formatted\n",
    'test/cart.test.ts': "import { total } from '../src/cart.js';\ntotal([1]); // formatted\n",
  });
  for (const filler of FILLERS) repo.write({ [filler]: 'export const value = 0; // formatted\n' });
  repo.write({ 'src/a.ts': `// formatted\n${PICK(0)}` });
  oids.format = commitAt(repo, 'style: format everything', '2025-03-05T00:00:00Z');
  repo.write({ 'README.md': '# shop\n' });
  oids.base = commitAt(repo, 'docs: readme', '2025-03-06T00:00:00Z');
  repo.write({ 'src/db/migrate.ts': 'export const steps = [0, 1, 2, 3, 4]; // formatted\n', 'src/cart.ts': cart(4) });
  oids.head = commitAt(repo, 'feat: column 5 and a cart tweak', '2025-03-07T00:00:00Z');
  return { fixture: { repo, base: oids.base, head: oids.head }, oids };
}

const short = (oid: string | undefined): string => (oid ?? '').slice(0, 10);

describe('history facts on a scripted history', () => {
  let fixture: ChangeFixture;
  let oids: Record<string, string>;
  let analysis: ChangeAnalysis;
  before(async () => {
    ({ fixture, oids } = buildHistory());
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('the window is mined from the base: the import and the format commit are mass changes and left out', () => {
    assert.deepEqual(analysis.context.history?.window, {
      fromOid: oids.base,
      commits: 9,
      walked: 11,
      excluded: { merges: 0, massChanges: 2 },
      stoppedBy: '',
      settings: { maxCommits: 2000, maxAgeDays: 730, massChangeFiles: 6 },
    });
  });

  test('the schema, changed in all four commits that changed the migration, is a missed partner with its commits', () => {
    assert.deepEqual(analysis.context.history?.missedPartners, [
      {
        path: 'src/db/migrate.ts',
        partner: 'src/db/schema.ts',
        support: 4,
        pathCommits: 4,
        confidence: 1,
        lift: 2.25,
        commits: [4, 3, 2, 1].map((step) => ({ oid: short(oids[`column${step}`]), subject: `feat: add column ${step}` })),
      },
    ]);
    const finding = analysis.findings.find((entry) => entry.ruleId === 'risk/missed-co-change');
    assert.equal(finding?.subjectId, 'file:src/db/migrate.ts');
    assert.equal(finding?.packId, 'history');
    assert.equal(
      finding?.message,
      `src/db/schema.ts changed in 4 of the 4 commits that changed src/db/migrate.ts (${[4, 3, 2, 1].map((step) => oids[`column${step}`]?.slice(0, 7)).join(', ')}); this change does not touch it`,
    );
    assert.ok(analysis.summary.mergeRiskBreakdown.some((entry) => entry.contributor === 'risk/missed-co-change' && entry.weight === 4));
  });

  test('the cart is fix-prone: a fix, a revert and an issue-closing commit of its four, weighted by age', () => {
    const ageWeight = (days: number): number => 0.5 ** (days / 180);
    assert.deepEqual(analysis.context.history?.fixProne, [
      {
        path: 'src/cart.ts',
        fixes: 3,
        commits: 4,
        fixScore: Math.round((ageWeight(2) + ageWeight(3) + ageWeight(5)) * 100) / 100,
        fixRatio: 75,
        fixCommits: [
          { oid: short(oids.closes), subject: 'cart: handle an empty cart', kind: 'fix' },
          { oid: short(oids.revert), subject: 'Revert "feat: discount"', kind: 'revert' },
          { oid: short(oids.fix), subject: 'fix: round the cart total', kind: 'fix' },
        ],
      },
    ]);
    const finding = analysis.findings.find((entry) => entry.ruleId === 'risk/fix-prone');
    assert.equal(
      finding?.message,
      `src/cart.ts is fix-prone: 3 of its 4 recent commits were fixes or reverts (${[oids.closes, oids.revert, oids.fix].map((oid) => oid?.slice(0, 7)).join(', ')})`,
    );
  });

  test('the cart is the hotspot: four commits times its complexity ranks first', () => {
    const hotspots = analysis.context.history?.hotspots ?? [];
    assert.deepEqual(
      hotspots.map((entry) => [entry.path, entry.churn, entry.rank]),
      [['src/cart.ts', 4, 1]],
    );
    assert.deepEqual(
      // Ranked among the five code files the window churned: the cart, src/a.ts, the migration, the schema and the test.
      hotspots.map((entry) => [entry.score, entry.rankedFiles]),
      [[28, 5]],
    );
    const finding = analysis.findings.find((entry) => entry.ruleId === 'decay/hotspot');
    assert.equal(finding?.subjectId, 'file:src/cart.ts');
    // 1 + the loop + five decisions (four ifs and an &&) = 7; src/a.ts ranks second (2 commits × 2).
    assert.equal(finding?.message, 'src/cart.ts is a hotspot: churn 4 × complexity 7 = 28, rank 1 of 5 churned code files');
  });
});

test('a cold run of the built CLI reads no churned file in full that could not outrank the cart, and answers as a warm run', async () => {
  const { fixture } = buildHistory();
  const real = createTestEnv(fixture.repo.dir);
  try {
    let parses = 0;
    // A build id: the analysis memo's path, whose cold build is focused on the change and mines the window meanwhile.
    const counting: Env = {
      ...real,
      buildId: 'cold',
      parseSources: (files, options) => {
        parses += 1;
        return real.parseSources(files, options);
      },
    };
    const range = { profile: 'generic' as const, base: fixture.base, head: fixture.head ?? '' };
    const cold = await runAgentBundle(counting, range);
    assert.deepEqual(
      cold.evidence.history?.hotspots.map((entry) => [entry.path, entry.churn, entry.complexity, entry.rankedFiles]),
      [['src/cart.ts', 4, 7, 5]],
    );
    // src/a.ts (2 commits, a few tokens: under the cart's 28 whatever its complexity) stayed read for its links alone:
    // the build's parse is the only one.
    assert.equal(parses, 1);
    // Another build id analyses again, from the facts cache the cold run wrote (every file in full now).
    assert.deepEqual(await runAgentBundle({ ...real, buildId: 'warm' }, range), cold);
  } finally {
    await real.close();
    fixture.repo.cleanup();
  }
});

describe('history in reports, bundles, preflight and context', () => {
  let fixture: ChangeFixture;
  let oids: Record<string, string>;
  before(() => {
    ({ fixture, oids } = buildHistory());
  });
  after(() => fixture.repo.cleanup());

  test('the analyze Markdown has a History section with the window, the missed partner and the fix commits', async () => {
    const result = await runCliAsync(['analyze', '--cwd', fixture.repo.dir, '--base', fixture.base, '--head', fixture.head ?? '']);
    assert.equal(result.code, 0, result.stderr);
    const section = result.stdout.slice(result.stdout.indexOf('## History'), result.stdout.indexOf('## Pattern matches'));
    assert.match(
      section,
      new RegExp(
        `^Mined 9 of 11 commits behind ${oids.base?.slice(0, 10)}; left out 0 merges and 2 commits changing more than 6 files\\.$`,
        'm',
      ),
    );
    assert.match(section, /\| src\/db\/migrate\.ts \| src\/db\/schema\.ts \| 4 of 4 \| 100% \| 2\.25 \|/);
    assert.match(
      section,
      new RegExp(
        `\\| src/cart\\.ts \\| 3 of 4 \\(75%\\) \\| 2\\.96 \\| ${oids.closes?.slice(0, 7)} cart: handle an empty cart; ${oids.revert?.slice(0, 7)} Revert "feat: discount"; `,
      ),
    );
    assert.match(section, /\| src\/cart\.ts \| 4 \| 7 \| 28 \| 1 of 5 \|/);
  });

  test('the agent bundle carries the same history evidence, schema-valid, and renders it', async () => {
    const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      report.evidence.history?.missedPartners.map((partner) => [partner.path, partner.partner, partner.support]),
      [['src/db/migrate.ts', 'src/db/schema.ts', 4]],
    );
    assert.deepEqual(
      report.evidence.history?.fixProne.map((file) => [file.path, file.fixes]),
      [['src/cart.ts', 3]],
    );
    const task = report.tasks.find((entry) => entry.id === 'task:co-change:src/db/migrate.ts|src/db/schema.ts');
    assert.deepEqual(task, {
      id: 'task:co-change:src/db/migrate.ts|src/db/schema.ts',
      kind: 'review',
      title: 'Check whether src/db/schema.ts needs the matching change',
      detail: `src/db/schema.ts changed in 4 of the 4 recent commits that changed src/db/migrate.ts (${[4, 3, 2, 1].map((step) => oids[`column${step}`]?.slice(0, 7)).join(', ')}); this change does not touch it. Update it, or say in the summary why it does not need to change.`,
      evidenceIds: ['file:src/db/migrate.ts'],
    });
    const markdown = await runCliAsync(['ai', '--cwd', fixture.repo.dir, '--base', fixture.base, '--head', fixture.head ?? '']);
    assert.equal(markdown.code, 0, markdown.stderr);
    assert.match(markdown.stdout, /## History\n\nMined 9 of 11 commits/);
  });

  test('preflight and the context packet add the usual partner of a candidate, saying why', async () => {
    const env = createTestEnv(fixture.repo.dir);
    try {
      const report = await getPreflightReport(env, { task: 'Add a step to migrate.ts' });
      const partner = report.repositoryEvidence.candidateFiles.find((candidate) => candidate.path === 'src/db/schema.ts');
      assert.deepEqual(partner?.reasons, [{ term: 'src/db/migrate.ts', matchedOn: 'co-change', evidenceId: 'file:src/db/migrate.ts' }]);
      assert.match(partner?.why ?? '', /^matches usually changes with src\/db\/migrate\.ts in the history \(file:src\/db\/migrate\.ts\)/);
      const source = report.repositoryEvidence.candidateFiles.find((candidate) => candidate.path === 'src/db/migrate.ts');
      // From HEAD the schema changed in 4 of the migration's 5 commits: half the candidate's score times 0.8.
      assert.equal(partner?.score, Math.round((source?.score ?? 0) * 0.8 * 0.5 * 1e6) / 1e6);
      assert.ok(report.candidateFiles.includes('src/db/schema.ts'));
      const packet = await getTaskContext(env, { task: 'Add a step to migrate.ts' });
      assert.ok(packet.nodes.some((node) => node.id === 'file:src/db/schema.ts'));
    } finally {
      await env.close();
    }
  });

  test('history.enabled: false turns every history fact off; a bad bound is a config error naming the field', async () => {
    fixture.repo.write({ '.checker/config.yml': 'history:\n  enabled: false\n' });
    const off = await analyzeFixture(fixture);
    assert.equal(off.context.history, undefined);
    assert.deepEqual(
      off.findings.filter((finding) => ['risk/missed-co-change', 'risk/fix-prone', 'decay/hotspot'].includes(finding.ruleId)),
      [],
    );
    fixture.repo.write({ '.checker/config.yml': 'history:\n  maxCommits: 0\n' });
    const bad = await runCliAsync(['analyze', '--cwd', fixture.repo.dir, '--base', fixture.base, '--head', fixture.head ?? '']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /history\/maxCommits|history\.maxCommits/);
    fixture.repo.write({ '.checker/config.yml': 'history:\n  massChangeFiles: 6\n' });
  });
});

// Check 60 (go-resty/resty): client.go, redirect.go and request.go each changed in the same 5 of 7 commits that changed
// response.go, and the bundle asked three review questions where one says it.
describe('usual partners that changed in the same commits', () => {
  let fixture: ChangeFixture;
  before(() => {
    const repo = createRepo();
    const files: Record<string, string> = {
      '.checker/config.yml': 'history:\n  massChangeFiles: 6\n',
      'package.json': JSON.stringify({ name: 'api', type: 'module' }),
      'src/response.ts': 'export const r = 0;\n',
      'src/client.ts': 'export const c = 0;\n',
      'src/request.ts': 'export const q = 0;\n',
      'src/debug.ts': 'export const d = 0;\n',
    };
    for (const filler of FILLERS) files[filler] = 'export const value = 0;\n';
    repo.write(files);
    commitAt(repo, 'initial import', '2025-01-01T00:00:00Z');
    for (let step = 1; step <= 4; step += 1) {
      const debug: Record<string, string> = step <= 3 ? { 'src/debug.ts': `export const d = ${step};\n` } : {};
      repo.write({
        'src/response.ts': `export const r = ${step};\n`,
        'src/client.ts': `export const c = ${step};\n`,
        'src/request.ts': `export const q = ${step};\n`,
        // Released with each step: the manifest moves with the code, and needs no matching change of its own.
        'package.json': JSON.stringify({ name: 'api', type: 'module', version: `1.${step}.0` }),
        ...debug,
      });
      commitAt(repo, `feat: step ${step}`, `2025-02-0${step}T00:00:00Z`);
    }
    for (const [index, filler] of FILLERS.entries()) {
      repo.write({ [filler]: `export const value = ${index + 1};\n`, 'src/debug.ts': `export const d = ${index + 10};\n` });
      commitAt(repo, `chore: filler ${index}`, `2025-03-0${index + 1}T00:00:00Z`);
    }
    const base = commitAt(repo, 'docs: none', '2025-03-09T00:00:00Z');
    repo.write({ 'src/response.ts': 'export const r = 5;\n' });
    const head = commitAt(repo, 'feat: step 5', '2025-03-10T00:00:00Z');
    fixture = { repo, base, head };
  });
  after(() => fixture.repo.cleanup());

  test('are one review task naming each of them; a manifest among them is evidence, not a task', async () => {
    const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(report.evidence.history?.missedPartners.map((partner) => partner.partner).sort(), [
      'package.json',
      'src/client.ts',
      'src/request.ts',
    ]);
    const reviews = report.tasks.filter((task) => task.id.startsWith('task:co-change:'));
    assert.deepEqual(
      reviews.map((task) => [task.id, task.title]),
      [
        [
          'task:co-change:src/response.ts|src/client.ts+src/request.ts',
          'Check whether src/client.ts and src/request.ts need the matching change',
        ],
      ],
    );
    assert.match(
      reviews[0]?.detail ?? '',
      /^src\/client\.ts and src\/request\.ts changed in each of 4 of the 4 recent commits that changed src\/response\.ts \(/,
    );
  });
});

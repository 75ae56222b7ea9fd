import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildAgentBundle, type AgentBundleInput } from '../../src/app/agent-bundle.js';
import { PROFILES } from '../../src/app/profiles.js';
import { runAgentBundle } from '../../src/app/run-agent-bundle.js';
import { createTestEnv } from '../helpers/test-env.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { AgentProfile } from '../../src/model/config.js';
import { getValidator } from '../../src/io/schema.js';
import { renderBundleMarkdown } from '../../src/report/bundle-markdown.js';
import { renderJson } from '../../src/report/json.js';
import { createMoneyAnalysis, createShopRepo } from '../helpers/bundle-analysis.js';
import type { TestRepo } from '../helpers/git-repo.js';
import { projectRoot } from '../helpers/cli.js';

const goldenDir = join(projectRoot, 'test/report/golden');
const update = process.env.UPDATE_GOLDEN === '1';
const validate = getValidator<AgentBundle>('agent-bundle');

/** Every section of the bundle has something to show: requirements, a product failure, a skill, a check, an unresolved import. */
function createInput(profile: AgentProfile): AgentBundleInput {
  return {
    profile,
    task: 'Round order totals to whole cents',
    requirements: {
      path: 'docs/requirements/rounding.yml',
      hash: '9f2c4b7d1e0a5c3b8d6f4e2a0c9b7d5f3e1a8c6b4d2f0e9a7c5b3d1f8e6a4c2b',
      data: {
        title: 'Whole-cent totals',
        acceptanceCriteria: [
          {
            id: 'AC-1',
            text: 'Order totals are rounded half away from zero',
            requiredProof: ['unit test of toCents', 'API test of GET /api/orders/:id'],
          },
        ],
        affectedFlows: [{ name: 'Order lookup', kind: 'api', route: 'GET /api/orders/:id' }],
        nonGoals: ['Changing the currency model'],
        invariants: 'Amounts are integer cents',
      },
    },
    productRun: {
      report: {
        schemaVersion: 1,
        target: 'shop-api',
        generatedAt: '2026-01-01T00:30:00.000Z',
        checks: [
          {
            id: 'api-orders-total',
            kind: 'api',
            status: 'failed',
            title: 'GET /api/orders/1 total',
            expected: '{"total": 1999}',
            actual: '{"total": 1998}',
            impactedFiles: ['src/orders.ts'],
            artifacts: [{ kind: 'test-source', path: '.checker/local/product-tests/api-orders-total.test.ts' }],
          },
          { id: 'api-health', kind: 'api', status: 'passed', title: 'GET /health' },
        ],
      },
    },
    skills: [{ name: 'release', description: 'How we cut a release: bump, tag, publish.', path: '.agents/skills/release/SKILL.md' }],
    checks: [{ name: 'unit', command: 'npx vitest run', source: '.checker/config.yml' }],
    adapters: [{ kind: 'coverage', command: 'npx vitest run --coverage', enabled: true }],
    unresolvedImports: [{ from: 'src/orders.ts', specifier: './legacy/totals.js', line: 4, reason: 'no file matches ./legacy/totals.js' }],
  };
}

function compareGolden(name: string, actual: string): void {
  const path = join(goldenDir, name);
  if (update || !existsSync(path)) {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(path, actual);
    if (!update) assert.fail(`golden ${name} was missing and has been written; review it and run again`);
    return;
  }
  assert.equal(actual, readFileSync(path, 'utf8'), `${name} differs from its golden (UPDATE_GOLDEN=1 rewrites it)`);
}

describe('agent bundle goldens on a real repository, through runAgentBundle', () => {
  let repo: TestRepo;
  before(() => {
    repo = createShopRepo();
  });
  after(() => repo.cleanup());

  for (const profile of PROFILES) {
    it(`renders the ${profile} bundle of the shop repository as JSON (schema-valid) and Markdown`, async () => {
      const env = createTestEnv(repo.dir, { useCache: false, now: () => new Date('2026-01-02T00:00:00Z') });
      try {
        const bundle = await runAgentBundle(env, {
          profile,
          base: 'HEAD~1',
          head: 'HEAD',
          task: 'Round order totals half away from zero',
          requirementsPath: 'docs/requirements/rounding.yml',
        });
        assert.equal(validate(bundle), true, JSON.stringify(validate.errors?.slice(0, 3)));
        compareGolden(`bundle-${profile}.json`, renderJson(bundle));
        compareGolden(`bundle-${profile}.md`, renderBundleMarkdown(bundle));
      } finally {
        await env.close();
      }
    });
  }

  it('docs/agent-bundle.md shows the codex bundle exactly as the tool renders it', () => {
    const docs = readFileSync(join(projectRoot, 'docs/agent-bundle.md'), 'utf8');
    const golden = readFileSync(join(goldenDir, 'bundle-codex.md'), 'utf8');
    assert.ok(
      docs.includes(`\`\`\`\`\`markdown\n${golden}\`\`\`\`\`\n`),
      'regenerate the example in docs/agent-bundle.md from test/report/golden/bundle-codex.md',
    );
  });
});

describe('agent bundle golden with every section filled (frozen analysis)', () => {
  it('renders product failures, requirements, skills, checks, a stale assertion and an unresolved import', () => {
    const analysis = createMoneyAnalysis();
    analysis.staleAssertions = [
      {
        id: 'stale-assertion:src/orders.test.ts:14',
        path: 'src/lib/money.ts',
        line: 2,
        literalKind: 'message',
        name: '',
        before: 'amount must be a finite number',
        after: 'amount is not a number: ${amount}',
        testFile: 'src/orders.test.ts',
        testLine: 14,
        excerpt: "expect(() => toCents(Number.NaN)).toThrow('amount must be a finite number');",
        reachesChange: true,
        message:
          'src/orders.test.ts line 14 asserts the old message "amount must be a finite number" that src/lib/money.ts:2 replaces with "amount is not a number: ${amount}"',
        repairTask:
          'update the assertion at src/orders.test.ts line 14 to the new message, or confirm the old text "amount must be a finite number" is no longer promised',
        findingIds: ['finding:5a1e0b5e7a3c9d21'],
      },
    ];
    const bundle = buildAgentBundle(analysis, createInput('generic'));
    assert.equal(validate(bundle), true, JSON.stringify(validate.errors?.slice(0, 3)));
    compareGolden('bundle-frozen-all-sections.json', renderJson(bundle));
    compareGolden('bundle-frozen-all-sections.md', renderBundleMarkdown(bundle));
  });
});

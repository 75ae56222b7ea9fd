import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAgentBundle } from '../../src/app/run-agent-bundle.js';
import type { Env } from '../../src/model/env.js';
import { renderBundleMarkdown } from '../../src/report/bundle-markdown.js';
import { toLcov } from '../helpers/analysis-fixtures.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

const MONEY = 'export function toCents(amount: number): number {\n  const cents = amount * 100;\n  return Math.round(cents);\n}\n';
const TEST =
  "import { it, expect } from 'vitest';\nimport { toCents } from '../src/money';\nit('rounds', () => {\n  expect(toCents(1.005)).toBe(101);\n});\n";
const MEMO = '.checker/local/cache/analysis-v1.json';

/** The real-disk Env of a built CLI (it has a build id), counting the graph builds (each parses the sources once). */
function createCountingEnv(dir: string, buildId: string): { env: Env; builds: () => number } {
  const real = createTestEnv(dir);
  let builds = 0;
  const env: Env = {
    ...real,
    buildId,
    parseSources: (files, options) => {
      builds += 1;
      return real.parseSources(files, options);
    },
  };
  return { env, builds: () => builds };
}

async function bundleOf(env: Env): Promise<string> {
  const bundle = await runAgentBundle(env, { profile: 'generic', base: 'HEAD' });
  return `${JSON.stringify(bundle)}\n${renderBundleMarkdown(bundle)}`;
}

describe('the analysis kept across runs (analysis-memo)', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({ '.gitignore': 'coverage/\n', 'src/money.ts': MONEY, 'test/money.test.ts': TEST });
    repo.write({ 'src/money.ts': MONEY.replace('amount * 100', 'amount * 100 + 0') });
  });
  after(() => repo.cleanup());

  it('a rerun on the same tree, build and range loads the analysis and gives the same bundle, byte for byte', async () => {
    const { env, builds } = createCountingEnv(repo.dir, 'build-1');
    const fresh = await bundleOf(env);
    assert.equal(builds(), 1);
    assert.ok(existsSync(join(repo.dir, MEMO)));
    assert.equal(await bundleOf(env), fresh);
    assert.equal(builds(), 1);
    // Another build of checker is other code: it analyses again.
    const other = createCountingEnv(repo.dir, 'build-2');
    assert.equal(await bundleOf(other.env), fresh);
    assert.equal(other.builds(), 1);
    // Each analysis is in a slot file of its own, written once; the index the next run rewrites holds none of them.
    const index = JSON.parse(readFileSync(join(repo.dir, MEMO), 'utf8'));
    assert.equal(index.entries.length, 2);
    const slots = index.entries.map((entry: { analysis?: unknown; slot?: number }) => {
      assert.equal(entry.analysis, undefined, 'no analysis inline');
      return entry.slot;
    });
    assert.equal(new Set(slots).size, 2);
    for (const slot of slots) assert.ok(existsSync(join(repo.dir, `.checker/local/cache/analysis-slot-${slot}.json`)));
  });

  it('analyses again after an edit, a coverage report, a commit, or without a build id', async () => {
    const { env, builds } = createCountingEnv(repo.dir, 'build-3');
    const before = await bundleOf(env);
    assert.equal(await bundleOf(env), before);
    assert.equal(builds(), 1);

    repo.write({ 'src/money.ts': MONEY.replace('amount * 100', 'amount * 100 + 1') });
    assert.notEqual(await bundleOf(env), before);
    assert.equal(builds(), 2);

    repo.write({ 'coverage/lcov.info': toLcov({ 'src/money.ts': { 1: 1, 2: 1, 3: 1 } }) });
    const covered = await bundleOf(env);
    assert.equal(builds(), 3);
    assert.match(covered, /runtime-proven/);

    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'round');
    const committed = await runAgentBundle(env, { profile: 'generic', base: 'HEAD' });
    assert.deepEqual(committed.evidence.changedFiles, []);
    assert.equal(builds(), 4);

    const { buildId: _dropped, ...fromSources } = env;
    await bundleOf(fromSources);
    await bundleOf(fromSources);
    assert.equal(builds(), 6);
  });

  it('keeps a large analysis in a slot file, read only when its range matches, and analyses again without it', async (t) => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 160; index += 1) {
      files[`src/part${index}.ts`] = `export function part${index}(value: number): number {\n  return value + ${index};\n}\n`;
    }
    // A name beyond ASCII (and beyond the BMP) goes through the kept file escaped and comes back the same.
    const wide = 'src/café-𝔘.ts';
    files[wide] = "export const label = 'naïve';\n";
    const large = createRepo(files);
    t.after(() => large.cleanup());
    for (let index = 0; index < 160; index += 1) {
      large.write({ [`src/part${index}.ts`]: `export function part${index}(value: number): number {\n  return value * ${index};\n}\n` });
    }
    large.write({ [wide]: "export const label = 'naïve — café';\n" });
    const { env, builds } = createCountingEnv(large.dir, 'build-large');
    const fresh = await bundleOf(env);
    const index = JSON.parse(readFileSync(join(large.dir, MEMO), 'utf8'));
    assert.equal(index.entries.length, 1);
    assert.equal(index.entries[0].analysis, undefined, 'a large analysis is not inline');
    const slot = join(large.dir, `.checker/local/cache/analysis-slot-${index.entries[0].slot}.json`);
    assert.ok(statSync(slot).size > 200_000);
    assert.ok(fresh.includes(wide));
    for (const file of [slot, join(large.dir, MEMO)]) {
      assert.ok(
        readFileSync(file).every((byte) => byte < 0x80),
        `${file} is ASCII`,
      );
    }
    assert.equal(await bundleOf(env), fresh);
    assert.equal(builds(), 1);
    // A slot that holds another range's analysis (or none) is not used: the range is analysed again.
    writeFileSync(slot, JSON.stringify({ version: 1, id: 'another', analysis: {} }));
    assert.equal(await bundleOf(env), fresh);
    assert.equal(builds(), 2);
    rmSync(slot);
    assert.equal(await bundleOf(env), fresh);
    assert.equal(builds(), 3);
  });

  it('a working-tree change is asked ahead for the very range the analysis reads; a committed range is not', async (t) => {
    const edited = createRepo({ '.checker/config.yml': 'analysis:\n  defaultBranch: main\n', 'src/money.ts': MONEY });
    t.after(() => edited.cleanup());
    edited.write({ 'src/money.ts': MONEY.replace('amount * 100', 'amount * 100 + 2') });
    const real = createTestEnv(edited.dir);
    const asked: string[] = [];
    const read: string[] = [];
    const env: Env = {
      ...real,
      buildId: 'build-prefetch',
      openGit: async () => {
        const git = await real.openGit();
        return {
          ...git,
          prefetchChange: (range) => {
            asked.push(JSON.stringify(range));
            git.prefetchChange?.(range);
          },
          readChange: (range) => {
            read.push(JSON.stringify(range));
            return git.readChange(range);
          },
        };
      },
    };
    await runAgentBundle(env, { profile: 'generic', base: 'HEAD' });
    assert.deepEqual(asked, ['{"base":"HEAD","defaultBranch":"main"}']);
    assert.equal(read[0], asked[0], 'the analysis reads the range that was asked ahead');
    asked.length = 0;
    edited.commit('edit');
    await runAgentBundle(env, { profile: 'generic', base: 'HEAD~1', head: 'HEAD' });
    assert.deepEqual(asked, []);
  });
});

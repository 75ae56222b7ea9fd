import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { isCodeFile } from '../../src/model/facts.js';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { runCliAsync } from '../helpers/cli.js';
import { createPackageRepo, moveFolder, readPackageFiles, type PackageRepo } from '../helpers/eval-corpus.js';
import { createTestEnv } from '../helpers/test-env.js';

/**
 * A run with no facts cache (a first run, CI without a cache, `--no-cache`) parses in full only what an analysis of the
 * change reads (src/graph/focus.ts) and reads the other files for their imports and exports alone. Its answer must be
 * the answer of a run that parsed everything: checked here on a published Express app (routes mounted across files,
 * middleware, handlers in other files, tests), edit by edit, and through the CLI from a cold start to a kept graph.
 */
const PACKAGE = { name: '@actual-app/sync-server', version: '25.6.0' } as const;

/** Working-tree edits: a leaf under routes and middleware, a service behind several routers, the session middleware. */
const EDITS: { path: string; search: string; replace: string }[] = [
  { path: 'src/app-gocardless/bank-factory.js', search: 'return imports;', replace: 'return imports.slice();' },
  {
    path: 'src/services/user-service.js',
    search: 'return possibleRoles.some(a => a === roleId);',
    replace: 'return possibleRoles.includes(roleId);',
  },
  { path: 'src/util/validate-user.js', search: 'return session;', replace: 'return { ...session };' },
];

function withoutTimes(analysis: ChangeAnalysis): unknown {
  return JSON.parse(JSON.stringify(analysis, (key, value: unknown) => (key === 'durationMs' ? undefined : value)));
}

describe('a focused cold run answers what a full parse answers (@actual-app/sync-server)', () => {
  let corpus: PackageRepo;
  let codeFiles: number;
  before(() => {
    corpus = createPackageRepo(
      moveFolder(readPackageFiles(PACKAGE.name, PACKAGE.version, ['build/src', 'package.json']), 'build/src', 'src'),
    );
    codeFiles = corpus.repo.git('ls-files').split('\n').filter(isCodeFile).length;
  });
  after(() => corpus.repo.cleanup());

  for (const edit of EDITS) {
    test(`an edit of ${edit.path}: the same analysis, most files read for their links alone`, async () => {
      const file = join(corpus.repo.dir, edit.path);
      const original = readFileSync(file, 'utf8');
      assert.equal(original.split(edit.search).length, 2, `${edit.search} occurs once in ${edit.path}`);
      writeFileSync(file, original.replace(edit.search, edit.replace));
      const env = createTestEnv(corpus.repo.dir, { useCache: false });
      try {
        const full = await analyzeChange(env, { repository: await buildRepositoryGraph(env) });
        const repository = await buildRepositoryGraph(env, undefined, { focus: { changedPaths: async () => [edit.path] } });
        const linkOnly = repository.parsed.linkOnly?.size ?? 0;
        assert.ok(linkOnly >= codeFiles / 4 && linkOnly < codeFiles, `${linkOnly} of ${codeFiles} files read for their links alone`);
        assert.equal(repository.parsed.facts.size, codeFiles);
        const focused = await analyzeChange(env, { repository });
        assert.ok(full.impactedFiles.length > 0 && full.impactedRoutes.length > 0, 'the edit reaches files and routes');
        assert.deepEqual(withoutTimes(focused), withoutTimes(full));
      } finally {
        await env.close();
        writeFileSync(file, original);
      }
    });
  }

  test('the CLI: focused from a cold start, in full once the cache holds every file; the same answer', async () => {
    const files = EDITS.map((edit) => ({ ...edit, file: join(corpus.repo.dir, edit.path) }));
    const originals = files.map((edit) => readFileSync(edit.file, 'utf8'));
    const apply = (index: number): void => {
      for (const [at, edit] of files.entries()) {
        const original = originals[at] ?? '';
        writeFileSync(edit.file, at === index ? original.replace(edit.search, edit.replace) : original);
      }
    };
    const cache = join(corpus.repo.dir, '.checker', 'local', 'cache');
    const run = async (command: string): Promise<string> => {
      const result = await runCliAsync([command, '--cwd', corpus.repo.dir, '--format', 'json']);
      assert.equal(result.code, 0, result.stderr);
      return result.stdout;
    };
    const graphFiles = async (): Promise<{ cached: number; reparsed: number }> =>
      (JSON.parse(await run('graph')) as { files: { cached: number; reparsed: number } }).files;
    try {
      rmSync(join(corpus.repo.dir, '.checker'), { recursive: true, force: true });
      apply(0);
      await run('ai');
      assert.ok(!readdirSync(cache).some((name) => name.startsWith('graph-')), 'no kept graph after a focused run');
      // Only the fully parsed files were cached: `checker graph`, which reports every file, parses the rest once.
      const first = await graphFiles();
      assert.ok(first.reparsed > codeFiles / 4 && first.cached + first.reparsed === codeFiles, JSON.stringify(first));
      const second = await graphFiles();
      assert.deepEqual([second.cached, second.reparsed], [codeFiles, 0]);
      apply(1);
      const fromCache = await run('ai');
      rmSync(cache, { recursive: true, force: true });
      assert.equal(await run('ai'), fromCache);
    } finally {
      apply(-1);
    }
  });
});

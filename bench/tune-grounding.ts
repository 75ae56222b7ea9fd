/**
 * Tunes task grounding's weights on the development split of bench/localize (never the held-out one): each mined
 * commit's parent tree is built once, and preflight's ranking (rankTaskFiles: groundTask over the graph and what files
 * say, the generated-path class, the co-change widening, tests kept apart) is run under every variant of the weights, so a grid of variants costs one pass of graph builds.
 *
 *   node --import tsx bench/tune-grounding.ts --repos <dir> [--variants <file.json>] [--repo owner/name] [--limit n]
 *     [--off-topic-only] [--dump <file.json>]
 *
 * A variants file is a JSON object of name → a `grounding` section (as in a rule pack) laid over the built-in weights;
 * without one, the built-in weights alone are run. Prints recall@1/5/10, MRR, the share of tasks answered and the
 * off-topic invention rate per variant. The history is read as preflight reads it (churn and the subjects of the commits
 * that changed each file); only the reason lines, which rank nothing, are left out.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { buildRepositoryGraph } from '../src/app/build-graph.js';
import { toGroundingWeights } from '../src/app/grounding-weights.js';
import { loadRulePacks } from '../src/app/load/load-rule-packs.js';
import { openGitState } from '../src/app/preflight.js';
import { getFileTexts, rankTaskFiles, readGroundingHistory } from '../src/app/task-grounding.js';
import { createPathClassTest, mergeClassifiers } from '../src/rules/classifiers.js';
import { createNodeEnv } from '../src/io/node-env.js';
import { createParsePool } from '../src/io/parse-pool.js';
import type { GroundingWeights, GroundingWeightsSection, TaskTerm } from '../src/model/grounding.js';
import type { KnowledgeGraph } from '../src/graph/build.js';
import { getGroundingIndex } from '../src/ranking/grounding-index.js';
import { type FileText, getTextIndex } from '../src/ranking/text-index.js';
import { scoreName, scoreWord } from '../src/ranking/text-score.js';
import { loadCases, loadOffTopicCases, loadRepoEntries, toRepoKey } from './localize/cases.js';
import { getRecallAt } from './localize/metrics.js';
import { checkoutCommit, findGitDir } from './localize/repo-cache.js';

interface Outcome {
  recall1: number[];
  recall5: number[];
  recall10: number[];
  mrr: number[];
  answered: number[];
  invented: number[];
  /** recall@5 by the confidence the grounding gave. */
  byConfidence: Map<string, number[]>;
}

function overlay(base: GroundingWeights, section: GroundingWeightsSection): GroundingWeights {
  return {
    ...base,
    ...Object.fromEntries(Object.entries(section).filter(([key]) => key !== 'matchStrength' && key !== 'roleFactor')),
    matchStrength: { ...base.matchStrength, ...section.matchStrength },
    roleFactor: { ...base.roleFactor, ...section.roleFactor },
  };
}

/** 1 / the rank of the first truth file, 0 when none is answered. */
function getReciprocalRank(files: readonly string[], truth: readonly string[]): number {
  const index = files.findIndex((path) => truth.includes(path));
  return index === -1 ? 0 : 1 / (index + 1);
}

/** How many files say a word or name (its document frequency), as groundTask scores it. */
function countFiles(
  kg: KnowledgeGraph,
  texts: ReadonlyMap<string, FileText>,
  weights: GroundingWeights,
  term: TaskTerm,
): number | undefined {
  const index = getGroundingIndex(kg);
  const scorer = { index, text: getTextIndex(texts), weights, routeFactor: 1, files: index.files.length };
  if (term.kind === 'word') return scoreWord(scorer, term).documentFrequency;
  if (term.kind === 'identifier') return scoreName(scorer, term).documentFrequency;
  return undefined;
}

const mean = (values: number[]): string => (values.length === 0 ? 'n/a' : (values.reduce((a, b) => a + b, 0) / values.length).toFixed(3));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string' },
      variants: { type: 'string' },
      repo: { type: 'string', multiple: true },
      limit: { type: 'string' },
      work: { type: 'string', default: join(process.cwd(), 'bench', 'work', 'tune-grounding') },
      dump: { type: 'string' },
      'off-topic-only': { type: 'boolean', default: false },
    },
  });
  if (values.repos === undefined) throw new Error('--repos <dir> is required: the folder of clones named owner+name');
  const sections: Record<string, GroundingWeightsSection> =
    values.variants === undefined ? { builtin: {} } : JSON.parse(readFileSync(values.variants, 'utf8'));
  const entries = loadRepoEntries().filter(
    (entry) => entry.split === 'dev' && (values.repo === undefined || values.repo.includes(entry.repository)),
  );
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const cases = loadCases(entries);
  const offTopic = loadOffTopicCases(loadRepoEntries()).filter((item) => entries.some((entry) => entry.repository === item.repository));
  const outcomes = new Map(
    Object.keys(sections).map((name): [string, Outcome] => [
      name,
      { recall1: [], recall5: [], recall10: [], mrr: [], answered: [], invented: [], byConfidence: new Map() },
    ]),
  );
  const dumped: unknown[] = [];
  const pool = createParsePool();
  try {
    for (const entry of entries) {
      const gitDir = findGitDir(values.repos, entry.repository);
      if (gitDir === undefined) throw new Error(`no clone of ${entry.repository} in ${values.repos}`);
      const workDir = join(values.work, toRepoKey(entry.repository));
      const own = values['off-topic-only'] ? [] : cases.filter((item) => item.repository === entry.repository).slice(0, limit);
      const jobs: { commit: string; task: string; truth?: string[] }[] = [
        ...own.map((item) => ({ commit: item.parent, task: item.task, truth: item.truth })),
        ...offTopic.filter((item) => item.repository === entry.repository).map((item) => ({ commit: item.commit, task: item.task })),
      ];
      // The off-topic tasks of a repository share one tree: it is built once for all of them.
      for (const commit of [...new Set(jobs.map((job) => job.commit))]) {
        checkoutCommit(gitDir, workDir, commit);
        const env = createNodeEnv(workDir, { pool });
        try {
          const repository = await buildRepositoryGraph(env);
          const git = await openGitState(env);
          const said = await readGroundingHistory(env, repository, git, await getFileTexts(env, repository), []);
          const { texts } = said;
          const packs = (await loadRulePacks(env)).packs;
          const base = toGroundingWeights(packs).weights;
          const isGenerated = createPathClassTest(mergeClassifiers(packs), 'generated');
          for (const job of jobs.filter((item) => item.commit === commit))
            for (const [name, section] of Object.entries(sections)) {
              // Exactly what preflight and context rank with, weights overlaid.
              const grounding = rankTaskFiles(repository, job.task, {
                ...said,
                weights: overlay(base, section),
                requirementsTerms: [],
                isGenerated,
              });
              if (values.dump !== undefined && name === Object.keys(sections)[0]) {
                dumped.push({
                  repository: entry.repository,
                  task: job.task,
                  truth: job.truth,
                  files: repository.kg.graph.order,
                  terms: grounding.terms.map((term) => ({ ...term, frequency: countFiles(repository.kg, texts, base, term) })),
                  unmatched: grounding.unmatchedTerms,
                  confidence: grounding.confidence,
                  confidenceReason: grounding.confidenceReason,
                  candidates: grounding.candidateFiles.slice(0, 10).map((candidate) => ({
                    path: candidate.path,
                    score: candidate.score,
                    reasons: candidate.reasons,
                  })),
                });
              }
              const files = grounding.candidateFiles.map((candidate) => candidate.path);
              const outcome = outcomes.get(name);
              if (outcome === undefined) continue;
              if (job.truth === undefined) {
                outcome.invented.push(files.length > 0 ? 1 : 0);
                continue;
              }
              outcome.recall1.push(getRecallAt(files, job.truth, 1));
              outcome.recall5.push(getRecallAt(files, job.truth, 5));
              outcome.recall10.push(getRecallAt(files, job.truth, 10));
              outcome.mrr.push(getReciprocalRank(files, job.truth));
              outcome.answered.push(files.length > 0 ? 1 : 0);
              const level = outcome.byConfidence.get(grounding.confidence) ?? [];
              level.push(getRecallAt(files, job.truth, 5));
              outcome.byConfidence.set(grounding.confidence, level);
            }
        } finally {
          await env.close();
        }
      }
      process.stderr.write(`${entry.repository}: ${jobs.length} tasks\n`);
    }
  } finally {
    await pool.close();
  }
  if (values.dump !== undefined) writeFileSync(values.dump, JSON.stringify(dumped));
  process.stdout.write('| variant | cases | recall@1 | recall@5 | recall@10 | MRR | answered | off-topic invention |\n');
  process.stdout.write('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n');
  for (const [name, outcome] of outcomes) {
    process.stdout.write(
      `| ${name} | ${outcome.recall5.length} | ${mean(outcome.recall1)} | ${mean(outcome.recall5)} | ${mean(outcome.recall10)} | ${mean(outcome.mrr)} | ${mean(outcome.answered)} | ${mean(outcome.invented)} |\n`,
    );
  }
  process.stdout.write('\n| variant | recall@5 at high | at medium | at low (cases) |\n| --- | ---: | ---: | ---: |\n');
  for (const [name, { byConfidence }] of outcomes) {
    const at = (level: string): string => `${mean(byConfidence.get(level) ?? [])} (${byConfidence.get(level)?.length ?? 0})`;
    process.stdout.write(`| ${name} | ${at('high')} | ${at('medium')} | ${at('low')} |\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`tune-grounding: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});

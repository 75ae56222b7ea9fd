/**
 * The evaluation corpus runner: a case is a real repository state (published package files committed
 * into a temporary git repository) and a real change on top of it, analysed the way `checker ai` does
 * (the codex profile), with the signals a reviewer reads: tasks in the prompt and in overflow, edge
 * cases from changed semantics against generic ones, redactions and the bundle's size.
 */
import { runAgentBundle } from '../../src/app/run-agent-bundle.js';
import type { AgentBundle, BundleTask } from '../../src/model/bundle.js';
import { renderBundleMarkdown } from '../../src/report/bundle-markdown.js';
import { withNodeEnv } from '../helpers/eval-corpus.js';

/** Provenance prefix of the edge cases derived from the diff's before/after (rules/semantic-edge-cases). */
export const SEMANTIC_PACK = 'semantic-edge-cases@';

export interface CaseRun {
  bundle: AgentBundle;
  markdown: string;
  json: string;
  signals: CaseSignals;
}

export interface CaseSignals {
  tasksInPrompt: number;
  tasksInOverflow: number;
  semanticEdgeCases: number;
  genericEdgeCases: number;
  redactions: number;
  bundleKb: number;
  risk: string;
}

const REDACTED = /\[REDACTED(?::[\w-]+)?\]/g;

export const allTasks = (bundle: AgentBundle): BundleTask[] => [...bundle.tasks, ...bundle.taskOverflow];

export const taskText = (task: BundleTask): string => `${task.kind}: ${task.title} — ${task.detail}`;

export function measureSignals(bundle: AgentBundle, markdown: string, json: string): CaseSignals {
  const edgeCases = [...bundle.evidence.edgeCases.top, ...bundle.evidence.edgeCases.overflow];
  const semantic = edgeCases.filter((edgeCase) => edgeCase.provenance.startsWith(SEMANTIC_PACK)).length;
  const { score, level } = bundle.evidence.summary.mergeRisk;
  return {
    tasksInPrompt: bundle.tasks.length,
    tasksInOverflow: bundle.taskOverflow.length,
    semanticEdgeCases: semantic,
    genericEdgeCases: edgeCases.length - semantic,
    redactions: (markdown.match(REDACTED) ?? []).length + (json.match(REDACTED) ?? []).length,
    bundleKb: Number((Buffer.byteLength(markdown) / 1024).toFixed(1)),
    risk: `${score} ${level}`,
  };
}

/** Analyses `base..head` of the repository at `dir` (its working tree must be at `head`) as `checker ai` does. */
export async function runCase(dir: string, base: string, head: string): Promise<CaseRun> {
  const bundle = await withNodeEnv(dir, (env) => runAgentBundle(env, { base, head, profile: 'codex' }));
  const markdown = renderBundleMarkdown(bundle);
  const json = JSON.stringify(bundle);
  return { bundle, markdown, json, signals: measureSignals(bundle, markdown, json) };
}

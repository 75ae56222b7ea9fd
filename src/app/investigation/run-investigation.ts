import type { AgentProfile } from '../../model/config.js';
import { CheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { InvestigationReport } from '../../model/investigation.js';
import type { PreflightReport } from '../../model/preflight.js';
import type { RequirementsInput } from '../../model/requirements.js';
import type { RepositoryGraph } from '../build-graph.js';
import { loadRepoDocs } from '../load/load-repo-docs.js';
import { getPreflightReport } from '../preflight.js';
import { runAgentBundle } from '../run-agent-bundle.js';
import { investigate, type InvestigationRun, type InvestigationSubject } from './investigate.js';

export interface InvestigationInput {
  /** `change` investigates a git range (its agent bundle); `preflight` a task before coding. Default: preflight when a task and no range is given. */
  subject?: 'change' | 'preflight';
  task?: string;
  requirements?: RequirementsInput;
  requirementsPath?: string;
  base?: string;
  head?: string;
  profile: AgentProfile;
  /** True only on an explicit request (MCP confirmInvestigation: true); false returns the payload and sends nothing. */
  confirmed: boolean;
  repository?: RepositoryGraph;
  /** When the provider call must be over (epoch ms by `env.now()`): an MCP call's deadline, less a margin. */
  deadline?: number;
}

/**
 * MCP agent_investigation: the deterministic subject, the redacted payload, and (only when confirmed) the provider's
 * untrusted result. A confirmed call with no usable provider throws the configuration error.
 */
export async function getInvestigationReport(env: Env, input: InvestigationInput): Promise<InvestigationReport> {
  const run = await investigate(env, await buildSubject(env, input), {
    send: input.confirmed,
    ...(input.deadline === undefined ? {} : { deadline: input.deadline }),
  });
  if (run.refusal !== undefined) throw new CheckerError(run.refusal.code, run.refusal.message, { hint: run.refusal.hint });
  return run.report;
}

/** Investigates a preflight report already computed (`checker ai preflight --investigate`). */
export async function investigatePreflight(env: Env, report: PreflightReport, send: boolean): Promise<InvestigationRun> {
  return investigate(env, await preflightSubject(env, report), { send });
}

async function preflightSubject(env: Env, report: PreflightReport): Promise<InvestigationSubject> {
  const docs = await loadRepoDocs(env, []);
  return { kind: 'preflight', report, skills: docs.skills };
}

/** What an investigation is of: the subject asked, else a task with no range is a preflight's and the rest a change's. */
export function toInvestigationSubject(input: Pick<InvestigationInput, 'subject' | 'task' | 'base' | 'head'>): 'preflight' | 'change' {
  const hasRange = input.base !== undefined || input.head !== undefined;
  return input.subject ?? (input.task !== undefined && !hasRange ? 'preflight' : 'change');
}

async function buildSubject(env: Env, input: InvestigationInput): Promise<InvestigationSubject> {
  const hasRange = input.base !== undefined || input.head !== undefined;
  const subject = toInvestigationSubject(input);
  if (subject === 'preflight') {
    if (input.task === undefined) {
      throw new CheckerError('investigation/missing-task', 'a preflight investigation needs "task": what should change, in words', {
        hint: 'Pass task, or subject: "change" (with base/head, or none for the working tree) to investigate a change.',
      });
    }
    if (hasRange) {
      throw new CheckerError(
        'investigation/range-without-change',
        'base and head apply only to subject "change"; a preflight investigation has no git range',
        {
          hint: 'Leave base and head out, or set subject: "change".',
        },
      );
    }
    const report = await getPreflightReport(env, {
      task: input.task,
      ...(input.requirements === undefined ? {} : { requirements: input.requirements }),
      ...(input.requirementsPath === undefined ? {} : { requirementsPath: input.requirementsPath }),
      ...(input.repository === undefined ? {} : { repository: input.repository }),
    });
    return preflightSubject(env, report);
  }
  const bundle = await runAgentBundle(env, {
    profile: input.profile,
    ...(input.task === undefined ? {} : { task: input.task }),
    ...(input.requirements === undefined ? {} : { requirements: input.requirements }),
    ...(input.requirementsPath === undefined ? {} : { requirementsPath: input.requirementsPath }),
    ...(input.base === undefined ? {} : { base: input.base }),
    ...(input.head === undefined ? {} : { head: input.head }),
    ...(input.repository === undefined ? {} : { repository: input.repository }),
  });
  return { kind: 'change', bundle };
}

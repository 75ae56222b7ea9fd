import { parseStructuredText } from '../../repo-text/structured.js';
import { createHash } from 'node:crypto';
import type { ChangeAnalysis } from '../../model/analysis.js';
import type { BundleLimitation, ProductRunReport } from '../../model/bundle.js';
import type { AgentProfile, ToolAdapterKind } from '../../model/config.js';
import { CheckerError, isCheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { CheckInput } from '../../model/graph.js';
import type { Requirements, RequirementsInput } from '../../model/requirements.js';
import type { AdapterInput, AgentBundleInput } from '../agent-bundle.js';
import { loadTrustedConfig } from './trusted-config.js';
import { loadRepoDocs } from './load-repo-docs.js';
import { readRepoText } from './repo-text.js';

const PRODUCT_RUN_ARTIFACT = 'product-runs/latest.json';
const PRODUCT_RUN_SHOWN = `.checker/local/${PRODUCT_RUN_ARTIFACT}`;
const REQUIREMENTS_MAX_BYTES = 1024 * 1024;
const PRODUCT_RUN_MAX_CHARS = 16 * 1024 * 1024;
const ADAPTER_KINDS: readonly ToolAdapterKind[] = [
  'apiFuzzer',
  'browserTestRunner',
  'contractTester',
  'coverage',
  'mutationTester',
  'staticAnalyzer',
];

export interface BundleOptions {
  profile: AgentProfile;
  task?: string;
  /** Repository-relative path of a JSON or YAML requirements file. */
  requirementsPath?: string;
  /** Requirements already read and validated (an MCP object); wins over `requirementsPath`. */
  requirements?: RequirementsInput;
}

/** The analysed range's resolved revisions: the checks and adapters listed are those its base configures. */
export interface BundleRange {
  base?: string;
  head?: string;
}

/** Reads what the bundle needs beside the analysis: requirements, the latest product run, skills, checks and adapters. */
export async function readBundleInputs(env: Env, options: BundleOptions, range: BundleRange = {}): Promise<AgentBundleInput> {
  const requirements =
    options.requirements ?? (options.requirementsPath === undefined ? undefined : await readRequirements(env, options.requirementsPath));
  const productRun = await readProductRun(env);
  // The checks an agent is told it may run are the base revision's: a change cannot hand the agent its own commands.
  const config = await loadTrustedConfig(env, range);
  const docs = await loadRepoDocs(env, []);
  const source = config.trust.source;
  const checks: CheckInput[] = Object.entries(config.config.checks ?? {}).map(([name, check]) => ({
    name,
    command: check.command ?? (check.argv ?? []).join(' '),
    source,
  }));
  const adapters: AdapterInput[] = [];
  const toolAdapters = config.config.toolAdapters ?? {};
  if (toolAdapters.agentProcess !== undefined)
    adapters.push({ kind: 'agentProcess', command: toolAdapters.agentProcess.command, enabled: true });
  for (const kind of ADAPTER_KINDS) {
    const adapter = toolAdapters[kind];
    if (adapter !== undefined) adapters.push({ kind, command: adapter.command, enabled: adapter.enabled });
  }
  const limitations: BundleLimitation[] = [...docs.diagnostics, ...config.diagnostics]
    .filter(
      (diagnostic) =>
        diagnostic.code.startsWith('skill/') ||
        diagnostic.code === 'config/changed-by-range' ||
        diagnostic.location?.file.startsWith('.agents/') === true,
    )
    .map((diagnostic) => ({
      code: diagnostic.code,
      message: diagnostic.message,
      ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }),
      ...(diagnostic.location === undefined ? {} : { location: diagnostic.location }),
    }));
  return {
    profile: options.profile,
    ...(options.task === undefined ? {} : { task: options.task }),
    ...(requirements === undefined ? {} : { requirements }),
    ...(productRun === undefined ? {} : { productRun }),
    skills: docs.skills,
    checks,
    adapters,
    unresolvedImports: [],
    limitations,
    ...(config.config.analysis?.maxPromptTasks === undefined ? {} : { maxTasks: config.config.analysis.maxPromptTasks }),
  };
}

/** The revisions an analysis compared, as oids (the working tree has none). */
export function toResolvedRange(analysis: ChangeAnalysis): BundleRange {
  const { base, head } = analysis.range;
  return { ...(base.oid === undefined ? {} : { base: base.oid }), ...(head.oid === undefined ? {} : { head: head.oid }) };
}

/** `--requirements <file>`: inside the repository, JSON or YAML, valid against schemas/requirements.schema.json. */
export async function readRequirements(env: Env, path: string): Promise<RequirementsInput> {
  const normalised = path.replace(/^\.\/+/, '');
  if (normalised === '' || normalised.startsWith('/') || /^[A-Za-z]:[\\/]/.test(normalised) || normalised.split(/[\\/]/).includes('..')) {
    throw new CheckerError('requirements/outside-repo', `--requirements ${JSON.stringify(path)} is outside the repository`, {
      hint: 'Put the requirements file inside the repository and pass its path relative to the repository root.',
    });
  }
  if (!/\.(json|ya?ml)$/i.test(normalised)) {
    throw new CheckerError('requirements/unsupported-format', `--requirements ${JSON.stringify(path)} is not a .json, .yaml or .yml file`, {
      hint: 'Write the requirements as JSON or YAML (see docs/agent-bundle.md).',
    });
  }
  const text = await readRepoText(env, normalised, REQUIREMENTS_MAX_BYTES);
  if (text === undefined) {
    throw new CheckerError(
      'requirements/unreadable',
      `--requirements ${JSON.stringify(path)} cannot be read: it does not exist, is not a regular file, is larger than 1 MiB, is not UTF-8, or is a symlink that leads outside the repository`,
      {
        hint: 'Pass a regular file inside the repository (symlinks out of the repository are refused).',
        location: { file: normalised },
      },
    );
  }
  const data = parseStructuredText(normalised, text);
  const requirements = env.validate<Requirements>('requirements', data, { code: 'requirements/invalid', file: normalised });
  const seen = new Set<string>();
  for (const [index, criterion] of (requirements.acceptanceCriteria ?? []).entries()) {
    if (seen.has(criterion.id)) {
      throw new CheckerError(
        'requirements/invalid',
        `${normalised}: acceptanceCriteria[${index}].id ${JSON.stringify(criterion.id)} is used twice`,
        {
          hint: 'Give every acceptance criterion its own id.',
          location: { file: normalised },
        },
      );
    }
    seen.add(criterion.id);
  }
  return { path: normalised, hash: createHash('sha256').update(text).digest('hex'), data: requirements };
}

/** The latest product run, or a limitation when it is unreadable or malformed; undefined when none was recorded. */
export async function readProductRun(env: Env): Promise<AgentBundleInput['productRun']> {
  let text: string | undefined;
  try {
    text = await env.readArtifact(PRODUCT_RUN_ARTIFACT);
  } catch (error) {
    return { limitation: toProductLimitation('product-run/unreadable', `${PRODUCT_RUN_SHOWN} cannot be read: ${describe(error)}`) };
  }
  if (text === undefined) return undefined;
  if (text.length > PRODUCT_RUN_MAX_CHARS) {
    return {
      limitation: toProductLimitation(
        'product-run/too-large',
        `${PRODUCT_RUN_SHOWN} is larger than 16 MiB; product failures were left out`,
      ),
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      limitation: toProductLimitation(
        'product-run/malformed',
        `${PRODUCT_RUN_SHOWN} is not valid JSON (${describe(error)}); product failures were left out`,
      ),
    };
  }
  try {
    const report = env.validate<ProductRunReport>('product-run', data, { code: 'product-run/malformed', file: PRODUCT_RUN_SHOWN });
    return { report };
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    return { limitation: toProductLimitation('product-run/malformed', `${error.message}; product failures were left out`) };
  }
}

function toProductLimitation(code: string, message: string): BundleLimitation {
  return {
    code,
    message,
    hint: 'Run the product checks again (checker product --output product-runs/latest.json) to record a fresh report.',
    location: { file: PRODUCT_RUN_SHOWN },
  };
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

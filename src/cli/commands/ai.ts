import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { isAbsolute, relative, sep } from 'node:path';
import { defineCommand } from 'citty';
import { PROFILES, toAgentProfile } from '../../app/profiles.js';
import { runAgentBundle } from '../../app/run-agent-bundle.js';
import { runAgentBundleWithChecks } from '../../app/with-checks.js';
import type { AgentProfile } from '../../model/config.js';
import { renderBundleMarkdown } from '../../report/bundle-markdown.js';
import { cwdArg, failOnArg, formatArg, isAtOrAbove, rangeArgs, toFailOn, toFormat, toRange, toTask } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { emitInvestigationPayload, investigateArgs, reportInvestigation, toInvestigationMode } from '../investigate-args.js';
import type { InvestigationRun } from '../../app/investigation/investigate.js';
import { currentHost } from '../host.js';
import { refuseBlockedRun, toTrustOption, trustChangedConfigArg } from '../trust-args.js';
import { countOf } from '../../text/plural.js';

/** `checker ai` and `checker agent` differ only in their default profile and description. */
export function createBundleCommand(name: 'ai' | 'agent', defaultProfile: AgentProfile, description: string) {
  return defineCommand({
    meta: { name, description },
    args: {
      ...cwdArg,
      ...rangeArgs,
      profile: {
        type: 'string',
        description: `Agent profile for the hand-off wording: ${PROFILES.join(', ')}`,
        default: defaultProfile,
        valueHint: 'profile',
      },
      task: { type: 'string', description: 'What the change is for, in your words (becomes the goal of the prompt)', valueHint: 'text' },
      requirements: {
        type: 'string',
        description: 'JSON or YAML requirements file inside the repository (path relative to the repository root)',
        valueHint: 'file',
      },
      'with-checks': {
        type: 'boolean',
        description:
          'Run the configured checks first (needs safety.allowCommands: true) and put their results and runtime proof in the bundle',
      },
      ...trustChangedConfigArg,
      ...investigateArgs,
      ...formatArg,
      ...failOnArg,
    },
    async run({ args }) {
      const investigation = toInvestigationMode(args);
      const format = toFormat(args.format);
      const failOn = toFailOn(args['fail-on']);
      const profile = toAgentProfile(args.profile);
      await withEnv(args.cwd, async (env) => {
        const requirementsPath =
          typeof args.requirements === 'string' && args.requirements !== '' ? toRepositoryPath(env.root, args.requirements) : undefined;
        const options = {
          profile,
          ...toRange(args),
          ...(typeof args.task === 'string' && args.task.trim() !== '' ? { task: toTask(args.task) } : {}),
          ...(requirementsPath === undefined ? {} : { requirementsPath }),
        };
        const host = currentHost();
        const checked =
          args['with-checks'] === true
            ? await runAgentBundleWithChecks(
                env,
                { ...options, ...toTrustOption(args) },
                (message) => void host.writeStderr(`checker: ${message}\n`),
              )
            : undefined;
        const deterministic = checked?.bundle ?? (await runAgentBundle(env, options));
        let bundle = deterministic;
        let run: InvestigationRun | undefined;
        if (investigation !== 'off') {
          // Loaded only when asked for: the investigation reads provider replies with zod, which no other part of ai needs.
          const { attachToBundle, investigate } = await import('../../app/investigation/investigate.js');
          run = await investigate(env, { kind: 'change', bundle: deterministic }, { send: investigation === 'send' });
          if (investigation === 'dry-run') {
            await emitInvestigationPayload(env.root, run, { format, output: args.output });
            return;
          }
          bundle = attachToBundle(deterministic, run);
        }
        await emitReport(env.root, bundle, { format, output: args.output, schema: 'agent-bundle', markdown: renderBundleMarkdown });
        // --with-checks gates like checker execute: a check that did not pass fails the command.
        const unpassed = (bundle.verification.checks?.results ?? []).filter((check) =>
          ['failed', 'timed-out', 'not-started'].includes(check.status),
        );
        if (bundle.verification.checks !== undefined && !bundle.verification.checks.gateOpen)
          await host.writeStderr(`checker: --with-checks: ${bundle.execution.checks.reason}\n`);
        if (unpassed.length > 0) {
          await host.writeStderr(
            `checker: ${countOf(unpassed.length, 'check')} did not pass: ${unpassed.map((check) => check.id).join(', ')}\n`,
          );
          host.exitCode = 1;
        }
        if (checked !== undefined) await refuseBlockedRun(checked.execution.gate);
        const { level, score } = bundle.evidence.summary.mergeRisk;
        if (failOn !== undefined && isAtOrAbove(level, failOn)) {
          await currentHost().writeStderr(`checker: merge risk is ${level} (${score}/100), at or above --fail-on ${failOn}\n`);
          currentHost().exitCode = 1;
        }
        // Last, so a configuration error (2) is not lowered by a check or --fail-on (1).
        if (run !== undefined) await reportInvestigation(run);
      });
    },
  });
}

/** An absolute path inside the repository becomes repository-relative; anything else is passed on for the app to judge. */
function toRepositoryPath(root: string, path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const inside = relative(root, path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? path : inside.split(sep).join('/');
}

export default createBundleCommand('ai', 'codex', COMMAND_TEXTS.agentBundle.description);

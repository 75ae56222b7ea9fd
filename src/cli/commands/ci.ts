import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { detectCi, shallowHint, type RefCandidate } from '../../app/ci/detect-ci.js';
import { runCi } from '../../app/ci/run-ci.js';
import { PROFILES, toAgentProfile } from '../../app/profiles.js';
import { appendCiFile, formatGithubOutputs } from '../../io/ci-files.js';
import { readCiEventPayload, resolveCiRange } from '../../io/ci-range.js';
import { renderJson } from '../../report/json.js';
import { cwdArg, failOnArg, isAtOrAbove, rangeArgs, toFailOn, toRange } from '../args.js';
import { resolveRepositoryRoot, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { readVersion } from '../version.js';
import { toFindingsFormat } from './ci-sarif.js';

export default defineCommand({
  meta: { name: 'ci', description: COMMAND_TEXTS.ci.description },
  args: {
    ...cwdArg,
    ...rangeArgs,
    profile: {
      type: 'string',
      description: `Agent profile for the task wording in the bundle: ${PROFILES.join(', ')}`,
      default: 'generic',
      valueHint: 'profile',
    },
    format: {
      type: 'string',
      description: 'What to print: markdown (the job summary), json (the run record) or sarif',
      default: 'markdown',
      valueHint: 'markdown|json|sarif',
    },
    ...failOnArg,
  },
  async run({ args, rawArgs }) {
    const format = toFindingsFormat(args.format);
    const failOn = toFailOn(args['fail-on']);
    const profile = toAgentProfile(args.profile);
    const flags = toRange(args);
    const host = currentHost();
    const root = resolveRepositoryRoot(args.cwd);
    const vars = host.env;
    let payload: unknown;
    const eventPath = vars.GITHUB_EVENT_PATH;
    const payloadNotes: string[] = [];
    if (vars.GITHUB_ACTIONS === 'true' && typeof eventPath === 'string' && eventPath !== '') {
      const read = await readCiEventPayload(eventPath);
      payload = read.payload;
      if (read.problem !== undefined) payloadNotes.push(read.problem);
    }
    const detection = detectCi(vars, payload);
    detection.notes.push(...payloadNotes);
    const override = (side: 'base' | 'head', detected: RefCandidate[]): RefCandidate[] => {
      const given = flags[side];
      return given === undefined ? detected : [{ ref: given, source: `--${side}` }];
    };
    const range = await resolveCiRange(
      root,
      { base: override('base', detection.base), head: override('head', detection.head) },
      shallowHint(detection.provider),
    );
    const pr = detection.pullRequest === undefined ? '' : ` #${detection.pullRequest}`;
    const describe = (side: typeof range.base, fallback: string): string =>
      side === undefined ? fallback : `${side.oid.slice(0, 12)} (${side.source})`;
    await host.writeStderr(
      `checker: ci: ${detection.name}, ${detection.event}${pr}; base ${describe(range.base, 'default (merge-base with the default branch)')}, ` +
        `head ${describe(range.head, 'the working tree')}${range.shallow ? '; shallow clone' : ''}\n`,
    );
    await withEnv(root, async (env) => {
      const result = await runCi(env, {
        detection,
        range,
        profile,
        ...(failOn === undefined ? {} : { failOn }),
        isAtOrAbove,
        toolVersion: readVersion(),
        arguments: ['ci', ...rawArgs.filter((arg) => !arg.startsWith('--cwd') && arg !== args.cwd)],
      });
      const summaryPath = vars.GITHUB_STEP_SUMMARY;
      if (typeof summaryPath === 'string' && summaryPath !== '') await appendCiFile('GITHUB_STEP_SUMMARY', summaryPath, result.summary);
      const outputPath = vars.GITHUB_OUTPUT;
      if (typeof outputPath === 'string' && outputPath !== '') {
        await appendCiFile(
          'GITHUB_OUTPUT',
          outputPath,
          formatGithubOutputs({
            'risk-level': result.record.mergeRisk.level,
            'risk-score': String(result.record.mergeRisk.score),
            gate: result.record.gate.failed ? 'failed' : 'passed',
            findings: String(result.record.findings),
            'sarif-file': result.written.sarif,
            'summary-file': result.written.summary,
            'comment-file': result.written.comment,
            'report-file': result.written.analysis,
          }),
        );
      }
      await host.writeStderr(
        `checker: ci: wrote ${Object.values(result.record.files)
          .map((file) => `.checker/local/${file}`)
          .join(', ')}\n`,
      );
      const text = format === 'sarif' ? renderJson(result.sarif) : format === 'json' ? renderJson(result.record) : result.summary;
      await host.writeStdout(text);
      if (result.record.gate.failed) {
        const { level, score } = result.record.mergeRisk;
        await host.writeStderr(`checker: merge risk is ${level} (${score}/100), at or above --fail-on ${failOn}\n`);
        host.exitCode = 1;
      }
    });
  },
});

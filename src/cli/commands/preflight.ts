import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { getPreflightReport } from '../../app/preflight.js';
import { renderPreflightMarkdown } from '../../report/preflight-markdown.js';
import { cwdArg, formatArg, toFormat, toTask } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { emitInvestigationPayload, investigateArgs, reportInvestigation, toInvestigationMode } from '../investigate-args.js';

/** `checker ai preflight` and `checker agent preflight`: the same before-coding brief. */
export default defineCommand({
  meta: { name: 'preflight', description: COMMAND_TEXTS.preflight.description },
  args: {
    ...cwdArg,
    ...formatArg,
    task: { type: 'string', required: true, description: 'What should change, in words', valueHint: 'text' },
    requirements: { type: 'string', description: 'Requirements file (JSON or YAML) inside the repository', valueHint: 'file' },
    ...investigateArgs,
  },
  async run({ args }) {
    const investigation = toInvestigationMode(args);
    const format = toFormat(args.format);
    await withEnv(args.cwd, async (env) => {
      const report = await getPreflightReport(env, {
        task: toTask(args.task),
        ...(typeof args.requirements === 'string' ? { requirementsPath: args.requirements } : {}),
      });
      if (investigation === 'off') {
        await emitReport(env.root, report, { format, output: args.output, schema: 'preflight-report', markdown: renderPreflightMarkdown });
        return;
      }
      // Loaded only when asked for: the investigation brings the whole change analysis (the rules engine, coverage
      // maps), which a brief never runs.
      const [{ attachToPreflight }, { investigatePreflight }] = await Promise.all([
        import('../../app/investigation/investigate.js'),
        import('../../app/investigation/run-investigation.js'),
      ]);
      const run = await investigatePreflight(env, report, investigation === 'send');
      if (investigation === 'dry-run') {
        await emitInvestigationPayload(env.root, run, { format, output: args.output });
        return;
      }
      await emitReport(env.root, attachToPreflight(report, run), {
        format,
        output: args.output,
        schema: 'preflight-report',
        markdown: renderPreflightMarkdown,
      });
      await reportInvestigation(run);
    });
  },
});

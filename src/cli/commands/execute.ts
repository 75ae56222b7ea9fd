import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { executeChecks, hasFailedChecks } from '../../app/execute.js';
import { renderExecutionMarkdown } from '../../report/execution-markdown.js';
import { cwdArg, formatArg, rangeArgs, toFormat, toRange } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { refuseBlockedRun, toTrustOption, trustChangedConfigArg } from '../trust-args.js';
import { countOf } from '../../text/plural.js';

/** Exit 1 when a check failed, timed out or could not start; 0 when all that ran passed or nothing ran. */
export default defineCommand({
  meta: { name: 'execute', description: COMMAND_TEXTS.execute.description },
  args: {
    ...cwdArg,
    ...rangeArgs,
    all: { type: 'boolean', description: 'Run every configured check, also those whose paths the change does not touch' },
    ...trustChangedConfigArg,
    ...formatArg,
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const range = toRange(args);
    await withEnv(args.cwd, async (env) => {
      // Running this command is the explicit request; the configuration's safety.allowCommands is the other half of the gate.
      const host = currentHost();
      const report = await executeChecks(env, {
        ...range,
        confirmed: true,
        all: args.all === true,
        ...toTrustOption(args),
        onProgress: (message) => void host.writeStderr(`checker: ${message}\n`),
      });
      await emitReport(env.root, report, { format, output: args.output, schema: 'execution-report', markdown: renderExecutionMarkdown });
      if (!report.gate.open) await host.writeStderr(`checker: execute: ${report.gate.explanation}\n`);
      if (hasFailedChecks(report)) {
        const failed = report.checks
          .filter((check) => ['failed', 'timed-out', 'not-started'].includes(check.status))
          .map((check) => check.id);
        await host.writeStderr(`checker: ${countOf(failed.length, 'check')} did not pass: ${failed.join(', ')}\n`);
        host.exitCode = 1;
      }
      await refuseBlockedRun(report.gate);
    });
  },
});

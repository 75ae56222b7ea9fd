import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { executeChecks, hasFailedChecks } from '../../app/execute.js';
import { renderExecutionMarkdown } from '../../report/execution-markdown.js';
import { toFormat } from '../args.js';
import { checkRunArgs, toChecksRequest } from '../check-run-args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { refuseBlockedRun } from '../trust-args.js';
import { countOf } from '../../text/plural.js';

/** Exit 1 when a check failed, timed out or could not start; 0 when all that ran passed or nothing ran. */
export default defineCommand({
  meta: { name: 'execute', description: COMMAND_TEXTS.execute.description },
  args: checkRunArgs,
  async run({ args }) {
    const format = toFormat(args.format);
    const request = toChecksRequest(args);
    await withEnv(args.cwd, async (env) => {
      const host = currentHost();
      const report = await executeChecks(env, {
        ...request,
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

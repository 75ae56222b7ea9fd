import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { differential, hasRegression } from '../../app/differential.js';
import { renderDifferentialMarkdown, renderDifferentialVerdict } from '../../report/differential-markdown.js';
import { toFormat } from '../args.js';
import { checkRunArgs, toChecksRequest } from '../check-run-args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { refuseBlockedRun } from '../trust-args.js';

/** Exit 1 when a check is a regression (passed on base, fails on head, twice); 0 otherwise, flaky and still-failing said on stderr. */
export default defineCommand({
  meta: { name: 'differential', description: COMMAND_TEXTS.differential.description },
  args: checkRunArgs,
  async run({ args }) {
    const format = toFormat(args.format);
    const request = toChecksRequest(args);
    await withEnv(args.cwd, async (env) => {
      const report = await differential(env, request);
      await emitReport(env.root, report, {
        format,
        output: args.output,
        schema: 'differential-report',
        markdown: renderDifferentialMarkdown,
      });
      const host = currentHost();
      const { summary } = report;
      if (!report.gate.open || hasRegression(report) || summary.flaky + summary.stillFailing + summary.notComparable > 0) {
        await host.writeStderr(`checker: differential: ${renderDifferentialVerdict(report)}\n`);
      }
      if (hasRegression(report)) host.exitCode = 1;
      await refuseBlockedRun(report.gate);
    });
  },
});

import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { differential, hasRegression } from '../../app/differential.js';
import { renderDifferentialMarkdown, renderDifferentialVerdict } from '../../report/differential-markdown.js';
import { cwdArg, formatArg, rangeArgs, toFormat, toRange } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { refuseBlockedRun, toTrustOption, trustChangedConfigArg } from '../trust-args.js';

/** Exit 1 when a check is a regression (passed on base, fails on head, twice); 0 otherwise, flaky and still-failing said on stderr. */
export default defineCommand({
  meta: { name: 'differential', description: COMMAND_TEXTS.differential.description },
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
      const report = await differential(env, { ...range, confirmed: true, all: args.all === true, ...toTrustOption(args) });
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

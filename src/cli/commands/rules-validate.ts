import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { validateRulePacks } from '../../app/rules-report.js';
import { renderRulesValidateMarkdown } from '../../report/rules-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';

export default defineCommand({
  meta: { name: 'rules validate', description: COMMAND_TEXTS.rulesValidate.description },
  args: {
    file: { type: 'positional', description: 'Pack file inside the repository (default: every .checker/rules/* pack)', required: false },
    ...cwdArg,
    ...formatArg,
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const file = typeof args.file === 'string' && args.file !== '' ? args.file : undefined;
    await withEnv(args.cwd, async (env) => {
      const report = await validateRulePacks(env, file);
      await emitReport(env.root, report, { format, output: args.output, schema: 'rules-validate', markdown: renderRulesValidateMarkdown });
      if (report.results.some((result) => !result.valid)) {
        for (const result of report.results)
          if (!result.valid) await currentHost().writeStderr(`checker: pack/invalid: ${result.error ?? result.file}\n`);
        currentHost().exitCode = 2;
      }
    });
  },
});

import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { listRulePacks } from '../../app/rules-report.js';
import { renderRulesListMarkdown } from '../../report/rules-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'rules list', description: COMMAND_TEXTS.rulesList.description },
  args: { ...cwdArg, ...formatArg },
  async run({ args }) {
    const format = toFormat(args.format);
    await withEnv(args.cwd, async (env) =>
      emitReport(env.root, await listRulePacks(env), {
        format,
        output: args.output,
        schema: 'rules-list',
        markdown: renderRulesListMarkdown,
      }),
    );
  },
});

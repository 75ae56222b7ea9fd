import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { getGraphReport } from '../../app/graph-report.js';
import { renderGraphMarkdown } from '../../report/graph-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'graph', description: COMMAND_TEXTS.graph.description },
  args: {
    ...cwdArg,
    ...formatArg,
    cache: {
      type: 'boolean',
      description: 'Use the facts cache in .checker/local/cache (--no-cache parses everything again)',
      default: true,
    },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    await withEnv(
      args.cwd,
      async (env) =>
        emitReport(env.root, await getGraphReport(env), {
          format,
          output: args.output,
          schema: 'graph-report',
          markdown: renderGraphMarkdown,
        }),
      { useCache: args.cache !== false },
    );
  },
});

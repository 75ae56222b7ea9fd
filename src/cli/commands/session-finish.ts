import { defineCommand } from 'citty';
import { assertSessionId, finishSession } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'session finish', description: 'Record the current tree and return the verification boundary; runs nothing' },
  args: {
    ...cwdArg,
    ...formatArg,
    session: { type: 'string', description: 'Session id', valueHint: 'id' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = assertSessionId(args.session);
    await withEnv(args.cwd, async (env) => {
      const result = await finishSession(env, { sessionId });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { finishSession } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat, toSessionId } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'session finish', description: COMMAND_TEXTS.sessionFinish.description },
  args: {
    ...cwdArg,
    ...formatArg,
    session: { type: 'string', required: true, description: 'Session id', valueHint: 'id' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = toSessionId(args.session);
    await withEnv(args.cwd, async (env) => {
      const result = await finishSession(env, { sessionId });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

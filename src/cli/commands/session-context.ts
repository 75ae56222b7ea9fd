import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { refreshSessionContext } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat, toSessionId } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { maxNodesArg, toMaxNodes } from './context.js';

export default defineCommand({
  meta: { name: 'session context', description: COMMAND_TEXTS.sessionContext.description },
  args: {
    ...cwdArg,
    ...formatArg,
    ...maxNodesArg,
    session: { type: 'string', required: true, description: 'Session id', valueHint: 'id' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = toSessionId(args.session);
    const maxNodes = toMaxNodes(args['max-nodes']);
    await withEnv(args.cwd, async (env) => {
      const result = await refreshSessionContext(env, { sessionId, ...(maxNodes === undefined ? {} : { maxNodes }) });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { recordCheckpoint } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat, toSessionId } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'session checkpoint', description: COMMAND_TEXTS.sessionCheckpoint.description },
  args: {
    ...cwdArg,
    ...formatArg,
    session: { type: 'string', required: true, description: 'Session id', valueHint: 'id' },
    kind: { type: 'string', required: true, description: 'plan or diff', valueHint: 'plan|diff' },
    summary: {
      type: 'string',
      required: true,
      description: 'What was planned or changed (untrusted; redacted and capped at 8 KiB)',
      valueHint: 'text',
    },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = toSessionId(args.session);
    await withEnv(args.cwd, async (env) => {
      const result = await recordCheckpoint(env, { sessionId, kind: args.kind, summary: args.summary });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

import { defineCommand } from 'citty';
import { assertSessionId, recordCheckpoint } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: {
    name: 'session checkpoint',
    description: 'Record a plan or diff checkpoint; the summary is redacted and stored as untrusted agent data',
  },
  args: {
    ...cwdArg,
    ...formatArg,
    session: { type: 'string', description: 'Session id', valueHint: 'id' },
    kind: { type: 'string', description: 'plan or diff', valueHint: 'plan|diff' },
    summary: { type: 'string', description: 'What was planned or changed (untrusted; redacted and capped at 8 KiB)', valueHint: 'text' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = assertSessionId(args.session);
    await withEnv(args.cwd, async (env) => {
      const result = await recordCheckpoint(env, { sessionId, kind: args.kind, summary: args.summary });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

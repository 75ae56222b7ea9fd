import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { startSession } from '../../app/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { cwdArg, formatArg, toFormat, toSessionId, toTask } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export default defineCommand({
  meta: { name: 'session start', description: COMMAND_TEXTS.sessionStart.description },
  args: {
    ...cwdArg,
    ...formatArg,
    session: { type: 'string', required: true, description: 'Session id: 1-64 letters, digits, ".", "_" or "-"', valueHint: 'id' },
    task: { type: 'string', required: true, description: 'What should change, in words', valueHint: 'text' },
    requirements: { type: 'string', description: 'Requirements file (JSON or YAML) inside the repository', valueHint: 'file' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const sessionId = toSessionId(args.session);
    await withEnv(args.cwd, async (env) => {
      const result = await startSession(env, {
        sessionId,
        task: toTask(args.task),
        ...(typeof args.requirements === 'string' ? { requirementsPath: args.requirements } : {}),
      });
      await emitReport(env.root, result, { format, output: args.output, schema: 'session-result', markdown: renderSessionMarkdown });
    });
  },
});

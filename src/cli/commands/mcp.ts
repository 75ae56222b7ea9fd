import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { DEFAULT_DEADLINE_MS, runStdioServer } from '../../mcp/server.js';
import { CheckerError } from '../../model/diagnostic.js';
import { cwdArg } from '../args.js';
import { resolveRepositoryRoot } from '../context.js';
import { readVersion } from '../version.js';

const MAX_DEADLINE_SECONDS = 24 * 60 * 60;

export default defineCommand({
  meta: { name: 'mcp', description: COMMAND_TEXTS.mcp.description },
  args: {
    ...cwdArg,
    deadline: {
      type: 'string',
      description: `Time limit of one tool call in seconds (default ${DEFAULT_DEADLINE_MS / 1000}); a call past it is answered with an isError result (limits/deadline) and its worker is restarted`,
      valueHint: 'seconds',
    },
  },
  async run({ args }) {
    const deadlineMs = toDeadlineMs(args.deadline);
    await runStdioServer({ root: resolveRepositoryRoot(args.cwd), version: readVersion(), deadlineMs });
  },
});

/** --deadline as milliseconds, checked before the server starts. */
function toDeadlineMs(value: unknown): number {
  if (value === undefined || value === '') return DEFAULT_DEADLINE_MS;
  const seconds = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_DEADLINE_SECONDS)) {
    throw new CheckerError(
      'usage/invalid-deadline',
      `--deadline must be a number of seconds above 0 and at most ${MAX_DEADLINE_SECONDS} (got ${JSON.stringify(value)})`,
      {
        hint: `For a very large repository raise it, e.g. --deadline 600; leave it out for ${DEFAULT_DEADLINE_MS / 1000} s.`,
      },
    );
  }
  return Math.round(seconds * 1000);
}

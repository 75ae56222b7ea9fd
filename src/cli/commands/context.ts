import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { getTaskContext, resolveMaxNodes } from '../../app/task-context.js';
import { renderContextMarkdown } from '../../report/context-markdown.js';
import { cwdArg, formatArg, toFormat } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export const maxNodesArg = {
  'max-nodes': {
    type: 'string',
    description: 'Most graph nodes in the context packet (1-1000; default context.maxNodes or 80)',
    valueHint: 'integer',
  },
} as const;

/** `--max-nodes` as given, checked before any work (`context/max-nodes`); undefined when absent. */
export function toMaxNodes(value: unknown): number | undefined {
  return value === undefined ? undefined : resolveMaxNodes(value, undefined);
}

export default defineCommand({
  meta: { name: 'context', description: COMMAND_TEXTS.taskContext.description },
  args: {
    ...cwdArg,
    ...formatArg,
    ...maxNodesArg,
    task: { type: 'string', required: true, description: 'What should change, in words', valueHint: 'text' },
    requirements: { type: 'string', description: 'Requirements file (JSON or YAML) inside the repository', valueHint: 'file' },
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const maxNodes = toMaxNodes(args['max-nodes']);
    await withEnv(args.cwd, async (env) => {
      const packet = await getTaskContext(env, {
        task: typeof args.task === 'string' ? args.task : '',
        ...(typeof args.requirements === 'string' ? { requirementsPath: args.requirements } : {}),
        ...(maxNodes === undefined ? {} : { maxNodes }),
      });
      await emitReport(env.root, packet, { format, output: args.output, schema: 'task-context', markdown: renderContextMarkdown });
    });
  },
});

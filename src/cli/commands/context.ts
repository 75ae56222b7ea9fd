import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineCommand } from 'citty';
import { getTaskContext } from '../../app/task-context.js';
import { DEFAULT_CONTEXT_MAX_NODES, MAX_CONTEXT_MAX_NODES } from '../../model/context-packet.js';
import { maxNodesField } from '../../model/input-fields.js';
import { renderContextMarkdown } from '../../report/context-markdown.js';
import { cwdArg, formatArg, parseFlag, toFormat, toTask } from '../args.js';
import { emitReport, withEnv } from '../context.js';

export const maxNodesArg = {
  'max-nodes': {
    type: 'string',
    description: 'Most graph nodes in the context packet (1-1000; default context.maxNodes or 80)',
    valueHint: 'integer',
  },
} as const;

/** `--max-nodes` as given, checked before any work by the MCP tools' maxNodes field (`context/max-nodes`); undefined when absent. */
export function toMaxNodes(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return parseFlag(maxNodesField, 'max-nodes (maxNodes)', number, {
    code: 'context/max-nodes',
    hint: `Pass --max-nodes between 1 and ${MAX_CONTEXT_MAX_NODES} (default ${DEFAULT_CONTEXT_MAX_NODES}, or context.maxNodes in .checker/config.yml).`,
    given: value,
  });
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
        task: toTask(args.task),
        ...(typeof args.requirements === 'string' ? { requirementsPath: args.requirements } : {}),
        ...(maxNodes === undefined ? {} : { maxNodes }),
      });
      await emitReport(env.root, packet, { format, output: args.output, schema: 'task-context', markdown: renderContextMarkdown });
    });
  },
});

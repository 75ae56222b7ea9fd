import { getTaskContext } from '../../app/task-context.js';
import { renderContextMarkdown } from '../../report/context-markdown.js';
import { taskContextInputSchema } from '../schemas.js';
import { defineTool } from './define-tool.js';
import { toRequirementsInput } from './requirements-input.js';

export default defineTool({
  name: 'task_context',
  inputSchema: taskContextInputSchema,
  outputSchemaName: 'task-context',
  // Reads only, but replaces its own packet file, .checker/local/task-context.json (spec 2.7).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(input, { env, warm }) {
    const requirements = toRequirementsInput(env, input.requirements);
    const packet = await getTaskContext(env, {
      task: input.task,
      ...(requirements === undefined ? {} : { requirements }),
      ...(input.maxNodes === undefined ? {} : { maxNodes: input.maxNodes }),
      repository: await warm.getRepository(),
    });
    return { report: packet, schema: 'task-context', renderMarkdown: renderContextMarkdown };
  },
});

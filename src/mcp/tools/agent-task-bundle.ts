import { runAgentBundle } from '../../app/run-agent-bundle.js';
import { renderBundleMarkdown } from '../../report/bundle-markdown.js';
import { agentTaskBundleInputSchema } from '../schemas.js';
import { pickRange } from './analysis-tool.js';
import { defineTool, READ_ONLY } from './define-tool.js';

export default defineTool({
  name: 'agent_task_bundle',
  inputSchema: agentTaskBundleInputSchema,
  outputSchemaName: 'agent-bundle',
  annotations: READ_ONLY,
  async run(input, { env, warm }) {
    const { repository, analysis } = await warm.analyze(pickRange(input));
    const bundle = await runAgentBundle(env, {
      repository,
      analysis,
      profile: input.profile ?? 'generic',
      ...pickRange(input),
      ...(input.task === undefined ? {} : { task: input.task }),
    });
    return { report: bundle, schema: 'agent-bundle', renderMarkdown: renderBundleMarkdown };
  },
});

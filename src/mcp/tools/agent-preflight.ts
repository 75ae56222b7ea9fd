import { getPreflightReport } from '../../app/preflight.js';
import { renderPreflightMarkdown } from '../../report/preflight-markdown.js';
import { agentPreflightInputSchema } from '../schemas.js';
import { defineTool, READ_ONLY } from './define-tool.js';
import { toRequirementsInput } from './requirements-input.js';

export default defineTool({
  name: 'agent_preflight',
  inputSchema: agentPreflightInputSchema,
  outputSchemaName: 'preflight-report',
  annotations: READ_ONLY,
  async run(input, { env, warm }) {
    const requirements = toRequirementsInput(env, input.requirements);
    const report = await getPreflightReport(env, {
      task: input.task,
      ...(requirements === undefined ? {} : { requirements }),
      repository: await warm.getRepository(),
    });
    return { report, schema: 'preflight-report', renderMarkdown: renderPreflightMarkdown };
  },
});

import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { getInvestigationReport } from '../../app/investigation/run-investigation.js';
import { renderInvestigationMarkdown } from '../../report/investigation-markdown.js';
import { agentInvestigationInputSchema } from '../schemas.js';
import { pickRange } from './analysis-tool.js';
import { defineTool } from './define-tool.js';
import { toRequirementsInput } from './requirements-input.js';

/** Honest hints: with confirmInvestigation it sends the payload to a provider (a command, or a network endpoint). */
const CALLS_PROVIDER: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export default defineTool({
  name: 'agent_investigation',
  inputSchema: agentInvestigationInputSchema,
  outputSchemaName: 'investigation-report',
  annotations: CALLS_PROVIDER,
  async run(input, { env, warm }) {
    const requirements = toRequirementsInput(env, input.requirements);
    const report = await getInvestigationReport(env, {
      ...pickRange(input),
      ...(input.subject === undefined ? {} : { subject: input.subject }),
      ...(input.task === undefined ? {} : { task: input.task }),
      ...(requirements === undefined ? {} : { requirements }),
      profile: input.profile ?? 'generic',
      confirmed: input.confirmInvestigation === true,
      repository: await warm.getRepository(),
    });
    return { report, schema: 'investigation-report', renderMarkdown: renderInvestigationMarkdown };
  },
});

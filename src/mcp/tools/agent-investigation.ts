import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { getInvestigationReport, toInvestigationSubject } from '../../app/investigation/run-investigation.js';
import { renderInvestigationMarkdown } from '../../report/investigation-markdown.js';
import { agentInvestigationInputSchema } from '../schemas.js';
import { pickRange } from './analysis-tool.js';
import { defineTool } from './define-tool.js';
import { toRequirementsInput } from './requirements-input.js';

/** Honest hints: with confirmInvestigation it sends the payload to a provider (a command, or a network endpoint). */
/** Time left after the provider call for reading the reply and answering. */
const DEADLINE_MARGIN_MS = 10_000;

const CALLS_PROVIDER: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };

export default defineTool({
  name: 'agent_investigation',
  inputSchema: agentInvestigationInputSchema,
  outputSchemaName: 'investigation-report',
  annotations: CALLS_PROVIDER,
  async run(input, { env, warm, deadlineMs }) {
    const deadline = env.now().getTime() + deadlineMs - DEADLINE_MARGIN_MS;
    const requirements = toRequirementsInput(env, input.requirements);
    const range = pickRange(input);
    // A change's investigation analyses it: the warm graph is made whole for that change first.
    const repository =
      toInvestigationSubject({ ...range, ...input }) === 'change'
        ? (await warm.getRepositoryFor(range)).repository
        : await warm.getRepository();
    const report = await getInvestigationReport(env, {
      ...range,
      ...(input.subject === undefined ? {} : { subject: input.subject }),
      ...(input.task === undefined ? {} : { task: input.task }),
      ...(requirements === undefined ? {} : { requirements }),
      profile: input.profile ?? 'generic',
      confirmed: input.confirmInvestigation === true,
      repository,
      // The provider gets what is left of the call's deadline once the evidence is built, less time to answer.
      deadline,
    });
    return { report, schema: 'investigation-report', renderMarkdown: renderInvestigationMarkdown };
  },
});

import { finishSession, recordCheckpoint, refreshSessionContext, startSession } from '../../app/session.js';
import type { SessionResult } from '../../model/session.js';
import { renderSessionMarkdown } from '../../report/session-markdown.js';
import { agentSessionInputSchema, type AgentSessionInput } from '../schemas.js';
import { defineTool } from './define-tool.js';
import { toRequirementsInput } from './requirements-input.js';
import type { ToolContext } from './define-tool.js';

export default defineTool({
  name: 'agent_session',
  inputSchema: agentSessionInputSchema,
  outputSchemaName: 'session-result',
  // Writes the session file and the task-context packet under .checker/local/ only; never overwrites another session.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, context) {
    return { report: await runOperation(input, context), schema: 'session-result', renderMarkdown: renderSessionMarkdown };
  },
});

function runOperation(input: AgentSessionInput, { env }: ToolContext): Promise<SessionResult> {
  const sessionId = input.sessionId;
  switch (input.operation) {
    case 'start': {
      const requirements = toRequirementsInput(env, input.requirements);
      return startSession(env, { sessionId, task: input.task ?? '', ...(requirements === undefined ? {} : { requirements }) });
    }
    case 'context':
      return refreshSessionContext(env, { sessionId, ...(input.maxNodes === undefined ? {} : { maxNodes: input.maxNodes }) });
    case 'checkpoint':
      return recordCheckpoint(env, { sessionId, kind: input.checkpointKind, summary: input.summary });
    case 'finish':
      return finishSession(env, { sessionId });
  }
}

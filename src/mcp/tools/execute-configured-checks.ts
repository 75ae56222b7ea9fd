import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { executeChecks } from '../../app/execute.js';
import { renderExecutionMarkdown } from '../../report/execution-markdown.js';
import { executeInputSchema } from '../schemas.js';
import { pickRange } from './analysis-tool.js';
import { defineTool } from './define-tool.js';

/** Honest hints: it runs the repository's own commands, which may change files or reach the network, and a rerun runs them again. */
/** Time left after the last check for writing the record and answering. */
const DEADLINE_MARGIN_MS = 5_000;

const RUNS_COMMANDS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

export default defineTool({
  name: 'execute_configured_checks',
  inputSchema: executeInputSchema,
  outputSchemaName: 'execution-report',
  annotations: RUNS_COMMANDS,
  async run(input, { env, deadlineMs }) {
    // Checks must end inside the call's deadline, so the call answers with their report: past it the worker is
    // replaced and the protocol thread kills what it started, report and all.
    const budgetMs = Math.max(0, deadlineMs - DEADLINE_MARGIN_MS);
    const report = await executeChecks(env, {
      ...pickRange(input),
      confirmed: input.confirmExecution === true,
      all: input.all === true,
      budgetMs,
    });
    return { report, schema: 'execution-report', renderMarkdown: renderExecutionMarkdown };
  },
});

import agentInvestigation from './tools/agent-investigation.js';
import agentPreflight from './tools/agent-preflight.js';
import agentSession from './tools/agent-session.js';
import agentTaskBundle from './tools/agent-task-bundle.js';
import analyzePr from './tools/analyze-pr.js';
import auditTests from './tools/audit-tests.js';
import executeConfiguredChecks from './tools/execute-configured-checks.js';
import type { McpTool } from './tools/define-tool.js';
import impactMap from './tools/impact-map.js';
import patternSearch from './tools/pattern-search.js';
import { productFailures, productPlan, productRerun, productRun } from './tools/product-tools.js';
import redteamReport from './tools/redteam-report.js';
import suggestEdgeCases from './tools/suggest-edge-cases.js';
import taskContext from './tools/task-context.js';
import toolRecommendations from './tools/tool-recommendations.js';

/**
 * The tools, in the order tools/list shows them (all report-only but execute_configured_checks, which is gated). A module of its own because both threads
 * load it: the protocol thread for tools/list, the tool worker for the handlers.
 */
export const TOOLS: readonly McpTool[] = [
  analyzePr,
  impactMap,
  auditTests,
  suggestEdgeCases,
  toolRecommendations,
  patternSearch,
  redteamReport,
  agentTaskBundle,
  agentPreflight,
  agentSession,
  taskContext,
  agentInvestigation,
  executeConfiguredChecks,
  productPlan,
  productRun,
  productFailures,
  productRerun,
];

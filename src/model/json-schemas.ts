import { z } from 'zod';
import { agentBundleSchema } from './bundle-schema.js';
import { ciRunRecordSchema } from './ci.js';
import { configSchema, userConfigSchema } from './config.js';
import { contractsFileSchema } from './contracts.js';
import { differentialReportSchema } from './differential.js';
import { executionReportSchema } from './execution.js';
import { graphReportSchema } from './graph-report.js';
import { investigationReportSchema } from './investigation.js';
import { memoryFileSchema } from './memory.js';
import { productFailureSchema } from './product-failure.js';
import { productFailuresSchema, productPlanSchema } from './product-plan.js';
import { productResultSchema } from './product-result.js';
import { productRunSchema } from './product-run.js';
import { REPORT_SCHEMAS } from './report-schemas.js';
import { requirementsSchema } from './requirements.js';
import { rulesListSchema, rulesValidateSchema } from './rules-report.js';
import { agentSessionSchema, preflightReportSchema, sessionResultSchema } from './session-schemas.js';
import { taskContextSchema } from './task-context-schema.js';

/**
 * Every file of schemas/ that is generated from a zod schema of src/model (`npm run schemas` writes them;
 * test/model/json-schemas.test.ts fails when a committed file differs). The zod schema is the source:
 * model types are its `z.infer` or are asserted equal to it, and the MCP tools and CLI flags validate
 * with the same zod objects.
 */
export interface GeneratedSchema {
  title: string;
  schema: z.ZodType;
}

export const GENERATED_SCHEMAS: Readonly<Record<string, GeneratedSchema>> = {
  ...Object.fromEntries(Object.entries(REPORT_SCHEMAS).map(([kind, source]) => [`${kind}-report`, source])),
  'agent-bundle': { title: 'checker agent task bundle (checker ai, checker agent, MCP agent_task_bundle)', schema: agentBundleSchema },
  'agent-session': { title: 'checker agent session (spec 2.6): .checker/local/agent-sessions/<id>.json', schema: agentSessionSchema },
  'ci-run': { title: 'checker ci run record (checker ci --format json; .checker/local/ci/ci.json)', schema: ciRunRecordSchema },
  config: { title: 'checker configuration (.checker/config.yml, checker.config.yml)', schema: configSchema },
  'user-config': {
    title:
      "checker user configuration, outside every repository ($XDG_CONFIG_HOME/checker/config.yml): the user's provider and allowed hosts",
    schema: userConfigSchema,
  },
  contracts: { title: 'checker design contracts (.checker/contracts.yml)', schema: contractsFileSchema },
  'differential-report': {
    title: 'checker differential report (checker differential; .checker/local/differentials/<runId>/result.json)',
    schema: differentialReportSchema,
  },
  'execution-report': {
    title: 'checker execute report (checker execute, MCP execute_configured_checks; .checker/local/executions/<runId>/result.json)',
    schema: executionReportSchema,
  },
  'graph-report': { title: 'checker graph report', schema: graphReportSchema },
  'investigation-report': {
    title: 'checker investigation report (checker ai|agent [preflight] --investigate --dry-run, MCP agent_investigation)',
    schema: investigationReportSchema,
  },
  memory: { title: 'checker memory file (.checker/memory/*.yml, *.yaml, *.json)', schema: memoryFileSchema },
  'rules-list': { title: 'checker rules list', schema: rulesListSchema },
  'rules-validate': { title: 'checker rules validate', schema: rulesValidateSchema },
  'preflight-report': { title: 'checker preflight report (spec 2.8)', schema: preflightReportSchema },
  'product-failure': {
    title: 'checker product failure bundle (spec 2.1-2.3): one failed generated UI/API/workflow check',
    schema: productFailureSchema,
  },
  'product-failures': {
    title: 'checker product failures (MCP checker_product_failures; .checker/local/product-runs/latest-failures.json)',
    schema: productFailuresSchema,
  },
  'product-plan': {
    title: 'checker product plan (MCP checker_product_plan): targets, readiness, artifacts; executes nothing',
    schema: productPlanSchema,
  },
  'product-result': {
    title: 'checker product result (checker product --target <name>): lifecycle phases, the run report and failure bundles',
    schema: productResultSchema,
  },
  'product-run': {
    title: 'checker product run report (.checker/local/product-runs/latest.json, spec 2.12)',
    schema: productRunSchema,
  },
  'session-result': { title: 'checker session operation result (start, context, checkpoint, finish)', schema: sessionResultSchema },
  'task-context': { title: 'checker task context packet (spec 2.7)', schema: taskContextSchema },
  requirements: { title: 'checker requirements artifact (spec 2.5)', schema: requirementsSchema },
};

type JsonSchema = Record<string, unknown>;

/**
 * Where a schema can be fetched: the file as the published package ships it (`files` holds schemas/), so an editor or a
 * validator that follows `$id` finds the version it was written for under `checker-cli@<version>`.
 */
function toSchemaId(name: string): string {
  return `https://unpkg.com/checker-cli/schemas/${name}.schema.json`;
}

/** The JSON Schema document for one generated file, with the `$defs` it reaches inlined. */
export function buildJsonSchema(name: string): JsonSchema {
  const source = GENERATED_SCHEMAS[name];
  if (source === undefined) throw new Error(`no generated schema named ${name}`);
  const { $schema, ...body } = z.toJSONSchema(source.schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
    override: ({ jsonSchema }) => {
      // z.int() bounds every integer to the safe range; the contracts never come near it.
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  });
  return { $schema, $id: toSchemaId(name), title: source.title, ...body };
}

/** The file text of schemas/<name>.schema.json. */
export function renderJsonSchema(name: string): string {
  return `${JSON.stringify(buildJsonSchema(name), null, 2)}\n`;
}

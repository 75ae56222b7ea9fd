/**
 * The first thing a JSON Schema validator found wrong with a document, in the shape ajv reports it; the core turns
 * it into a message naming the field (docs/schema-errors.ts).
 */
export interface SchemaIssue {
  keyword: string;
  /** JSON pointer of the offending value (`/rules/0/id`). */
  instancePath: string;
  params: Readonly<Record<string, unknown>>;
  propertyName?: string;
  message?: string;
  schema?: unknown;
  parentSchema?: unknown;
  data?: unknown;
}

/** Checks `data` against `schemas/<schemaName>.schema.json`: undefined when valid, else the first issue. */
export type SchemaCheck = (schemaName: string, data: unknown) => SchemaIssue | undefined;

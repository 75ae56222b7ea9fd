import type { RouteContract } from './facts.js';

/**
 * A generated API check of a product target (`checker product --generate-api-tests`): one request to the configured
 * baseUrl and what its answer must not be. Built from the graph's API routes; its id is stable across runs
 * (`api:<target>:<method>.<path slug>:<concern>`) so `--test-id` can rerun exactly it.
 */
export type ApiConcern =
  | 'valid-not-5xx'
  | 'missing-body-4xx'
  | 'invalid-body-4xx'
  | 'unknown-id-404'
  | 'oversized-body-4xx'
  | 'no-credentials-401';

export interface ApiRequest {
  method: string;
  /** Path with every parameter filled, starting with `/`; always sent to the target's baseUrl, never elsewhere. */
  path: string;
  headers: Record<string, string>;
  /** The body as sent (text), absent for none; `bodyBytes` is its size for the oversized case (the body is generated when sent). */
  body?: string;
  bodyBytes?: number;
}

export interface ApiExpectation {
  /** Statuses that fail the check (`5xx` always does). */
  failOn: ('5xx' | '2xx' | '3xx')[];
  /** What a good answer is, in words, for the report and the failure bundle. */
  expected: string;
  /** Error answers are also checked for stack traces and secrets. */
  noLeak: true;
}

export interface ApiCheckSpec {
  id: string;
  kind: 'api';
  concern: ApiConcern;
  title: string;
  /** The route it exercises: the graph's method, full path and declaring file and line. */
  route: { method: string; path: string; file: string; line: number };
  /** The files that serve it: the declaring file, then the handler's file and the modules it calls (the graph's chain). */
  files: string[];
  request: ApiRequest;
  expect: ApiExpectation;
  steps: string[];
  /** What the route's OpenAPI operation declares, when a document in the repository declares it. */
  contract?: RouteContract & { document: string };
}

import type { RouteContract, RouteFact } from '../model/facts.js';

const operationMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const maxRoutes = 10_000;

/**
 * Routes declared by an OpenAPI 3.x or Swagger 2 document that is already parsed from YAML or
 * JSON: one per path and operation, `{id}` written as `:id`, server base paths ignored. Any other
 * value gives no routes; hostile shapes never throw.
 */
export function extractOpenApiRoutes(doc: unknown): RouteFact[] {
  try {
    return collectRoutes(doc);
  } catch {
    return [];
  }
}

function collectRoutes(doc: unknown): RouteFact[] {
  if (!isPlainObject(doc)) return [];
  const version = getOwn(doc, 'openapi');
  const swagger = getOwn(doc, 'swagger');
  const isOpenApi3 = typeof version === 'string' && /^3\.\d+/.test(version);
  const isSwagger2 = (typeof swagger === 'string' && /^2\.0/.test(swagger)) || swagger === 2;
  if (!isOpenApi3 && !isSwagger2) return [];
  const paths = getOwn(doc, 'paths');
  if (!isPlainObject(paths)) return [];
  const routes: RouteFact[] = [];
  const documentSecurity = getOwn(doc, 'security');
  const keys = Object.keys(paths).sort();
  for (const key of keys) {
    if (!key.startsWith('/')) continue;
    const item = getOwn(paths, key);
    if (!isPlainObject(item)) continue;
    for (const method of operationMethods) {
      const operation = getOwn(item, method);
      if (!isPlainObject(operation)) continue;
      routes.push({
        method: method.toUpperCase(),
        path: toRoutePath(key),
        framework: 'openapi',
        kind: 'api',
        line: 1,
        contract: toContract(operation, documentSecurity),
      });
      if (routes.length >= maxRoutes) return routes;
    }
  }
  return routes;
}

const RESPONSE_KEY = /^(?:[1-5](?:\d\d|XX)|default)$/;

/** The operation's own `security` wins over the document's; `[]` or an empty `{}` alternative means no credentials. */
function toContract(operation: Record<string, unknown>, documentSecurity: unknown): RouteContract {
  const own = getOwn(operation, 'security');
  const security = Array.isArray(own) ? own : Array.isArray(documentSecurity) ? documentSecurity : undefined;
  const responses = getOwn(operation, 'responses');
  return {
    security:
      security === undefined
        ? 'unspecified'
        : security.length === 0 || security.some((requirement) => isPlainObject(requirement) && Object.keys(requirement).length === 0)
          ? 'none'
          : 'required',
    responses: isPlainObject(responses)
      ? Object.keys(responses)
          .map((status) => status.toUpperCase().replace(/^DEFAULT$/, 'default'))
          .filter((status) => RESPONSE_KEY.test(status))
          .sort()
      : [],
  };
}

function toRoutePath(path: string): string {
  return path.replace(/\{([^{}/]+)\}/g, ':$1');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function getOwn(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

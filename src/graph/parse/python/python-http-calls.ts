import type { HttpCallFact } from '../../../model/facts.js';
import {
  getCallParts,
  getDottedName,
  getLine,
  getParts,
  getPositional,
  getStringValue,
  getText,
  type PyFile,
  type PyNode,
  readFormatString,
  visit,
} from './python-tree.js';

/** The request methods of the test clients of Django, Flask, Starlette/FastAPI and DRF. */
const METHODS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
/** A receiver that is a test client: `self.client`, `client`, `api_client`, `app.test_client()`. */
const CLIENT = /(?:^|[._])(?:test_)?client(?:\(\))?$/i;

/**
 * The requests a Python test client sends with a path known here (Django's `self.client.get("/a/")`, Flask's
 * `client.post("/login")`, FastAPI's `TestClient(app).get(f"/items/{item_id}")`), so that a test links to the route it
 * calls, as supertest's requests do in JavaScript: healthchecks' gotify test posts to
 * `f"/projects/{self.project.code}/add_gotify/"`, kept in `self.url` by its setUp, and was not known to test that route.
 * A path held in a name (`url`, `self.url`) is the string or f-string the file assigns that name, when it assigns it
 * one value only. Each interpolated part reads `{name}`.
 */
export function collectHttpCalls(file: PyFile): HttpCallFact[] {
  let assigned: Map<string, string | null> | undefined;
  const calls: HttpCallFact[] = [];
  visit(file.root, (node) => {
    if (node.type !== 'call') return undefined;
    const { callee, args } = getCallParts(node);
    if (callee?.type !== 'attribute') return undefined;
    const [receiver, property] = getParts(callee);
    const method = property === undefined ? '' : getText(file, property);
    if (receiver === undefined || !METHODS.has(method) || !CLIENT.test(getText(file, receiver).replace(/\s+/g, ''))) return undefined;
    const target = getPositional(args)[0];
    if (target === undefined) return undefined;
    let path = toPath(file, target);
    if (path === undefined && (target.type === 'identifier' || target.type === 'attribute')) {
      assigned ??= collectAssignedPaths(file);
      path = assigned.get(getText(file, target)) ?? undefined;
    }
    const request = path === undefined ? undefined : toRequestPath(path);
    if (request !== undefined)
      calls.push({ method: method.toUpperCase(), path: request, client: 'test-client', line: getLine(file, node) });
    return undefined;
  });
  return calls;
}

/** A string literal's value, or an f-string with each interpolation as `{name}`; undefined for anything else. */
function toPath(file: PyFile, node: PyNode): string | undefined {
  return getStringValue(file, node) ?? readFormatString(file, node, (expression) => `{${expression}}`);
}

/** The paths a name (`url`, `self.url`) is assigned in the file: null when it is assigned more than one. */
function collectAssignedPaths(file: PyFile): Map<string, string | null> {
  const paths = new Map<string, string | null>();
  visit(file.root, (node) => {
    if (node.type !== 'assignment') return undefined;
    const [left, right] = [node.children[0], node.children[node.children.length - 1]];
    if (left === undefined || right === undefined || left === right) return undefined;
    const name = getDottedName(file, left);
    const path = toPath(file, right);
    if (name === undefined || path === undefined) return undefined;
    const known = paths.get(name);
    paths.set(name, known === undefined || known === path ? path : null);
    return undefined;
  });
  return paths;
}

/** The path part of a requested URL with a leading `/` (the origin, query and hash dropped); undefined when it is none. */
function toRequestPath(url: string): string | undefined {
  const path = url.replace(/^https?:\/\/[^/]+/, '').replace(/[?#].*$/, '');
  return path.startsWith('/') ? path : undefined;
}

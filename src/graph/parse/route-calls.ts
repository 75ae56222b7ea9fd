import type { RouteFramework } from '../../model/facts.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  isFunctionNode,
  unwrapExpression,
} from './swc-node.js';

export const httpMethods = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'options', 'head', 'all']);
const chainMethods = new Set([...httpMethods, 'use', 'on', 'route']);

export interface Receiver {
  /** The router variable at the root of the chain (`app`, `this.router` → `router`). */
  root: string;
  /** `router.route('/x').get(h)`: the path given to `route()`. */
  routePath?: string;
  /** The root is an identifier (not `this.x`), so it can be a parameter or an import. */
  isIdentifier: boolean;
}

const FIELD_ROUTER = /^(?:app|router)$|(?:Router|App)$/;

export function resolveReceiver(node: AstNode | undefined, depth = 0): Receiver | undefined {
  const value = unwrapExpression(node);
  if (value === undefined || depth > 20) return undefined;
  if (value.type === 'Identifier') {
    const root = getDottedName(value);
    return root === undefined ? undefined : { root, isIdentifier: true };
  }
  if (value.type === 'MemberExpression' && unwrapExpression(getNode(value, 'object'))?.type === 'ThisExpression') {
    const root = getPropertyName(value);
    return root === undefined ? undefined : { root, isIdentifier: false };
  }
  // `args.app.get('/x', …)`: an app or a router handed over as a field of an argument (etherpad's plugin hooks). Only
  // the names that say app or router: a field named `server` or `api` is as often a client.
  if (value.type === 'MemberExpression' && unwrapExpression(getNode(value, 'object'))?.type === 'Identifier') {
    const root = getPropertyName(value);
    return root === undefined || !FIELD_ROUTER.test(root) ? undefined : { root, isIdentifier: false };
  }
  if (value.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(getNode(value, 'callee'));
  if (callee?.type !== 'MemberExpression') return undefined;
  const method = getPropertyName(callee);
  if (method === undefined || !chainMethods.has(method)) return undefined;
  const inner = resolveReceiver(getNode(callee, 'object'), depth + 1);
  if (inner === undefined) return undefined;
  const args = getExpressions(value, 'arguments');
  if (method === 'route' && args.length === 1) {
    const routePath = getStaticString(args[0]);
    if (routePath !== undefined) return { ...inner, routePath };
  }
  return inner;
}

export function isHandlerLike(node: AstNode | undefined): boolean {
  const value = unwrapExpression(node);
  if (value === undefined) return false;
  return (
    isFunctionNode(value) ||
    value.type === 'Identifier' ||
    value.type === 'MemberExpression' ||
    value.type === 'CallExpression' ||
    value.type === 'ArrayExpression'
  );
}

/** Name of a handler reference: `listUsers`, `users.list`, or the wrapped `asyncHandler(listUsers)`. */
export function getHandlerName(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  if (value.type === 'Identifier' || value.type === 'MemberExpression') return getDottedName(value);
  if (value.type === 'CallExpression') {
    const args = getExpressions(value, 'arguments');
    const last = unwrapExpression(args[args.length - 1]);
    if (last !== undefined && (last.type === 'Identifier' || last.type === 'MemberExpression')) return getDottedName(last);
  }
  return undefined;
}

/** Middleware names: identifiers, member expressions, and the callee of calls (`requireRole('admin')`). */
export function getMiddlewareNames(nodes: AstNode[]): string[] {
  const names: string[] = [];
  for (const node of nodes) {
    const value = unwrapExpression(node);
    if (value === undefined) continue;
    if (value.type === 'ArrayExpression') names.push(...getMiddlewareNames(getExpressions(value, 'elements')));
    else if (value.type === 'Identifier' || value.type === 'MemberExpression') {
      const name = getDottedName(value);
      if (name !== undefined) names.push(name);
    } else if (value.type === 'CallExpression') {
      const name = getDottedName(getNode(value, 'callee'));
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

export function getObjectProperty(object: AstNode, key: string): AstNode | undefined {
  for (const property of getNodes(object, 'properties')) {
    if (property.type === 'KeyValueProperty' && getKeyName(getNode(property, 'key')) === key) {
      return unwrapExpression(getNode(property, 'value'));
    }
    if (property.type === 'Identifier' && getKeyName(property) === key) return property;
  }
  return undefined;
}

/** Upper-case methods from `'GET'` or `['GET', 'POST']`. */
export function getMethodList(node: AstNode | undefined): string[] {
  const value = unwrapExpression(node);
  if (value === undefined) return [];
  const single = getStaticString(value);
  if (single !== undefined) return [single.toUpperCase()];
  if (value.type !== 'ArrayExpression') return [];
  const methods: string[] = [];
  for (const element of getExpressions(value, 'elements')) {
    const method = getStaticString(element);
    if (method !== undefined) methods.push(method.toUpperCase());
  }
  return methods;
}

export function joinRoutePaths(...parts: string[]): string {
  const segments: string[] = [];
  for (const part of parts) for (const segment of part.split('/')) if (segment !== '') segments.push(segment);
  return `/${segments.join('/')}`;
}

/** Prefixes are joined with the declared path; an already absolute declared path stays as written. */
export function applyPrefix(prefix: string, path: string): string {
  if (prefix === '' || prefix === '/') return path;
  if (path === '' || path === '/') return joinRoutePaths(prefix);
  if (path === '*' || path.startsWith('/')) return joinRoutePaths(prefix) + (path === '*' ? '/*' : path);
  return joinRoutePaths(prefix, path);
}

const routerLikeNames = /^(app|router|server|api|fastify|routes?|instance|subApp|apiApp|apiRouter)$|(Router|Routes|App|Server|Api)$/;

export function isRouterLikeName(name: string): boolean {
  return routerLikeNames.test(name);
}

/** Frameworks that register routes as express does (`app.get('/:name', handler)`): tinyhttp, polka, ultimate-express. */
const EXPRESS_LIKE = new Set(['express', 'ultimate-express', '@tinyhttp/app', '@tinyhttp/router', 'polka']);

export function getFrameworkOfModule(specifier: string): RouteFramework | undefined {
  if (EXPRESS_LIKE.has(specifier)) return 'express';
  if (specifier === 'fastify') return 'fastify';
  if (specifier === 'hono' || specifier.startsWith('hono/')) return 'hono';
  if (specifier === '@koa/router' || specifier === 'koa-router' || specifier === 'koa') return 'koa';
  return undefined;
}

export function findDecoratorCall(decorators: AstNode[], name: string): AstNode | undefined {
  for (const decorator of decorators) {
    const call = unwrapExpression(getNode(decorator, 'expression'));
    if (call?.type === 'CallExpression' && getIdentifierName(unwrapExpression(getNode(call, 'callee'))) === name) return call;
  }
  return undefined;
}

export function getGuardArguments(decorators: AstNode[]): AstNode[] {
  const call = findDecoratorCall(decorators, 'UseGuards');
  return call === undefined ? [] : getExpressions(call, 'arguments');
}

/** A route path argument: a string, template, concatenation, constant reference or call (a dynamic path). */
export function isPathExpression(node: AstNode | undefined): boolean {
  const value = unwrapExpression(node);
  if (value === undefined) return false;
  return ['StringLiteral', 'TemplateLiteral', 'BinaryExpression', 'Identifier', 'MemberExpression', 'CallExpression'].includes(value.type);
}

const constantLikeName = /^[A-Z][A-Z0-9_]*$|(?:path|prefix|base|url|endpoint|route)s?$/i;

/** The first `use` argument is a prefix: a string or template, or a constant (`API_PREFIX`, `paths.admin`). */
export function isPrefixExpression(node: AstNode | undefined, isConstant: (name: string) => boolean): boolean {
  if (node === undefined) return false;
  if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral' || node.type === 'BinaryExpression') return true;
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') return false;
  const name = getDottedName(node);
  if (name === undefined) return false;
  const last = name.slice(name.lastIndexOf('.') + 1);
  return isConstant(name) || constantLikeName.test(last);
}

export function getMountTarget(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  if (value.type === 'Identifier' || value.type === 'MemberExpression') return getDottedName(value);
  if (value.type === 'CallExpression') {
    const callee = unwrapExpression(getNode(value, 'callee'));
    if (callee?.type === 'MemberExpression' && getPropertyName(callee) === 'routes') return getDottedName(getNode(callee, 'object'));
    if (getIdentifierName(callee) === 'require') {
      const specifier = getStaticString(unwrapExpression(getExpressions(value, 'arguments')[0]));
      if (specifier !== undefined) return `require:${specifier}`;
    }
  }
  return undefined;
}

export function getOptionsPrefix(node: AstNode | undefined): string {
  const value = unwrapExpression(node);
  if (value?.type !== 'ObjectExpression') return '';
  return getStaticString(getObjectProperty(value, 'prefix')) ?? '';
}

/** The setting a Nest `RouterModule.register(…)` call is recorded as (UseFact.modulePaths holds what it registers). */
export const NEST_ROUTER_MODULE = 'RouterModule.register';

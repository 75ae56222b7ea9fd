import type { ChainEntryFact } from '../../model/facts.js';
import type { MiddlewareRole } from '../../model/graph.js';
import { type SymbolIndex, type SymbolTarget, toCallableKey } from '../symbol-index.js';

/** Packages whose use shows what a middleware does. */
const LIBRARY_ROLES: ReadonlyArray<{ role: Exclude<MiddlewareRole, 'other'>; pattern: RegExp }> = [
  {
    role: 'rate-limit',
    pattern:
      /^(?:express-rate-limit|express-slow-down|rate-limiter-flexible|@fastify\/rate-limit|koa-ratelimit|koa2-ratelimit|hono-rate-limiter|@nestjs\/throttler|express-brute)(?:\/|$)/,
  },
  {
    role: 'auth',
    pattern:
      /^(?:passport(?:-[\w-]+)?|jsonwebtoken|jose|express-jwt|express-session|cookie-session|next-auth|@auth\/[\w-]+|@clerk\/[\w-]+|express-openid-connect|keycloak-connect|@fastify\/jwt|@fastify\/auth|@fastify\/passport|@fastify\/session|koa-passport|koa-jwt|@nestjs\/passport|@nestjs\/jwt|hono\/jwt|hono\/basic-auth|hono\/bearer-auth|express-basic-auth|firebase-admin|@supabase\/supabase-js|lucia|better-auth|iron-session|@okta\/[\w-]+)(?:\/|$)/,
  },
  {
    role: 'validation',
    pattern:
      /^(?:zod|joi|@hapi\/joi|ajv|celebrate|express-validator|yup|class-validator|valibot|superstruct|@sinclair\/typebox|@hono\/zod-validator|hono\/validator|express-joi-validation|@fastify\/type-provider-typebox)(?:\/|$)/,
  },
];

const STATUS_ROLES: ReadonlyArray<{ role: Exclude<MiddlewareRole, 'other'>; statuses: number[] }> = [
  { role: 'auth', statuses: [401, 403] },
  { role: 'rate-limit', statuses: [429] },
  { role: 'validation', statuses: [400, 422] },
];

const RATE_LIMIT_NAME = /limit(?:er)?|throttl|slow-?down/i;
const AUTH_NAME =
  /auth|login|session|jwt|passport|guard|protect|require(?:d)?(?:user|role|admin|login)|permission|verify(?:token|user)|authori[sz]e|signed-?in|logged-?in/i;
const VALIDATION_NAME = /valid|schema|sanitiz/i;

const MAX_VISITS = 60;
const MAX_DEPTH = 5;

export interface MiddlewareClass {
  role: MiddlewareRole;
  evidence: string[];
  confidence: 'high' | 'low';
  definedIn?: { file: string; line: number; name: string };
}

interface Found {
  libraries: Map<Exclude<MiddlewareRole, 'other'>, string>;
  statuses: Map<number, string>;
}

/**
 * Classifies one middleware argument by what its code does: the packages it (or code it calls)
 * uses, and the statuses it responds with. Only when the code shows nothing does the name decide,
 * at low confidence; a rate limiter named like auth (`authLimiter`) stays a rate limiter.
 */
export function classifyMiddleware(symbols: SymbolIndex, file: string, entry: ChainEntryFact): MiddlewareClass {
  const found: Found = { libraries: new Map(), statuses: new Map() };
  let definedIn: MiddlewareClass['definedIn'];
  const direct = [entry.callee, entry.name].filter((name): name is string => name !== undefined);
  for (const name of direct) {
    const target = symbols.resolveName(file, name);
    if (target?.kind === 'package') {
      const role = getLibraryRole(target.packageName) ?? getLibraryRole(target.specifier);
      if (role !== undefined)
        return { role, evidence: [`${entry.callee === name ? 'calls' : 'uses'} ${name} from ${target.packageName}`], confidence: 'high' };
    }
    if (target?.kind === 'callable' && definedIn === undefined) {
      const callable = symbols.getCallable(target.file, target.name);
      if (callable !== undefined) definedIn = { file: target.file, line: callable.span.start, name: target.name };
    }
  }
  for (const status of entry.statuses ?? []) found.statuses.set(status, `inline (${file})`);
  collect(symbols, file, entry.refs, found);
  const label = entry.callee ?? entry.name ?? 'inline middleware';
  const fromCode = decide(found);
  if (fromCode !== undefined) return withDefinition({ ...fromCode, confidence: 'high' }, definedIn);
  const byName = classifyByName(label);
  if (byName !== undefined) return withDefinition({ role: byName, evidence: ['name only'], confidence: 'low' }, definedIn);
  return withDefinition({ role: 'other', evidence: [], confidence: 'low' }, definedIn);
}

function withDefinition(result: MiddlewareClass, definedIn: MiddlewareClass['definedIn']): MiddlewareClass {
  return definedIn === undefined ? result : { ...result, definedIn };
}

function getLibraryRole(packageName: string): Exclude<MiddlewareRole, 'other'> | undefined {
  for (const { role, pattern } of LIBRARY_ROLES) if (pattern.test(packageName)) return role;
  return undefined;
}

function classifyByName(name: string): MiddlewareRole | undefined {
  if (RATE_LIMIT_NAME.test(name)) return 'rate-limit';
  if (AUTH_NAME.test(name)) return 'auth';
  if (VALIDATION_NAME.test(name)) return 'validation';
  return undefined;
}

/** Evidence in order of strength: a role's own library, then the statuses the code responds with. */
function decide(found: Found): { role: MiddlewareRole; evidence: string[] } | undefined {
  for (const role of ['rate-limit', 'auth', 'validation'] as const) {
    const library = found.libraries.get(role);
    if (library !== undefined) return { role, evidence: [library] };
  }
  const roles = STATUS_ROLES.map(({ role, statuses }) => ({ role, hits: statuses.filter((status) => found.statuses.has(status)) })).filter(
    ({ hits }) => hits.length > 0,
  );
  // A guard answers with its own statuses; code that answers 400 and 401 and 429 maps errors to statuses (an error
  // handler), whatever its name: it guards nothing.
  if (roles.length > 1) {
    const statuses = roles.flatMap(({ hits }) => hits).sort((a, b) => a - b);
    return {
      role: 'other',
      evidence: [`maps errors to statuses ${statuses.join(', ')} (${roles.map(({ role }) => role).join(', ')}): no single guard`],
    };
  }
  const [only] = roles;
  if (only !== undefined)
    return { role: only.role, evidence: only.hits.map((status) => `responds ${status} in ${found.statuses.get(status) ?? 'its code'}`) };
  return undefined;
}

/** Follows references breadth-first through repository code, noting packages and statuses. */
function collect(symbols: SymbolIndex, file: string, refs: readonly string[], found: Found): void {
  const queue: { file: string; refs: readonly string[]; depth: number; via: string | undefined }[] = [
    { file, refs, depth: 0, via: undefined },
  ];
  const seen = new Set<string>();
  let visits = 0;
  while (queue.length > 0 && visits < MAX_VISITS) {
    const item = queue.shift();
    if (item === undefined) break;
    for (const ref of item.refs) {
      const target = symbols.resolveName(item.file, ref);
      if (target === undefined) continue;
      noteTarget(target, ref, item.via, found);
      if (target.kind !== 'callable' || item.depth >= MAX_DEPTH) continue;
      for (const callable of getWithMembers(symbols, target)) {
        const key = toCallableKey(target.file, callable.name);
        if (seen.has(key)) continue;
        seen.add(key);
        visits++;
        const via = item.via ?? `${callable.name} (${target.file})`;
        for (const status of callable.statuses ?? [])
          if (!found.statuses.has(status)) found.statuses.set(status, `${callable.name} (${target.file})`);
        queue.push({ file: target.file, refs: callable.refs, depth: item.depth + 1, via });
      }
    }
  }
}

function noteTarget(target: SymbolTarget, ref: string, via: string | undefined, found: Found): void {
  if (target.kind !== 'package') return;
  const role = getLibraryRole(target.packageName) ?? getLibraryRole(target.specifier);
  if (role === undefined || found.libraries.has(role)) return;
  const member = ref.includes('.')
    ? ref.slice(ref.indexOf('.') + 1)
    : target.imported === 'default' || target.imported === '*'
      ? undefined
      : target.imported;
  const what = `uses ${target.packageName}${member === undefined ? '' : ` (${member})`}`;
  found.libraries.set(role, via === undefined ? what : `calls ${via}, which ${what}`);
}

/** A class stands for its members too: a guard's work happens in `canActivate`. */
function getWithMembers(
  symbols: SymbolIndex,
  target: { file: string; name: string },
): { name: string; refs: string[]; statuses?: number[] }[] {
  const own = symbols.getCallable(target.file, target.name);
  const prefix = `${target.name}.`;
  const members = target.name.includes('.') ? [] : symbols.getCallables(target.file).filter((callable) => callable.name.startsWith(prefix));
  return own === undefined ? members : [own, ...members];
}

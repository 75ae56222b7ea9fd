import type { ImpactedRoute, RouteGuardSummary } from '../../model/analysis.js';
import type { AuthzFact, Span } from '../../model/facts.js';
import type { ChainLink, HandlesEdge, RouteNode, RouteRegistration } from '../../model/graph.js';
import type { KnowledgeGraph } from '../build.js';
import { parseCallableKey, type SymbolIndex } from '../symbol-index.js';
import { type ChangedLines, findReachedCallables, overlaps, type ReachedCallables, type RouteChange } from './call-chains.js';
import { isOmittedMarker } from './shown-path.js';
import { compareText } from '../../text/compare-text.js';

export type { RouteChange } from './call-chains.js';

export interface ImpactReach {
  path: string;
  distance: number;
  /** Files from the changed file up to the one `path` imports (`via[0]` changed, `via.length === distance`, or shortened as `findReverseReach` shortens it). */
  via: string[];
}

interface Evidence {
  distance: number;
  steps: string[];
  files: string[];
  reason: string;
  direct: boolean;
  reach: 'handler' | 'file';
  registration: { file: string; line: number };
}

const NOTHING_REACHED: ReachedCallables = {
  has: () => false,
  files: new Set(),
  getFirstCallable: () => undefined,
  describe: () => ({ steps: [], files: [], count: 0 }),
};

/**
 * Routes the change reaches through their handler chains: a changed line in the handler, in a
 * middleware of its chain, or in a mount it is served under; or a changed function that the handler
 * or a middleware calls, directly or through functions in other files (the symbol reference index).
 * A module that only declares other routes does not reach them. Handlers that cannot be followed
 * statically fall back to file imports (`reach: 'file'`). Sorted direct first, then by distance, then by id.
 */
export function findRouteImpacts(
  knowledge: KnowledgeGraph,
  changes: readonly (string | RouteChange)[],
  impacted: readonly ImpactReach[],
): ImpactedRoute[] {
  let hasRoutes = false;
  knowledge.graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'route') hasRoutes = true;
  });
  if (!hasRoutes || changes.length === 0) return [];
  const normalized = changes.map((change): RouteChange => (typeof change === 'string' ? { path: change } : change));
  const changedLines = new Map<string, ReadonlySet<number> | 'all'>();
  for (const change of normalized) changedLines.set(change.path, change.changedLines === undefined ? 'all' : new Set(change.changedLines));
  const reachedFiles = new Map(impacted.map((entry) => [entry.path, entry]));
  const symbols = knowledge.symbols;
  const reached =
    symbols === undefined
      ? NOTHING_REACHED
      : findReachedCallables(symbols, normalized, changedLines, [...changedLines.keys(), ...reachedFiles.keys()]);

  const rules = symbols === undefined ? [] : findChangedRules(symbols, normalized);
  const routes: ImpactedRoute[] = [];
  const distances = new Map<string, number>();
  knowledge.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'route') return;
    let best: Evidence | undefined;
    for (const registration of attributes.registrations ?? []) {
      const evidence = evaluateRegistration(attributes, registration, changedLines, reached, reachedFiles);
      if (evidence !== undefined && isBetter(evidence, best)) best = evidence;
      if (rules.length > 0 && symbols !== undefined) {
        const policy = evaluatePolicies(attributes, registration, rules, symbols);
        if (policy !== undefined && isBetter(policy, best)) best = policy;
      }
    }
    if ((attributes.registrations?.length ?? 0) === 0) {
      const evidence = evaluateFileRoute(knowledge, id, attributes, changedLines, reached, reachedFiles);
      if (evidence !== undefined && isBetter(evidence, best)) best = evidence;
    }
    if (best === undefined) return;
    const route: ImpactedRoute = {
      id,
      method: attributes.method,
      path: attributes.path,
      kind: attributes.routeKind,
      framework: attributes.framework,
      file: best.registration.file,
      line: best.registration.line,
      reason: best.reason,
      chain: best.files,
      direct: best.direct,
      reach: best.reach,
      steps: best.steps,
    };
    const guards = summarizeGuards(attributes);
    if (guards.length > 0) route.guards = guards;
    distances.set(id, best.distance);
    routes.push(route);
  });
  return routes.sort(
    (left, right) =>
      Number(right.direct) - Number(left.direct) ||
      (distances.get(left.id) ?? 0) - (distances.get(right.id) ?? 0) ||
      compareText(left.id, right.id),
  );
}

/** An authorization rule the change adds, edits or removes (`allow(User, "delete", FileOperation, …)` on a changed line). */
interface ChangedRule {
  file: string;
  line: number;
  actions: readonly string[];
  subject: string;
}

function findChangedRules(symbols: SymbolIndex, changes: readonly RouteChange[]): ChangedRule[] {
  const rules: ChangedRule[] = [];
  for (const change of changes) {
    const head = change.headFacts ?? symbols.getFacts(change.path);
    const headLines = change.changedLines === undefined ? 'all' : new Set(change.changedLines);
    const sides: [readonly AuthzFact[], ReadonlySet<number> | 'all'][] = [[head?.authz ?? [], headLines]];
    if (change.deletedLines !== undefined) sides.push([change.baseFacts?.authz ?? [], new Set(change.deletedLines)]);
    for (const [facts, lines] of sides) {
      for (const fact of facts) {
        const line = fact.kind === 'rule' ? overlaps(fact.span, lines) : undefined;
        if (line === undefined) continue;
        if (rules.some((rule) => rule.file === change.path && rule.subject === fact.subject && rule.actions.join() === fact.actions.join()))
          continue;
        rules.push({ file: change.path, line: fact.span.start, actions: fact.actions, subject: fact.subject });
      }
    }
  }
  return rules;
}

/** The rule governs the check: the same action (or CASL's `manage`) on the same subject, without case (or CASL's `all`). */
function governs(rule: ChangedRule, check: AuthzFact): boolean {
  const action = check.actions[0] ?? '';
  const subject = rule.subject.toLowerCase();
  return (
    (rule.actions.includes(action) || rule.actions.includes('manage')) && (subject === 'all' || subject === check.subject.toLowerCase())
  );
}

/**
 * A route whose handler or middleware (or a function they call directly) checks an action on a subject that a changed
 * rule governs: `authorize(user, "delete", fileOperation)` in the handler of `POST /api/fileOperations.delete`, and
 * the change edits `allow(User, "delete", FileOperation, …)`. Policies are usually registered by side-effect imports and
 * consulted by name, so neither imports nor calls lead from the rule to the route.
 */
function evaluatePolicies(
  route: RouteNode,
  registration: RouteRegistration,
  rules: readonly ChangedRule[],
  symbols: SymbolIndex,
): Evidence | undefined {
  const label = `${route.method} ${route.path}`;
  for (const link of registration.chain) {
    for (const place of getCheckedPlaces(link, symbols)) {
      for (const check of symbols.getFacts(place.file)?.authz ?? []) {
        if (check.kind !== 'check' || check.span.start < place.span.start || check.span.end > place.span.end) continue;
        const rule = rules.find((candidate) => governs(candidate, check));
        if (rule === undefined) continue;
        const action = check.actions[0] ?? '';
        const via = link.role === 'handler' ? 'handler' : `middleware ${link.name}`;
        const checkAt = `${place.file}:${check.span.start}`;
        const ruleAt = `${rule.file}:${rule.line}`;
        return {
          distance: 1,
          steps: [
            `handler ${label} (${registration.file}:${registration.line})`,
            `${via} checks "${action}" on ${check.subject} (${checkAt})`,
            `changed rule for "${action}" on ${rule.subject} (${ruleAt})`,
          ],
          files: [rule.file, place.file, registration.file].filter((file, index, all) => all.indexOf(file) === index),
          reason: `${via} of ${label} checks "${action}" on ${check.subject} (${checkAt}), and the change alters the rule for it (${ruleAt})`,
          direct: false,
          reach: 'handler',
          registration: { file: registration.file, line: registration.line },
        };
      }
    }
  }
  return undefined;
}

/** Where a link's checks can stand: its own lines, and the functions it names (a handler defined elsewhere). */
function getCheckedPlaces(link: ChainLink, symbols: SymbolIndex): { file: string; span: Span }[] {
  const places = [{ file: link.file, span: link.span }];
  for (const target of link.targets) {
    const { file, name } = parseCallableKey(target);
    const callable = name === '*' ? undefined : symbols.getCallable(file, name);
    if (callable !== undefined && !(file === link.file && callable.span.start >= link.span.start && callable.span.end <= link.span.end))
      places.push({ file, span: callable.span });
  }
  return places;
}

function summarizeGuards(route: RouteNode): RouteGuardSummary[] {
  return (route.guards ?? [])
    .filter((guard) => guard.role !== 'other')
    .map((guard) => ({ name: guard.name, role: guard.role, level: guard.level, evidence: guard.evidence, confidence: guard.confidence }));
}

function isBetter(next: Evidence, known: Evidence | undefined): boolean {
  if (known === undefined) return true;
  if (next.reach !== known.reach) return next.reach === 'handler';
  if (next.direct !== known.direct) return next.direct;
  return (
    next.distance < known.distance || (next.distance === known.distance && compareText(next.steps.join('\0'), known.steps.join('\0')) < 0)
  );
}

function evaluateRegistration(
  route: RouteNode,
  registration: RouteRegistration,
  changedLines: ChangedLines,
  reached: ReachedCallables,
  reachedFiles: ReadonlyMap<string, ImpactReach>,
): Evidence | undefined {
  const label = `${route.method} ${route.path}`;
  const head = `handler ${label} (${registration.file}:${registration.line})`;
  const at = { file: registration.file, line: registration.line };
  const ownLines = changedLines.get(registration.file);
  const handler = registration.chain.find((link) => link.role === 'handler');
  if (ownLines !== undefined) {
    const line = overlaps(registration.span, ownLines);
    if (line !== undefined) {
      const where = handler !== undefined && overlaps(handler.span, ownLines) !== undefined ? 'the handler' : 'the registration';
      return {
        distance: 0,
        steps: [head, `changed line ${line} of ${where} (${registration.file})`],
        files: [registration.file],
        reason: `${registration.file} (changed) changes ${where} of ${label} on line ${line}`,
        direct: true,
        reach: 'handler',
        registration: at,
      };
    }
  }
  let best: Evidence | undefined;
  for (const link of registration.chain) {
    const linkLines = changedLines.get(link.file);
    const middlewareStep = link.role === 'handler' ? [] : [`middleware ${link.name} (${link.file}:${link.span.start})`];
    if (linkLines !== undefined && link.role !== 'handler') {
      const line = overlaps(link.span, linkLines);
      if (line !== undefined) {
        const candidate: Evidence = {
          distance: 0,
          steps: [head, ...middlewareStep, `changed line ${line} of middleware ${link.name} (${link.file})`],
          files: [link.file, registration.file].filter((file, index, all) => all.indexOf(file) === index),
          reason: `middleware ${link.name} of ${label} changed (${link.file}:${line})`,
          direct: link.file === registration.file,
          reach: 'handler',
          registration: at,
        };
        if (isBetter(candidate, best)) best = candidate;
      }
    }
    for (const target of link.dynamic ? [] : link.targets) {
      if (!reached.has(target)) continue;
      const calls = reached.describe(target);
      // The handler is the callable itself (a Next.js export, a NestJS method): "calls" it says nothing.
      if (
        link.role === 'handler' &&
        parseCallableKey(target).file === registration.file &&
        calls.steps.length > 1 &&
        calls.steps[0]?.startsWith('calls ') === true
      ) {
        calls.steps.shift();
        calls.count -= 1;
      }
      const files = [...calls.files];
      if (files[files.length - 1] !== registration.file) files.push(registration.file);
      const via = link.role === 'handler' ? 'handler' : `middleware ${link.name}`;
      const candidate: Evidence = {
        distance: calls.count,
        steps: [head, ...middlewareStep, ...calls.steps],
        files,
        reason: `${via} of ${label}: ${calls.steps.join(' → ')}`,
        direct: false,
        reach: 'handler',
        registration: at,
      };
      if (isBetter(candidate, best)) best = candidate;
    }
  }
  for (const mount of registration.mounts) {
    const lines = changedLines.get(mount.file);
    if (lines === undefined) continue;
    const line = overlaps(mount.span, lines);
    if (line === undefined) continue;
    const candidate: Evidence = {
      distance: 0,
      steps: [head, `changed the mount or setting it is served under (${mount.file}:${line})`],
      files: [mount.file, registration.file].filter((file, index, all) => all.indexOf(file) === index),
      reason: `${label} is served under the mount or setting on ${mount.file}:${line}, which changed`,
      direct: false,
      reach: 'handler',
      registration: at,
    };
    if (isBetter(candidate, best)) best = candidate;
  }
  if (best !== undefined) return best;
  if (handler?.dynamic === true) return evaluateFileFallback(label, registration, changedLines, reachedFiles);
  return undefined;
}

/** A handler that cannot be followed statically: reached when its file or a file it imports changed. */
function evaluateFileFallback(
  label: string,
  registration: RouteRegistration,
  changedLines: ChangedLines,
  reachedFiles: ReadonlyMap<string, ImpactReach>,
): Evidence | undefined {
  const head = `handler ${label} (${registration.file}:${registration.line}) is not statically known`;
  const at = { file: registration.file, line: registration.line };
  if (changedLines.has(registration.file)) {
    return {
      distance: 0,
      steps: [head, `changed ${registration.file} (file-level reach)`],
      files: [registration.file],
      reason: `${registration.file} (changed) declares ${label}; its handler cannot be followed, so the whole file counts`,
      direct: true,
      reach: 'file',
      registration: at,
    };
  }
  const reach = reachedFiles.get(registration.file);
  if (reach === undefined || reach.via.length === 0) return undefined;
  const files = [...reach.via, registration.file];
  const changedFile = reach.via[0] ?? registration.file;
  return {
    distance: reach.distance,
    steps: [
      head,
      ...reach.via
        .slice(1)
        .reverse()
        .map((file) => (isOmittedMarker(file) ? file : `imports ${file}`)),
      `changed ${changedFile} (file-level reach)`,
    ],
    files,
    reason: `${registration.file} imports ${changedFile} (changed) through ${reach.distance} file${reach.distance === 1 ? '' : 's'}; its handler cannot be followed, so the route counts at file level`,
    direct: false,
    reach: 'file',
    registration: at,
  };
}

/** File-based routes (Next.js pages and route handlers, OpenAPI documents): the file is the handler. */
function evaluateFileRoute(
  knowledge: KnowledgeGraph,
  id: string,
  route: RouteNode,
  changedLines: ChangedLines,
  reached: ReachedCallables,
  reachedFiles: ReadonlyMap<string, ImpactReach>,
): Evidence | undefined {
  const label = `${route.method} ${route.path}`;
  for (const source of route.sources) {
    if (source.framework === 'openapi' && changedLines.has(source.file)) {
      return {
        distance: 0,
        steps: [`document ${label} (${source.file}:${source.line})`, `changed ${source.file}`],
        files: [source.file],
        reason: `${source.file} (changed) documents ${label}`,
        direct: true,
        reach: 'handler',
        registration: { file: source.file, line: source.line },
      };
    }
  }
  let best: Evidence | undefined;
  knowledge.graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, target) => {
    if (edge.kind !== 'handles' || target.kind !== 'file') return;
    const file = target.path;
    const at = { file: edge.via === 'declaration' ? file : route.file, line: edge.via === 'declaration' ? edge.line : route.line };
    const head = `handler ${label} (${at.file}:${at.line})`;
    let candidate: Evidence | undefined;
    if (changedLines.has(file)) {
      candidate = {
        distance: 0,
        steps: [head, `changed ${file}`],
        files: [file],
        reason: describeDirect(file, label, route, edge),
        direct: true,
        reach: 'handler',
        registration: at,
      };
    } else if (reached.files.has(file) && knowledge.symbols !== undefined) {
      const key = reached.getFirstCallable(file);
      if (key !== undefined) {
        const calls = reached.describe(key);
        candidate = {
          distance: calls.count,
          steps: [head, ...calls.steps],
          files: calls.files,
          reason: `handler of ${label}: ${calls.steps.join(' → ')}`,
          direct: false,
          reach: 'handler',
          registration: at,
        };
      }
    } else if (knowledge.symbols === undefined) {
      const reach = reachedFiles.get(file);
      if (reach !== undefined && reach.via.length > 0) {
        candidate = {
          distance: reach.distance,
          steps: [head, `changed ${reach.via[0] ?? file} (file-level reach)`],
          files: [...reach.via, file],
          reason: `${file} imports ${reach.via[0] ?? ''} (changed)`,
          direct: false,
          reach: 'file',
          registration: at,
        };
      }
    }
    if (candidate !== undefined && isBetter(candidate, best)) best = candidate;
  });
  return best;
}

function describeDirect(file: string, label: string, route: RouteNode, edge: HandlesEdge): string {
  return edge.via === 'declaration'
    ? `${file} (changed) declares ${label}`
    : `handler ${file} (changed) handles ${label} declared in ${route.file}`;
}

import type { ImpactedRoute } from '../../model/analysis.js';
import type { HandlesEdge, RouteNode } from '../../model/graph.js';
import type { KnowledgeGraph } from '../build.js';

export interface ImpactReach {
  path: string;
  distance: number;
  /** Files from the changed file up to the one `path` imports (`via[0]` changed, `via.length === distance`). */
  via: string[];
}

interface Candidate {
  file: string;
  line: number;
  distance: number;
  chain: string[];
  reason: string;
  direct: boolean;
  /** Declarations before handler imports before OpenAPI documents, for equal distances. */
  rank: number;
}

const compareText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

function describeChain(chain: readonly string[]): string {
  const steps = chain.slice(0, -1).reverse();
  const [first, ...rest] = steps;
  if (first === undefined) return '';
  const tail = rest.map((step) => `, which imports ${step}`).join('');
  return `imports ${first}${tail} (changed)`;
}

function toCandidate(route: RouteNode, file: string, edge: HandlesEdge, changed: Set<string>, reached: Map<string, ImpactReach>): Candidate | undefined {
  const label = `${route.method} ${route.path}`;
  const isDeclaration = edge.via === 'declaration';
  const routeFile = isDeclaration ? file : route.file;
  const line = isDeclaration ? edge.line : route.line;
  const rank = isDeclaration ? 0 : 1;
  if (changed.has(file)) {
    const reason = isDeclaration
      ? `${file} (changed) declares ${label}`
      : `handler ${file} (changed) handles ${label} declared in ${route.file}`;
    return { file: routeFile, line, distance: 0, chain: [file], reason, direct: true, rank };
  }
  const reach = reached.get(file);
  if (reach === undefined || reach.via.length === 0) return undefined;
  const chain = [...reach.via, file];
  return { file: routeFile, line, distance: reach.distance, chain, reason: `handler ${file} ${describeChain(chain)}`, direct: false, rank };
}

function isBetter(next: Candidate, known: Candidate | undefined): boolean {
  if (known === undefined) return true;
  if (next.direct !== known.direct) return next.direct;
  return next.distance - known.distance < 0 || (next.distance === known.distance && (next.rank - known.rank < 0 || (next.rank === known.rank && compareText(next.chain.join('\0'), known.chain.join('\0')) < 0)));
}

/**
 * Routes whose declaring or handler file changed (`direct`), or is reached by the impact, through
 * `handles` edges (declarations and imported handlers); routes declared in a changed OpenAPI document
 * (direct). Each route appears once with its best reason: direct first, then the shortest chain.
 * Sorted direct first, then by distance, then by id.
 */
export function findRouteImpacts(knowledge: KnowledgeGraph, changedPaths: readonly string[], impacted: readonly ImpactReach[]): ImpactedRoute[] {
  const { graph } = knowledge;
  const changed = new Set(changedPaths);
  const reached = new Map(impacted.map((entry) => [entry.path, entry]));
  const routes: { route: ImpactedRoute; distance: number }[] = [];
  graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'route') return;
    let best: Candidate | undefined;
    graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, targetAttributes) => {
      if (edge.kind !== 'handles' || targetAttributes.kind !== 'file') return;
      const candidate = toCandidate(attributes, targetAttributes.path, edge, changed, reached);
      if (candidate !== undefined && isBetter(candidate, best)) best = candidate;
    });
    for (const source of attributes.sources) {
      if (source.framework !== 'openapi' || !changed.has(source.file)) continue;
      const candidate: Candidate = {
        file: source.file,
        line: source.line,
        distance: 0,
        chain: [source.file],
        reason: `${source.file} (changed) documents ${attributes.method} ${attributes.path}`,
        direct: true,
        rank: 2,
      };
      if (isBetter(candidate, best)) best = candidate;
    }
    if (best === undefined) return;
    routes.push({
      distance: best.distance,
      route: {
        id,
        method: attributes.method,
        path: attributes.path,
        kind: attributes.routeKind,
        framework: attributes.framework,
        file: best.file,
        line: best.line,
        reason: best.reason,
        chain: best.chain,
        direct: best.direct,
      },
    });
  });
  return routes
    .sort((left, right) => Number(right.route.direct) - Number(left.route.direct) || left.distance - right.distance || compareText(left.route.id, right.route.id))
    .map((entry) => entry.route);
}

import { sanitizeUntrustedText } from '../text/redact/redact.js';
import { compareText } from '../text/compare-text.js';

export const MAX_DIAGRAM_NODES = 30;
const LABEL_MAX_CHARS = 80;

export interface DiagramInput {
  changedFiles: readonly { path: string }[];
  impactedFiles: readonly { path: string; distance: number; via: readonly string[] }[];
  impactedRoutes: readonly { id: string; method: string; path: string; file: string; chain: readonly string[]; direct: boolean }[];
  /** Changed-path proof entries: which test files reach which changed file. */
  proof?: readonly { path: string; reachingTests: readonly string[] }[];
}

type NodeKind = 'changed' | 'impacted' | 'route' | 'test';

interface DiagramNode {
  id: string;
  kind: NodeKind;
  label: string;
}

/**
 * A Mermaid label: one line, quoted, cut from the front when long (a path's file name is at its end), with
 * `#`, `%` and `"` as entities and every character that could end the label, the node shape, the edge or the
 * Markdown fence (brackets, braces, `<>`, backticks, pipes, backslashes) removed.
 */
export function toMermaidLabel(text: string, maxChars = LABEL_MAX_CHARS): string {
  const plain = sanitizeUntrustedText(text, 1000)
    .replace(/\s+/g, ' ')
    .replace(/[[\](){}<>`|\\]/g, '')
    .trim();
  const points = [...plain];
  const body = (points.length > maxChars ? `…${points.slice(points.length - maxChars + 1).join('')}` : plain)
    .replace(/#/g, '#35;')
    .replace(/%/g, '#37;')
    .replace(/"/g, '#quot;')
    .trim();
  return `"${body === '' ? '?' : body}"`;
}

/** Splits the node budget: each kind gets its quota, then what a kind leaves unused goes to the others in order. */
function allocate(counts: Record<NodeKind, number>, maxNodes: number): Record<NodeKind, number> {
  const order: NodeKind[] = ['changed', 'impacted', 'route', 'test'];
  const base = Math.floor(maxNodes / 5);
  const quota: Record<NodeKind, number> = {
    changed: base + Math.ceil(maxNodes / 15),
    impacted: maxNodes - 3 * base - Math.ceil(maxNodes / 15),
    route: base,
    test: base,
  };
  const taken: Record<NodeKind, number> = { changed: 0, impacted: 0, route: 0, test: 0 };
  let left = maxNodes;
  for (const kind of order) {
    taken[kind] = Math.min(counts[kind], quota[kind], left);
    left -= taken[kind];
  }
  for (const kind of order) {
    const extra = Math.min(counts[kind] - taken[kind], left);
    taken[kind] += extra;
    left -= extra;
  }
  return taken;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function renderNode(node: DiagramNode): string {
  switch (node.kind) {
    case 'route':
      return `  ${node.id}([${node.label}])`;
    case 'test':
      return `  ${node.id}[[${node.label}]]`;
    default:
      return `  ${node.id}[${node.label}]`;
  }
}

/**
 * A `flowchart LR` of changed files → impacted files → routes, with the test files that reach the changed
 * files, in a fenced `mermaid` block of at most `maxNodes` nodes. A dotted edge skips nodes left out.
 * Returns '' when nothing changed.
 */
export function renderChangeDiagram(input: DiagramInput, maxNodes = MAX_DIAGRAM_NODES): string {
  const changedSet = new Set(input.changedFiles.map((file) => file.path));
  if (changedSet.size === 0) return '';
  const reach = new Map<string, number>();
  const countReach = (chain: readonly string[]): void => {
    for (const path of new Set(chain)) if (changedSet.has(path)) reach.set(path, (reach.get(path) ?? 0) + 1);
  };
  for (const file of input.impactedFiles) countReach(file.via);
  for (const route of input.impactedRoutes) countReach([...route.chain, route.file]);
  const changedPaths = [...changedSet]
    .map((path, index) => ({ path, index }))
    .sort((a, b) => (reach.get(b.path) ?? 0) - (reach.get(a.path) ?? 0) || a.index - b.index)
    .map((entry) => entry.path);
  const impacted = input.impactedFiles
    .filter((file) => !changedSet.has(file.path))
    .slice()
    .sort((a, b) => a.distance - b.distance || compareText(a.path, b.path));
  const routes = input.impactedRoutes
    .slice()
    .sort((a, b) => Number(b.direct) - Number(a.direct) || a.chain.length - b.chain.length || compareText(a.id, b.id));
  const testReach = new Map<string, Set<string>>();
  for (const entry of input.proof ?? []) {
    if (!changedSet.has(entry.path)) continue;
    for (const test of entry.reachingTests) {
      const reached = testReach.get(test) ?? new Set<string>();
      reached.add(entry.path);
      testReach.set(test, reached);
    }
  }
  const tests = [...testReach.entries()]
    .filter(([test]) => !changedSet.has(test))
    .sort(([a, x], [b, y]) => y.size - x.size || compareText(a, b))
    .map(([test]) => test);

  const taken = allocate({ changed: changedPaths.length, impacted: impacted.length, route: routes.length, test: tests.length }, maxNodes);
  const nodes: DiagramNode[] = [];
  const fileNodes = new Map<string, string>();
  const addNode = (kind: NodeKind, text: string): string => {
    const id = `n${nodes.length + 1}`;
    nodes.push({ id, kind, label: toMermaidLabel(text) });
    return id;
  };
  for (const path of changedPaths.slice(0, taken.changed)) fileNodes.set(path, addNode('changed', path));
  const isConnected = (file: { via: readonly string[] }): boolean => file.via.some((path) => fileNodes.has(path));
  const shownImpacted = [...impacted.filter(isConnected), ...impacted.filter((file) => !isConnected(file))].slice(0, taken.impacted);
  for (const file of shownImpacted) fileNodes.set(file.path, addNode('impacted', file.path));
  const shownRoutes = routes.slice(0, taken.route).map((route) => ({ route, id: addNode('route', `${route.method} ${route.path}`) }));
  const shownTests = tests.slice(0, taken.test).map((test) => ({ test, id: addNode('test', test) }));

  const edges: string[] = [];
  const seenEdges = new Set<string>();
  let edgesLeftOut = 0;
  const addEdge = (from: string, to: string, arrow: string): void => {
    const key = `${from}>${to}`;
    if (from === to || seenEdges.has(key)) return;
    seenEdges.add(key);
    if (edges.length >= maxNodes * 2) {
      edgesLeftOut += 1;
      return;
    }
    edges.push(`  ${from} ${arrow} ${to}`);
  };
  /** The last shown file of a chain, and whether it is the chain's last element (a direct edge). */
  const findShownAncestor = (chain: readonly string[]): { id: string; direct: boolean } | undefined => {
    for (let i = chain.length - 1; i >= 0; i -= 1) {
      const id = fileNodes.get(chain[i] ?? '');
      if (id !== undefined) return { id, direct: i === chain.length - 1 };
    }
    return undefined;
  };
  for (const file of shownImpacted) {
    const to = fileNodes.get(file.path);
    const from = findShownAncestor(file.via);
    if (to !== undefined && from !== undefined) addEdge(from.id, to, from.direct ? '-->' : '-.->');
  }
  for (const { route, id } of shownRoutes) {
    const from = findShownAncestor([...route.chain.filter((path) => path !== route.file), route.file]);
    if (from !== undefined) addEdge(from.id, id, from.direct ? '-->' : '-.->');
  }
  for (const { test, id } of shownTests) {
    for (const path of [...(testReach.get(test) ?? [])].sort(compareText)) {
      const from = fileNodes.get(path);
      if (from !== undefined) addEdge(from, id, '-. test .->');
    }
  }

  const leftOut = [
    changedPaths.length - taken.changed > 0 ? plural(changedPaths.length - taken.changed, 'changed file', 'changed files') : '',
    impacted.length - taken.impacted > 0 ? plural(impacted.length - taken.impacted, 'impacted file', 'impacted files') : '',
    routes.length - taken.route > 0 ? plural(routes.length - taken.route, 'route', 'routes') : '',
    tests.length - taken.test > 0 ? plural(tests.length - taken.test, 'test file', 'test files') : '',
    edgesLeftOut > 0 ? plural(edgesLeftOut, 'edge', 'edges') : '',
  ].filter((part) => part !== '');
  const byKind = (kind: NodeKind): string[] => nodes.filter((node) => node.kind === kind).map((node) => node.id);
  const classes = (['changed', 'impacted', 'route', 'test'] as const)
    .map((kind) => ({ kind, ids: byKind(kind) }))
    .filter((entry) => entry.ids.length > 0)
    .map((entry) => `  class ${entry.ids.join(',')} ${entry.kind}`);
  const lines = [
    '```mermaid',
    'flowchart LR',
    ...(leftOut.length > 0
      ? [`  %% left out to keep the diagram small: ${leftOut.join(', ')} (use --format json for the full lists)`]
      : []),
    ...nodes.map(renderNode),
    ...edges,
    '  classDef changed fill:#fde2e2,stroke:#c0392b',
    '  classDef impacted fill:#fff4d6,stroke:#b7950b',
    '  classDef route fill:#e3f2fd,stroke:#1f618d',
    '  classDef test fill:#e8f5e9,stroke:#1e8449',
    ...classes,
    '```',
  ];
  return `${lines.join('\n')}\n`;
}

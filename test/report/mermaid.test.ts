import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toAnalysisReport, toImpactReport } from '../../src/app/reports.js';
import { renderAnalysisMarkdown } from '../../src/report/analysis-markdown.js';
import { renderImpactMarkdown } from '../../src/report/impact-markdown.js';
import { MAX_DIAGRAM_NODES, renderChangeDiagram, toMermaidLabel } from '../../src/report/mermaid.js';
import { hostileChange } from '../fixtures/reports/hostile-change.js';
import { largeChange } from '../fixtures/reports/large-change.js';
import { smallChange } from '../fixtures/reports/small-change.js';

const NODE_LINE = /^ {2}(n\d+)(\["[^"]*"\]|\(\["[^"]*"\]\)|\[\["[^"]*"\]\])$/;
const EDGE_LINE = /^ {2}(n\d+) (-->|-\.->|-\. test \.->) (n\d+)$/;

function extractMermaid(markdown: string): string[] {
  const start = markdown.indexOf('```mermaid\n');
  assert.notEqual(start, -1, 'a mermaid block');
  const end = markdown.indexOf('\n```\n', start);
  assert.notEqual(end, -1, 'the mermaid block is closed');
  return markdown.slice(start + '```mermaid\n'.length, end).split('\n');
}

/** Every line is the header, a comment, a node, an edge or styling; returns node ids and edges. */
function parseDiagram(lines: string[]): { nodes: string[]; edges: [string, string][]; comments: string[] } {
  assert.equal(lines[0], 'flowchart LR');
  const nodes: string[] = [];
  const edges: [string, string][] = [];
  const comments: string[] = [];
  for (const line of lines.slice(1)) {
    const node = NODE_LINE.exec(line);
    const edge = EDGE_LINE.exec(line);
    if (node?.[1] !== undefined) nodes.push(node[1]);
    else if (edge?.[1] !== undefined && edge[3] !== undefined) edges.push([edge[1], edge[3]]);
    else if (line.startsWith('  %% ')) comments.push(line.slice(5));
    else assert.match(line, /^ {2}(classDef (changed|impacted|route|test) [a-z:#0-9,]+|class (n\d+,)*n\d+ (changed|impacted|route|test))$/);
  }
  return { nodes, edges, comments };
}

describe('change diagram', () => {
  it('stays within 30 nodes for 300 impacted files and says what it left out', () => {
    const lines = extractMermaid(renderAnalysisMarkdown(toAnalysisReport(largeChange)));
    const diagram = parseDiagram(lines);
    assert.equal(MAX_DIAGRAM_NODES, 30);
    assert.equal(diagram.nodes.length, 30);
    assert.deepEqual(
      diagram.nodes,
      Array.from({ length: 30 }, (_, i) => `n${i + 1}`),
    );
    assert.deepEqual(diagram.comments, [
      'left out to keep the diagram small: 4 changed files, 290 impacted files, 8 routes, 34 test files (use --format json for the full lists)',
    ]);
    const ids = new Set(diagram.nodes);
    assert.equal(
      diagram.edges.every(([from, to]) => ids.has(from) && ids.has(to)),
      true,
    );
    assert.ok(diagram.edges.length <= 60);
  });

  it('draws the small change exactly: changed → impacted → routes, and the reaching tests', () => {
    const lines = extractMermaid(renderAnalysisMarkdown(toAnalysisReport(smallChange)));
    const diagram = parseDiagram(lines);
    assert.equal(diagram.nodes.length, 12);
    assert.deepEqual(diagram.comments, []);
    assert.deepEqual(
      lines.filter((line) => EDGE_LINE.test(line)),
      [
        '  n1 --> n4',
        '  n1 --> n5',
        '  n1 --> n6',
        '  n5 --> n7',
        '  n2 --> n8',
        '  n7 --> n9',
        '  n1 -. test .-> n10',
        '  n1 -. test .-> n11',
        '  n2 -. test .-> n12',
      ],
    );
  });

  it('keeps hostile names inside quoted labels', () => {
    for (const markdown of [renderAnalysisMarkdown(toAnalysisReport(hostileChange)), renderImpactMarkdown(toImpactReport(hostileChange))]) {
      const lines = extractMermaid(markdown);
      const diagram = parseDiagram(lines);
      assert.equal(diagram.nodes.length >= 5, true);
      assert.equal(
        lines.some((line) => line.includes('`') || line.includes('<') || line.includes('|')),
        false,
      );
    }
  });

  it('uses a dotted edge to the nearest shown file when the importer was left out', () => {
    const diagram = renderChangeDiagram(
      {
        changedFiles: [{ path: 'a.ts' }],
        impactedFiles: [
          { path: 'b.ts', distance: 1, via: ['a.ts'] },
          { path: 'c.ts', distance: 2, via: ['a.ts', 'b.ts'] },
          { path: 'd.ts', distance: 3, via: ['a.ts', 'b.ts', 'c.ts'] },
        ],
        impactedRoutes: [],
      },
      3,
    );
    assert.equal(
      diagram,
      [
        '```mermaid',
        'flowchart LR',
        '  %% left out to keep the diagram small: 1 impacted file (use --format json for the full lists)',
        '  n1["a.ts"]',
        '  n2["b.ts"]',
        '  n3["c.ts"]',
        '  n1 --> n2',
        '  n2 --> n3',
        '  classDef changed fill:#fde2e2,stroke:#c0392b',
        '  classDef impacted fill:#fff4d6,stroke:#b7950b',
        '  classDef route fill:#e3f2fd,stroke:#1f618d',
        '  classDef test fill:#e8f5e9,stroke:#1e8449',
        '  class n1 changed',
        '  class n2,n3 impacted',
        '```',
        '',
      ].join('\n'),
    );
    const skipped = renderChangeDiagram({
      changedFiles: [{ path: 'a.ts' }],
      impactedFiles: [{ path: 'z.ts', distance: 2, via: ['a.ts', 'hidden.ts'] }],
      impactedRoutes: [{ id: 'route:GET /x', method: 'GET', path: '/x', file: 'hidden.ts', chain: ['a.ts', 'hidden.ts'], direct: false }],
    });
    assert.deepEqual(
      skipped.split('\n').filter((line) => EDGE_LINE.test(line)),
      ['  n1 -.-> n2', '  n1 -.-> n3'],
    );
    assert.equal(renderChangeDiagram({ changedFiles: [], impactedFiles: [], impactedRoutes: [] }), '');
  });

  it('sanitises labels: quotes as entities, no brackets, pipes, backticks, newlines or percent signs', () => {
    assert.equal(toMermaidLabel('src/a "b" [c] (d) {e} <f> `g` |h|\ni #j %%k'), '"src/a #quot;b#quot; c d e f g h i #35;j #37;#37;k"');
    assert.equal(toMermaidLabel('"]]'), '"#quot;"');
    assert.equal(toMermaidLabel('[]'), '"?"');
    assert.equal(toMermaidLabel('x'.repeat(200)).length <= 82, true);
  });
});

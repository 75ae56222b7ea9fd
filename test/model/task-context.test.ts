import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskContextSchema } from '../../src/model/task-context-schema.js';
import { assertAgreement, mutations } from './mutations.js';

const edgeWeights = {
  imports: 1,
  reexports: 1,
  declares: 0.8,
  uses: 0.6,
  tests: 0.7,
  mocks: 0.3,
  handles: 0.9,
  owns: 0.2,
  mentions: 0.4,
  belongs: 0.1,
  depends: 0.1,
  guards: 0.5,
  calls: 0.7,
};

const packet = {
  schemaVersion: 1,
  kind: 'task-context',
  task: 'graph report schema skipped files',
  sessionId: 's-1',
  generatedAt: '2026-11-24T04:36:36.472Z',
  revision: { git: true, anchor: 'a'.repeat(40), head: null },
  maxNodes: 5,
  considered: 40,
  confidence: 'medium',
  weights: { source: 'builtin:context-weights@1.0.0', edgeWeights },
  seeds: [{ nodeId: 'file:src/model/graph-report.ts', weight: 1, reason: 'term graph' }],
  nodes: [
    {
      id: 'file:src/model/graph-report.ts',
      kind: 'file',
      rank: 1,
      label: 'src/model/graph-report.ts',
      relevance: 1.5,
      pinned: false,
      matchedTerms: ['graph', 'report'],
      explanation: [
        { via: 'seed', contribution: 1 },
        {
          via: 'imports→ file:src/model/scan.ts',
          edgeKind: 'imports',
          neighbour: 'file:src/model/scan.ts',
          direction: 'forward',
          detail: 'import',
          contribution: 0.5,
        },
      ],
      provenance: { file: 'src/model/graph-report.ts', line: 3, commit: 'b'.repeat(40) },
      trust: 'deterministic',
      freshness: { state: 'stale', since: 'c'.repeat(40), reason: 'changed since the session base' },
    },
  ],
  edges: [{ source: 'file:src/model/graph-report.ts', target: 'file:src/model/scan.ts', kind: 'imports' }],
  taskEvidence: [{ id: 'ac-1', trust: 'requirement', text: 'skipped files are listed', provenance: { file: 'requirements.json' } }],
  impactClosure: { total: 3, included: 1, omitted: 2 },
  omitted: {
    count: 2,
    byKind: { file: 2 },
    top: [{ id: 'file:src/model/scan.ts', relevance: 0.4 }],
    ids: ['file:src/model/scan.ts'],
    idsTruncated: false,
    impacted: ['src/app/graph-report.ts'],
  },
  limitations: [
    { code: 'context/no-git', severity: 'info', message: 'm', hint: 'h', location: { file: 'f', line: 1, col: 2 }, evidenceIds: ['e'] },
  ],
  truncated: { nodes: { shown: 1, total: 2 } },
};

describe('task context contract', () => {
  it('the zod source and schemas/task-context.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('task-context', taskContextSchema, mutations('task context', packet));
    assert.ok(valid > 100 && invalid > 250, `${valid} valid, ${invalid} invalid`);
    assert.equal(taskContextSchema.safeParse(packet).success, true);
  });

  it('refuses a node id whose prefix is not a node kind, and an edge weight missing', () => {
    const node = { ...packet.nodes[0], id: 'symbol:x' };
    assert.equal(taskContextSchema.safeParse({ ...packet, nodes: [node] }).success, false);
    const { guards: _guards, ...fewer } = edgeWeights;
    assert.equal(taskContextSchema.safeParse({ ...packet, weights: { source: 's', edgeWeights: fewer } }).success, false);
  });
});

import type { TaskContextPacket } from '../model/context-packet.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderMore, renderTable } from './markdown-table.js';
import { countOf } from '../text/plural.js';

const SHOWN_EDGES = 60;
const SHOWN_OMITTED = 30;

/** Markdown of a task context packet: ranked nodes with why, trust and freshness, then edges and what the bound left out. */
export function renderContextMarkdown(packet: TaskContextPacket): string {
  const parts: string[] = [];
  parts.push(
    `# Task context\n\n**Task:** ${escapeMarkdownInline(packet.task)}${packet.sessionId === undefined ? '' : `\n\n**Session:** ${escapeMarkdownInline(packet.sessionId)}`}`,
  );
  parts.push(
    `${packet.nodes.length} of ${countOf(packet.considered, 'considered node')} (--max-nodes ${packet.maxNodes}); grounding confidence ${packet.confidence}; anchor ${packet.revision.anchor === null ? 'none' : packet.revision.anchor.slice(0, 12)}; weights from ${escapeMarkdownInline(packet.weights.source)}. Written to .checker/local/task-context.json.`,
  );
  parts.push(
    packet.nodes.length === 0
      ? 'No nodes: nothing in the repository could be tied to the task.'
      : renderTable(
          ['#', 'Evidence id', 'Kind', 'Relevance', 'Why', 'Trust', 'Freshness', 'Provenance'],
          packet.nodes.map((node) => [
            node.rank,
            node.id,
            node.kind,
            node.relevance.toFixed(4),
            [
              node.matchedTerms.length > 0 ? `terms ${node.matchedTerms.join(', ')}` : '',
              ...node.explanation.map((entry) => (entry.detail === undefined ? entry.via : `${entry.via}: ${entry.detail}`)),
            ]
              .filter((text) => text !== '')
              .join('; '),
            node.trust,
            node.freshness.state === 'stale' ? `stale since ${node.freshness.since?.slice(0, 12) ?? '?'}` : node.freshness.state,
            [
              node.provenance.file ?? '',
              node.provenance.line === undefined ? '' : `:${node.provenance.line}`,
              node.provenance.commit === undefined ? '' : ` @${node.provenance.commit.slice(0, 12)}`,
            ].join(''),
          ]),
        ),
  );
  if (packet.edges.length > 0) {
    parts.push(
      `## Selected edges\n\n${renderTable(
        ['Source', 'Kind', 'Target'],
        packet.edges.slice(0, SHOWN_EDGES).map((edge) => [edge.source, edge.kind, edge.target]),
      )}${renderMore(Math.min(SHOWN_EDGES, packet.edges.length), packet.edges.length, 'edges')}`,
    );
  }
  if (packet.taskEvidence.length > 0) {
    parts.push(
      `## Task evidence\n\n${packet.taskEvidence.map((item) => `- \`${escapeMarkdownInline(item.id)}\` (${item.trust})\n\n${fenceUntrusted(item.text, item.id)}`).join('\n')}`,
    );
  }
  const omitted = packet.omitted;
  parts.push(
    `## Left out by the bound\n\n${countOf(omitted.count, 'node')} (${
      Object.entries(omitted.byKind)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ') || 'none'
    }). Impact closure of the grounded files: ${countOf(packet.impactClosure.total, 'file')}, ${packet.impactClosure.included} in the packet, ${packet.impactClosure.omitted} left out${
      omitted.impacted.length > 0
        ? `:\n\n${omitted.impacted
            .slice(0, SHOWN_OMITTED)
            .map((id) => `- ${escapeMarkdownInline(id)}`)
            .join('\n')}${renderMore(Math.min(SHOWN_OMITTED, omitted.impacted.length), omitted.impacted.length, 'impacted files')}`
        : '.'
    }`,
  );
  if (packet.limitations.length > 0) {
    parts.push(
      `## Limitations\n\n${packet.limitations.map((item) => `- ${escapeMarkdownInline(item.code)}: ${escapeMarkdownInline(item.message)}`).join('\n')}`,
    );
  }
  return `${parts.join('\n\n')}\n`;
}

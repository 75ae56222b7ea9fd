import { toCheckId, toContractId, toDecisionId, toMemoryId, toRouteId, toSkillId } from './ids.js';
import type { GraphInput, NodeAttributes } from '../model/graph.js';
import { compileGlobs } from '../text/glob.js';
import { compareText } from '../text/compare-text.js';
import { addEdge, addNodeOnce, type Builder, getFileId } from './build-context.js';

/** Documents around the code: contracts, decisions, memories, skills and checks, and the code they mention. */

const MAX_SYMBOL_TARGETS = 3;
const MAX_TERMS = 32;
const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has have this that with from they will would there their what ' +
    'which when where who why how into than then them these those been being also such only other some more most very just should ' +
    'could must may might each both does did doing over under about after before while because between through during without within ' +
    "use used uses using see its it's our ours your yours we us via per new old true false null undefined"
  ).split(' '),
);

/** The most frequent distinctive words of a text, lower-cased (ties broken alphabetically). */
function extractTerms(text: string, limit = MAX_TERMS): string[] {
  const counts = new Map<string, number>();
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z][a-z0-9]{2,}/g);
  for (const word of words ?? []) {
    if (STOP_WORDS.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .sort((left, right) => right[1] - left[1] || compareText(left[0], right[0]))
    .slice(0, limit)
    .map(([word]) => word);
}

interface MentionIndex {
  exportsByName: Map<string, string[]>;
}

function buildMentionIndex(builder: Builder): MentionIndex {
  const exportsByName = new Map<string, string[]>();
  builder.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'export' || attributes.name === 'default') return;
    const list = exportsByName.get(attributes.name) ?? [];
    list.push(id);
    exportsByName.set(attributes.name, list);
  });
  return { exportsByName };
}

function addTextMentions(builder: Builder, index: MentionIndex, source: string, text: string, added: Set<string>): void {
  const mention = (target: string, match: 'path' | 'symbol' | 'route'): void => {
    if (added.has(target)) return;
    added.add(target);
    addEdge(builder, source, target, { kind: 'mentions', match });
  };
  for (const token of text.match(/[A-Za-z0-9_@.\-/[\]()]+\.[A-Za-z0-9]+/g) ?? []) {
    const path = token.replace(/^\.?\//, '');
    if (builder.fileIds.has(path)) mention(getFileId(builder, path), 'path');
  }
  for (const match of text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ALL)\s+(\/[^\s`'"),;]*)/g)) {
    const id = toRouteId(match[1] ?? '', match[2] ?? '');
    if (builder.graph.hasNode(id)) mention(id, 'route');
  }
  for (const match of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)) {
    const targets = index.exportsByName.get(match[1] ?? '') ?? [];
    if (targets.length > 0 && targets.length <= MAX_SYMBOL_TARGETS) for (const target of targets) mention(target, 'symbol');
  }
}

export function addKnowledge(builder: Builder): void {
  for (const decision of sortDecisions(builder)) {
    const terms = extractTerms(`${decision.title}\n${decision.text}`);
    addNodeOnce(builder.graph, toDecisionId(decision.path), { kind: 'decision', path: decision.path, title: decision.title, terms });
  }
  for (const entry of sortMemory(builder)) {
    const terms = entry.terms.length > 0 ? entry.terms : extractTerms(`${entry.title ?? ''}\n${entry.text}`);
    const attributes: NodeAttributes = {
      kind: 'memory',
      path: entry.path,
      id: entry.id,
      memoryKind: entry.kind,
      text: entry.text,
      paths: entry.paths,
      terms,
    };
    if (entry.title !== undefined) attributes.title = entry.title;
    addNodeOnce(builder.graph, toMemoryId(entry.path, entry.id), attributes);
  }
  const skills = [...builder.input.skills].sort((left, right) => compareText(left.name, right.name) || compareText(left.path, right.path));
  for (const skill of skills) {
    addNodeOnce(builder.graph, toSkillId(skill.name), {
      kind: 'skill',
      name: skill.name,
      description: skill.description,
      path: skill.path,
    });
  }
  const checks = [...builder.input.checks].sort((left, right) => compareText(left.name, right.name));
  for (const check of checks) {
    addNodeOnce(builder.graph, toCheckId(check.name), { kind: 'check', name: check.name, command: check.command, source: check.source });
  }
  const contracts = [...(builder.input.contracts ?? [])].sort((left, right) => compareText(left.id, right.id));
  for (const contract of contracts) {
    const attributes: NodeAttributes = { kind: 'contract', id: contract.id, from: contract.from, to: contract.to };
    if (contract.description !== undefined) attributes.description = contract.description;
    addNodeOnce(builder.graph, toContractId(contract.id), attributes);
  }
  addMentions(builder);
}

/**
 * The files, routes and exports decisions and memories mention. Only the first document of an id mentions (a later
 * one with the same id adds no node). A patch drops every `mentions` edge and runs this again: exports and routes move.
 */
export function addMentions(builder: Builder): void {
  const index = buildMentionIndex(builder);
  const seen = new Set<string>();
  for (const decision of sortDecisions(builder)) {
    const id = toDecisionId(decision.path);
    if (seen.has(id)) continue;
    seen.add(id);
    addTextMentions(builder, index, id, decision.text, new Set());
  }
  const paths = builder.files.map((file) => file.path);
  for (const entry of sortMemory(builder)) {
    const id = toMemoryId(entry.path, entry.id);
    if (seen.has(id)) continue;
    seen.add(id);
    const added = new Set<string>();
    if (entry.paths.length > 0) {
      const isMatch = compileGlobs(entry.paths, { dot: true });
      for (const path of paths) {
        if (!isMatch(path)) continue;
        added.add(getFileId(builder, path));
        addEdge(builder, id, getFileId(builder, path), { kind: 'mentions', match: 'glob' });
      }
    }
    addTextMentions(builder, index, id, `${entry.title ?? ''}\n${entry.text}`, added);
  }
}

function sortDecisions(builder: Builder): GraphInput['decisions'] {
  return [...builder.input.decisions].sort((left, right) => compareText(left.path, right.path));
}

function sortMemory(builder: Builder): GraphInput['memory'] {
  return [...builder.input.memory].sort((left, right) => compareText(left.path, right.path) || compareText(left.id, right.id));
}

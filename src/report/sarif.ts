import { createHash } from 'node:crypto';
import type { ChangedFileEvidence, ImpactedRoute } from '../model/analysis.js';
import type { RevisionInfo } from '../model/change.js';
import type { Finding, PackKind } from '../model/rules.js';

/**
 * SARIF 2.1.0 (OASIS) for code scanning: one result per rule-pack finding about the change, each rule described from its
 * pack, locations on the changed lines, and partial fingerprints that survive unrelated edits (see `fingerprintOf`).
 */

export const SARIF_VERSION = '2.1.0';
const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** The partialFingerprints key; bump the suffix when the fingerprint recipe changes. */
const FINGERPRINT_KEY = 'checkerFinding/v1';

/** Finding kinds that say something about the change's code; tool advice and context weights are not code-scanning results. */
const CODE_KINDS: ReadonlySet<PackKind> = new Set(['risk', 'decay', 'weak-test', 'missing-test', 'proof', 'edge-case', 'pattern']);

/** What one rule says about itself in its pack. */
export interface SarifRuleInfo {
  packId: string;
  packVersion: string;
  ruleId: string;
  kind: PackKind;
  description: string;
  rationale: string;
}

export interface SarifInput {
  findings: readonly Finding[];
  changedFiles: readonly ChangedFileEvidence[];
  impactedRoutes: readonly ImpactedRoute[];
  range: { base: RevisionInfo; head: RevisionInfo };
  rules: readonly SarifRuleInfo[];
  tool: { version: string };
  invocation: { arguments: string[]; startTimeUtc: string; endTimeUtc: string };
  /** Only findings of these kinds (a narrower report's view); default: every code kind. */
  kinds?: readonly PackKind[];
}

type Level = 'error' | 'warning' | 'note';

interface SarifRegion {
  startLine: number;
  endLine?: number;
}

interface SarifLocation {
  physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: SarifRegion };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: Level;
  message: { text: string };
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: { findingId: string; provenance: string; weight: number; kind: PackKind; subjectId: string };
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: Level };
  properties: { tags: string[]; pack: string; packVersion: string };
}

export interface SarifLog {
  $schema: string;
  version: typeof SARIF_VERSION;
  runs: {
    tool: { driver: { name: string; semanticVersion: string; version: string; rules: SarifRule[] } };
    invocations: { executionSuccessful: boolean; arguments: string[]; startTimeUtc: string; endTimeUtc: string }[];
    automationDetails: { id: string };
    originalUriBaseIds: Record<string, { description: { text: string } }>;
    columnKind: 'utf16CodeUnits';
    results: SarifResult[];
    properties: { range: { base: RevisionInfo; head: RevisionInfo } };
  }[];
}

const DEFAULT_LEVEL: Record<PackKind, Level> = {
  risk: 'warning',
  proof: 'warning',
  'missing-test': 'warning',
  'stale-assertion': 'warning',
  pattern: 'warning',
  'weak-test': 'note',
  decay: 'note',
  'edge-case': 'note',
  tool: 'note',
  'context-weight': 'note',
};

const MAX_MESSAGE_CHARS = 2000;

/** Builds the SARIF log; pure: the same input always gives the same log. */
export function buildSarifLog(input: SarifInput): SarifLog {
  const kinds = new Set(input.kinds ?? CODE_KINDS);
  const findings = input.findings.filter((finding) => CODE_KINDS.has(finding.kind) && kinds.has(finding.kind));
  const ruleInfo = new Map(input.rules.map((rule) => [`${rule.packId}#${rule.ruleId}`, rule]));
  const ruleIds = assignRuleIds(findings);
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  for (const finding of findings) {
    const key = `${finding.packId}#${finding.ruleId}`;
    if (ruleIndex.has(key)) continue;
    ruleIndex.set(key, rules.length);
    rules.push(describeRule(ruleIds.get(key) ?? finding.ruleId, finding, ruleInfo.get(key)));
  }
  const locate = createLocator(input.changedFiles, input.impactedRoutes);
  const located = findings.map((finding) => ({ finding, location: locate(finding) }));
  const fingerprints = computeFingerprints(located);
  const results = located.map(({ finding, location }, index): SarifResult => {
    const key = `${finding.packId}#${finding.ruleId}`;
    const rule = rules[ruleIndex.get(key) ?? 0] as SarifRule;
    return {
      ruleId: rule.id,
      ruleIndex: ruleIndex.get(key) ?? 0,
      level: rule.defaultConfiguration.level,
      message: { text: clip(withProof(finding), MAX_MESSAGE_CHARS) },
      locations: location === undefined ? [] : [location],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprints[index] as string },
      properties: {
        findingId: finding.id,
        provenance: finding.provenance,
        weight: finding.weight,
        kind: finding.kind,
        subjectId: finding.subjectId,
      },
    };
  });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        tool: { driver: { name: 'checker', semanticVersion: input.tool.version, version: input.tool.version, rules } },
        invocations: [{ executionSuccessful: true, ...input.invocation }],
        automationDetails: { id: 'checker/merge-safety/' },
        originalUriBaseIds: { SRCROOT: { description: { text: 'The root of the analysed repository' } } },
        columnKind: 'utf16CodeUnits',
        results,
        properties: { range: input.range },
      },
    ],
  };
}

/** A rule id is its pack's rule id; when two packs share one, the pack id is put in front to keep ids unique. */
function assignRuleIds(findings: readonly Finding[]): Map<string, string> {
  const packsByRule = new Map<string, Set<string>>();
  for (const finding of findings) {
    const packs = packsByRule.get(finding.ruleId) ?? new Set<string>();
    packs.add(finding.packId);
    packsByRule.set(finding.ruleId, packs);
  }
  const ids = new Map<string, string>();
  for (const finding of findings) {
    const shared = (packsByRule.get(finding.ruleId)?.size ?? 0) > 1;
    ids.set(`${finding.packId}#${finding.ruleId}`, shared ? `${finding.packId}/${finding.ruleId}` : finding.ruleId);
  }
  return ids;
}

function describeRule(id: string, finding: Finding, info: SarifRuleInfo | undefined): SarifRule {
  const description = info?.description ?? finding.ruleId;
  const rationale = info?.rationale ?? description;
  return {
    id,
    name: toRuleName(finding.ruleId),
    shortDescription: { text: clip(description, 1000) },
    fullDescription: { text: clip(rationale, 4000) },
    help: {
      text: `${rationale}\n\nRule ${finding.ruleId} of pack ${finding.packId}@${finding.packVersion}.`,
      markdown: `${escapeHelp(rationale)}\n\nRule \`${finding.ruleId}\` of pack \`${finding.packId}@${finding.packVersion}\`.`,
    },
    defaultConfiguration: { level: DEFAULT_LEVEL[finding.kind] },
    properties: { tags: ['checker', finding.kind], pack: finding.packId, packVersion: finding.packVersion },
  };
}

/** `risk/missing-proof` → `RiskMissingProof` (SARIF's `name` is an identifier-like label). */
function toRuleName(ruleId: string): string {
  return ruleId
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => `${part[0]?.toUpperCase() ?? ''}${part.slice(1)}`)
    .join('');
}

function escapeHelp(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (ch) => `\\${ch}`);
}

function withProof(finding: Finding): string {
  const proof = finding.proof ?? finding.params.task ?? finding.params.recommendedProof;
  return proof === undefined || proof === '' ? finding.message : `${finding.message}. To prove it: ${proof}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Where a finding points: the line its subject names, else the first changed lines of its file. */
function createLocator(changedFiles: readonly ChangedFileEvidence[], routes: readonly ImpactedRoute[]) {
  const byPath = new Map(changedFiles.map((file) => [file.path, file]));
  const routeById = new Map(routes.map((route) => [route.id, route]));
  const firstRuntime = changedFiles.find((file) => file.changeKind === 'runtime' && file.status !== 'deleted') ?? changedFiles[0];
  const withRegion = (path: string, region: SarifRegion | undefined): SarifLocation => ({
    physicalLocation: { artifactLocation: { uri: encodePath(path), uriBaseId: 'SRCROOT' }, ...(region === undefined ? {} : { region }) },
  });
  const at = (path: string, line?: number): SarifLocation =>
    withRegion(path, line !== undefined && line > 0 ? { startLine: line } : firstChangedRegion(byPath.get(path)));
  return (finding: Finding): SarifLocation | undefined => {
    const subject = finding.subjectId;
    const lineSubject = /^(?:semantic|signal|pattern|line):(.+):(\d+)(?::[^:]*)?$/.exec(subject);
    if (lineSubject !== null) return at(lineSubject[1] as string, Number(lineSubject[2]));
    if (subject.startsWith('file:')) return at(subject.slice('file:'.length));
    if (subject.startsWith('export:')) {
      const [path, name] = subject.slice('export:'.length).split('#') as [string, string | undefined];
      const file = byPath.get(path);
      const span = file?.changedExports.find((entry) => entry.name === name)?.span;
      const region = span === undefined ? undefined : changedRegionWithin(file, span.start, span.end);
      return region === undefined ? at(path) : withRegion(path, region);
    }
    if (subject.startsWith('test:')) return at(subject.slice('test:'.length).split('#')[0] as string);
    if (subject.startsWith('route:')) {
      const route = routeById.get(subject);
      return route === undefined ? undefined : at(route.file, route.line);
    }
    // A finding about the whole change sits on the first changed runtime file, where a reviewer starts reading.
    return firstRuntime === undefined ? undefined : at(firstRuntime.path);
  };
}

function firstChangedRegion(file: ChangedFileEvidence | undefined): SarifRegion | undefined {
  const hunk = file?.hunks.find((candidate) => candidate.newLines > 0);
  if (hunk === undefined) return undefined;
  return hunk.newLines === 1 ? { startLine: hunk.newStart } : { startLine: hunk.newStart, endLine: hunk.newStart + hunk.newLines - 1 };
}

/** The first changed lines inside `start..end` (a changed export's span), or undefined when no hunk falls in it. */
function changedRegionWithin(file: ChangedFileEvidence | undefined, start: number, end: number): SarifRegion | undefined {
  for (const hunk of file?.hunks ?? []) {
    if (hunk.newLines === 0) continue;
    const from = Math.max(start, hunk.newStart);
    const to = Math.min(end, hunk.newStart + hunk.newLines - 1);
    if (from <= to) return from === to ? { startLine: from } : { startLine: from, endLine: to };
  }
  return undefined;
}

/** A relative URI reference: each path segment percent-encoded, `/` kept. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * A fingerprint names the rule, the file and the subject without its line number, plus the finding's rank among
 * findings that share all three (ordered by line): an edit above a finding moves its line, not its fingerprint, and two
 * runs over the same change give the same fingerprints.
 */
function computeFingerprints(located: { finding: Finding; location: SarifLocation | undefined }[]): string[] {
  const keys = located.map(({ finding, location }) => {
    const path = location?.physicalLocation.artifactLocation.uri ?? '';
    const subject = finding.subjectId.replace(/:\d+(?=(?::[^:]*)?$)/, '');
    return `${finding.packId}|${finding.ruleId}|${path}|${subject}`;
  });
  const order = located
    .map((entry, index) => ({ index, key: keys[index] as string, line: entry.location?.physicalLocation.region?.startLine ?? 0 }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.line - b.line || a.index - b.index));
  const result: string[] = new Array(located.length);
  let previous = '';
  let occurrence = 0;
  for (const entry of order) {
    occurrence = entry.key === previous ? occurrence + 1 : 0;
    previous = entry.key;
    result[entry.index] = createHash('sha256').update(`${entry.key}|${occurrence}`).digest('hex').slice(0, 32);
  }
  return result;
}

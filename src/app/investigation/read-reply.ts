import type { z } from 'zod';
import {
  type InvestigationDropped,
  type InvestigationHypothesis,
  type InvestigationResult,
  type InvestigationVerifier,
  MAX_REPLY_ITEMS,
  MAX_REPLY_TEXT_CHARS,
  REPLY_SECTIONS,
  type ReplySection,
  type VerifyTask,
} from '../../model/investigation.js';
import { isRecord } from '../../text/is-record.js';
import { sanitizeUntrustedText } from '../../text/redact/redact.js';

/** The lists of a reply that checker kept, with everything it dropped and why. */
export type ReadReply =
  | { ok: true; items: Pick<InvestigationResult, ReplySection | 'verifyTasks' | 'dropped'> }
  | { ok: false; reason: string };

const SECTION_NAMES = Object.keys(REPLY_SECTIONS) as ReplySection[];
const MAX_ITEM_ECHO_CHARS = 160;

/**
 * Reads a provider's reply text: one JSON object (a reply wrapped whole in a ```json fence is unwrapped), each list
 * item checked against the reply schema on its own, text sanitized and redacted. Cited evidence ids must exist in this
 * run; a consequence hypothesis is kept only when it also names a user-visible consequence, a disconfirming result and
 * a verifier of this run (spec 2.11). Everything dropped is listed with the reason.
 */
/** The kept items of a reply that gave none (or failed): every section empty. */
export function noReplyItems(): Pick<InvestigationResult, ReplySection | 'verifyTasks' | 'dropped'> {
  return {
    candidateRisks: [],
    affectedFlows: [],
    edgeCases: [],
    proofProposals: [],
    unresolvedQuestions: [],
    consequenceHypotheses: [],
    verifyTasks: [],
    dropped: [],
  };
}

export function readReply(content: string, evidenceIds: ReadonlySet<string>, verifiers: readonly InvestigationVerifier[]): ReadReply {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unwrapFence(content));
  } catch {
    return { ok: false, reason: "the provider's reply is not valid JSON; nothing of it was kept" };
  }
  if (!isRecord(parsed)) return { ok: false, reason: "the provider's reply is not a JSON object; nothing of it was kept" };
  const dropped: InvestigationDropped[] = [];
  for (const key of Object.keys(parsed).sort()) {
    if (!SECTION_NAMES.includes(key as ReplySection)) {
      dropped.push({
        section: 'reply',
        item: echo(`${key}: ${JSON.stringify(parsed[key]) ?? ''}`),
        reason: `"${key}" is not a field of the reply schema: a provider cannot set merge risk, proof states or tasks`,
      });
    }
  }
  const verifierKinds = new Map(verifiers.map((verifier) => [verifier.id, verifier.kind]));
  const verifierList = verifiers.map((verifier) => verifier.id).join(', ');
  const unknownIds = (ids: readonly string[] | undefined): string[] => (ids ?? []).filter((id) => !evidenceIds.has(id));
  const unknownIdsReason = (ids: string[]): string =>
    `cites evidence ids that do not exist in this run: ${ids.map((id) => JSON.stringify(echo(id))).join(', ')}`;

  const items = { ...noReplyItems(), dropped };
  for (const section of SECTION_NAMES) {
    const list = parsed[section];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      dropped.push({ section, item: echo(JSON.stringify(list) ?? ''), reason: `"${section}" must be a list` });
      continue;
    }
    for (const [index, raw] of list.entries()) {
      const drop = (reason: string): void => {
        dropped.push({ section, item: echo(typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '')), reason });
      };
      if (index >= MAX_REPLY_ITEMS) {
        drop(`over the limit of ${MAX_REPLY_ITEMS} items per list`);
        continue;
      }
      const schema: z.ZodType = REPLY_SECTIONS[section];
      const checked = schema.safeParse(raw);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const field = issue === undefined || issue.path.length === 0 ? 'the item' : `"${issue.path.join('.')}"`;
        drop(`does not match the reply schema: ${field} ${issue?.message ?? 'is not valid'}`);
        continue;
      }
      switch (section) {
        case 'unresolvedQuestions': {
          const question = REPLY_SECTIONS.unresolvedQuestions.parse(raw);
          items.unresolvedQuestions.push(clean(question));
          break;
        }
        case 'candidateRisks': {
          const risk = REPLY_SECTIONS.candidateRisks.parse(raw);
          const unknown = unknownIds(risk.evidenceIds);
          if (unknown.length > 0) drop(unknownIdsReason(unknown));
          else
            items.candidateRisks.push({ title: clean(risk.title), detail: clean(risk.detail ?? ''), evidenceIds: risk.evidenceIds ?? [] });
          break;
        }
        case 'affectedFlows': {
          const flow = REPLY_SECTIONS.affectedFlows.parse(raw);
          const unknown = unknownIds(flow.evidenceIds);
          if (unknown.length > 0) drop(unknownIdsReason(unknown));
          else items.affectedFlows.push({ name: clean(flow.name), detail: clean(flow.detail ?? ''), evidenceIds: flow.evidenceIds ?? [] });
          break;
        }
        case 'edgeCases': {
          const edge = REPLY_SECTIONS.edgeCases.parse(raw);
          const unknown = unknownIds(edge.evidenceIds);
          if (unknown.length > 0) drop(unknownIdsReason(unknown));
          else
            items.edgeCases.push({
              trigger: clean(edge.trigger),
              expectedBehavior: clean(edge.expectedBehavior ?? ''),
              userVisibleFailure: clean(edge.userVisibleFailure ?? ''),
              evidenceIds: edge.evidenceIds ?? [],
            });
          break;
        }
        case 'proofProposals': {
          const proposal = REPLY_SECTIONS.proofProposals.parse(raw);
          const unknown = unknownIds(proposal.evidenceIds);
          const kind = verifierKinds.get(proposal.verifier);
          const reasons = [
            ...(unknown.length > 0 ? [unknownIdsReason(unknown)] : []),
            ...(kind === undefined
              ? [`maps to no verifier of this run (${JSON.stringify(echo(proposal.verifier))}; verifiers here: ${verifierList})`]
              : []),
          ];
          if (reasons.length > 0 || kind === undefined) {
            drop(reasons.join('; '));
            break;
          }
          const description = clean(proposal.description);
          items.proofProposals.push({ description, verifier: proposal.verifier, evidenceIds: proposal.evidenceIds ?? [] });
          items.verifyTasks.push(
            toVerifyTask(items.verifyTasks.length, `verify: ${description}`, proposal.verifier, kind, `proofProposals[${index}]`),
          );
          break;
        }
        case 'consequenceHypotheses': {
          const claim = REPLY_SECTIONS.consequenceHypotheses.parse(raw);
          const unknown = unknownIds(claim.evidenceIds);
          const kind = verifierKinds.get(claim.verifier);
          const reasons = [
            ...(claim.evidenceIds.length === 0 ? ['cites no evidence id'] : []),
            ...(unknown.length > 0 ? [unknownIdsReason(unknown)] : []),
            ...(!/[\p{L}\p{N}]/u.test(claim.userVisibleConsequence) ? ['names no user-visible consequence'] : []),
            ...(!/[\p{L}\p{N}]/u.test(claim.disconfirmingResult) ? ['includes no disconfirming result'] : []),
            ...(kind === undefined
              ? [`maps to no verifier of this run (${JSON.stringify(echo(claim.verifier))}; verifiers here: ${verifierList})`]
              : []),
          ];
          if (reasons.length > 0 || kind === undefined) {
            drop(reasons.join('; '));
            break;
          }
          const hypothesis: InvestigationHypothesis = {
            id: `hypothesis:${items.consequenceHypotheses.length + 1}`,
            hypothesis: clean(claim.hypothesis),
            evidenceIds: claim.evidenceIds,
            userVisibleConsequence: clean(claim.userVisibleConsequence),
            disconfirmingResult: clean(claim.disconfirmingResult),
            verifier: claim.verifier,
            verifierKind: kind,
          };
          items.consequenceHypotheses.push(hypothesis);
          items.verifyTasks.push(
            toVerifyTask(
              items.verifyTasks.length,
              `verify: ${hypothesis.hypothesis} (with ${claim.verifier}; it is refuted if: ${hypothesis.disconfirmingResult})`,
              claim.verifier,
              kind,
              hypothesis.id,
            ),
          );
          break;
        }
      }
    }
  }
  return { ok: true, items };
}

function toVerifyTask(index: number, text: string, verifier: string, kind: VerifyTask['verifierKind'], from: string): VerifyTask {
  return { id: `verify:${index + 1}`, text, verifier, verifierKind: kind, from };
}

/** A reply wrapped whole in one Markdown code fence (as many chat models answer) is read as its content. */
function unwrapFence(content: string): string {
  const match = /^\s*```[a-zA-Z]*\n([\s\S]*?)\n```\s*$/.exec(content);
  return match?.[1] ?? content;
}

function clean(value: string): string {
  return sanitizeUntrustedText(value, MAX_REPLY_TEXT_CHARS).trim();
}

function echo(value: string): string {
  return sanitizeUntrustedText(value, MAX_ITEM_ECHO_CHARS).replace(/\s+/g, ' ');
}

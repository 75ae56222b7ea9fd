import type { ChangedPathProof } from '../model/coverage.js';
import { CheckerError } from '../model/diagnostic.js';
import { countOf, pluralize } from '../text/plural.js';
import { PLACEHOLDER_PATTERN, PROOF_MESSAGE_DATA, type LoadedPack, type ProofMessage, type ProofMessageId } from '../model/rules.js';
import { compareText } from '../text/compare-text.js';
import type { ChangedPathProofJudgement } from './proof.js';

/** The words of every proof message id, with the packs that supplied them (`proof@1.2.0, repo:proof@1.0.0`). */
export interface ProofMessages {
  templates: Readonly<Partial<Record<ProofMessageId, string>>>;
  source: string;
}

const SOURCE_ORDER = { builtin: 0, repository: 1 } as const;
const PROOF_MESSAGE_IDS = Object.keys(PROOF_MESSAGE_DATA).filter((id): id is ProofMessageId => Object.hasOwn(PROOF_MESSAGE_DATA, id));

function isProofMessageId(id: string): id is ProofMessageId {
  return Object.hasOwn(PROOF_MESSAGE_DATA, id);
}

/**
 * The proof wording: the `messages` of every proof pack merged by id, built-in packs first and repository
 * packs after them (each group by pack id), so a repository pack overrides single messages.
 */
export function toProofMessages(packs: readonly LoadedPack[]): ProofMessages {
  const proofPacks = packs
    .filter((entry) => entry.pack.kind === 'proof' && Object.keys(entry.pack.messages ?? {}).some(isProofMessageId))
    .sort((a, b) => SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || compareText(a.pack.id, b.pack.id));
  const merged: Partial<Record<ProofMessageId, string>> = {};
  for (const { pack } of proofPacks) {
    for (const [id, text] of Object.entries(pack.messages ?? {})) if (isProofMessageId(id)) merged[id] = text;
  }
  const names = proofPacks.map((entry) => `${entry.pack.id}@${entry.pack.version}`);
  const missing = PROOF_MESSAGE_IDS.find((id) => merged[id] === undefined);
  if (missing !== undefined) {
    throw new CheckerError(
      'rules/proof-messages',
      `no proof pack sets the message ${missing} (proof packs with messages: ${names.join(', ') || 'none'})`,
      { hint: 'the built-in proof pack (rules/proof/pack.yaml) sets every proof message; reinstall checker if it is missing' },
    );
  }
  return { templates: merged, source: names.join(', ') };
}

/** One proof message in the packs' words; a placeholder the message's data lacks is a bug (the pack validator refuses it). */
export function renderProofMessage(message: ProofMessage, messages: ProofMessages): string {
  const data: Readonly<Record<string, string | number>> = message.data;
  const template = messages.templates[message.messageId];
  if (template === undefined) throw new Error(`no words for proof message ${message.messageId}`);
  return template.replace(PLACEHOLDER_PATTERN, (_whole, name: string, noun: string | undefined) => {
    const value = data[name];
    if (value === undefined) throw new Error(`proof message ${message.messageId} has no data for {{${name}}}`);
    return noun !== undefined && typeof value === 'number' ? countOf(value, noun, pluralize(noun)) : String(value);
  });
}

/** The proof as reports carry it: the judgement's reason and repair task in the packs' words. */
export function renderChangedPathProof(judgement: ChangedPathProofJudgement, messages: ProofMessages): ChangedPathProof {
  const { reason, repairTask, ...evidence } = judgement;
  return {
    ...evidence,
    reason: renderProofMessage(reason, messages),
    repairTask: repairTask === undefined ? '' : renderProofMessage(repairTask, messages),
  };
}

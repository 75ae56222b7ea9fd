import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadBuiltinPacks, validatePackData } from '../helpers/packs.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { type LoadedPack, PLACEHOLDER_PATTERN, PROOF_MESSAGE_DATA } from '../../src/model/rules.js';
import { deriveChangedPathProof } from '../../src/rules/proof.js';
import { renderChangedPathProof, renderProofMessage, toProofMessages } from '../../src/rules/proof-messages.js';

const builtins = await loadBuiltinPacks();
const proofPack = builtins.find((entry) => entry.pack.id === 'proof');

function repositoryProofPack(messages: Record<string, string>, rules: LoadedPack['pack']['rules'] = []): LoadedPack {
  return {
    pack: {
      schemaVersion: 1,
      id: 'repo:proof-words',
      version: '1.0.0',
      kind: 'proof',
      subject: 'changed-file',
      description: 'Our own words for untested changes.',
      messages,
      rules,
    },
    source: 'repository',
    file: '.checker/rules/proof-words.yml',
  };
}

function refusal(data: unknown): string {
  try {
    validatePackData('.checker/rules/proof-words.yml', data);
  } catch (error) {
    if (isCheckerError(error) && error.code === 'pack/invalid') return error.message;
    throw error;
  }
  return 'accepted';
}

describe('proof messages are pack data', () => {
  test('the built-in proof pack words every message id, with placeholders only from its data', () => {
    assert.ok(proofPack);
    const messages = proofPack.pack.messages ?? {};
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(PROOF_MESSAGE_DATA).sort());
    for (const [id, data] of Object.entries(PROOF_MESSAGE_DATA)) {
      const allowed: readonly string[] = data;
      const names = [...(messages[id] ?? '').matchAll(PLACEHOLDER_PATTERN)].map((match) => match[1] ?? '');
      assert.deepEqual(
        names.filter((name) => !allowed.includes(name)),
        [],
        id,
      );
    }
    assert.match(toProofMessages(builtins).source, /^proof@\d+\.\d+\.\d+$/);
  });

  test('a repository proof pack overrides messages by id, after the built-ins whatever the order', () => {
    const override = repositoryProofPack({ unproven: 'untested: {{path}}' });
    const messages = toProofMessages([override, ...builtins]);
    const judgement = deriveChangedPathProof({
      path: 'src/pay.ts',
      status: 'modified',
      changedLines: [3],
      reachingTests: [],
      coverageFresh: true,
    });
    assert.deepEqual(judgement.reason, { messageId: 'unproven', data: { path: 'src/pay.ts' } });
    const proof = renderChangedPathProof(judgement, messages);
    assert.equal(proof.reason, 'untested: src/pay.ts');
    assert.equal(proof.repairTask, renderChangedPathProof(judgement, toProofMessages(builtins)).repairTask);
    assert.ok(judgement.repairTask);
    assert.notEqual(renderProofMessage(judgement.repairTask, messages), '');
    assert.match(messages.source, /^proof@.+, repo:proof-words@1\.0\.0$/);
  });

  test('with no proof pack a message is missing: rules/proof-messages naming the id', () => {
    assert.throws(
      () => toProofMessages([repositoryProofPack({ unproven: 'untested: {{path}}' })]),
      (error: unknown) => isCheckerError(error) && error.code === 'rules/proof-messages' && /unproven-deleted\b/.test(error.message),
    );
  });

  test('an unknown proof message id is pack/invalid naming the field', () => {
    const message = refusal({ ...repositoryProofPack({ 'no-test-at-all': 'untested: {{path}}' }).pack, id: 'proof-words' });
    assert.match(message, /messages\.no-test-at-all names unknown proof message "no-test-at-all"/);
  });

  test('a placeholder the message has no data for is pack/invalid naming the field', () => {
    const message = refusal({ ...repositoryProofPack({ unproven: 'untested: {{path}} near {{nearest}}' }).pack, id: 'proof-words' });
    assert.match(message, /messages\.unproven has placeholder \{\{nearest\}\}, which the proof message unproven has no data for/);
  });

  test('a proof pack of messages alone is valid; any other pack needs a rule', () => {
    const pack = { ...repositoryProofPack({ unproven: 'untested: {{path}}' }).pack, id: 'proof-words' };
    assert.equal(refusal(pack), 'accepted');
    assert.match(refusal({ ...pack, kind: 'risk' }), /rules must hold at least one rule/);
  });
});

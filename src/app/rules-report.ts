import { CheckerError, isCheckerError } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import type { RulesListReport, RulesValidateReport } from '../model/rules-report.js';
import { loadRulePacks, MAX_PACK_BYTES } from './load/load-rule-packs.js';
import { validatePackFile } from '../rules/validate-pack.js';
import { readRepoText } from './load/repo-text.js';

/** Every rule pack that would run: the built-ins and the repository's `.checker/rules/*`. */
export async function listRulePacks(env: Env): Promise<RulesListReport> {
  const { packs, diagnostics } = await loadRulePacks(env);
  return {
    schemaVersion: 1,
    kind: 'rules-list',
    packs: packs.map(({ pack, source, file }) => ({
      id: pack.id,
      version: pack.version,
      kind: pack.kind,
      subject: pack.subject,
      source,
      file,
      description: pack.description,
      rules: pack.rules.map((rule) => {
        const { weight, evidence } = rule.event.params;
        return { id: rule.id, description: rule.description, weight, ...(evidence === undefined ? {} : { evidence }) };
      }),
    })),
    diagnostics: diagnostics.map((item) => ({ code: item.code, severity: item.severity, message: item.message })),
  };
}

/**
 * Validates one pack file of the repository, or every `.checker/rules/*` pack when no file is given.
 * Invalid packs are reported with the pack, rule and field; the caller exits non-zero when any is invalid.
 */
export async function validateRulePacks(env: Env, file?: string): Promise<RulesValidateReport> {
  if (file === undefined) {
    const { packs, diagnostics } = await loadRulePacks(env);
    const results: RulesValidateReport['results'] = packs
      .filter((loaded) => loaded.source === 'repository')
      .map((loaded) => ({
        file: loaded.file,
        valid: true,
        packId: loaded.pack.id,
        version: loaded.pack.version,
        rules: loaded.pack.rules.length,
      }));
    for (const item of diagnostics) results.push({ file: item.location?.file ?? '.checker/rules', valid: false, error: item.message });
    return {
      schemaVersion: 1,
      kind: 'rules-validate',
      results: results.sort((left, right) => (left.file < right.file ? -1 : left.file > right.file ? 1 : 0)),
    };
  }
  const text = await readRepoText(env, file, MAX_PACK_BYTES);
  if (text === undefined) {
    throw new CheckerError('pack/not-found', `${file} is not a readable rule-pack file inside the repository`, {
      hint: 'Pass a path relative to --cwd, e.g. checker rules validate .checker/rules/team.yml (at most 256 KiB, not a symlink out of the repository).',
    });
  }
  try {
    const pack = validatePackFile(file, text, (name, data) => env.checkSchema(name, data));
    return {
      schemaVersion: 1,
      kind: 'rules-validate',
      results: [{ file, valid: true, packId: pack.id, version: pack.version, rules: pack.rules.length }],
    };
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    return { schemaVersion: 1, kind: 'rules-validate', results: [{ file, valid: false, error: error.message }] };
  }
}

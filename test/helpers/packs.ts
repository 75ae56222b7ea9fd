import { validateBuiltinPacks } from '../../src/app/load/load-rule-packs.js';
import { readBuiltinPackSources } from '../../src/io/builtin-packs.js';
import { checkSchema } from '../../src/io/schema.js';
import type { LoadedPack, RulePack } from '../../src/model/rules.js';
import { validatePackData as validateData, validatePackFile as validateFile } from '../../src/rules/validate-pack.js';

/** The built-in packs (or those of a `rules/` folder), validated against the real schemas as a command does. */
export async function loadBuiltinPacks(rulesDir?: string): Promise<LoadedPack[]> {
  return validateBuiltinPacks(await readBuiltinPackSources(rulesDir), checkSchema);
}

/** validatePackData with the real schema validators. */
export function validatePackData(file: string, data: unknown): RulePack {
  return validateData(file, data, checkSchema);
}

/** validatePackFile with the real schema validators. */
export function validatePackFile(file: string, text: string): RulePack {
  return validateFile(file, text, checkSchema);
}

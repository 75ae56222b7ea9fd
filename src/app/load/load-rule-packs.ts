import { CheckerError, isCheckerError, type Diagnostic } from '../../model/diagnostic.js';
import type { BuiltinPackSource, Env } from '../../model/env.js';
import type { LoadedPack, RulePack } from '../../model/rules.js';
import type { SchemaCheck } from '../../model/schema-issue.js';
import { parsePackText, validatePackData, validatePackFile } from '../../rules/validate-pack.js';

export const MAX_PACK_BYTES = 256 * 1024;
const MAX_REPOSITORY_PACKS = 100;
const REPOSITORY_PACK_DIR = '.checker/rules';
const REPOSITORY_PACK_PREFIX = 'repo:';

const PACK_FILE = /\.(?:ya?ml|json)$/i;

export interface RulePacks {
  packs: LoadedPack[];
  diagnostics: Diagnostic[];
}

/** Validated built-in packs per host array: the host hands the same array every call, so each is validated once. */
const validatedBuiltins = new WeakMap<readonly BuiltinPackSource[], LoadedPack[]>();

/** Validates the packs the host ships; a broken one throws `pack/invalid` (the installation is broken, not the repository). */
export function validateBuiltinPacks(sources: readonly BuiltinPackSource[], checkSchema: SchemaCheck): LoadedPack[] {
  const cached = validatedBuiltins.get(sources);
  if (cached !== undefined) return cached;
  const packs = sources.map((source): LoadedPack => {
    // Validated by the build against this version's schema and checks (scripts/compile-packs.mjs): 80-230 ms a start saved.
    const pack =
      source.validated === true && source.compiled !== undefined
        ? (source.compiled as RulePack)
        : validatePackData(source.file, source.compiled ?? parsePackText(source.file, source.text), checkSchema);
    if (pack.id !== source.folder) {
      throw new CheckerError('pack/invalid', `${source.file}: pack "${pack.id}": id must equal its folder name "${source.folder}"`, {
        hint: 'rename the folder or the pack id',
      });
    }
    return { pack, source: 'builtin', file: source.file };
  });
  validatedBuiltins.set(sources, packs);
  return packs;
}

/** The built-in packs, validated. */
async function loadBuiltinPacks(env: Env): Promise<LoadedPack[]> {
  return validateBuiltinPacks(await env.builtinPacks(), (name, data) => env.checkSchema(name, data));
}

/**
 * Loads `<repo>/.checker/rules/*.yml|yaml|json`. Each pack's id becomes `repo:<id>` so it runs beside the
 * built-ins and never shadows one. Files that are refused (`pack/refused`) or invalid become diagnostics; the rest load.
 */
export async function loadRepositoryPacks(env: Env): Promise<RulePacks> {
  const diagnostics: Diagnostic[] = [];
  const listing = await env.files.list(REPOSITORY_PACK_DIR);
  if (!listing.ok) {
    if (listing.reason === 'missing' || listing.reason === 'not-a-file') return { packs: [], diagnostics };
    diagnostics.push({
      code: 'pack/refused',
      severity: 'error',
      message:
        listing.reason === 'outside-repo'
          ? `${REPOSITORY_PACK_DIR} resolves outside the repository (symlink); no repository packs were loaded`
          : `${REPOSITORY_PACK_DIR} cannot be listed (${listing.message}); no repository packs were loaded`,
      hint: `make ${REPOSITORY_PACK_DIR} a real folder inside the repository`,
      location: { file: REPOSITORY_PACK_DIR },
    });
    return { packs: [], diagnostics };
  }
  const names = listing.entries
    .map((entry) => entry.name)
    .filter((name) => PACK_FILE.test(name))
    .sort();
  if (names.length > MAX_REPOSITORY_PACKS) {
    diagnostics.push({
      code: 'pack/refused',
      severity: 'warn',
      message: `${REPOSITORY_PACK_DIR} holds ${names.length} pack files; only the first ${MAX_REPOSITORY_PACKS} by name were loaded`,
      hint: 'merge packs',
      location: { file: REPOSITORY_PACK_DIR },
    });
  }
  const packs: LoadedPack[] = [];
  const fileById = new Map<string, string>();
  const checkSchema: SchemaCheck = (name, data) => env.checkSchema(name, data);
  for (const name of names.slice(0, MAX_REPOSITORY_PACKS)) {
    const file = `${REPOSITORY_PACK_DIR}/${name}`;
    const read = await env.files.readText(file, { maxBytes: MAX_PACK_BYTES });
    if (!read.ok) {
      diagnostics.push({ code: 'pack/refused', severity: 'error', message: read.message, hint: read.hint, location: { file } });
      continue;
    }
    try {
      const pack = validatePackFile(file, read.text, checkSchema);
      const id = `${REPOSITORY_PACK_PREFIX}${pack.id}`;
      const earlier = fileById.get(id);
      if (earlier !== undefined) {
        throw new CheckerError('pack/duplicate', `${file}: pack "${pack.id}" is already defined in ${earlier}; this file was skipped`, {
          hint: 'give every repository pack its own id',
          location: { file },
        });
      }
      fileById.set(id, file);
      packs.push({ pack: { ...pack, id }, source: 'repository', file });
    } catch (error) {
      if (!isCheckerError(error)) throw error;
      diagnostics.push(error.toDiagnostic());
    }
  }
  return { packs, diagnostics };
}

/** Built-in packs plus the repository's `.checker/rules/*` (namespaced `repo:`); a bad repository pack is a diagnostic. */
export async function loadRulePacks(env: Env): Promise<RulePacks> {
  const builtin = await loadBuiltinPacks(env);
  const repository = await loadRepositoryPacks(env);
  return { packs: [...builtin, ...repository.packs], diagnostics: repository.diagnostics };
}

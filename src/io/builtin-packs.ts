import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import type { BuiltinPackSource } from '../model/env.js';
import { readCompiledPack } from './compiled-packs.js';
import { hasErrorCode } from './has-error-code.js';
import { findPackageRoot, readSchemaText } from './schema.js';

/** The same cap as a repository pack's: a shipped pack over it is a broken installation. */
const MAX_BUILTIN_PACK_BYTES = 256 * 1024;
const FORMAT_HINT = 'see docs/rule-packs.md for the rule-pack format';

async function readBuiltinPack(rulesDir: string, folder: string): Promise<BuiltinPackSource | undefined> {
  const names = (await readdir(join(rulesDir, folder))).filter((name) => /^pack\.(?:ya?ml|json)$/.test(name)).sort();
  if (names.length === 0) return undefined;
  const displayFolder = `rules/${folder}`;
  if (names.length > 1) {
    throw new CheckerError('pack/invalid', `${displayFolder}: holds ${names.join(' and ')}; keep one pack file`, { hint: FORMAT_HINT });
  }
  const name = names[0] ?? '';
  const file = `${displayFolder}/${name}`;
  const text = await readFile(join(rulesDir, folder, name), 'utf8');
  if (Buffer.byteLength(text) > MAX_BUILTIN_PACK_BYTES) {
    throw new CheckerError('pack/invalid', `${file}: is over the ${MAX_BUILTIN_PACK_BYTES}-byte limit`, { hint: 'split the pack' });
  }
  const compiled = readCompiledPack(folder, text, readSchemaText('rule-pack'));
  return compiled === undefined
    ? { folder, file, text }
    : { folder, file, text, compiled: compiled.data, ...(compiled.validated ? { validated: true } : {}) };
}

async function readBuiltinPacks(rulesDir: string): Promise<BuiltinPackSource[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(rulesDir, { withFileTypes: true });
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return [];
    throw error;
  }
  const packs: BuiltinPackSource[] = [];
  for (const entry of entries.filter((item) => item.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const source = await readBuiltinPack(rulesDir, entry.name);
    if (source !== undefined) packs.push(source);
  }
  return packs;
}

let installedPacks: Promise<BuiltinPackSource[]> | undefined;

/**
 * The packs shipped in the package's `rules/<pack-id>/pack.yaml|json`, with the build's parsed data when it matches.
 * The installed ones (no `rulesDir`) are read once per process and every call gets the same array, so the core can
 * validate them once too: a command loads packs two to four times (graph signal words, rules, grounding, context).
 */
export function readBuiltinPackSources(rulesDir?: string): Promise<BuiltinPackSource[]> {
  if (rulesDir !== undefined) return readBuiltinPacks(rulesDir);
  installedPacks ??= readBuiltinPacks(join(findPackageRoot(), 'rules')).catch((error: unknown) => {
    installedPacks = undefined;
    throw error;
  });
  return installedPacks;
}

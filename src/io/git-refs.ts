import { join } from 'node:path';
import type { GitRepository } from './git-repository.js';
import { hasErrorCode } from './has-error-code.js';

/** git follows at most this many symbolic refs (refs.c, SYMREF_MAXDEPTH). */
const MAX_SYMBOLIC_DEPTH = 5;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SYMBOLIC = 'ref: ';

/**
 * The text of `packed-refs`, by path, with the stat it was read at. A clone of a busy repository packs tens of
 * thousands of branches and tags there (medusa: 18,725 lines, 1.3 MB); isomorphic-git parses the whole file into a
 * map on every ref it resolves (80-160 ms each there), where one lookup needs a single search of the text.
 */
const packedTexts = new Map<string, { stamp: string; text: string }>();

async function readPackedRefs(repo: GitRepository): Promise<string> {
  const path = join(repo.commonDir, 'packed-refs');
  const stats = await repo.fs.promises.stat(path).catch((error: unknown) => {
    if (hasErrorCode(error, 'ENOENT') || hasErrorCode(error, 'ENOTDIR')) return undefined;
    throw error;
  });
  if (stats === undefined) return '';
  const stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  const kept = packedTexts.get(path);
  if (kept?.stamp === stamp) return kept.text;
  const read: string = (await repo.fs.promises.readFile(path, 'utf8')).toString();
  const text = read.endsWith('\n') ? read : `${read}\n`;
  packedTexts.set(path, { stamp, text });
  return text;
}

/** A packed ref's value: the line `<oid> <name>` (a name holds no space, so ` <name>\n` ends exactly one line). */
function findPacked(text: string, name: string): string | undefined {
  const at = text.indexOf(` ${name}\n`);
  if (at < 0) return undefined;
  const oid = text.slice(text.lastIndexOf('\n', at) + 1, at);
  return OID.test(oid) ? oid : undefined;
}

/** A loose ref's trimmed content (per-worktree refs from the worktree's gitdir, the rest from the common dir). */
async function readLoose(repo: GitRepository, name: string): Promise<string | undefined> {
  try {
    return (await repo.fs.promises.readFile(join(repo.gitdir, name), 'utf8')).toString().trim();
  } catch (error) {
    // EINVAL: the name is a folder of refs (`refs/heads/feature` beside `refs/heads/feature/x`) or not a regular file.
    if (['ENOENT', 'ENOTDIR', 'EISDIR', 'EINVAL'].some((code) => hasErrorCode(error, code))) return undefined;
    throw error;
  }
}

/** The per-worktree names git reads outside `refs/` (gitrepository-layout). */
const PSEUDO_REFS = new Set(['HEAD', 'ORIG_HEAD', 'FETCH_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD']);

/**
 * A name that stays inside the git directory: `HEAD` and its kin, or `refs/…` with no empty, `.`-led or `.lock`
 * component and no control character or backslash (git's check_refname_format, in part). A symbolic ref in a hostile
 * clone (`ref: ../../../etc/passwd`) names a file outside it; it is not followed.
 */
function isRefName(name: string): boolean {
  if (PSEUDO_REFS.has(name)) return true;
  if (!name.startsWith('refs/') || /[\\~^:?*[]/.test(name) || name.includes('..')) return false;
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** One step: a loose ref first, as git reads them, then `packed-refs`; a symbolic ref's value keeps its `ref: `. */
async function readRefValue(repo: GitRepository, name: string): Promise<string | undefined> {
  if (!isRefName(name)) return undefined;
  const loose = await readLoose(repo, name);
  if (loose !== undefined && loose !== '') return loose;
  return name.startsWith('refs/') ? findPacked(await readPackedRefs(repo), name) : undefined;
}

/**
 * The object a ref names (`HEAD`, `refs/heads/main`, `refs/tags/v1`: full names only), following symbolic refs;
 * undefined when no loose or packed ref has that name or a symbolic chain ends nowhere. An annotated tag gives the
 * tag object, not its commit.
 */
export async function resolveRefOid(repo: GitRepository, name: string): Promise<string | undefined> {
  let current = name;
  for (let depth = 0; depth <= MAX_SYMBOLIC_DEPTH; depth += 1) {
    const value = await readRefValue(repo, current);
    if (value === undefined) return undefined;
    if (!value.startsWith(SYMBOLIC)) return OID.test(value) ? value : undefined;
    current = value.slice(SYMBOLIC.length).trim();
  }
  return undefined;
}

/** The ref a symbolic ref points at (`refs/heads/main` for HEAD on main, even before its first commit); undefined otherwise. */
export async function readSymbolicRef(repo: GitRepository, name: string): Promise<string | undefined> {
  if (!isRefName(name)) return undefined;
  const value = await readLoose(repo, name);
  if (value === undefined || !value.startsWith(SYMBOLIC)) return undefined;
  const target = value.slice(SYMBOLIC.length).trim();
  return target.startsWith('refs/') && isRefName(target) ? target : undefined;
}

import type { LinkKeys } from '../../model/env.js';
import { getDirName, joinRepoPath } from './paths.js';
import type { PackageInfo } from './workspaces.js';

// What a file's text must hold for one of its imports to resolve to a given file (LinkKeys). A focused cold run scans
// for imports only the files whose text holds a key of a file the change reaches (src/app/build-graph.ts), so every
// rule here errs on the side of more.

/** What keys are made of besides the path itself: the repository's package manifests and its aliases. */
export interface LinkKeyContext {
  packages: readonly PackageInfo[];
  /** The literal start of every tsconfig `paths` pattern and package.json `imports` key: an alias may name any file. */
  aliasPrefixes: readonly string[];
}

const MANIFEST_ENTRIES = ['main', 'module', 'types', 'typings', 'browser'];
const CODE_EXTENSION = /(?:\.d)?\.[cm]?[jt]sx?$/;

/**
 * The keys of `path`. A specifier that resolves to it names it by its file name (the part before the first dot, which
 * every spelling with or without an extension holds), by its folder when it is an index (or by dots alone), by a package
 * that holds it or points at it (`main`, `types`, `exports`: the package's name, or its folder's name from a relative
 * import), or through an alias.
 */
export function deriveLinkKeys(path: string, context: LinkKeyContext): LinkKeys {
  const words = new Set<string>(context.aliasPrefixes);
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = firstRun(base);
  words.add(stem);
  const dir = getDirName(path);
  let dots = false;
  if (stem === 'index') {
    dots = true;
    words.add(firstRun(dir.slice(dir.lastIndexOf('/') + 1)));
  }
  for (const info of context.packages) {
    const holds = info.folder === '' || path.startsWith(`${info.folder}/`);
    const pointsAt = listManifestTargets(info).some((target) => path.startsWith(target));
    if (!holds && !pointsAt) continue;
    if (info.name !== undefined && info.name !== '') words.add(info.name);
    if (info.folder !== '') words.add(firstRun(info.folder.slice(info.folder.lastIndexOf('/') + 1)));
    if (pointsAt) dots = true;
  }
  return { words: [...words].sort(), dots };
}

/** The run of a name before its first dot, leading dots skipped: `foo` of `foo.service.ts`, `eslintrc` of `.eslintrc.js`. */
function firstRun(name: string): string {
  const trimmed = name.replace(/^\.+/, '');
  const dot = trimmed.indexOf('.');
  return dot === -1 ? trimmed : trimmed.slice(0, dot);
}

const manifestTargets = new WeakMap<PackageInfo, string[]>();

/**
 * The paths a manifest points at (`main` and the like, every string in `exports`, each cut at its first `*`), joined to
 * its folder, code extension dropped.
 */
function listManifestTargets(info: PackageInfo): string[] {
  const known = manifestTargets.get(info);
  if (known !== undefined) return known;
  const targets: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      const star = value.indexOf('*');
      targets.push(star === -1 ? value : value.slice(0, star));
    } else if (depth < 8 && typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) visit(inner, depth + 1);
    }
  };
  for (const field of MANIFEST_ENTRIES) visit(info.manifest[field], 7);
  visit(info.manifest.exports, 0);
  const joined = targets.flatMap((target) => {
    const path = joinRepoPath(info.folder, target);
    return path === undefined || path === '' ? [] : [path.replace(CODE_EXTENSION, '')];
  });
  manifestTargets.set(info, joined);
  return joined;
}

/**
 * A test of whether a text holds one of `keys`: a word at the start of a path segment (after `/` or a quote), a specifier
 * of dots alone after an import keyword when `dots`, or an import keyword's string spelled with escapes (an escape such
 * as `\u0061` could spell a word the text does not hold; `escapes: false` leaves that out, for a text tested before).
 */
export function compileLinkTest(keys: LinkKeys, options: { escapes?: boolean } = {}): (text: string) => boolean {
  const words = keys.words.length === 0 ? undefined : new RegExp(`[/'"\`](?:${keys.words.map(escapeRegExp).join('|')})`);
  const escapes = options.escapes !== false;
  return (text) =>
    words?.test(text) === true ||
    (keys.dots && DOTS_SPECIFIER.test(text)) ||
    (escapes && text.includes('\\') && ESCAPED_SPECIFIER.test(text));
}

function escapeRegExp(word: string): string {
  return word.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

// An import keyword, then comments or spaces, an optional `(` and more of them, then the string's opening quote.
const BEFORE_SPECIFIER = String.raw`(?:\b(?:import|require|from|mock|resolve)|\bpath\s*=)(?:\s|/\*[^]*?\*/|//[^\n]*\n)*\(?(?:\s|/\*[^]*?\*/|//[^\n]*\n)*`;
const DOTS_SPECIFIER = new RegExp(`${BEFORE_SPECIFIER}(['"\`])\\.{1,2}(?:/\\.{1,2})*/?\\1`);
const ESCAPED_SPECIFIER = new RegExp(`${BEFORE_SPECIFIER}['"\`][^'"\`\\n]*\\\\`);

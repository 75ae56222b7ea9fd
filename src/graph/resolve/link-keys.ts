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
 * The keys of `path`, each a text and what must come before it: `/name` after a slash or a quote (a path segment),
 * `'name` after a quote (the start of a bare specifier), `*text` anywhere. A specifier that resolves to the file names
 * it by its file name (`/foo` of `foo.service.ts`: every spelling with or without an extension holds the part before the
 * first dot), by its folder when it is an index (`/folder`, or `./index`, a bare `index` under a `baseUrl`, dots alone),
 * by a package that holds it (`'name`: exports, `main` and the dist-to-src mapping may lead anywhere inside) or points
 * at it (`main`, `types`, `exports`: also `/folder` from a relative import of the package's folder, and dots), or
 * through an alias (`'prefix` of every `paths` pattern and `#imports` key).
 */
export function deriveLinkKeys(path: string, context: LinkKeyContext): LinkKeys {
  const words = new Set<string>(context.aliasPrefixes.map((prefix) => `${QUOTED}${prefix}`));
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = firstRun(base);
  const dir = getDirName(path);
  let dots = false;
  if (stem === 'index') {
    dots = true;
    words.add(`${SEGMENT}${firstRun(dir.slice(dir.lastIndexOf('/') + 1))}`);
    words.add(`${ANYWHERE}./index`);
    words.add(`${QUOTED}index`);
  } else {
    words.add(`${SEGMENT}${stem}`);
  }
  for (const info of context.packages) {
    const holds = info.folder === '' || path.startsWith(`${info.folder}/`);
    const pointsAt = listManifestTargets(info).some((target) => path.startsWith(target));
    if (!holds && !pointsAt) continue;
    if (info.name !== undefined && info.name !== '') words.add(`${QUOTED}${info.name}`);
    if (!pointsAt) continue;
    if (info.folder !== '') words.add(`${SEGMENT}${firstRun(info.folder.slice(info.folder.lastIndexOf('/') + 1))}`);
    dots = true;
  }
  return { words: [...words].sort(), dots };
}

/** What must come before a key's text (its first character): a slash or a quote, a quote, anything. */
const SEGMENT = '/';
const QUOTED = "'";
const ANYWHERE = '*';

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
 * A test of whether a text holds one of `keys`: a key's text after what must come before it (deriveLinkKeys), a specifier
 * of dots alone after an import keyword when `dots`, or an import keyword's string spelled with escapes (an escape such
 * as `\u0061` could spell a word the text does not hold; `escapes: false` leaves that out, for a text tested before).
 */
export function compileLinkTest(keys: LinkKeys, options: { escapes?: boolean } = {}): (text: string) => boolean {
  const byKind = new Map<string, string[]>([
    [SEGMENT, []],
    [QUOTED, []],
    [ANYWHERE, []],
  ]);
  for (const word of keys.words) {
    const kind = byKind.get(word.charAt(0));
    // A key of no known kind is looked for anywhere, whole: more files read, never fewer.
    if (kind === undefined) byKind.get(ANYWHERE)?.push(escapeRegExp(word));
    else kind.push(escapeRegExp(word.slice(1)));
  }
  const parts = [
    [`[/'"\`]`, byKind.get(SEGMENT) ?? []],
    [`['"\`]`, byKind.get(QUOTED) ?? []],
    ['', byKind.get(ANYWHERE) ?? []],
  ] as const;
  const source = parts
    .filter(([, words]) => words.length > 0)
    .map(([before, words]) => `${before}(?:${words.join('|')})`)
    .join('|');
  const words = source === '' ? undefined : new RegExp(source);
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

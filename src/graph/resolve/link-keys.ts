import type { LinkKeys } from '../../model/env.js';
import { getDirName, joinRepoPath } from './paths.js';
import type { PackageInfo } from './workspaces.js';
import { escapeRegExp } from '../../text/escape-regexp.js';

// What a file's text must hold for one of its imports to resolve to a given file (LinkKeys). A focused cold run scans
// for imports only the files whose text holds a key of a file the change reaches (src/app/build-graph.ts), so every
// rule here errs on the side of more.

/** What keys are made of besides the path itself: the repository's package manifests and its aliases. */
export interface LinkKeyContext {
  packages: readonly PackageInfo[];
  /** The literal start of every tsconfig `paths` pattern and package.json `imports` key: an alias may name any file. */
  aliasPrefixes: readonly string[];
  /**
   * The build-output folders the repository does not hold, each with the folder it is built from (build-output.ts): an
   * import of `../dist/esm/index.js` names src/index.ts by the output's folder, which no key of the source path says.
   */
  buildOutputs?: readonly { output: string; source: string; file?: boolean }[];
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
  const index = indexPackages(context);
  const holding = new Set<PackageInfo>();
  const pointing = new Set<PackageInfo>();
  for (let ancestor = dir; ; ancestor = getDirName(ancestor)) {
    for (const info of index.byFolder.get(ancestor) ?? []) holding.add(info);
    for (const { target, info } of index.targetsByDir.get(ancestor) ?? []) if (path.startsWith(target)) pointing.add(info);
    if (ancestor === '') break;
  }
  for (const info of [...holding, ...pointing]) {
    if (info.name !== undefined && info.name !== '') words.add(`${QUOTED}${info.name}`);
  }
  for (const info of pointing) {
    if (info.folder !== '') words.add(`${SEGMENT}${firstRun(info.folder.slice(info.folder.lastIndexOf('/') + 1))}`);
    dots = true;
  }
  // A bundle built from the file is named by the bundle's own name (`../build/index.cjs` for lib/cjs.ts).
  for (const { output, source, file } of context.buildOutputs ?? []) {
    if (file === true && source === path) words.add(`${SEGMENT}${firstRun(output.slice(output.lastIndexOf('/') + 1))}`);
  }
  // Built into a folder the repository lacks, an index is named by its file within that folder (`dist/esm/index.js`).
  for (const { output, source, file } of stem === 'index' ? (context.buildOutputs ?? []) : []) {
    if (file === true) continue;
    if (source !== '' && !path.startsWith(`${source}/`)) continue;
    words.add(`${SEGMENT}index`);
    if (output !== '') words.add(`${SEGMENT}${firstRun(output.slice(output.lastIndexOf('/') + 1))}`);
  }
  return { words: [...words].sort(), dots };
}

interface PackageIndex {
  /** The packages by folder ('' the root). */
  byFolder: Map<string, PackageInfo[]>;
  /** What the manifests point at (listManifestTargets), by the folder each target is in. */
  targetsByDir: Map<string, { target: string; info: PackageInfo }[]>;
}

const packageIndexes = new WeakMap<LinkKeyContext, PackageIndex>();

/** The context's packages indexed once: a file's keys then look at its own folders only, not at every package. */
function indexPackages(context: LinkKeyContext): PackageIndex {
  const known = packageIndexes.get(context);
  if (known !== undefined) return known;
  const index: PackageIndex = { byFolder: new Map(), targetsByDir: new Map() };
  for (const info of context.packages) {
    pushTo(index.byFolder, info.folder, info);
    for (const target of listManifestTargets(info)) pushTo(index.targetsByDir, getDirName(target), { target, info });
  }
  packageIndexes.set(context, index);
  return index;
}

function pushTo<Value>(map: Map<string, Value[]>, key: string, value: Value): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
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

/**
 * The paths a manifest points at (`main` and the like, every string in `exports`, each cut at its first `*`), joined to
 * its folder, code extension dropped.
 */
function listManifestTargets(info: PackageInfo): string[] {
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
  return targets.flatMap((target) => {
    const path = joinRepoPath(info.folder, target);
    return path === undefined || path === '' ? [] : [path.replace(CODE_EXTENSION, '')];
  });
}

/**
 * A test of whether a text holds one of `keys`: a key's text after what must come before it (deriveLinkKeys), a specifier
 * of dots alone after an import keyword when `dots`, or an import keyword's string spelled with escapes (an escape such
 * as `\u0061` could spell a word the text does not hold; `escapes: false` leaves that out, for a text tested before).
 */
export function compileLinkTest(keys: LinkKeys, options: { escapes?: boolean } = {}): (text: string) => boolean {
  // A path segment's key is the whole run between a slash or quote and the next slash, quote or dot (it is a name's
  // part before its first dot, or a folder's): a set of them is looked up run by run, however many there are. The
  // few keys of the other kinds make a pattern.
  const segments = new Set<string>();
  const patterns: string[] = [];
  for (const word of keys.words) {
    const kind = word.charAt(0);
    const text = word.slice(1);
    if (kind === SEGMENT && text.length <= MAX_RUN) segments.add(text);
    else if (kind === SEGMENT) patterns.push(`[/'"\`]${escapeRegExp(text)}(?![^/'"\`.\n])`);
    else if (kind === QUOTED) patterns.push(`['"\`]${escapeRegExp(text)}`);
    else if (kind === ANYWHERE) patterns.push(escapeRegExp(text));
    // A key of no known kind is looked for anywhere, whole: more files read, never fewer.
    else patterns.push(escapeRegExp(word));
  }
  // A few names go in the pattern too (faster than a set for them), each a whole run as the set would take it.
  if (segments.size <= MAX_PATTERN_SEGMENTS) {
    for (const segment of segments) patterns.push(`[/'"\`]${escapeRegExp(segment)}(?![^/'"\`.\n])`);
    segments.clear();
  }
  const pattern = patterns.length === 0 ? undefined : new RegExp(patterns.join('|'));
  const escapes = options.escapes !== false;
  return (text) =>
    (segments.size > 0 && holdsRun(text, segments)) ||
    pattern?.test(text) === true ||
    (keys.dots && DOTS_SPECIFIER.test(text)) ||
    (escapes && text.includes('\\') && ESCAPED_SPECIFIER.test(text));
}

/** The longest segment key looked up as a run; a longer one (a file name of over 200 characters) goes in the pattern. */
const MAX_RUN = 200;
/** Up to this many segment keys are tested as one pattern; more are looked up run by run. */
const MAX_PATTERN_SEGMENTS = 64;
const RUN = /[/'"`]([^/'"`.\n]{0,201})/g;

function holdsRun(text: string, runs: ReadonlySet<string>): boolean {
  RUN.lastIndex = 0;
  // The delimiter that ends a run is not part of its match: it starts the next one.
  for (let match = RUN.exec(text); match !== null; match = RUN.exec(text)) if (runs.has(match[1] as string)) return true;
  return false;
}

// An import keyword, then spaces, comments and `(` in any order, then the string's opening quote. Each
// alternative starts with a different character and a comment's body cannot end early, so a failed match backs off one
// piece at a time (two adjacent `*` groups, or a lazy comment body, made it quadratic on real files).
const BEFORE_SPECIFIER = String.raw`(?:\b(?:import|require|from|mock|resolve)|\bpath\s*=)(?:\s|\(|/\*(?:[^*]|\*(?!/))*\*/|//[^\n]*\n)*`;
const DOTS_SPECIFIER = new RegExp(`${BEFORE_SPECIFIER}(['"\`])\\.{1,2}(?:/\\.{1,2})*/?\\1`);
const ESCAPED_SPECIFIER = new RegExp(`${BEFORE_SPECIFIER}['"\`][^'"\`\\n]*\\\\`);

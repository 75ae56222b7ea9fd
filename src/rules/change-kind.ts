import type { ChangeKind } from '../model/analysis.js';
import type { Language } from '../model/graph.js';
import type { ChangeStatus, Hunk } from '../model/change.js';
import type { Span } from '../model/facts.js';
import type { PathClasses } from './classifiers.js';
import { isNodeBuiltin } from '../graph/resolve/builtins.js';
import { classifyRole, getLanguage } from '../graph/roles.js';
import { classifyTextChange, getCommentSyntax, isIndentSignificant } from './facts-text.js';
import { toPythonRuntimeText } from './python-text.js';

export interface ChangeKindInput {
  path: string;
  status: ChangeStatus;
  binary: boolean;
  hunks: readonly Hunk[];
  additions: number;
  deletions: number;
  baseText?: string;
  headText?: string;
  /** Type-only declarations on each side (interfaces, type aliases, `declare`, overload signatures, type imports). */
  baseTypeSpans?: readonly Span[];
  headTypeSpans?: readonly Span[];
  /** Hashes of each side's text without its type syntax (graph/parse/runtime-text.ts): equal when only types changed. */
  baseRuntimeHash?: string;
  headRuntimeHash?: string;
  /** The TypeScript source this file is compiled from (see findCompiledSource): its proof is the source's. */
  compiledFrom?: string;
  /** The path's classes from the merged classifier packs (rules/classifiers.ts). */
  pathClasses: Pick<PathClasses, 'generated' | 'example' | 'lockfile'>;
}

/** Kinds whose changed lines do not run: they get no runtime-proof obligation. */
export const NON_RUNTIME_KINDS: ReadonlySet<ChangeKind> = new Set([
  'docs',
  'config',
  'manifest',
  'lockfile',
  'generated',
  'example',
  'constant',
  'export-only',
  'identifier-rename',
  'rename',
  'comment-or-format',
  'type-only',
  'binary',
]);

/**
 * What kind of change a changed file carries: docs, config, manifest, lockfile, generated, a pure
 * rename, comments or formatting only, type-only declarations, a test, or runtime code. Decided from
 * the path, the two texts and the type-only spans the parser found on each side.
 */
export function classifyChangeKind(input: ChangeKindInput): ChangeKind {
  const { path } = input;
  if (input.pathClasses.lockfile) return 'lockfile';
  const role = classifyRole(path);
  if (role === 'doc') return 'docs';
  if (role === 'manifest') return 'manifest';
  if (role === 'config') return 'config';
  if (input.binary) return 'binary';
  if (input.pathClasses.generated || input.compiledFrom !== undefined) return 'generated';
  if (input.status === 'renamed' && input.additions === 0 && input.deletions === 0) return 'rename';
  if (role === 'test') return 'test';
  // An example app, a playground or a demo shows or drives the product: the product's own tests carry the proof.
  if (input.pathClasses.example) return 'example';
  // A snapshot is what a test expects: a test change. A declaration file holds types only.
  if (/\.snap$/i.test(path) || path.includes('/__snapshots__/')) return 'test';
  const language = getLanguage(path);
  const isDeclarationFile = /\.d\.[cm]?ts$/i.test(path);
  if (isDeclarationFile && input.status !== 'modified' && input.status !== 'renamed') return 'type-only';
  if (input.status === 'modified' || input.status === 'renamed') {
    const text = classifyTextChange(input.baseText, input.headText, getCommentSyntax(language, path), isIndentSignificant(language));
    // A declaration file holds types only; one whose edit is its doc comments alone (ky reworded a hook's JSDoc in
    // index.d.ts) changes no type either: nothing to type-check.
    if (isDeclarationFile) return text.commentOnly || text.formattingOnly ? 'comment-or-format' : 'type-only';
    if (
      text.commentOnly ||
      text.formattingOnly ||
      isBuiltinPrefixOnly(input.baseText, input.headText, language) ||
      isPythonTextOnly(input.baseText, input.headText, language) ||
      isSemicolonStyleOnly(input.baseText, input.headText, language, path)
    )
      return 'comment-or-format';
    if (isTypeOnlyChange(input)) return 'type-only';
    if (['ts', 'tsx', 'js', 'jsx'].includes(language) && isNewConstantsOnly(input)) return 'constant';
    if (['ts', 'tsx', 'js', 'jsx'].includes(language) && isExportOnly(input)) return 'export-only';
    if (['ts', 'tsx', 'js', 'jsx'].includes(language) && isIdentifierRename(input)) return 'identifier-rename';
  }
  if (language === 'go' && (input.status === 'added' || input.status === 'modified') && isGoConstantsOnly(input)) return 'constant';
  if (
    input.status === 'added' &&
    input.headText !== undefined &&
    input.headTypeSpans !== undefined &&
    (countTypedLines(input.headText, allLines(input.headText), input.headTypeSpans) ?? 0) > 0
  )
    return 'type-only';
  return 'runtime';
}

/** A line's last `;`, before a line break, spaces or a line comment. */
const LINE_END_SEMICOLON = /;[ \t]*(?=\/\/[^\n]*)?$/;
/** What a line may not start with after a `;` taken away (an ASI hazard); a comment (`//`, `/*`) is none. */
const ASI_HAZARD = /^\s*(?:[([`+-]|\/(?![/*]))/;

/**
 * Whether JavaScript or TypeScript texts differ only in semicolons that end a line (koa-router's `function Layer(…)
 * { … };` → `}`, a linter's `semi` rule either way), with comment and layout changes beside them. A `;` before a line
 * that opens with `(`, `[`, a template, `+`, `-` or `/` keeps two statements apart and is never taken away.
 */
function isSemicolonStyleOnly(baseText: string | undefined, headText: string | undefined, language: Language, path: string): boolean {
  if (!['ts', 'tsx', 'js', 'jsx'].includes(language) || baseText === undefined || headText === undefined) return false;
  // Only a change in how many lines end with `;` can be one: most edits leave the count and skip the second comparison.
  const ending = /;[ \t]*(?:\/\/[^\n]*)?$/gm;
  if ((baseText.match(ending)?.length ?? 0) === (headText.match(ending)?.length ?? 0)) return false;
  const strip = (text: string): string => {
    const lines = text.split('\n');
    // Walked from the end, so each line knows the next line that says something.
    let next: string | undefined;
    for (let index = lines.length - 1; index >= 0; index--) {
      const line = lines[index] ?? '';
      if (next === undefined || !ASI_HAZARD.test(next)) lines[index] = line.replace(LINE_END_SEMICOLON, '');
      if (line.trim() !== '') next = line;
    }
    return lines.join('\n');
  };
  const base = strip(baseText);
  const head = strip(headText);
  if (base === baseText && head === headText) return false;
  const text = classifyTextChange(base, head, getCommentSyntax(language, path), false);
  return base === head || text.commentOnly || text.formattingOnly;
}

/** Python texts that differ only in docstrings, comments, quote style and layout (python-text.ts). */
function isPythonTextOnly(baseText: string | undefined, headText: string | undefined, language: string): boolean {
  return (
    language === 'python' &&
    baseText !== undefined &&
    headText !== undefined &&
    toPythonRuntimeText(baseText) === toPythonRuntimeText(headText)
  );
}

/** A Node built-in named as the runtime names it either way: `'node:net'` and `'net'` load the same module. */
const BUILTIN_SPECIFIER = /(['"])node:([\w/]+)\1/g;

/**
 * Whether the two texts differ only in `node:` prefixes of built-in modules (node-fetch's `import {isIP} from 'net'`
 * → `'node:net'`): the same modules load, nothing else changed.
 */
function isBuiltinPrefixOnly(baseText: string | undefined, headText: string | undefined, language: string): boolean {
  if (baseText === undefined || headText === undefined || baseText === headText || !['ts', 'tsx', 'js', 'jsx'].includes(language))
    return false;
  const withoutPrefix = (text: string): string =>
    text.replace(BUILTIN_SPECIFIER, (written, quote: string, name: string) => (isNodeBuiltin(name) ? `${quote}${name}${quote}` : written));
  return withoutPrefix(baseText) === withoutPrefix(headText);
}

function isTypeOnlyChange(input: ChangeKindInput): boolean {
  // What runs is the same on both sides: the change is in annotations, type arguments or type imports, even when they
  // sit on lines of runtime code.
  if (input.baseRuntimeHash !== undefined && input.baseRuntimeHash === input.headRuntimeHash) return true;
  if (
    input.headText === undefined ||
    input.baseText === undefined ||
    input.headTypeSpans === undefined ||
    input.baseTypeSpans === undefined
  )
    return false;
  const added: number[] = [];
  const removed: number[] = [];
  for (const hunk of input.hunks) {
    for (let offset = 0; offset < hunk.newLines; offset++) added.push(hunk.newStart + offset);
    for (let offset = 0; offset < hunk.oldLines; offset++) removed.push(hunk.oldStart + offset);
  }
  const head = countTypedLines(input.headText, added, input.headTypeSpans);
  const base = countTypedLines(input.baseText, removed, input.baseTypeSpans);
  return head !== undefined && base !== undefined && head + base > 0;
}

/** `export const TOAST_LIVE_REGION_TEST_ID = 'toast-live-region';`, at the top level: a name for a literal. */
const LITERAL_CONSTANT =
  /^(?:export\s+)?const\s+[A-Za-z_$][\w$]*\s*(?::\s*[\w$]+\s*)?=\s*(?:'[^'\\]*'|"[^"\\]*"|`[^`$\\]*`|-?\d[\d_.eE]*|true|false|null)\s*(?:as\s+const\s*)?;?\s*$/;
/** `kFourOhFourContext: Symbol('fastify.404ContextKey'),` in a table of keys: a unique key, whatever its description. */
const SYMBOL_KEY = /^\s+['"]?[A-Za-z_$][\w$]*['"]?\s*:\s*Symbol(?:\.for)?\(\s*(?:'[^']*'|"[^"]*")?\s*\),?\s*$/;

/**
 * Whether the change only adds names for literal values at the top level of the module (a test id, a symbol key):
 * lines that run whenever the module loads and decide nothing. Their effect is proven where they are used. A changed
 * or removed value, a property of a table of settings or an element of a list is a change of behaviour, never this.
 */
function isNewConstantsOnly(input: ChangeKindInput): boolean {
  if (input.headText === undefined || input.hunks.length === 0) return false;
  if (input.baseText === undefined || input.hunks.some((hunk) => hunk.oldLines > 0)) return false;
  const source = input.headText.split('\n');
  const comments = findBlockCommentLines(source);
  let constants = 0;
  for (const hunk of input.hunks) {
    for (let line = hunk.newStart; line < hunk.newStart + hunk.newLines; line++) {
      const text = source[line - 1] ?? '';
      const content = text.trim();
      if (content === '' || content.startsWith('//') || comments.has(line)) continue;
      if (!LITERAL_CONSTANT.test(text) && !SYMBOL_KEY.test(text)) return false;
      constants++;
    }
  }
  return constants > 0;
}

/** A Go line that names a literal: `const BindStruct = true`, or `Name = "x"` inside a `const (` block. */
const GO_LITERAL_CONSTANT =
  /^(?:const\s+)?[A-Za-z_]\w*(?:\s+[\w.]+)?\s*=\s*(?:"[^"\\]*"|`[^`]*`|'[^'\\]*'|-?\d[\d_.eExX]*|true|false|nil)$/;
/** What a Go file of constants holds besides them: its package clause, build constraints, `const (` and `)`. */
const GO_CONSTANTS_FRAME = /^(?:package\s+\w+|const\s*\(|\)|\/\/.*)$/;

/**
 * Whether the change only adds Go constants for literal values (viper's internal/features/bind_struct.go, a build
 * constraint and `const BindStruct = true`): nothing runs until a caller reads them, and there they are proven. A
 * changed or removed value is a change of behaviour, never this.
 */
function isGoConstantsOnly(input: ChangeKindInput): boolean {
  if (input.headText === undefined || input.hunks.some((hunk) => hunk.oldLines > 0)) return false;
  const source = input.headText.split('\n');
  // A new file is read whole; a changed one, in its added lines.
  const lines =
    input.status === 'added'
      ? source.map((_text, index) => index + 1)
      : input.hunks.flatMap((hunk) => Array.from({ length: hunk.newLines }, (_value, offset) => hunk.newStart + offset));
  let constants = 0;
  for (const line of lines) {
    const content = (source[line - 1] ?? '').trim();
    if (content === '' || GO_CONSTANTS_FRAME.test(content)) continue;
    if (!GO_LITERAL_CONSTANT.test(content)) return false;
    // `skipUntilTable = false` inside a function is an assignment, not a constant (go-toml's fix, check 117).
    if (!content.startsWith('const ') && !isInsideConstBlock(source, line)) return false;
    constants++;
  }
  return constants > 0;
}

/** Whether a line stands inside a top-level `const (` … `)` block: the nearest top-level line above it opens one. */
function isInsideConstBlock(source: readonly string[], line: number): boolean {
  for (let index = line - 2; index >= 0; index--) {
    const text = source[index] ?? '';
    if (/^const\s*\(/.test(text)) return true;
    if (/^\S/.test(text) && !text.startsWith('//')) return false;
  }
  return false;
}

/** `export ` put before a declaration: `function f(`, `const x =`, `class C`, `async function`, `let`, `var`. */
const EXPORTED_DECLARATION = /^(\s*)export\s+((?:async\s+)?function\b|const\b|let\b|var\b|class\b|abstract\s+class\b)/;

/**
 * Whether the change only exports declarations that were there (`function decode(` → `export function decode(`, what
 * SvelteKit did to share three helpers of its router): every changed line is its old self with `export ` before it.
 * What runs is the same; the code that comes to import the names carries the proof.
 */
function isExportOnly(input: ChangeKindInput): boolean {
  if (input.headText === undefined || input.baseText === undefined || input.hunks.length === 0) return false;
  const head = input.headText.split('\n');
  const base = input.baseText.split('\n');
  return input.hunks.every((hunk) => {
    if (hunk.oldLines !== hunk.newLines || hunk.newLines === 0) return false;
    for (let offset = 0; offset < hunk.newLines; offset++) {
      const now = head[hunk.newStart - 1 + offset] ?? '';
      const was = base[hunk.oldStart - 1 + offset];
      if (now === was) continue;
      const match = EXPORTED_DECLARATION.exec(now);
      if (match === null || `${match[1]}${now.slice(match[0].length - (match[2] ?? '').length)}` !== was) return false;
    }
    return true;
  });
}

/** Names, string and template literals whole, and every other character: a line as the rename check compares it. */
const RENAME_TOKENS = /[A-Za-z_$][\w$]*|(["'`])(?:\\.|(?!\1)[^\\\n])*\1|\S/g;
const NAME_TOKEN = /^[A-Za-z_$][\w$]*$/;

/**
 * Whether the change only renames names the file declares (a typo fixed: jotai's `overiddenCreateStore` became
 * `overriddenCreateStore` in every line that said it): each changed line is its old self with names swapped one for
 * one, the same swap everywhere; each old name is declared in the base and said nowhere in the head, each new name
 * declared in the head and said nowhere in the base, and none is exported (importers would break). What runs is the same.
 */
/**
 * A parameter list: the brackets before `=>` or a body's `{`, a return type between (`(fn: T): Promise<R> {`), or one
 * parameter before `=>`. A call's arguments (`run(fn)`) are none.
 */
const PARAMETER_LIST = /\(([^()]*)\)\s*(?::[^=;{}()]+)?\s*(?:=>|\{)/g;
const PARAMETER_NAME = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)\s*\??\s*(?:[:=]|$)/;

/** Whether `text` declares `name` as a parameter: ky renamed `_retry(fn: T)` to `_retry(function_: T)`. */
function isParameter(text: string, name: string): boolean {
  for (const match of text.matchAll(PARAMETER_LIST))
    if ((match[1] ?? '').split(',').some((parameter) => PARAMETER_NAME.exec(parameter)?.[1] === name)) return true;
  return new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}\\s*=>`).test(text);
}

function isIdentifierRename(input: ChangeKindInput): boolean {
  if (input.headText === undefined || input.baseText === undefined || input.hunks.length === 0) return false;
  const head = input.headText.split('\n');
  const base = input.baseText.split('\n');
  const renamed = new Map<string, string>();
  for (const hunk of input.hunks) {
    if (hunk.oldLines !== hunk.newLines || hunk.newLines === 0) return false;
    for (let offset = 0; offset < hunk.newLines; offset++) {
      const now = (head[hunk.newStart - 1 + offset] ?? '').match(RENAME_TOKENS) ?? [];
      const was = (base[hunk.oldStart - 1 + offset] ?? '').match(RENAME_TOKENS) ?? [];
      if (now.length !== was.length) return false;
      for (const [index, token] of now.entries()) {
        const old = was[index] ?? '';
        if (token === old) continue;
        if (!NAME_TOKEN.test(token) || !NAME_TOKEN.test(old) || (renamed.get(old) ?? token) !== token) return false;
        // A property read (`api.data`, not a spread's `...args`) or an object's key (`{ data }`, `{ data: 1 }`) names
        // another thing's member.
        const [previous = '', next = ''] = [now[index - 1], now[index + 1]];
        const isMember = previous === '.' && now[index - 2] !== '.';
        if (isMember || (['{', ','].includes(previous) && ['}', ',', ':'].includes(next))) return false;
        renamed.set(old, token);
      }
    }
  }
  if (renamed.size === 0) return false;
  const says = (text: string, name: string): boolean => new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text);
  const declares = (text: string, name: string): boolean =>
    new RegExp(`\\b(?:let|const|var|function|class)\\s+${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text) || isParameter(text, name);
  const exports = (text: string, name: string): boolean =>
    new RegExp(
      `\\bexport\\s+(?:default\\s+)?(?:(?:async\\s+)?function|const|let|var|class)\\s+${name.replace(/\$/g, '\\$')}(?![\\w$])|\\bexport\\s*\\{[^}]*(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`,
    ).test(text);
  const [baseText, headText] = [input.baseText, input.headText];
  return [...renamed].every(
    ([old, now]) =>
      declares(baseText, old) &&
      declares(headText, now) &&
      !says(headText, old) &&
      !says(baseText, now) &&
      !exports(baseText, old) &&
      !exports(headText, now),
  );
}

function allLines(text: string): number[] {
  return Array.from({ length: text.split('\n').length }, (_, index) => index + 1);
}

/** How many non-blank, non-comment lines among `lines` there are, all inside type-only spans; undefined when one is not. */
function countTypedLines(text: string, lines: readonly number[], spans: readonly Span[]): number | undefined {
  const source = text.split('\n');
  const comments = findBlockCommentLines(source);
  let typed = 0;
  for (const line of lines) {
    const content = (source[line - 1] ?? '').trim();
    if (content === '' || content.startsWith('//') || comments.has(line)) continue;
    if (!spans.some((span) => span.start <= line && line <= span.end)) return undefined;
    typed++;
  }
  return typed;
}

// The lines (1-based) a block comment holds, from the line that opens it to the line that closes it: a comment's prose
// need not start with `*` ("Undici types need to be here because…"). A line that closes a comment and goes on with code
// counts as code.
function findBlockCommentLines(source: readonly string[]): Set<number> {
  const lines = new Set<number>();
  let isOpen = false;
  for (const [index, text] of source.entries()) {
    const trimmed = text.trim();
    if (isOpen) {
      const end = trimmed.indexOf('*/');
      if (end === -1 || trimmed.slice(end + 2).trim() === '') lines.add(index + 1);
      if (end !== -1) isOpen = false;
    } else if (trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/', 2);
      if (end === -1 || trimmed.slice(end + 2).trim() === '') lines.add(index + 1);
      isOpen = end === -1;
    }
  }
  return lines;
}

import { parseSync } from '@swc/core';
import { emptyFacts, type FileFacts, getSourceLanguage, type ParseFailure, type ParseOptions } from '../../model/facts.js';
import { extractGoFacts } from './go/extract-go.js';
import { extractPythonFacts } from './python/extract-python.js';
import type { GrammarParsers } from './syntax-tree.js';
import { FactWalker } from './fact-walker.js';
import { buildLineIndex, measureLeadingTrivia } from './line-index.js';
import { findNextRoutes } from './next-routes.js';
import { toSyntaxFailure } from './parse-failure.js';
import { getSpan, isAstNode, type AstNode } from './swc-node.js';
import { getSwcOptions } from './swc-options.js';

/** swc 1.16 crashes the whole process (SIGSEGV) near 3,000 nested brackets; refuse well before that. */
const maxBracketDepth = 1000;

/**
 * Facts of one source file: JS/TS from one swc parse and one walk, Python and Go from their tree-sitter grammar
 * (`grammars`, loaded by the parse child; `words` asks those for the file's words too, which JS/TS files get from
 * file-words.ts). Never throws: a syntax error, a file nested too deeply, a grammar that is not loaded, or a crash in
 * the walk gives empty facts with `failure` set.
 */
export function extractFacts(path: string, text: string, options: ParseOptions, grammars?: GrammarParsers, words = false): FileFacts {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const language = getSourceLanguage(path);
  if (language === 'python' || language === 'go') return extractGrammarFacts(language, path, source, grammars, words);
  const lineIndex = buildLineIndex(source);
  if (lineIndex.maxBracketDepth > maxBracketDepth) {
    return emptyFacts(lineIndex.lines, {
      code: 'parse/too-deep',
      message: `brackets nested ${lineIndex.maxBracketDepth} deep (limit ${maxBracketDepth})`,
    });
  }
  const parsed = parseModule(path, source);
  if (!isAstNode(parsed)) return emptyFacts(lineIndex.lines, parsed);
  try {
    const walker = new FactWalker(lineIndex, getBaseOffset(parsed, source), options, source);
    walker.walkModule(parsed);
    if (/\.[cm]?tsx?$/.test(path)) walker.collectTypeRanges(parsed);
    const facts = walker.toFacts(lineIndex.lines);
    facts.routes.push(...findNextRoutes(path, facts.exports));
    return facts;
  } catch (error) {
    const failure: ParseFailure =
      error instanceof RangeError
        ? { code: 'parse/too-deep', message: 'syntax tree too deep to walk' }
        : { code: 'parse/crash', message: error instanceof Error ? error.message.slice(0, 200) : 'fact extraction failed' };
    return emptyFacts(lineIndex.lines, failure);
  }
}

function parseModule(path: string, source: string): AstNode | ParseFailure {
  let failure: ParseFailure | undefined;
  for (const options of getSwcOptions(path)) {
    try {
      const module: unknown = parseSync(source, options);
      if (isAstNode(module)) return module;
    } catch (error) {
      failure ??= toSyntaxFailure(error);
    }
  }
  const rewritten = failure === undefined ? undefined : (toAmbientDeclarations(path, source, failure) ?? toPairedEscapes(source, failure));
  if (rewritten !== undefined) {
    for (const options of getSwcOptions(path)) {
      try {
        const module: unknown = parseSync(rewritten, options);
        if (isAstNode(module)) return module;
      } catch {
        // The file's own failure stands.
      }
    }
  }
  return failure ?? { code: 'parse/crash', message: 'parser returned no module' };
}

/** A high surrogate's escape followed by a code point's escape (`'\ud800\u{20000}'`). */
const SURROGATE_BEFORE_CODE_POINT = /\\u[dD][89abAB][0-9a-fA-F]{2}(?=\\u\{)/g;

/**
 * swc 1.16 reads the escape after a high surrogate's (`\ud800`) as its low surrogate and rejects a code point escape
 * there (`'\ud800\u{20000}'`, valid JavaScript: nodemailer's mime-funcs-test.js), and the whole file gave no facts. When
 * that is the failure, each such surrogate escape is read as U+FFFD (`\ufffd`, as long: every offset stands); one
 * character of a string literal is no fact.
 */
function toPairedEscapes(source: string, failure: ParseFailure): string | undefined {
  if (!failure.message.startsWith('Bad character escape sequence')) return undefined;
  const rewritten = source.replace(SURROGATE_BEFORE_CODE_POINT, '\\ufffd');
  return rewritten === source ? undefined : rewritten;
}

const DECLARATION_FILE = /\.d\.[mc]?ts$/;
/** `const name:` with no initializer, as a declaration file writes it (ambient: `export const version: string;`). */
const UNINITIALIZED_CONST = /\bconst(?=\s+[A-Za-z_$][\w$]*\s*:)/g;

/**
 * A declaration file is ambient: `export const x: T;` is valid there, but swc (no declaration-file mode in its
 * JavaScript API) rejects it and the file would give no facts at all (commander's, acorn's, eslint's typings). When
 * that is the failure, the same text with each such `const` read as `let  ` (as long, so every offset stands) is tried:
 * the kind of binding is not a fact, and a declaration file initialises none.
 */
function toAmbientDeclarations(path: string, source: string, failure: ParseFailure): string | undefined {
  if (!DECLARATION_FILE.test(path) || !failure.message.includes("'const' declarations must be initialized")) return undefined;
  return source.replace(UNINITIALIZED_CONST, 'let  ');
}

/** The byte offset swc gave the file's first byte (spans may keep growing across parses). */
function getBaseOffset(module: AstNode, source: string): number {
  const span = getSpan(module);
  if (span === undefined) return 1;
  return span.start - measureLeadingTrivia(source);
}

/** Facts of a Python or Go file from its grammar's tree; a failure when the grammar is not loaded or the walk throws. */
function extractGrammarFacts(
  language: 'python' | 'go',
  path: string,
  source: string,
  grammars: GrammarParsers | undefined,
  words: boolean,
): FileFacts {
  const lines = buildLineIndex(source).lines;
  const parser = grammars?.[language];
  if (parser === undefined)
    return emptyFacts(lines, { code: 'parse/crash', message: `the ${language === 'go' ? 'Go' : 'Python'} grammar is not loaded` });
  const tree = parser.parse(source);
  if (tree === null) return emptyFacts(lines, { code: 'parse/crash', message: 'the grammar gave no syntax tree' });
  try {
    const facts =
      language === 'python' ? extractPythonFacts(path, tree.rootNode, source, words) : extractGoFacts(path, tree.rootNode, source, words);
    facts.lines = lines;
    return facts;
  } catch (error) {
    const failure: ParseFailure =
      error instanceof RangeError
        ? { code: 'parse/too-deep', message: 'syntax tree too deep to walk' }
        : { code: 'parse/crash', message: error instanceof Error ? error.message.slice(0, 200) : 'fact extraction failed' };
    return emptyFacts(lines, failure);
  } finally {
    tree.delete();
  }
}

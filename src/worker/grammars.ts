import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import treeSitter from '@vscode/tree-sitter-wasm';
import type { GrammarParsers } from '../graph/parse/syntax-tree.js';
import { getSourceLanguage } from '../model/facts.js';

type GrammarLanguage = keyof GrammarParsers;

const parsers: GrammarParsers = {};
let runtime: Promise<string> | undefined;
const loading = new Map<GrammarLanguage, Promise<void>>();

/**
 * The folder of the WebAssembly files: `dist/grammars/` beside the bundled parse child (scripts/bundle.mjs copies the
 * three the parser needs there, so an installed package carries ~1 MB instead of the grammar package's 22 MB), else
 * the grammar package itself (running from source).
 */
function findWasmFolder(): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), '..', 'grammars');
  if (existsSync(join(bundled, 'tree-sitter.wasm'))) return bundled;
  return dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm'));
}

/**
 * The tree-sitter runtime and the WebAssembly grammars (@vscode/tree-sitter-wasm: prebuilt, no native build, nothing
 * fetched at run time), loaded once per parse child and only when a file of their language arrives: a child that
 * parses JavaScript alone never pays their ~150 ms.
 */
function loadRuntime(): Promise<string> {
  runtime ??= (async () => {
    const folder = findWasmFolder();
    await treeSitter.Parser.init({ locateFile: (file: string) => join(folder, file) });
    return folder;
  })();
  return runtime;
}

function loadGrammar(language: GrammarLanguage): Promise<void> {
  let pending = loading.get(language);
  if (pending === undefined) {
    pending = (async () => {
      const folder = await loadRuntime();
      const grammar = await treeSitter.Language.load(join(folder, `tree-sitter-${language}.wasm`));
      const parser = new treeSitter.Parser();
      parser.setLanguage(grammar);
      parsers[language] = parser;
    })();
    loading.set(language, pending);
  }
  return pending;
}

/** The parsers for the grammars `paths` need, loaded first when they are not yet; undefined when none is needed. */
export async function getGrammarParsers(paths: readonly string[]): Promise<GrammarParsers | undefined> {
  const needed = new Set<GrammarLanguage>();
  for (const path of paths) {
    const language = getSourceLanguage(path);
    if (language === 'python' || language === 'go') needed.add(language);
  }
  if (needed.size === 0) return undefined;
  await Promise.all([...needed].map(loadGrammar));
  return parsers;
}

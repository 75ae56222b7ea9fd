import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GrammarParsers } from '../graph/parse/syntax-tree.js';
import { getSourceLanguage } from '../model/facts.js';

type TreeSitter = typeof import('@vscode/tree-sitter-wasm');
type GrammarLanguage = keyof GrammarParsers;

const require = createRequire(import.meta.url);
const parsers: GrammarParsers = {};
let runtime: Promise<{ module: TreeSitter; folder: string }> | undefined;
const loading = new Map<GrammarLanguage, Promise<void>>();

/**
 * The tree-sitter runtime and the WebAssembly grammars (@vscode/tree-sitter-wasm: prebuilt, no native build, nothing
 * fetched at run time), loaded once per parse child and only when a file of their language arrives: a child that
 * parses JavaScript alone never pays their ~150 ms.
 */
function loadRuntime(): Promise<{ module: TreeSitter; folder: string }> {
  runtime ??= (async () => {
    const entry = require.resolve('@vscode/tree-sitter-wasm');
    const module = require(entry) as TreeSitter;
    const folder = dirname(entry);
    await module.Parser.init({ locateFile: (file: string) => join(folder, file) });
    return { module, folder };
  })();
  return runtime;
}

function loadGrammar(language: GrammarLanguage): Promise<void> {
  let pending = loading.get(language);
  if (pending === undefined) {
    pending = (async () => {
      const { module, folder } = await loadRuntime();
      const grammar = await module.Language.load(join(folder, `tree-sitter-${language}.wasm`));
      const parser = new module.Parser();
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

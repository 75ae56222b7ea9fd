// Bundles the built CLI (dist/cli/main.js) and the MCP tool worker's entries into dist/bundle/, which bin/checker.js
// starts. Loading ~300 ES modules one by one (179 of ours, 95 of zod, 19 of diff) cost about 0.25 s of every command;
// one bundle whose commands still load lazily (code splitting keeps each `import()` a chunk) costs a fraction of it.
// Every file lands directly in dist/bundle/, the same depth as dist/<folder>/, so the paths the code resolves from
// import.meta.url (../rules-compiled, ../schemas-compiled, ../../package.json, ../worker/parse-worker.js,
// ./tool-list.js) name the same files bundled or not. Usage: node scripts/bundle.mjs [outDir]
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// zod's namespace (`z`) carries every locale, 64 modules and ~370 kB of its ~750 kB in the bundle, and every command that
// validates input loads them; checker keeps zod's default, English (zod's own `config(en())`), and names no other. The
// locales' index is bundled as English alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
const outDir = resolve(process.argv[2] ?? join(root, 'dist', 'bundle'));
const staging = `${outDir}.${process.pid}.tmp`;

rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: ['cli/main.js', 'mcp/tool-worker-entry.js', 'mcp/tool-list.js'].map((entry) => join(root, 'dist', entry)),
  outdir: staging,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jsonc-parser's `main` is a UMD build that requires its parts by computed path; its ES build bundles.
  mainFields: ['module', 'main'],
  // A native binding and a browser driver that finds its own files next to its modules: both stay packages.
  external: ['@swc/core', 'playwright-core'],
  // CommonJS packages bundled into ES modules call require() for node built-ins.
  banner: { js: "import { createRequire as __checkerRequire } from 'node:module'; const require = __checkerRequire(import.meta.url);" },
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
});
// Results kept across runs (the analysis memo) are valid for one build only: each build gets its own id.
writeFileSync(join(staging, 'build-id.json'), `${JSON.stringify({ id: randomUUID() })}\n`);
// A CLI started while this runs must never see half a bundle: the folder is swapped whole.
rmSync(outDir, { recursive: true, force: true });
renameSync(staging, outDir);

// The parse children's entry, bundled in its own place (the pool forks ../worker/parse-worker.js from either layout): a
// child loading one file instead of its ~30 modules is ready in 87-89 ms instead of 109-122 ms, and runs that parse
// wait for their first child. Only when bundling the built tree itself (no outDir argument).
// The change worker (src/worker/change-worker.ts) the same way: a thread loading one file starts sooner.
for (const name of process.argv[2] === undefined ? ['parse-worker.js', 'change-worker.js'] : []) {
  const worker = join(root, 'dist', 'worker', name);
  const bundledWorker = `${worker}.${process.pid}.tmp`;
  await build({
    entryPoints: [worker],
    outfile: bundledWorker,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['@swc/core'],
    // The tree-sitter runtime (a CommonJS build) asks for its own file name when it loads: the worker's, in ES module
    // terms (the WebAssembly it loads is found through the folder src/worker/grammars.ts gives it).
    define: { __filename: '__checkerFilename' },
    banner: {
      js: "import { createRequire as __checkerRequire } from 'node:module'; import { fileURLToPath as __checkerPath } from 'node:url'; const require = __checkerRequire(import.meta.url); const __checkerFilename = __checkerPath(import.meta.url);",
    },
    logLevel: 'warning',
  });
  renameSync(bundledWorker, worker);
}

// The parse children's tree-sitter runtime is bundled with them; its WebAssembly files are not JavaScript: the three the
// parser loads (the runtime's, Python's and Go's grammar, ~0.9 MB) are copied to dist/grammars/, where
// src/worker/grammars.ts looks first, so an installed package needs none of the grammar package's other 21 MB.
if (process.argv[2] === undefined) {
  const grammars = join(root, 'dist', 'grammars');
  const source = join(root, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
  mkdirSync(grammars, { recursive: true });
  for (const name of ['tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-go.wasm'])
    copyFileSync(join(source, name), join(grammars, name));
}

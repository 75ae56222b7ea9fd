/**
 * Folder boundaries of design.md, checked in `npm test`. The core (graph, rules, ranking, report)
 * does no I/O; io implements the edges; cli and mcp are thin adapters over app.
 */
const node = '^(node:)?(fs|fs/promises|child_process|net|http|https|dns|os|worker_threads|cluster|dgram|tls|process)$';

module.exports = {
  forbidden: [
    { name: 'model-is-leaf', severity: 'error', comment: 'model holds shared types and imports nothing',
      from: { path: '^src/model/' }, to: { path: '^src/(?!model/)' } },
    { name: 'text-is-leaf', severity: 'error', comment: 'text utilities are pure and stand alone',
      from: { path: '^src/text/' }, to: { path: '^src/(?!text/)' } },
    { name: 'parsers-stay-pure', severity: 'error', comment: 'coverage and repository-document formats are parsed from text, for io and the core alike',
      from: { path: '^src/(runtime-coverage|repo-text)/' }, to: { path: '^src/(?!(model|text|runtime-coverage|repo-text)/)' } },
    { name: 'graph-stays-core', severity: 'error', comment: 'graph may import model and text only',
      from: { path: '^src/graph/' }, to: { path: '^src/(rules|ranking|report|app|io|cli|mcp|worker)/' } },
    { name: 'rules-stays-core', severity: 'error',
      from: { path: '^src/rules/' }, to: { path: '^src/(ranking|report|app|io|cli|mcp|worker)/' } },
    { name: 'ranking-stays-core', severity: 'error',
      from: { path: '^src/ranking/' }, to: { path: '^src/(rules|report|app|io|cli|mcp|worker)/' } },
    { name: 'report-stays-in-report', severity: 'error', comment: 'reporters render model objects to strings',
      from: { path: '^src/report/' }, to: { path: '^src/(graph|rules|ranking|app|io|cli|mcp|worker)/' } },
    { name: 'app-not-to-edges', severity: 'error', comment: 'app reaches the outside world only through Env',
      from: { path: '^src/app/' }, to: { path: '^src/(io|cli|mcp|worker)/' } },
    { name: 'io-not-to-core', severity: 'error', comment: 'io implements Env: it reads bytes and hands them to the pure parsers (model, text, runtime-coverage, repo-text)',
      from: { path: '^src/io/' }, to: { path: '^src/(graph|rules|ranking|report|app|cli|mcp)/' } },
    { name: 'adapters-through-app', severity: 'error', comment: 'cli and mcp call app, never the core directly',
      from: { path: '^src/(cli|mcp)/' }, to: { path: '^src/(graph|rules|ranking|worker)/' } },
    { name: 'core-does-no-io', severity: 'error', comment: 'no filesystem, process or network modules in the core',
      from: { path: '^src/(model|text|runtime-coverage|repo-text|graph|rules|ranking|report|app)/' }, to: { dependencyTypes: ['core'], path: node } },
    { name: 'no-network-anywhere', severity: 'error', comment: 'report-only: no network modules in the product; the one exception is the browser origin gate, a proxy on 127.0.0.1 that refuses every connection (it listens, it never connects)',
      from: { path: '^src/', pathNot: '^src/io/origin-gate\\.ts$' }, to: { dependencyTypes: ['core'], path: '^(node:)?(net|http|https|dns|http2|tls|dgram)$' } },
    { name: 'no-src-to-test', severity: 'error', from: { path: '^src/' }, to: { path: '^(test|bench)/' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
};

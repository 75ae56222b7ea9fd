import type { KnowledgeGraph } from '../graph/build.js';
import { compareText } from '../text/compare-text.js';

export interface RepositoryFactOptions {
  /** Coverage configured or a coverage report found (the app knows from the coverage evidence). */
  hasCoverage?: boolean;
  /** Parser-like signals (parse-number, parse-json, date-time, money, regex) over all files. */
  parserSignalCount?: number;
}

const LOCKFILES: readonly [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];
const RUNNERS: readonly [string, string][] = [
  ['vitest', 'vitest'],
  ['jest', 'jest'],
  ['@jest/globals', 'jest'],
  ['mocha', 'mocha'],
  ['ava', 'ava'],
  ['tap', 'tap'],
  ['tape', 'tape'],
  ['@playwright/test', 'playwright'],
  ['cypress', 'cypress'],
];
const FRAMEWORKS: readonly [string, string][] = [
  ['express', 'express'],
  ['fastify', 'fastify'],
  ['hono', 'hono'],
  ['koa', 'koa'],
  ['@nestjs/core', 'nestjs'],
  ['next', 'next'],
  ['react', 'react'],
  ['vue', 'vue'],
  ['svelte', 'svelte'],
  ['@angular/core', 'angular'],
  ['solid-js', 'solid'],
  ['remix', 'remix'],
  ['@remix-run/node', 'remix'],
  ['astro', 'astro'],
  ['nuxt', 'nuxt'],
];
const COVERAGE_DEPENDENCIES = ['c8', 'nyc', '@vitest/coverage-v8', '@vitest/coverage-istanbul', 'istanbul'];
const LINTER_DEPENDENCIES = ['eslint', '@biomejs/biome', 'oxlint', 'standard', 'xo'];
const LINTER_CONFIG = /(?:^|\/)(?:\.eslintrc(?:\.[a-z]+)?|eslint\.config\.[cm]?[jt]s|biome\.jsonc?|\.oxlintrc\.json)$/i;
const CI_CONFIG =
  /^(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.yml|\.circleci\/config\.yml|azure-pipelines\.yml|Jenkinsfile|bitbucket-pipelines\.yml|\.travis\.yml|\.buildkite\/.+)$/;
const COVERAGE_CONFIG = /(?:^|\/)(?:\.c8rc(?:\.json)?|\.nycrc(?:\.json|\.ya?ml)?)$/;

function getBaseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The repository's shape for the tool-recommendation pack, from the graph alone (plus what options add). */
export function deriveRepositoryFacts(kg: KnowledgeGraph, options: RepositoryFactOptions = {}): Record<string, unknown> {
  const paths: string[] = [];
  const languages = new Set<string>();
  let sourceFileCount = 0;
  let testFileCount = 0;
  let routeCount = 0;
  let uiRouteCount = 0;
  let hasOpenApi = false;
  const routeFrameworks = new Set<string>();
  const dependencies = new Set<string>();
  let workspaceCount = 0;
  kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'file') {
      paths.push(attributes.path);
      if (attributes.language !== 'other') languages.add(attributes.language);
      if (attributes.role === 'source') sourceFileCount += 1;
      if (attributes.role === 'test') testFileCount += 1;
    } else if (attributes.kind === 'route') {
      routeCount += 1;
      if (attributes.routeKind === 'ui') uiRouteCount += 1;
      if (attributes.framework === 'openapi' || attributes.sources.some((source) => source.framework === 'openapi')) hasOpenApi = true;
      routeFrameworks.add(attributes.framework.startsWith('nextjs') ? 'next' : attributes.framework);
    } else if (attributes.kind === 'package' && attributes.workspace) {
      workspaceCount += 1;
      kg.graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, targetAttributes) => {
        if (edge.kind === 'depends' && targetAttributes.kind === 'package') dependencies.add(targetAttributes.name);
      });
    }
  });
  routeFrameworks.delete('openapi');
  const names = new Set(paths.map(getBaseName));
  const frameworks = new Set(routeFrameworks);
  for (const [dependency, framework] of FRAMEWORKS) if (dependencies.has(dependency)) frameworks.add(framework);
  const runner = RUNNERS.find(([dependency]) => dependencies.has(dependency));
  const lockfile = LOCKFILES.find(([name]) => paths.includes(name));
  const hasCoverage =
    options.hasCoverage === true ||
    COVERAGE_DEPENDENCIES.some((name) => dependencies.has(name)) ||
    paths.some((path) => COVERAGE_CONFIG.test(path));
  return {
    fileCount: paths.length,
    sourceFileCount,
    testFileCount,
    routeCount,
    languages: [...languages].sort(compareText),
    frameworks: [...frameworks].sort(compareText),
    dependencies: [...dependencies].sort(compareText),
    testRunner: runner?.[1] ?? (testFileCount > 0 ? 'unknown' : 'none'),
    packageManager: lockfile?.[1] ?? (names.has('package.json') ? 'npm' : 'none'),
    hasTypeScript: paths.some((path) => /(?:^|\/)tsconfig[^/]*\.json$/.test(path)),
    hasCoverage,
    hasLockfile: lockfile !== undefined,
    hasCi: paths.some((path) => CI_CONFIG.test(path)),
    hasCodeowners: kg.codeowners !== undefined,
    hasLinter: paths.some((path) => LINTER_CONFIG.test(path)) || LINTER_DEPENDENCIES.some((name) => dependencies.has(name)),
    workspaceCount,
    hasOpenApi,
    uiRouteCount,
    apiRouteCount: routeCount - uiRouteCount,
    parserSignalCount: options.parserSignalCount ?? 0,
  };
}

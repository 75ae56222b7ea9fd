import { classifyRole } from '../../src/graph/roles.js';

/** Folders checker's classifyRole leaves to `source` that the benchmark still counts as tests (issue 40's brief). */
const EXTRA_TEST_FOLDER =
  /(?:^|\/)(?:spec|specs|fixtures|__fixtures__|__snapshots__|test-d|type-tests?|tests?-types)\/|\.test-d\.[cm]?[jt]sx?$/i;
/** Built, vendored or minified output: never a task's truth and never a BM25 document. */
const GENERATED =
  /(?:^|\/)(?:dist|build|out|coverage|node_modules|vendor|\.next|\.nuxt|\.turbo)\/|^deno\/lib\/|\.min\.[cm]?js$|\.bundle\.[cm]?js$/i;
/**
 * Code beside the product (examples, docs sites, benchmarks, playgrounds, repository scripts). Such files stay BM25
 * documents, but a commit that changes them is not mined: its task is about the documentation or the tooling.
 */
const AUXILIARY =
  /(?:^|\/)(?:examples?|docs?|www|website|sites?|benchmarks?|bench|playgrounds?|scripts)\/|(?:^|\/)\.[^/]+\/|(?:^|\/)play(?:ground)?\.[cm]?[jt]sx?$/i;

/** A test file: checker's own rule (src/graph/roles.ts) plus spec/fixtures/snapshot/type-test folders. */
export function isTestPath(path: string): boolean {
  return classifyRole(path) === 'test' || EXTRA_TEST_FOLDER.test(path);
}

export function isGeneratedPath(path: string): boolean {
  return GENERATED.test(path);
}

/** A JS/TS source file (classifyRole `source`) that is neither a test nor generated: a BM25 document, a possible truth file. */
export function isSourcePath(path: string): boolean {
  return classifyRole(path) === 'source' && !isTestPath(path) && !isGeneratedPath(path);
}

export function isAuxiliaryPath(path: string): boolean {
  return AUXILIARY.test(path);
}

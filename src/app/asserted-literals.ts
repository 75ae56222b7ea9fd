import { listTestFiles } from '../graph/queries/test-files.js';
import type { ChangedFileEvidence } from '../model/analysis.js';
import type { ReachingTest } from '../model/coverage.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import { isCodeFile } from '../model/facts.js';
import { type AssertedLiteral, findAssertedLiterals, findReplacedLiterals, type ReplacedLiteral } from '../rules/replaced-literals.js';
import { compareText } from '../text/compare-text.js';
import { countOf } from '../text/plural.js';
import { DEFAULT_MAX_FILE_BYTES, type RepositoryGraph } from './build-graph.js';
import { readRepoTexts } from './load/repo-text.js';

/** At most this many test lines become stale-assertion subjects per change; the rest are counted in a limitation. */
const MAX_ASSERTED_LITERALS = 8;

export interface AssertedLiteralInput {
  repository: RepositoryGraph;
  changedFiles: readonly ChangedFileEvidence[];
  headText: ReadonlyMap<string, string>;
  baseText: ReadonlyMap<string, string>;
  reachingTestsByPath: ReadonlyMap<string, readonly ReachingTest[]>;
}

/**
 * The test lines that hold the old value of a message or default the change replaced in a runtime source file: the
 * old literal from the base side of a hunk, the test texts read only when there is one. A test anywhere counts (a
 * message is often asserted far from its code); tests that reach the changed file come first.
 */
export async function findStaleAssertionEvidence(
  env: Env,
  input: AssertedLiteralInput,
  limitations: Diagnostic[],
): Promise<AssertedLiteral[]> {
  const literals: ReplacedLiteral[] = [];
  for (const file of input.changedFiles) {
    if (file.changeKind !== 'runtime' || file.role !== 'source' || file.status === 'added' || file.status === 'deleted') continue;
    if (!isCodeFile(file.path)) continue;
    const baseText = input.baseText.get(file.path);
    const headText = input.headText.get(file.path);
    if (baseText === undefined || headText === undefined) continue;
    literals.push(...findReplacedLiterals({ path: file.path, hunks: file.hunks, baseText, headText }));
  }
  if (literals.length === 0) return [];
  const reaches = new Map<string, Set<string>>();
  for (const [path, tests] of input.reachingTestsByPath) {
    for (const test of tests) reaches.set(test.testFile, (reaches.get(test.testFile) ?? new Set()).add(path));
  }
  const paths = [...listTestFiles(input.repository.kg.graph)].sort(compareText);
  const maxBytes = input.repository.config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const texts = await readRepoTexts(env, paths, maxBytes);
  const tests = paths.flatMap((path, index) => {
    const text = texts[index];
    return text === undefined ? [] : [{ path, text, reaches: reaches.get(path) ?? new Set<string>() }];
  });
  let { asserted, found } = findAssertedLiterals(literals, tests, MAX_ASSERTED_LITERALS);
  if (asserted.length > 0) {
    // A text the change removed from one file that other source still says is no stale promise: outline moved
    // `authorize(user, "createChildDocument", …)` into a helper, and the policy tests that say it still hold.
    const promised = await findStillPromised(env, input, [...new Set(asserted.map((item) => item.literal))], maxBytes);
    if (promised.size > 0) {
      ({ asserted, found } = findAssertedLiterals(
        literals.filter((literal) => !promised.has(literal)),
        tests,
        MAX_ASSERTED_LITERALS,
      ));
    }
  }
  if (found > asserted.length) {
    limitations.push({
      code: 'analysis/stale-assertions-capped',
      severity: 'info',
      message: `${countOf(found, 'test line')} hold the old text of a message or default this change replaces; only the first ${asserted.length} (tests that reach the changed files first) are listed as stale assertions.`,
      hint: 'Search the tests for the old text of each replaced message to find the others.',
    });
  }
  return asserted;
}

const QUOTES = ["'", '"', '`'];

/** The literals some other runtime source file of the head still holds, as a whole string literal. */
async function findStillPromised(
  env: Env,
  input: AssertedLiteralInput,
  literals: readonly ReplacedLiteral[],
  maxBytes: number,
): Promise<Set<ReplacedLiteral>> {
  const changed = new Set(input.changedFiles.map((file) => file.path));
  const paths: string[] = [];
  input.repository.kg.graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'file' && attributes.role === 'source' && isCodeFile(attributes.path) && !changed.has(attributes.path))
      paths.push(attributes.path);
  });
  paths.sort(compareText);
  const promised = new Set<ReplacedLiteral>();
  const texts = await readRepoTexts(env, paths, maxBytes);
  for (const text of texts) {
    if (text === undefined) continue;
    for (const literal of literals) {
      if (!promised.has(literal) && QUOTES.some((quote) => text.includes(`${quote}${literal.before}${quote}`))) promised.add(literal);
    }
    if (promised.size === literals.length) break;
  }
  return promised;
}

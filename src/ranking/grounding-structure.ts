import { toFileId } from '../graph/ids.js';
import type { GroundingWeights } from '../model/grounding.js';
import type { FileRole } from '../model/scan.js';
import type { GroundingIndex } from './grounding-index.js';
import type { Credit } from './grounding-match.js';
import { compareText } from '../text/compare-text.js';

/** Part of the lowest score a barrel or test may have below the file it stands for: ranked right after it. */
const BELOW = 0.95;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
const TEST_NAME = /(?:[._-](?:test|spec|tests|specs|e2e))+(?=\.[^./]+$)|\.[^./]+$/g;

/** A test file's own name without its test marks and extension (`etag/index.test.ts` → `index`), for its subject. */
function toSubjectName(path: string): string {
  return (path.slice(path.lastIndexOf('/') + 1) || path).replace(TEST_NAME, '').toLowerCase();
}

/**
 * The files a test tests that it is named after (`index.test.ts` → `index.ts`, `__tests__/etag.ts` → `etag.ts`);
 * all of them when none is.
 */
function findSubjects(test: string, tested: readonly string[]): { subjects: string[]; isNamed: boolean } {
  const name = toSubjectName(test);
  const named = tested.filter((path) => toSubjectName(path) === name);
  return named.length > 0 ? { subjects: named, isNamed: true } : { subjects: [...tested], isNamed: false };
}

/**
 * A matching test lends its evidence to the source files it tests: `testLend` of each of its own (not supporting)
 * credits but its path's to the file it is named after, split among the files it tests when it is named after none; lent evidence
 * grounds only a named subject. Credits are added to `fileCredits` through `lend`.
 */
export function lendTestEvidence(
  index: GroundingIndex,
  weights: GroundingWeights,
  fileCredits: ReadonlyMap<string, Map<string, Credit>>,
  lend: (path: string, credit: Credit, value: number, isSupporting: boolean) => void,
): void {
  if (weights.testLend <= 0) return;
  for (const [path, credits] of [...fileCredits]) {
    if (index.fileByPath.get(path)?.role !== 'test') continue;
    const tested = (index.testedFiles.get(path) ?? []).filter((target) => index.fileByPath.get(target)?.role === 'source');
    if (tested.length === 0) continue;
    const { subjects, isNamed } = findSubjects(path, tested);
    const share = weights.testLend / (isNamed ? 1 : subjects.length);
    for (const credit of credits.values()) {
      // A test's path mirrors its subject's, which has its own: only what the test says is lent (titles, strings, names).
      if (credit.isSupporting || !credit.isDomain || credit.matchedOn === 'path') continue;
      for (const subject of subjects)
        lend(subject, { ...credit, matchedOn: 'test', evidenceId: toFileId(path) }, credit.value * share, !isNamed);
    }
  }
}

/** What the structure factors of a file depend on beside the graph. */
export interface FileKinds {
  /** Generated, vendored or built output (the classifiers packs' `generated` path class). */
  isGenerated: (path: string) => boolean;
  /** The task speaks of types (types, typings, definitions): declaration files are then not demoted. */
  isAboutTypes: boolean;
}

/**
 * A file's factor for what it is: its role's, times `generatedFactor` for generated output (a bundle repeats the code
 * it is built from) and `declarationFileFactor` for a declaration file, unless the task speaks of types.
 */
export function getFileFactor(index: GroundingIndex, weights: GroundingWeights, path: string, kinds: FileKinds): number {
  const role: FileRole = index.fileByPath.get(path)?.role ?? 'other';
  const declaration = DECLARATION_FILE.test(path) && !kinds.isAboutTypes ? weights.declarationFileFactor : 1;
  return weights.roleFactor[role] * declaration * (kinds.isGenerated(path) ? weights.generatedFactor : 1);
}

/**
 * Barrels and tests rank below the code they stand for: a barrel scores `barrelFactor` and never more than the best
 * file it re-exports; a test never more than the best source it tests, unless the weights rate tests above sources.
 * Changes `scores` in place.
 */
export function rankBelowImplementations(index: GroundingIndex, weights: GroundingWeights, scores: Map<string, number>): void {
  const capBelow = (path: string, targets: readonly string[]): void => {
    const score = scores.get(path);
    if (score === undefined) return;
    let best = 0;
    for (const target of targets) best = Math.max(best, scores.get(target) ?? 0);
    if (best > 0 && score > best * BELOW) scores.set(path, best * BELOW);
  };
  for (const [path, targets] of index.barrels) {
    const score = scores.get(path);
    if (score === undefined) continue;
    scores.set(path, score * weights.barrelFactor);
    capBelow(path, targets);
  }
  if (weights.roleFactor.test > weights.roleFactor.source) return;
  for (const path of scores.keys()) {
    if (index.fileByPath.get(path)?.role !== 'test') continue;
    capBelow(
      path,
      (index.testedFiles.get(path) ?? []).filter((target) => index.fileByPath.get(target)?.role === 'source'),
    );
  }
}

/** How many of the best-scored source files lend to their import neighbours. */
const NEIGHBOUR_HUBS = 10;

/**
 * The import neighbours of the best-matching source files rank higher: each of the top `NEIGHBOUR_HUBS` lends
 * `neighbourLend` of its score, divided by the square root of its number of source neighbours (a helper imported
 * everywhere lends little to each), to every neighbour that matches the task itself. Only files already scored gain:
 * structure re-ranks what the words found, it never makes a candidate. Barrels and tests neither lend nor gain (they
 * have their own rules). Changes `scores` in place and adds an `import` reason, naming the lender, to `fileCredits`.
 */
export function lendImportNeighbours(
  index: GroundingIndex,
  weights: GroundingWeights,
  scores: Map<string, number>,
  fileCredits: ReadonlyMap<string, Map<string, Credit>>,
): void {
  if (weights.neighbourLend <= 0) return;
  const isPlainSource = (path: string): boolean => index.fileByPath.get(path)?.role === 'source' && !index.barrels.has(path);
  const hubs = [...scores]
    .filter(([path, score]) => score > 0 && isPlainSource(path))
    .sort((left, right) => right[1] - left[1] || compareText(left[0], right[0]))
    .slice(0, NEIGHBOUR_HUBS);
  const lent = new Map<string, { value: number; from: string; best: number }>();
  for (const [hub, score] of hubs) {
    const neighbours = (index.importNeighbours.get(hub) ?? []).filter(isPlainSource);
    if (neighbours.length === 0) continue;
    const value = (weights.neighbourLend * score) / Math.sqrt(neighbours.length);
    for (const path of neighbours) {
      if (!scores.has(path)) continue;
      const known = lent.get(path);
      if (known === undefined) lent.set(path, { value, from: hub, best: value });
      else {
        known.value += value;
        if (value > known.best) Object.assign(known, { from: hub, best: value });
      }
    }
  }
  for (const [path, { value, from }] of lent) {
    scores.set(path, (scores.get(path) ?? 0) + value);
    const credits = fileCredits.get(path);
    const lender = [...(fileCredits.get(from)?.values() ?? [])]
      .filter((credit) => credit.isDomain)
      .sort((left, right) => right.value - left.value)[0];
    if (credits === undefined || lender === undefined) continue;
    credits.set(`import\u0000${from}`, {
      ...lender,
      matchedOn: 'import',
      evidenceId: toFileId(from),
      value,
      isSupporting: true,
    });
  }
}

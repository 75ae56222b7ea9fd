import type { WeakTest } from '../model/analysis.js';
import type { ChangeSet } from '../model/change.js';
import type { ReachingTest } from '../model/coverage.js';
import { type ChangedTarget, createTitleNamer, findSaidNames } from '../ranking/test-relevance.js';
import { toChangedLines } from '../rules/proof.js';
import { compareText } from '../text/compare-text.js';
import type { RepositoryGraph } from './build-graph.js';

/**
 * Which weak test cases the change is about: those whose lines it edits, those whose titles say a word of a changed file
 * they reach that few test titles say, and those whose code says a changed callable or export by name
 * (ranking/test-relevance.ts). The bundle makes tasks only of these; a weak case beside them in the same file stays
 * evidence.
 */
export async function linkWeakTests(
  repository: RepositoryGraph,
  change: ChangeSet,
  weakTests: readonly WeakTest[],
  context: {
    reachingTestsByPath: ReadonlyMap<string, readonly ReachingTest[]>;
    targets: ReadonlyMap<string, ChangedTarget>;
    readText: (path: string) => Promise<string | undefined>;
  },
): Promise<WeakTest[]> {
  if (weakTests.length === 0) return [];
  const titles: string[] = [];
  for (const { facts } of repository.parsed.facts.values())
    for (const test of facts.tests) if (test.kind === 'test') titles.push(test.titlePath.join(' > '));
  const nameChange = createTitleNamer(titles);
  const editedLines = new Map(change.files.map((file) => [file.path, toChangedLines(file.hunks)]));
  const texts = new Map<string, Promise<string | undefined>>();
  const linked: WeakTest[] = [];
  for (const weak of weakTests) {
    const reached = [...context.reachingTestsByPath]
      .filter(([, tests]) => tests.some((test) => test.testFile === weak.file))
      .flatMap(([path]) => context.targets.get(path) ?? []);
    const node = repository.kg.graph.hasNode(weak.id) ? repository.kg.graph.getNodeAttributes(weak.id) : undefined;
    const span = node?.kind === 'test' ? node.span : undefined;
    const edited = span !== undefined && (editedLines.get(weak.file) ?? []).some((line) => line >= span.start && line <= span.end);
    let said: string[] = [];
    if (span !== undefined && reached.length > 0) {
      if (!texts.has(weak.file))
        texts.set(
          weak.file,
          context.readText(weak.file).catch(() => undefined),
        );
      const text = await texts.get(weak.file);
      const body =
        text
          ?.split('\n')
          .slice(span.start - 1, span.end)
          .join('\n') ?? '';
      said = findSaidNames(body, weak.file, reached);
    }
    const names = [...new Set([...nameChange(weak.title, reached), ...said])].sort(compareText);
    linked.push({ ...weak, editedByChange: edited, namesChange: names });
  }
  return linked;
}

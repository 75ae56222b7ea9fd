/**
 * The evaluation corpus's signal table for bench/RESULTS.md: per case, the tasks in the prompt and in
 * overflow, edge cases from changed semantics against generic ones, redactions, the bundle's size and
 * the merge risk. `node --import tsx bench/eval-signals.ts` (tarballs come from bench/corpus-cache/).
 */
import { CASES } from '../test/eval/cases/index.js';
import { runCase } from '../test/eval/run-case.js';

const rows: string[] = [
  '| case | kind | tasks in prompt | tasks in overflow | edge cases: semantic / generic | redactions | bundle (KB) | merge risk |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
];
for (const evalCase of CASES) {
  const repo = await evalCase.build();
  try {
    const { signals } = await runCase(repo.dir, repo.base, repo.head);
    rows.push(
      `| ${evalCase.id} | ${evalCase.kind} | ${signals.tasksInPrompt} | ${signals.tasksInOverflow} | ${signals.semanticEdgeCases} / ${signals.genericEdgeCases} | ${signals.redactions} | ${signals.bundleKb} | ${signals.risk} |`,
    );
  } finally {
    repo.cleanup();
  }
}
console.log(rows.join('\n'));

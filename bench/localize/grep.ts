import { runGit } from './repo-cache.js';
import { isSourcePath } from './paths.js';

/** Words too common in task texts to be worth a search even when long. */
const STOP_WORDS = new Set([
  'should',
  'instead',
  'without',
  'because',
  'through',
  'between',
  'support',
  'possible',
  'properly',
  'correctly',
]);
const WORDS_SEARCHED = 3;
const MIN_WORD_LENGTH = 4;

/** The task's longest distinct words (identifiers kept whole, backticks and punctuation dropped). */
function pickGrepWords(task: string): string[] {
  const words = task
    .split(/[^\p{L}\p{N}_$-]+/u)
    .map((word) => word.replace(/^[-$]+|[-$]+$/g, ''))
    .filter((word) => word.length >= MIN_WORD_LENGTH && !STOP_WORDS.has(word.toLowerCase()));
  const distinct = [...new Map(words.map((word) => [word.toLowerCase(), word])).values()];
  return distinct.sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, WORDS_SEARCHED);
}

/**
 * The second baseline: `git grep -c -i -F` of the task's three longest words in the checkout; source files ranked by
 * how many of the words they hold, then by how many lines match.
 */
export function searchGitGrep(workDir: string, task: string): string[] {
  const totals = new Map<string, { words: number; lines: number }>();
  for (const word of pickGrepWords(task)) {
    let output: string;
    try {
      output = runGit(['grep', '-c', '-i', '-F', '-I', '-e', word], { cwd: workDir });
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if (typeof error === 'object' && error !== null && 'status' in error && error.status === 1) continue;
      throw error;
    }
    for (const line of output.split('\n')) {
      const separator = line.lastIndexOf(':');
      if (separator === -1) continue;
      const path = line.slice(0, separator);
      if (!isSourcePath(path)) continue;
      const entry = totals.get(path) ?? { words: 0, lines: 0 };
      entry.words += 1;
      entry.lines += Number(line.slice(separator + 1));
      totals.set(path, entry);
    }
  }
  return [...totals.entries()]
    .sort(([pathA, a], [pathB, b]) => b.words - a.words || b.lines - a.lines || (pathA < pathB ? -1 : 1))
    .map(([path]) => path);
}

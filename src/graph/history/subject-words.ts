import type { MinedHistory } from '../../model/history.js';
import { countWords, encode } from '../parse/file-words.js';

/** The subject line of a commit message (its issue numbers are dropped as words are counted: numbers are not kept). */
function toSubject(message: string): string {
  const newline = message.indexOf('\n');
  return newline === -1 ? message : message.slice(0, newline);
}

/**
 * Per file, the words of the subjects of the mined commits that changed it, in a file's word-list form (sorted, `word*n`
 * for n commits): what the project called the work on that file ("Add Kazakh locale", "fix Safari network errors").
 * Each commit counts a word once; a commit of more than `maxFiles` files says too little about any one of them and is
 * left out. Only files `isKept` accepts are listed.
 */
export function collectSubjectWords(
  history: Pick<MinedHistory, 'commits'>,
  isKept: (path: string) => boolean,
  maxFiles: number,
): Map<string, string> {
  const bags = new Map<string, Map<string, number>>();
  for (const commit of history.commits) {
    if (commit.paths.length > maxFiles) continue;
    const words = new Map<string, number>();
    countWords(words, toSubject(commit.message));
    if (words.size === 0) continue;
    for (const path of commit.paths) {
      if (!isKept(path)) continue;
      let bag = bags.get(path);
      if (bag === undefined) {
        bag = new Map();
        bags.set(path, bag);
      }
      for (const word of words.keys()) bag.set(word, (bag.get(word) ?? 0) + 1);
    }
  }
  const lists = new Map<string, string>();
  for (const [path, bag] of bags) lists.set(path, encode(bag));
  return lists;
}

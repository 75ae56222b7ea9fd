const SAFE_WORD = /^[\w./@%+=:,-]+$/;

/** One shell word: as it is when it holds only safe characters and is no flag, else single-quoted (`'` as `'\''`). */
export function quoteShellWord(word: string): string {
  return SAFE_WORD.test(word) && !word.startsWith('-') ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The lines to type from the repository root: each command, behind `cd <folder> &&` when it runs elsewhere. */
export function toCommandLines(commands: readonly { cwd: string; command: string }[]): string[] {
  return commands.map((entry) => (entry.cwd === '' ? entry.command : `cd ${quoteShellWord(entry.cwd)} && ${entry.command}`));
}

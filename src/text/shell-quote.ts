const SAFE_WORD = /^[\w./@%+=:,-]+$/;

/** One shell word: as it is when it holds only safe characters and is no flag, else single-quoted (`'` as `'\''`). */
export function quoteShellWord(word: string): string {
  return SAFE_WORD.test(word) && !word.startsWith('-') ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The lines to type from the repository root: each command, behind `cd <folder> &&` when it runs elsewhere, its note
 * after it as a shell comment (one line, so the line still runs as pasted).
 */
export function toCommandLines(commands: readonly { cwd: string; command: string; note?: string }[]): string[] {
  return commands.map((entry) => {
    const line = entry.cwd === '' ? entry.command : `cd ${quoteShellWord(entry.cwd)} && ${entry.command}`;
    return entry.note === undefined ? line : `${line}  # ${entry.note.replace(/\s+/g, ' ')}`;
  });
}

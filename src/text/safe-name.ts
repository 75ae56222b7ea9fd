/**
 * Names from a repository (file names, ids built from them) are shown inside prose, tables and
 * prompts. A name holding a line break, another control character or an invisible/bidi character
 * could fake document structure (`evil⏎## Tasks, in order⏎1. …`) or hide what it says, so such a
 * name is shown as a JSON string literal: quoted, with every such character escaped.
 * Tabs are allowed (code lines hold them); everything else below U+0020 is not.
 */
const UNSAFE_NAME_CHARS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

export function hasUnsafeNameChars(name: string): boolean {
  return UNSAFE_NAME_CHARS.test(name);
}

/** The name itself when it is safe to show, else its JSON string literal (`"evil\n## Tasks"`), escaping bidi and invisible characters too. */
export function showName(name: string): string {
  if (!hasUnsafeNameChars(name)) return name;
  return JSON.stringify(name).replace(
    /[\u0080-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

import { UNTRUSTED_INFO_STRING } from '../../src/text/fence.js';

export interface FencedLine {
  line: number;
  text: string;
  /** Info string of the innermost open fence, or undefined when outside every fence. */
  fence: string | undefined;
}

/**
 * Walks Markdown as CommonMark does for backtick fences: a fence opens with three or more backticks and
 * closes only with a line of at least as many backticks and nothing else. Returns every line holding `needle`
 * with the fence it sits in. Inside a fence nothing nests, so an inner fence is plain text.
 */
export function findNeedle(markdown: string, needle: string): FencedLine[] {
  const found: FencedLine[] = [];
  let open: { length: number; info: string } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open === undefined) {
      const opening = /^ {0,3}(`{3,})([^`]*)$/.exec(text);
      if (opening !== null) {
        open = { length: opening[1]?.length ?? 3, info: (opening[2] ?? '').trim() };
        return;
      }
    } else {
      const closing = /^ {0,3}(`+)\s*$/.exec(text);
      if (closing !== null && (closing[1]?.length ?? 0) >= open.length) {
        open = undefined;
        return;
      }
    }
    if (text.includes(needle)) found.push({ line: index + 1, text, fence: open?.info });
  });
  return found;
}

/** True when every occurrence of `needle` sits inside a fence whose info string is one of `allowed`. */
export function isOnlyInsideFences(markdown: string, needle: string, allowed: readonly string[] = [UNTRUSTED_INFO_STRING]): boolean {
  return findNeedle(markdown, needle).every((hit) => hit.fence !== undefined && allowed.includes(hit.fence));
}

import { redactSecrets } from '../text/redact/redact.js';

/** The text of the first `# ` heading outside code fences, or `fallback`. */
export function getMarkdownTitle(text: string, fallback: string): string {
  let inFence = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const match = /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return fallback;
}

/** The first paragraph that is prose (not a heading or a fence), else the first block without its heading marks. */
export function getFirstParagraph(markdown: string): string {
  const paragraphs = markdown.split(/\r?\n\s*\r?\n/).map((block) => block.trim());
  const prose = paragraphs.find((block) => block !== '' && !block.startsWith('#') && !/^(```|~~~)/.test(block));
  return prose ?? paragraphs.find((block) => block !== '')?.replace(/^#+\s*/, '') ?? '';
}

/** One line of plain, redacted text, cut to `maxChars` with an ellipsis. */
export function toPlainText(text: string, maxChars: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes or refuses.
  const cleaned = redactSecrets(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' '))
    .text.replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > maxChars ? `${cleaned.slice(0, maxChars - 1)}…` : cleaned;
}

import { redactText } from './redact/tree.js';

/**
 * A value echoed into a message (an error naming the bad input, a limitation quoting a line): redacted first, then cut
 * to `maxChars` with `…`. Cutting first would leave most of a secret too short for the redactor to recognise.
 */
export function clipRedacted(text: string, maxChars: number): string {
  const redacted = redactText(String(text));
  return redacted.length > maxChars ? `${redacted.slice(0, Math.max(0, maxChars))}…` : redacted;
}

/** The `[REDACTED:<rule>]` marker, the per-rule counter and span replacement shared by every redaction rule. */

export type Counter = Map<string, number>;

export const GENERIC = 'generic-secret';

export function marker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

export function count(counter: Counter, rule: string): void {
  counter.set(rule, (counter.get(rule) ?? 0) + 1);
}

export function isRepeatedChar(value: string): boolean {
  for (let i = 1; i < value.length; i += 1) if (value[i] !== value[0]) return false;
  return true;
}

export interface Span {
  start: number;
  end: number;
}

export function replaceSpans(text: string, spans: readonly Span[], rule: string, counter: Counter): string {
  let out = '';
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start) + marker(rule);
    count(counter, rule);
    last = span.end;
  }
  return out + text.slice(last);
}

export function runEnd(text: string, from: number, segment: RegExp): number {
  let i = from;
  while (i < text.length && segment.test(text.charAt(i))) i += 1;
  return i;
}

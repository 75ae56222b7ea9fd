import type { Diagnostic } from '../model/diagnostic.js';

function toSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim().replace(/^`|`$/g, ''))
    .filter((item) => item !== '');
}

/**
 * Splits a Markdown memory file into raw entries, one per `## ` heading (`## Invariant: …` sets the kind;
 * leading `paths:`, `terms:`, `kind:`, `id:` lines set fields). The entries still need schema validation.
 */
export function splitMarkdownMemory(path: string, text: string): { raws: Record<string, unknown>[] } | { diagnostic: Diagnostic } {
  interface Section {
    heading: string;
    body: string[];
  }
  const sections: Section[] = [];
  let inFence = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1] !== undefined) sections.push({ heading: heading[1], body: [] });
    else sections[sections.length - 1]?.body.push(line);
  }
  if (sections.length === 0) {
    return {
      diagnostic: {
        code: 'memory/empty',
        severity: 'info',
        message: `${path}: no "## " headings, so no memory entries`,
        hint: 'start each entry with a "## Invariant: …", "## Regression: …" or "## …" heading',
        location: { file: path },
      },
    };
  }
  const raws: Record<string, unknown>[] = [];
  const usedSlugs = new Map<string, number>();
  sections.forEach((section, index) => {
    const prefixed = /^(invariant|architecture|regression|note)\s*:\s*(.+)$/i.exec(section.heading);
    const title = prefixed?.[2] ?? section.heading;
    const raw: Record<string, unknown> = { kind: prefixed?.[1]?.toLowerCase() ?? 'note', title };
    const body = [...section.body];
    while (body.length > 0) {
      const line = body[0] ?? '';
      const meta = /^(kind|paths|terms|id)\s*:\s*(.*)$/i.exec(line.trim());
      if (line.trim() === '') body.shift();
      else if (meta?.[1] !== undefined) {
        const key = meta[1].toLowerCase();
        const value = (meta[2] ?? '').trim();
        raw[key] = key === 'paths' || key === 'terms' ? splitList(value) : key === 'kind' ? value.toLowerCase() : value;
        body.shift();
      } else break;
    }
    if (raw.id === undefined) {
      const slug = toSlug(title) || `entry-${index + 1}`;
      const count = (usedSlugs.get(slug) ?? 0) + 1;
      usedSlugs.set(slug, count);
      raw.id = count === 1 ? slug : `${slug.slice(0, 60)}-${count}`;
    }
    const bodyText = body.join('\n').trim();
    raw.text = bodyText === '' ? title : bodyText;
    raws.push(raw);
  });
  return { raws };
}

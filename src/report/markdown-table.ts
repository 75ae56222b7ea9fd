import { escapeMarkdownInline } from '../text/fence.js';

/** A Markdown table whose cells are escaped as untrusted single-line text. */
export function renderTable(headers: string[], rows: (string | number)[][]): string {
  const head = `| ${headers.join(' | ')} |`;
  const rule = `| ${headers.map(() => '---').join(' | ')} |`;
  const body = rows.map(
    (row) => `| ${row.map((cell) => (typeof cell === 'number' ? String(cell) : escapeMarkdownInline(cell))).join(' | ')} |`,
  );
  return [head, rule, ...body].join('\n');
}

/**
 * Lists are capped in Markdown (JSON keeps everything); this names how many were left out, after a blank line:
 * in GitHub Markdown a line directly under a table becomes one more row, and one under a list item joins that item.
 */
export function renderMore(shown: number, total: number, what: string): string {
  return total > shown ? `\n\n_…and ${total - shown} more ${what} (use --format json for the full list)._` : '';
}

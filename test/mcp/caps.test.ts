import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toImpactReport } from '../../src/app/reports.js';
import { getValidator } from '../../src/io/schema.js';
import { capLists, MAX_LIST_ITEMS, toToolResult } from '../../src/mcp/tools/define-tool.js';
import { renderImpactMarkdown } from '../../src/report/impact-markdown.js';
import { largeChange } from '../fixtures/reports/large-change.js';
import { smallChange } from '../fixtures/reports/small-change.js';

describe('MCP list caps', () => {
  it('cuts every list over the cap, names it with its counts, and stays schema-valid', () => {
    const report = JSON.parse(JSON.stringify(toImpactReport(largeChange)));
    assert.equal(report.impactedFiles.length, 300);
    const capped = capLists(report);
    assert.equal(Array.isArray(capped.impactedFiles) && capped.impactedFiles.length, MAX_LIST_ITEMS);
    assert.deepEqual(capped.truncated, { impactedFiles: { shown: MAX_LIST_ITEMS, total: 300 } });
    assert.deepEqual((capped.impactedFiles as unknown[])[0], report.impactedFiles[0], 'the first (ranked) items are kept');
    assert.equal(getValidator('impact-report')(capped), true, JSON.stringify(getValidator('impact-report').errors));
  });

  it('names nested lists by their JSON path', () => {
    const capped = capLists({ evidence: { files: [{ hunks: [1, 2, 3, 4] }] } }, 2);
    assert.deepEqual(capped, {
      evidence: { files: [{ hunks: [1, 2] }] },
      truncated: { 'evidence.files[0].hunks': { shown: 2, total: 4 } },
    });
  });

  it('leaves a report under the cap exactly as the CLI prints it, in structuredContent and JSON text', () => {
    const report = toImpactReport(smallChange);
    const result = toToolResult({ report, schema: 'impact-report', renderMarkdown: renderImpactMarkdown }, 'json');
    const cliJson: unknown = JSON.parse(JSON.stringify(report));
    assert.deepEqual(result.structuredContent, cliJson);
    const first = result.content[0];
    assert.equal(first?.type === 'text' && JSON.parse(first.text) !== undefined, true);
    assert.deepEqual(first?.type === 'text' ? JSON.parse(first.text) : undefined, cliJson);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getReportSchemaName } from '../../src/app/reports.js';
import { getValidator } from '../../src/io/schema.js';
import { renderJson } from '../../src/report/json.js';
import { renderReportMarkdown } from '../../src/report/report-markdown.js';
import { buildReport, REPORT_FIXTURES, REPORT_KINDS } from '../fixtures/reports/cases.js';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function compareGolden(file: string, actual: string): void {
  const path = join(GOLDEN_DIR, file);
  if (UPDATE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `missing golden ${file}; run with UPDATE_GOLDEN=1`);
  assert.equal(actual, readFileSync(path, 'utf8'), `${file} differs from the golden file (UPDATE_GOLDEN=1 regenerates it)`);
}

describe('analysis report goldens', () => {
  for (const fixture of REPORT_FIXTURES) {
    for (const kind of REPORT_KINDS) {
      it(`${fixture.name} ${kind}: Markdown and JSON match the goldens and the JSON validates`, () => {
        const report = buildReport(kind, fixture);
        const markdown = renderReportMarkdown(report);
        const json = renderJson(report);
        assert.equal(renderReportMarkdown(buildReport(kind, fixture)), markdown, 'Markdown is deterministic');
        compareGolden(`${fixture.name}-${kind}.golden.md`, markdown);
        compareGolden(`${fixture.name}-${kind}.golden.json`, json);
        const validate = getValidator(getReportSchemaName(kind));
        const parsed: unknown = JSON.parse(json);
        assert.equal(validate(parsed), true, JSON.stringify(validate.errors?.slice(0, 3)));
        assert.deepEqual(parsed, JSON.parse(JSON.stringify(report)));
      });
    }
  }
});

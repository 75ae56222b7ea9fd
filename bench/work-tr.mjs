import { createNodeEnv } from '/work/main/dist/io/node-env.js';
import { createWarmGraph } from '/work/main/dist/mcp/warm.js';
import { buildAnalysisReport } from '/work/main/dist/app/reports.js';
import { toToolResult } from '/work/main/dist/mcp/tools/define-tool.js';
import { renderReportMarkdown } from '/work/main/dist/report/report-markdown.js';
const env = createNodeEnv(process.argv[2], { keepPool: true });
const warm = createWarmGraph(env);
const t = async (label, f) => { const s = performance.now(); const r = await f(); console.log(label, (performance.now() - s).toFixed(0), 'ms'); return r; };
await warm.analyze({});
for (let i = 0; i < 3; i++) {
  const { analysis, repository } = await t('memo analyze', () => warm.analyze({}));
  const report = buildAnalysisReport('impact', analysis, repository.config.config.checks);
  const res = await t('toToolResult json', () => toToolResult({ report, schema: 'impact-report', renderMarkdown: renderReportMarkdown }, 'json'));
  console.log('text bytes', res.content[0].text.length, 'full json', JSON.stringify(report).length);
}
await env.close();

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listRulePacks } from '../../src/app/rules-report.js';
import { renderRulesListMarkdown } from '../../src/report/rules-markdown.js';
import { createRepo } from '../helpers/git-repo.js';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { createTestEnv } from '../helpers/test-env.js';

describe('edge-case and risk templates state the code evidence they need', () => {
  it('every built-in edge-case and risk rule says, in its pack, what evidence it fires on', async () => {
    const templates = (await loadBuiltinPacks())
      .filter(({ pack }) => pack.kind === 'edge-case' || pack.kind === 'risk')
      .flatMap(({ pack }) => pack.rules.map((rule) => ({ id: `${pack.id}#${rule.id}`, evidence: rule.event.params.evidence })));
    assert.ok(templates.length >= 40, `${templates.length} templates`);
    assert.deepEqual(
      templates.filter((template) => (template.evidence ?? '').trim().length < 20).map((template) => template.id),
      [],
    );
  });

  it('`rules list` shows the evidence beside each rule (that findings do not carry it: test/app/edge-case-evidence.test.ts)', async () => {
    const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const env = createTestEnv(repo.dir);
    try {
      const report = await listRulePacks(env);
      const regex = report.packs.find((pack) => pack.id === 'edge-cases')?.rules.find((rule) => rule.id === 'edge-case/catastrophic-regex');
      assert.match(regex?.evidence ?? '', /nested unbounded repetition/);
      const markdown = renderRulesListMarkdown(report);
      assert.match(markdown, /\| rule \| weight \| description \| fires only with \|/);
      assert.match(markdown, /\| edge-case\/catastrophic-regex \| 3 \| .* \| a regular expression whose syntax tree/);
    } finally {
      await env.close();
      repo.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAgentBundle } from '../../src/app/agent-bundle.js';
import { renderBundleMarkdown } from '../../src/report/bundle-markdown.js';
import { renderLimitations } from '../../src/report/sections-markdown.js';
import { groupLimitations } from '../../src/text/group-limitations.js';
import { createMoneyAnalysis } from '../helpers/bundle-analysis.js';

const unresolvedPaths = Array.from({ length: 50 }, (_, index) => ({
  code: 'routes/unresolved-path',
  severity: 'info' as const,
  message: `src/routes/r${index}.ts:${index + 1} registers a route whose path is not a literal`,
}));
const mount = { code: 'routes/unmatched-mount', severity: 'warn' as const, message: "src/app.ts:9 mounts '/api' on an unknown router" };

describe('repeated limitations are grouped with counts', () => {
  test('one group per code, in first-seen order, with its first item and count', () => {
    const [first, ...rest] = unresolvedPaths;
    assert.ok(first !== undefined);
    const groups = groupLimitations([first, mount, ...rest]);
    assert.deepEqual(
      groups.map((group) => [group.code, group.count, group.first.message]),
      [
        ['routes/unresolved-path', 50, first.message],
        ['routes/unmatched-mount', 1, mount.message],
      ],
    );
  });

  test('reports, the bundle Markdown and the prompt show 50 of a kind as one line', () => {
    assert.equal(
      renderLimitations([...unresolvedPaths, mount]),
      "- info routes/unresolved-path: src/routes/r0.ts:1 registers a route whose path is not a literal (and 49 more of this kind)\n- warn routes/unmatched-mount: src/app.ts:9 mounts '/api' on an unknown router",
    );
    const analysis = createMoneyAnalysis();
    const bundle = buildAgentBundle(analysis, {
      profile: 'codex',
      skills: [],
      checks: [],
      adapters: [],
      unresolvedImports: [],
      limitations: [...unresolvedPaths, mount].map(({ code, message }) => ({ code, message })),
    });
    const markdown = renderBundleMarkdown(bundle);
    const section = markdown.slice(markdown.indexOf('## Limitations'));
    assert.equal(section.match(/routes\/unresolved-path/g)?.length, 1, "one line in the bundle's Limitations section");
    assert.match(markdown, /registers a route whose path is not a literal \(and 49 more of this kind\)/);
    assert.equal(bundle.prompt.match(/routes\/unresolved-path/g)?.length, 1, 'one line in the prompt');
    assert.equal(bundle.limitations.length >= 51, true, 'the JSON keeps every limitation');
  });
});

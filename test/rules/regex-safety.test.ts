import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import type { PatternsReport } from '../../src/model/reports.js';
import type { RulesValidateReport } from '../../src/model/rules-report.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCli } from '../helpers/cli.js';

/**
 * A repository's own pattern pack whose regexes backtrack catastrophically on a JavaScript RegExp:
 * on a 64-character run of `a`, `(a|a)*!x` takes 2^64 steps and the word-run pattern about 64^8.
 */
const HOSTILE_PACK = String.raw`schemaVersion: 1
id: hostile-patterns
version: 1.0.0
kind: pattern
subject: changed-line
description: Patterns that a backtracking engine cannot finish on a long run of one letter.
rules:
  - id: pattern/alternation-run
    description: A run of a ending in !x.
    rationale: Exponential for a backtracking engine.
    conditions:
      all:
        - { fact: text, operator: matchesRegex, value: "(a|a)*!x" }
    event:
      type: pattern/alternation-run
      params: { weight: 1, message: "{{path}}:{{line}} ends in !x" }
  - id: pattern/word-run
    description: A line of word characters ending in x.
    rationale: Polynomial of degree eight for a backtracking engine.
    conditions:
      all:
        - { fact: text, operator: matchesRegex, value: "^\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*x$" }
    event:
      type: pattern/word-run
      params: { weight: 1, message: "{{path}}:{{line}} is a word run ending in x" }
`;

function buildRefusedPack(id: string, ruleName: string, pattern: string): string {
  return `schemaVersion: 1
id: ${id}
version: 1.0.0
kind: pattern
subject: changed-line
description: A pattern RE2 cannot run.
rules:
  - id: pattern/${ruleName}
    description: Refused at validation.
    rationale: RE2 has no lookaround or back-references.
    conditions:
      all:
        - { fact: fileRole, operator: equal, value: source }
        - { fact: text, operator: matchesRegex, value: ${JSON.stringify(pattern)} }
    event:
      type: pattern/${ruleName}
      params: { weight: 1, message: "{{path}}:{{line}}" }
`;
}

const RUN = 'a'.repeat(64);
const BASE = {
  'package.json': '{ "name": "regex-safety", "type": "module" }',
  '.checker/rules/hostile.yml': HOSTILE_PACK,
  'src/runs.ts': 'export const runs = `\n`;\n',
};
const CHANGE = { 'src/runs.ts': `export const runs = \`\n${RUN}\n${RUN}x\n${RUN}!x\n${RUN}!\n\`;\n` };

/**
 * Generous for a busy two-core machine: the whole CLI run took 5-15 s here. Before the patterns ran on
 * RE2, the same run was still going when killed after 120 s (and 2^64 steps would take ages).
 */
const QUICK_MS = 90_000;

function isRulesValidateReport(value: unknown): value is RulesValidateReport {
  return getValidator('rules-validate')(value);
}

describe('repository patterns run on a linear-time engine', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, CHANGE);
  });
  after(() => fixture.repo.cleanup());

  test('checker patterns finishes quickly on 64-character runs and reports exactly the lines that match', async () => {
    const start = performance.now();
    const { report } = await runJsonReport<PatternsReport>(fixture, ['patterns'], 'patterns-report');
    const ms = performance.now() - start;
    assert.ok(ms < QUICK_MS, `took ${ms.toFixed(0)} ms`);
    const { groups, limitations } = report;
    const repositoryGroups = groups.filter((group) => group.provenance.startsWith('repo:hostile-patterns@'));
    assert.deepEqual(
      repositoryGroups.map((group) => [group.rule, group.matches.map((match) => `${match.path}:${match.line}`)]),
      [
        ['pattern/alternation-run', ['src/runs.ts:4']],
        ['pattern/word-run', ['src/runs.ts:3']],
      ],
    );
    assert.deepEqual(
      limitations.filter((limitation) => limitation.code.startsWith('pack/') || limitation.code.startsWith('rules/')),
      [],
    );
  });

  test('checker rules validate refuses lookahead and back-references, naming the pack, rule, field and fix', () => {
    fixture.repo.write({
      '.checker/rules/lookahead.yml': buildRefusedPack('lookahead-patterns', 'secret-outside-tests', 'secret(?!_test)'),
      '.checker/rules/backreference.yml': buildRefusedPack('backreference-patterns', 'doubled-word', '\\b(\\w+) \\1\\b'),
    });
    const result = runCli(['rules', 'validate', '--cwd', fixture.repo.dir, '--format', 'json']);
    assert.equal(result.code, 2);
    const report: unknown = JSON.parse(result.stdout);
    assert.ok(isRulesValidateReport(report), result.stdout);
    assert.deepEqual(
      report.results.map((entry) => [entry.file, entry.valid, entry.error]),
      [
        [
          '.checker/rules/backreference.yml',
          false,
          '.checker/rules/backreference.yml: pack "backreference-patterns" rule "pattern/doubled-word": conditions.all[1].value pattern "\\\\b(\\\\w+) \\\\1\\\\b" uses a back-reference (\\1), which is not supported: rewrite without back-references; repository patterns run on a linear-time engine (RE2 syntax)',
        ],
        ['.checker/rules/hostile.yml', true, undefined],
        [
          '.checker/rules/lookahead.yml',
          false,
          '.checker/rules/lookahead.yml: pack "lookahead-patterns" rule "pattern/secret-outside-tests": conditions.all[1].value pattern "secret(?!_test)" uses lookahead ((?!), which is not supported: rewrite without lookahead; repository patterns run on a linear-time engine (RE2 syntax)',
        ],
      ],
    );
    assert.match(result.stderr, /^checker: pack\/invalid: \.checker\/rules\/backreference\.yml: .* uses a back-reference/m);
    assert.match(result.stderr, /^checker: pack\/invalid: \.checker\/rules\/lookahead\.yml: .* uses lookahead/m);
  });
});

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli, runCliAsync } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';
import { sarifValidator } from '../helpers/sarif-schema.js';

interface SarifResultShape {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number; endLine?: number } };
  }[];
  partialFingerprints: Record<string, string>;
  properties: { provenance: string; kind: string; subjectId: string };
}

interface SarifShape {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: {
          id: string;
          shortDescription: { text: string };
          fullDescription: { text: string };
          help: { text: string };
          defaultConfiguration: { level: string };
        }[];
      };
    };
    invocations: { executionSuccessful: boolean; arguments: string[]; startTimeUtc: string; endTimeUtc: string }[];
    results: SarifResultShape[];
  }[];
}

const PRICE_BASE = 'export function price(amount: number): number {\n  return amount * 2;\n}\n';
const PRICE_HEAD =
  'export function price(amount: number, token: string): number {\n  if (amount > 100) return amount;\n  return token.length > 0 ? amount * 2 : 0;\n}\n';

describe('--format sarif: SARIF 2.1.0 for code scanning', () => {
  const repo = createRepo({
    'src/payments/price.ts': PRICE_BASE,
    'src/cart.ts': "import { price } from './payments/price.js';\nexport const total = (n: number) => price(n);\n",
  });
  repo.write({ 'src/payments/price.ts': PRICE_HEAD });
  repo.commit('price by token');
  after(() => repo.cleanup());

  const sarifOf = async (command: string, cwd = repo.dir): Promise<SarifShape> => {
    const result = await runCliAsync([command, '--cwd', cwd, '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'sarif']);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as SarifShape;
  };

  it('is valid against the SARIF 2.1.0 schema, one result per code finding with rule metadata from the packs', async () => {
    const sarif = await sarifOf('analyze');
    const validate = sarifValidator();
    assert.equal(validate(sarif), true, JSON.stringify(validate.errors?.slice(0, 5)));
    // The validator is not a rubber stamp: a level SARIF does not define is refused.
    const broken = structuredClone(sarif) as unknown as { runs: { results: { level: string }[] }[] };
    (broken.runs[0]?.results[0] as { level: string }).level = 'severe';
    assert.equal(validate(broken), false);

    const run = sarif.runs[0];
    assert.ok(run);
    assert.equal(sarif.version, '2.1.0');
    assert.equal(run.tool.driver.name, 'checker');
    assert.equal(run.invocations[0]?.executionSuccessful, true);
    assert.deepEqual(run.invocations[0]?.arguments, [
      'analyze',
      '--cwd',
      repo.dir,
      '--base',
      'HEAD~1',
      '--head',
      'HEAD',
      '--format',
      'sarif',
    ]);

    const json = await runCliAsync(['analyze', '--cwd', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json']);
    const findings = (JSON.parse(json.stdout).findings as { kind: string; ruleId: string; provenance: string }[]).filter(
      (finding) => finding.kind !== 'tool' && finding.kind !== 'context-weight',
    );
    assert.ok(findings.length >= 4, `expected several code findings, got ${findings.length}`);
    assert.deepEqual(
      run.results.map((result) => result.properties.provenance).sort(),
      findings.map((finding) => finding.provenance).sort(),
      'one result per code finding',
    );

    const rulesList = await runCliAsync(['rules', 'list', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(rulesList.code, 0, rulesList.stderr);
    const packs = JSON.parse(rulesList.stdout).packs as { id: string; rules: { id: string; description: string }[] }[];
    for (const result of run.results) {
      const rule: SarifShape['runs'][number]['tool']['driver']['rules'][number] | undefined = run.tool.driver.rules[result.ruleIndex];
      assert.ok(rule, `rule ${result.ruleId}`);
      assert.equal(rule.id, result.ruleId);
      const packId = result.properties.provenance.split('@')[0];
      const packRule = packs.find((pack) => pack.id === packId)?.rules.find((candidate) => candidate.id === result.ruleId);
      assert.ok(packRule, `pack rule of ${result.properties.provenance}`);
      assert.equal(rule.shortDescription.text, packRule.description);
      assert.ok(rule.fullDescription.text.length > 0 && rule.help.text.includes(result.ruleId));
      assert.ok(['warning', 'note'].includes(rule.defaultConfiguration.level));
      assert.equal(result.level, rule.defaultConfiguration.level);
    }

    // Every location is in the changed file, on its changed lines (2-3 and the changed signature on line 1).
    for (const result of run.results) {
      const location = result.locations[0]?.physicalLocation;
      assert.equal(location?.artifactLocation.uri, 'src/payments/price.ts', result.ruleId);
      assert.equal(location?.artifactLocation.uriBaseId, 'SRCROOT');
      const region = location?.region;
      assert.ok(region !== undefined && region.startLine >= 1 && (region.endLine ?? region.startLine) <= 3, JSON.stringify(region));
    }
    const boundary = run.results.find((result) => result.ruleId === 'edge-case/changed-boundary');
    assert.deepEqual(boundary?.locations[0]?.physicalLocation.region, { startLine: 2 });
  });

  it('gives identical fingerprints on two runs, and keeps them when an unrelated edit above moves the lines', async () => {
    const first = (await sarifOf('analyze')).runs[0]?.results ?? [];
    const second = (await sarifOf('analyze')).runs[0]?.results ?? [];
    const prints = (results: SarifResultShape[]) =>
      results.map((result) => `${result.ruleId} ${result.partialFingerprints['checkerFinding/v1']}`).sort();
    assert.deepEqual(prints(first), prints(second));
    assert.equal(
      new Set(first.map((result) => result.partialFingerprints['checkerFinding/v1'])).size,
      first.length,
      'fingerprints are unique',
    );
    for (const print of prints(first)) assert.match(print, / [0-9a-f]{32}$/);

    const moved = createRepo({ 'src/payments/price.ts': `// pricing\n\n${PRICE_BASE}` });
    try {
      moved.write({ 'src/payments/price.ts': `// pricing\n\n${PRICE_HEAD}` });
      moved.commit('price by token, two lines lower');
      const shifted = (await sarifOf('edge-cases', moved.dir)).runs[0]?.results ?? [];
      const original = (await sarifOf('edge-cases')).runs[0]?.results ?? [];
      const byRule = (results: SarifResultShape[], rule: string) => results.find((result) => result.ruleId === rule);
      const before = byRule(original, 'edge-case/changed-boundary');
      const after = byRule(shifted, 'edge-case/changed-boundary');
      assert.equal(before?.locations[0]?.physicalLocation.region?.startLine, 2);
      assert.equal(after?.locations[0]?.physicalLocation.region?.startLine, 4);
      assert.equal(after?.partialFingerprints['checkerFinding/v1'], before?.partialFingerprints['checkerFinding/v1']);
      assert.ok(
        shifted.every((result) => result.properties.kind === 'edge-case'),
        'edge-cases prints only edge-case results',
      );
    } finally {
      moved.cleanup();
    }
  });

  it('is offered only where findings are reported, and an unknown format names the three', async () => {
    const impact = await runCliAsync(['impact', '--cwd', repo.dir, '--base', 'HEAD~1', '--format', 'sarif']);
    assert.equal(impact.code, 2);
    assert.match(impact.stderr, /usage\/invalid-format: --format must be markdown or json/);
    const xml = runCli(['audit-tests', '--cwd', repo.dir, '--base', 'HEAD~1', '--format', 'xml']);
    assert.equal(xml.code, 2);
    assert.match(xml.stderr, /usage\/invalid-format: --format must be markdown, json or sarif \(got "xml"\)/);
    assert.equal(xml.stdout, '');
  });
});

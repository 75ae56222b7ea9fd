import type { ChangeAnalysis } from '../../model/analysis.js';
import type { Env } from '../../model/env.js';
import type { PackKind } from '../../model/rules.js';
import { buildSarifLog, type SarifLog } from '../../report/sarif.js';
import { redactTree } from '../../text/redact/tree.js';
import { loadRulePacks } from '../load/load-rule-packs.js';

/** Finding kinds each narrower findings report shows as SARIF results; the others show every code kind. */
export const SARIF_KINDS: Partial<Record<string, readonly PackKind[]>> = {
  'audit-tests': ['proof', 'weak-test', 'missing-test'],
  'edge-cases': ['edge-case'],
  patterns: ['pattern'],
};

/** The SARIF log of an analysis, each rule described from the pack the analysis ran it from; redacted. */
export async function buildAnalysisSarif(
  env: Env,
  analysis: Pick<ChangeAnalysis, 'findings' | 'changedFiles' | 'impactedRoutes' | 'range'>,
  options: { kinds?: readonly PackKind[]; arguments: string[]; started: Date; toolVersion: string },
): Promise<SarifLog> {
  const packs = await loadRulePacks(env);
  return redactTree(
    buildSarifLog({
      findings: analysis.findings,
      changedFiles: analysis.changedFiles,
      impactedRoutes: analysis.impactedRoutes,
      range: analysis.range,
      rules: packs.packs.flatMap(({ pack }) =>
        pack.rules.map((rule) => ({
          packId: pack.id,
          packVersion: pack.version,
          ruleId: rule.id,
          kind: pack.kind,
          description: rule.description,
          rationale: rule.rationale,
        })),
      ),
      tool: { version: options.toolVersion },
      invocation: { arguments: options.arguments, startTimeUtc: options.started.toISOString(), endTimeUtc: env.now().toISOString() },
      ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
    }),
  );
}

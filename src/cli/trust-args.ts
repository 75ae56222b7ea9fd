import type { ArgsDef } from 'citty';
import type { ExecutionReport } from '../model/execution.js';
import { currentHost } from './host.js';

/** The one way to run what a change configures when it alters the base revision's power keys (docs/security.md). */
export const trustChangedConfigArg = {
  'trust-changed-config': {
    type: 'boolean',
    description:
      "Run what the change under review itself configures (gate, checks, adapters, targets) when it alters the base revision's checker config; only for a change you wrote or reviewed",
  },
} as const satisfies ArgsDef;

/** `{ trustChangedConfig: true }` when the flag was given, for spreading into app options. */
export function toTrustOption(args: { 'trust-changed-config'?: unknown }): { trustChangedConfig?: true } {
  return args['trust-changed-config'] === true ? { trustChangedConfig: true } : {};
}

/**
 * A run the change's own configuration blocked (config/changed-by-range) exits 2 with the reason on stderr: the user
 * asked for checks and none ran, which a CI job must not read as a pass.
 */
export async function refuseBlockedRun(gate: ExecutionReport['gate']): Promise<void> {
  const config = gate.config;
  if (config === undefined || config.from !== 'base' || config.changedByRange.length === 0) return;
  const host = currentHost();
  await host.writeStderr(
    `checker: config/changed-by-range: the change under review alters ${config.changedByRange.join(', ')} of the checker configuration, so nothing was run\n  hint: review that change; merge it, or pass --trust-changed-config to run what it configures (only for a change you wrote or reviewed)\n`,
  );
  host.exitCode = Math.max(host.exitCode ?? 0, 2);
}

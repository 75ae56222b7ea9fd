import type { ArgsDef } from 'citty';
import type { InvestigationRun } from '../app/investigation/investigate.js';
import { CheckerError } from '../model/diagnostic.js';
import { currentHost } from './host.js';
import { emitReport } from './context.js';
import type { OutputFormat } from './args.js';
import { renderInvestigationMarkdown } from '../report/investigation-markdown.js';

/** `--investigate` and `--dry-run` of `ai`, `agent` and their `preflight` (spec 4.1 rule 2). */
export const investigateArgs = {
  investigate: {
    type: 'boolean',
    description:
      'Also ask the configured investigation provider (investigation.provider: local or byok) for untrusted proposals; only with this flag is a provider called',
  },
  'dry-run': {
    type: 'boolean',
    description: 'With --investigate: print the exact redacted payload instead of sending it; nothing is sent',
  },
} as const satisfies ArgsDef;

/** off: no provider is selected; dry-run: the payload only; send: call the provider. */
export function toInvestigationMode(args: { investigate?: unknown; 'dry-run'?: unknown }): 'off' | 'dry-run' | 'send' {
  const investigate = args.investigate === true;
  if (args['dry-run'] === true && !investigate) {
    throw new CheckerError('usage/dry-run-without-investigate', '--dry-run applies only with --investigate', {
      hint: 'Add --investigate to see the payload an investigation would send, or leave --dry-run out.',
    });
  }
  if (!investigate) return 'off';
  return args['dry-run'] === true ? 'dry-run' : 'send';
}

/**
 * After the report is out: a provider that could not be called for a configuration reason exits 2 (the deterministic
 * report is unchanged); a call that failed (timeout, HTTP error, the command failed) exits 1; a reply with nothing usable
 * in it (not JSON, off schema, too large) is said on stderr and in the report's limitations, and the exit stays as the
 * deterministic report sets it.
 */
export async function reportInvestigation(run: InvestigationRun): Promise<void> {
  const host = currentHost();
  if (run.refusal !== undefined) {
    await host.writeStderr(`checker: ${run.refusal.code}: ${run.refusal.message}\n  hint: ${run.refusal.hint}\n`);
    host.exitCode = Math.max(host.exitCode ?? 0, 2);
    return;
  }
  const result = run.report.result;
  if (result?.status === 'failed' && result.failure === 'reply') {
    // The provider answered with nothing usable: said, and the deterministic report stands (exit unchanged).
    await host.writeStderr(`checker: investigation/unusable-reply: ${result.reason}; the deterministic report above is unchanged\n`);
    return;
  }
  if (result?.status === 'failed') {
    await host.writeStderr(`checker: investigation/failed: ${result.reason}; the deterministic report above is unchanged\n`);
    host.exitCode = Math.max(host.exitCode ?? 0, 1);
  }
}

/** `--dry-run`: the exact payload the provider would get, in the requested format, instead of the report. */
export async function emitInvestigationPayload(
  root: string,
  run: InvestigationRun,
  options: { format: OutputFormat; output: unknown },
): Promise<void> {
  await emitReport(root, run.report, {
    format: options.format,
    output: options.output,
    schema: 'investigation-report',
    markdown: renderInvestigationMarkdown,
  });
}

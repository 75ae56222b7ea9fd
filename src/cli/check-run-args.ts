import type { ArgsDef } from 'citty';
import type { ChecksRequest } from '../app/run-checks.js';
import { cwdArg, formatArg, rangeArgs, toRange } from './args.js';
import { toTrustOption, trustChangedConfigArg } from './trust-args.js';

/** The flags of the commands that run the configured checks (`checker execute`, `checker differential`), in help order. */
export const checkRunArgs = {
  ...cwdArg,
  ...rangeArgs,
  all: { type: 'boolean', description: 'Run every configured check, also those whose paths the change does not touch' },
  ...trustChangedConfigArg,
  ...formatArg,
} as const satisfies ArgsDef;

/**
 * What such a command asks for: running it is the explicit request; the configuration's safety.allowCommands is the
 * other half of the gate. A bad `--base` or `--head` throws here, before any repository is opened.
 */
export function toChecksRequest(args: { base?: unknown; head?: unknown; all?: unknown; 'trust-changed-config'?: unknown }): ChecksRequest {
  return { ...toRange(args), confirmed: true, all: args.all === true, ...toTrustOption(args) };
}

import { parseStructuredText } from '../../repo-text/structured.js';
import { isCheckerError, type Diagnostic } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { ContractInput } from '../../model/graph.js';
import { readRepoText } from './repo-text.js';

export const CONTRACTS_FILE = '.checker/contracts.yml';

/** Design-contract boundaries from `.checker/contracts.yml`; a malformed file is a limitation, never fatal. */
export async function readContracts(env: Env, limitations: Diagnostic[]): Promise<ContractInput[]> {
  const text = await readRepoText(env, CONTRACTS_FILE, 256 * 1024);
  if (text === undefined) return [];
  try {
    const data = env.validate<{ contracts: ContractInput[] }>('contracts', parseStructuredText(CONTRACTS_FILE, text), {
      code: 'contracts/invalid',
      file: CONTRACTS_FILE,
    });
    return data.contracts;
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    limitations.push({ code: 'contracts/invalid', severity: 'warn', message: error.message, location: { file: CONTRACTS_FILE } });
    return [];
  }
}

import { z } from 'zod';
import type { ContractInput } from './graph.js';

/**
 * The design-contracts file (`.checker/contracts.yml`). `contractsFileSchema` is the source of
 * schemas/contracts.schema.json (`npm run schemas`); src/app/load/contracts.ts validates the file against that file.
 */
const globs = z
  .array(z.string().min(1).max(500))
  .min(1)
  .max(100)
  .refine((items) => new Set(items).size === items.length, { error: 'must not repeat a glob' })
  .meta({ id: 'globs', uniqueItems: true });

const contract = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
      .describe('Stable id, cited as `contract:<id>`.'),
    description: z.string().min(1).max(2000).optional(),
    from: globs.describe('The layer that must not import `to`.'),
    to: globs.describe('The files `from` must not import.'),
  })
  .meta({ id: 'contract' });

export const contractsFileSchema = z
  .strictObject({ contracts: z.array(contract).max(500) })
  .describe(
    'Each contract forbids files matching `from` to import files matching `to` (picomatch globs on repository-relative POSIX paths).',
  );

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<ContractInput, z.infer<typeof contract>>;

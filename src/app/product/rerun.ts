import { CheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { ProductFailures } from '../../model/product-plan.js';
import { readProductFailures } from './plan.js';
import { type ProductResult, runProduct } from './run-product.js';

type CheckKind = ProductFailures['failures'][number]['checkKind'];

export interface ProductRerunInput {
  /** MCP `confirmExecution: true`; `safety.allowCommands: true` is the other half of the gate. */
  confirmed: boolean;
  target?: string;
  /** Exactly this check (`<kind>:<target>:…`); its kind and target must agree with checkKind and target (the adapter checks). */
  testId?: string;
  /** Without testId: the first failure of this kind. */
  checkKind?: CheckKind;
  atBase?: boolean;
  budgetMs?: number;
}

/**
 * MCP `checker_product_rerun`: the check to rerun (testId, else the first failure of the latest run of `checkKind`
 * and `target`, else its first failure) run again through runProduct with `--test-id`, its outcome merged into the
 * latest report; a `workflow:` failure (the target did not come up) runs the whole target again.
 */
export async function rerunProductCheck(env: Env, input: ProductRerunInput): Promise<ProductResult> {
  const chosen = input.testId === undefined ? await pickFailure(env, input) : toCheck(input.testId);
  return runProduct(env, {
    target: chosen.target,
    confirmed: input.confirmed,
    ...(chosen.kind === 'workflow' ? {} : { testId: chosen.id }),
    ...(input.atBase === true ? { atBase: true } : {}),
    ...(input.budgetMs === undefined ? {} : { budgetMs: input.budgetMs }),
  });
}

function toCheck(id: string): { id: string; kind: string; target: string } {
  const [kind = '', target = ''] = id.split(':');
  return { id, kind, target };
}

async function pickFailure(env: Env, input: ProductRerunInput): Promise<{ id: string; kind: string; target: string }> {
  const latest = await readProductFailures(env);
  const chosen = latest.failures.find(
    (failure) =>
      (input.checkKind === undefined || failure.checkKind === input.checkKind) &&
      (input.target === undefined || failure.target.id === input.target),
  );
  if (chosen !== undefined) return { id: chosen.checkId, kind: chosen.checkKind, target: chosen.target.id };
  if (latest.failures.length === 0)
    throw new CheckerError('product/nothing-to-rerun', 'the latest product run has no failure to rerun', {
      hint: 'run checker_product_run first, or pass testId (a check id of checker_product_run) to rerun that check',
    });
  const wanted = [
    ...(input.checkKind === undefined ? [] : [`of checkKind "${input.checkKind}"`]),
    ...(input.target === undefined ? [] : [`of target "${input.target}"`]),
  ].join(' ');
  const counts = new Map<string, number>();
  for (const failure of latest.failures) {
    const key = `${failure.checkKind} of target ${failure.target.id}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const present = [...counts].map(([key, count]) => `${count} ${key}`).join(', ');
  throw new CheckerError('product/nothing-to-rerun', `the latest product run has no failure ${wanted}; its failures: ${present}`, {
    hint: `pass checkKind and target of a failure it has (or leave them out for its first failure), or run checker_product_run for target ${input.target ?? latest.target ?? '<name>'} first`,
  });
}

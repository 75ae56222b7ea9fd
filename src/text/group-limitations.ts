/**
 * Repeated limitations of one kind read as one line with a count: fifty unresolved imports are one
 * fact about the evidence, not fifty. The first message stands for the group; order follows the
 * first occurrence of each code.
 */
export interface LimitationGroup<T extends { code: string; message: string }> {
  code: string;
  /** The first limitation of the group. */
  first: T;
  count: number;
}

export function groupLimitations<T extends { code: string; message: string }>(items: readonly T[]): LimitationGroup<T>[] {
  const groups = new Map<string, LimitationGroup<T>>();
  for (const item of items) {
    const known = groups.get(item.code);
    if (known === undefined) groups.set(item.code, { code: item.code, first: item, count: 1 });
    else known.count += 1;
  }
  return [...groups.values()];
}

/** `message` alone, or `message (and 11 more of this kind)`. */
export function describeGroup(group: LimitationGroup<{ code: string; message: string }>, message: string = group.first.message): string {
  return group.count === 1 ? message : `${message} (and ${group.count - 1} more of this kind)`;
}

/** `checker ci`: the range a CI run resolved and what the run wrote (src/app/ci/). */

export interface CiRangeSide {
  /** What was resolved (a SHA, `origin/main`, or the merge-base SHA). */
  ref: string;
  oid: string;
  /** The variable or payload field it came from, or `--base` / `--head`. */
  source: string;
}

export interface ResolvedCiRange {
  shallow: boolean;
  base?: CiRangeSide;
  head?: CiRangeSide;
  notes: string[];
}

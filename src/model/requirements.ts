/**
 * Requirements artifact (spec 2.5): a repo-local JSON or YAML file given with `--requirements`,
 * validated by `schemas/requirements.schema.json`. Requirement evidence is kept apart from the
 * tool's own suggestions; its free text is untrusted.
 */
export type RequirementStatement = string | string[];

export interface AcceptanceCriterion {
  /** Plain id (letters, digits, `.`, `_`, `:`, `-`); safe to cite. */
  id: string;
  text: string;
  requiredProof: string[];
}

export interface AffectedFlow {
  name: string;
  /** `api` flows are matched to routes. */
  kind: string;
  /** Optional `METHOD /path` or `/path` naming the route of an `api` flow. */
  route?: string;
}

export interface Requirements {
  schemaVersion?: 1;
  title?: string;
  acceptanceCriteria?: AcceptanceCriterion[];
  currentBehavior?: RequirementStatement;
  expectedBehavior?: RequirementStatement;
  affectedFlows?: AffectedFlow[];
  nonGoals?: RequirementStatement;
  invariants?: RequirementStatement;
  architectureConstraints?: RequirementStatement;
  unresolvedQuestions?: RequirementStatement;
}

/** A requirements file as read: its repository path, SHA-256 of its bytes as text, and the validated data. */
export interface RequirementsInput {
  path: string;
  hash: string;
  data: Requirements;
}

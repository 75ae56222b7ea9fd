/** package.json fields whose change changes what is installed, built, run or exposed. */
const RISKY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
  'bundleDependencies',
  'overrides',
  'resolutions',
  'engines',
  'packageManager',
  'workspaces',
  'exports',
  'imports',
  'main',
  'module',
  'browser',
  'types',
  'typings',
  'bin',
  'type',
  'scripts',
  'files',
  'sideEffects',
] as const;

const LOCKFILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|deno\.lock|go\.sum|poetry\.lock|uv\.lock|Pipfile\.lock)$/;

/**
 * What a manifest change touches that can change behaviour: the package.json fields that differ
 * (dependencies, engines, exports, scripts …; not `version` or `description`), `lockfile` for a
 * lockfile, `manifest` when a manifest cannot be read as JSON. Empty for anything else.
 */
export function describeManifestChange(path: string, baseText: string | undefined, headText: string | undefined): string[] {
  if (LOCKFILE.test(path)) return ['locked versions'];
  if (!/(?:^|\/)package\.json$/.test(path)) return [];
  const base = parseObject(baseText);
  const head = parseObject(headText);
  if (base === undefined || head === undefined) return ['manifest'];
  return RISKY_FIELDS.filter((field) => JSON.stringify(base[field]) !== JSON.stringify(head[field]));
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

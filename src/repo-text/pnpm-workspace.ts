import { parse as parseYaml } from 'yaml';

/**
 * The `packages:` globs of a pnpm-workspace.yaml, trimmed, empty ones dropped; undefined when the text
 * is not valid YAML. The one reader of this file: the workspace resolver and the package list share it.
 */
export function parsePnpmWorkspace(text: string): string[] | undefined {
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 10 });
  } catch {
    return undefined;
  }
  const packages = typeof data === 'object' && data !== null && 'packages' in data ? data.packages : undefined;
  if (!Array.isArray(packages)) return [];
  return packages.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
}

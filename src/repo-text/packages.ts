import type { PackageManifest } from '../model/graph.js';
import { compareText } from '../text/compare-text.js';
import { isRecord } from '../text/is-record.js';

function getDependencyNames(manifest: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const value = manifest[field];
    if (isRecord(value)) for (const name of Object.keys(value)) names.add(name);
  }
  return [...names].sort(compareText);
}

/** Workspace globs from package.json `workspaces` (array or `{packages}`) followed by pnpm's `packages`. */
export function getWorkspacePatterns(manifest: Record<string, unknown> | undefined, pnpmPackages: readonly string[]): string[] {
  const patterns: string[] = [];
  const workspaces = manifest?.workspaces;
  const list = Array.isArray(workspaces)
    ? workspaces
    : isRecord(workspaces) && Array.isArray(workspaces.packages)
      ? workspaces.packages
      : [];
  for (const pattern of [...list, ...pnpmPackages]) if (typeof pattern === 'string' && pattern.trim() !== '') patterns.push(pattern.trim());
  return patterns;
}

/** A package node's data: its name (the folder when unnamed), version and declared dependency names, sorted. */
export function toPackage(manifest: Record<string, unknown>, folder: string): PackageManifest {
  const name = typeof manifest.name === 'string' && manifest.name.trim() !== '' ? manifest.name.trim() : folder === '' ? '(root)' : folder;
  const result: PackageManifest = { name, folder, dependencies: getDependencyNames(manifest) };
  if (typeof manifest.version === 'string') result.version = manifest.version;
  return result;
}

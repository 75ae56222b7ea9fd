/**
 * File probing the way TypeScript's bundler/node16 resolution does it: a JS-family extension is first
 * replaced by its TypeScript counterparts, then extensions are added, then the path is tried as a
 * directory. TypeScript runs everything once for TS/declaration files and once more for JS/JSON;
 * `ProbePass` mirrors that.
 */
export type ProbePass = 'typescript' | 'javascript';

export interface RepoFiles {
  files: ReadonlySet<string>;
  dirs: ReadonlySet<string>;
}

const KNOWN_EXTENSIONS = ['.d.mts', '.d.cts', '.d.ts', '.mts', '.cts', '.tsx', '.ts', '.mjs', '.cjs', '.jsx', '.js', '.json'];

const REPLACEMENTS: Record<string, { typescript: string[]; javascript: string[] }> = {
  '.js': { typescript: ['.ts', '.tsx', '.d.ts'], javascript: ['.js', '.jsx'] },
  '.ts': { typescript: ['.ts', '.tsx', '.d.ts'], javascript: ['.js', '.jsx'] },
  '.d.ts': { typescript: ['.ts', '.tsx', '.d.ts'], javascript: ['.js', '.jsx'] },
  '.jsx': { typescript: ['.tsx', '.ts', '.d.ts'], javascript: ['.jsx', '.js'] },
  '.tsx': { typescript: ['.tsx', '.ts', '.d.ts'], javascript: ['.jsx', '.js'] },
  '.mjs': { typescript: ['.mts', '.d.mts'], javascript: ['.mjs'] },
  '.mts': { typescript: ['.mts', '.d.mts'], javascript: ['.mjs'] },
  '.d.mts': { typescript: ['.mts', '.d.mts'], javascript: ['.mjs'] },
  '.cjs': { typescript: ['.cts', '.d.cts'], javascript: ['.cjs'] },
  '.cts': { typescript: ['.cts', '.d.cts'], javascript: ['.cjs'] },
  '.d.cts': { typescript: ['.cts', '.d.cts'], javascript: ['.cjs'] },
  '.json': { typescript: ['.d.json.ts'], javascript: ['.json'] },
};

const ADDED = {
  typescript: ['.ts', '.tsx', '.d.ts'],
  /** `.mts`…`.json` go beyond TypeScript (which adds only .ts/.tsx/.d.ts/.js/.jsx) the way bundlers do. */
  javascript: ['.js', '.jsx', '.mts', '.cts', '.d.mts', '.d.cts', '.mjs', '.cjs', '.json'],
};

function splitExtension(candidate: string): { stem: string; extension: string } | undefined {
  const base = candidate.slice(candidate.lastIndexOf('/') + 1);
  if (!base.includes('.')) return undefined;
  for (const extension of KNOWN_EXTENSIONS) {
    if (base.endsWith(extension) && base.length > extension.length) {
      return { stem: candidate.slice(0, -extension.length), extension };
    }
  }
  const dot = candidate.lastIndexOf('.');
  return { stem: candidate.slice(0, dot), extension: candidate.slice(dot) };
}

/** A path taken as written, only swapping a JS-family extension for its TS source (package.json fields, exports targets). */
export function probeExactFile(repo: RepoFiles, candidate: string, pass: ProbePass): string | undefined {
  const split = splitExtension(candidate);
  if (split === undefined) return undefined;
  const replacement = REPLACEMENTS[split.extension];
  if (replacement === undefined) {
    if (pass === 'javascript' && repo.files.has(candidate)) return candidate;
    const declaration = `${split.stem}.d${split.extension}.ts`;
    return pass === 'typescript' && repo.files.has(declaration) ? declaration : undefined;
  }
  for (const extension of replacement[pass]) {
    const path = split.stem + extension;
    if (repo.files.has(path)) return path;
  }
  return undefined;
}

export function probeFile(repo: RepoFiles, candidate: string, pass: ProbePass): string | undefined {
  const exact = probeExactFile(repo, candidate, pass);
  if (exact !== undefined) return exact;
  for (const extension of ADDED[pass]) {
    const path = candidate + extension;
    if (repo.files.has(path)) return path;
  }
  return undefined;
}

export function probeIndex(repo: RepoFiles, dir: string, pass: ProbePass): string | undefined {
  if (!repo.dirs.has(dir)) return undefined;
  return probeFile(repo, dir === '' ? 'index' : `${dir}/index`, pass);
}

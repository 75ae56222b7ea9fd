import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { RealCorpus } from '../../bench/corpus.js';

/** TypeScript's own module resolution (typescript@5), set up the same way for every oracle test. */
export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
};

/** TypeScript's options for a file: its nearest tsconfig.json inside the corpus, else bundler defaults. */
export function createOptionsLookup(root: string): (file: string) => { key: string; options: ts.CompilerOptions } {
  const byConfig = new Map<string, ts.CompilerOptions>();
  return (file) => {
    let dir = dirname(join(root, file));
    while (dir.startsWith(root)) {
      const configPath = join(dir, 'tsconfig.json');
      if (ts.sys.fileExists(configPath)) {
        let options = byConfig.get(configPath);
        if (options === undefined) {
          const config = ts.readConfigFile(configPath, ts.sys.readFile);
          options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, dir).options, allowJs: true, resolveJsonModule: true };
          byConfig.set(configPath, options);
        }
        return { key: configPath, options };
      }
      if (dir === root) break;
      dir = dirname(dir);
    }
    return { key: '', options: DEFAULT_OPTIONS };
  };
}

/** Makes workspace packages visible to TypeScript the way an install would: node_modules symlinks. */
export function linkWorkspacePackages(root: string, packages: RealCorpus['packages']): void {
  for (const { name, folder } of packages) {
    if (folder === '') continue;
    const link = join(root, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, folder), link);
  }
}

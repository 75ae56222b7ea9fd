import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { buildRealCorpus, DEFAULT_CORPUS, WORKSPACE_CORPUS, type CorpusOptions } from '../../bench/corpus.js';
import { createResolver } from '../../src/graph/resolve/index.js';
import type { Resolution } from '../../src/model/resolve.js';
import { createOptionsLookup, linkWorkspacePackages } from '../helpers/ts-oracle.js';

const SOURCE = /\.(?:[mc]?tsx?|[mc]?jsx?)$/;
const ASSET = /\.(?:css|scss|sass|less|svg|png|jpe?g|gif|webp|wasm|html|md|txt|vue|svelte|astro)$/;

interface Edge {
  from: string;
  specifier: string;
  oracle: string | undefined;
  ours: string | undefined;
}

function countKinds(resolutions: readonly Resolution[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of resolutions) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function compareWithTypeScript(label: string, options: CorpusOptions): Promise<number> {
  const corpus = await buildRealCorpus(options);
  after(() => rmSync(corpus.dir, { recursive: true, force: true }));
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: corpus.dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
  linkWorkspacePackages(corpus.dir, corpus.packages);
  const read = (path: string): string => readFileSync(join(corpus.dir, path), 'utf8');
  const tsconfigs = new Map(
    paths.filter((path) => /(?:^|\/)(?:tsconfig[^/]*|jsconfig)\.json$/.test(path)).map((path) => [path, read(path)]),
  );
  const packageJsons = new Map(paths.filter((path) => /(?:^|\/)package\.json$/.test(path)).map((path) => [path, read(path)]));

  const sources = paths.filter((path) => SOURCE.test(path));
  const imports = sources.map((path) => ({
    path,
    specifiers: ts.preProcessFile(read(path), true, true).importedFiles.map((file) => file.fileName),
  }));

  const getOptions = createOptionsLookup(corpus.dir);
  const caches = new Map<string, ts.ModuleResolutionCache>();
  const toRepoPath = (absolute: string | undefined): string | undefined => {
    if (absolute === undefined || !absolute.startsWith(`${corpus.dir}/`)) return undefined;
    const relative = absolute.slice(corpus.dir.length + 1);
    return relative.split('/').includes('node_modules') ? undefined : relative;
  };

  const started = performance.now();
  const resolver = createResolver({ files: new Set(paths), tsconfigs, packageJsons });
  const ours = imports.map(({ path, specifiers }) => specifiers.map((specifier) => resolver.resolve(path, specifier)));
  const elapsed = performance.now() - started;

  const edges: Edge[] = [];
  imports.forEach(({ path, specifiers }, fileIndex) => {
    const mode = /\.c[jt]s$/.test(path) ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext;
    const { key, options: compilerOptions } = getOptions(path);
    let cache = caches.get(key);
    if (cache === undefined) {
      cache = ts.createModuleResolutionCache(corpus.dir, (name) => name, compilerOptions);
      caches.set(key, cache);
    }
    specifiers.forEach((specifier, index) => {
      const result = ts.resolveModuleName(specifier, join(corpus.dir, path), compilerOptions, ts.sys, cache, undefined, mode);
      edges.push({
        from: path,
        specifier,
        oracle: toRepoPath(result.resolvedModule?.resolvedFileName),
        ours: ours[fileIndex]?.[index]?.target,
      });
    });
  });

  const considered = edges.filter((edge) => edge.oracle !== undefined || (edge.ours !== undefined && !ASSET.test(edge.ours)));
  const agreeing = considered.filter((edge) => edge.oracle === edge.ours);
  const disagreeing = considered.filter((edge) => edge.oracle !== edge.ours);
  const onlyOracle = disagreeing.filter((edge) => edge.ours === undefined).length;
  const onlyOurs = disagreeing.filter((edge) => edge.oracle === undefined).length;
  const agreement = considered.length === 0 ? 0 : agreeing.length / considered.length;

  console.log(
    [
      `corpus ${label}: ${corpus.files} files, ${sources.length} sources, ${edges.length} import edges`,
      `in-repo edges compared ${considered.length}, agreeing ${agreeing.length} (${(agreement * 100).toFixed(2)}%)`,
      `TypeScript in-repo but not ours ${onlyOracle}; ours in-repo but not TypeScript ${onlyOurs}; different targets ${disagreeing.length - onlyOracle - onlyOurs}`,
      `resolver time ${elapsed.toFixed(1)} ms for ${edges.length} imports; kinds ${JSON.stringify(countKinds(ours.flat()))}`,
      ...disagreeing
        .slice(0, 40)
        .map((edge) => `  ${edge.from}: '${edge.specifier}' typescript=${edge.oracle ?? '-'} ours=${edge.ours ?? '-'}`),
    ].join('\n'),
  );
  assert.ok(agreement >= 0.995, `agreement ${(agreement * 100).toFixed(2)}% is below 99.5%`);
  return considered.length;
}

test(`resolver agrees with TypeScript's resolveModuleName on ${DEFAULT_CORPUS.name}@${DEFAULT_CORPUS.versions[1]}`, async () => {
  const compared = await compareWithTypeScript(`${DEFAULT_CORPUS.name}@${DEFAULT_CORPUS.versions[1]}`, {});
  assert.ok(compared >= 1500, `expected at least 1500 in-repo edges, got ${compared}`);
});

test('resolver agrees with TypeScript on a workspace of zod, rxjs (paths, baseUrl, extends) and tRPC server/client', async () => {
  const compared = await compareWithTypeScript('workspace', { packages: WORKSPACE_CORPUS });
  assert.ok(compared >= 5000, `expected at least 5000 in-repo edges, got ${compared}`);
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { median, spawnMeasured } from './measure.js';

/**
 * The tools users would otherwise run on a repository for its import graph, installed from the npm registry into
 * `bench/work/peers/` on first use and run on the same tree as our pipeline. Neither keeps a cache, so each run is
 * cold; each is run the way its README starts it, without a configuration file.
 */
interface PeerSpec {
  /** The npm package and the exact version measured. */
  packageName: string;
  version: string;
  /** The executable under node_modules/.bin. */
  bin: string;
  args: string[];
  /** The target the issue sets for our cold run against this tool, as "at least N times faster"; none when it sets none. */
  coldTarget?: number;
}

const PEERS: Record<string, PeerSpec> = {
  madge: {
    packageName: 'madge',
    version: '8.0.0',
    bin: 'madge',
    args: ['--json', '--extensions', 'ts,tsx,js,jsx,mjs,cjs', '.'],
    coldTarget: 5,
  },
  'dependency-cruiser': {
    packageName: 'dependency-cruiser',
    version: '17.4.0',
    bin: 'depcruise',
    args: ['.', '--no-config', '--output-type', 'json'],
  },
};

export const PEER_NAMES = Object.keys(PEERS);

export interface PeerFigures {
  name: string;
  version: string;
  command: string;
  /** Median wall time of the runs that exited 0; NaN when none did. */
  seconds: number;
  /** Peak RSS of the process tree over the runs, sampled. */
  treePeakRssBytes: number | undefined;
  coldTarget: number | undefined;
  /** Why runs failed (exit code and the start of stderr), when any did. */
  failure: string | undefined;
}

/** Checks `--peers`: known names, each once. */
export function toPeerNames(text: string): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (PEERS[name] === undefined) throw new Error(`--peers: unknown tool "${name}"; known: ${PEER_NAMES.join(', ')}`);
  }
  if (new Set(names).size !== names.length) throw new Error(`--peers names a tool twice: "${text}"`);
  return names;
}

function getSpec(name: string): PeerSpec {
  const spec = PEERS[name];
  if (spec === undefined) throw new Error(`unknown peer ${name}`);
  return spec;
}

/** Installs the peer once into `<peersDir>/<name>@<version>/` (a folder swapped in whole, so a failed install leaves nothing). */
function installPeer(spec: PeerSpec, peersDir: string, log: (message: string) => void): string {
  const dir = join(peersDir, `${spec.packageName}@${spec.version}`);
  const bin = join(dir, 'node_modules', '.bin', spec.bin);
  if (existsSync(bin)) return bin;
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  log(`installing ${spec.packageName}@${spec.version} from the npm registry into ${dir}`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', staging, `${spec.packageName}@${spec.version}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  if (!existsSync(bin)) throw new Error(`${spec.packageName}@${spec.version} installed without ${spec.bin}`);
  return bin;
}

/** Runs one peer `reps` times on `dir` (cold every time: neither peer caches). */
export async function measurePeer(
  name: string,
  dir: string,
  options: { reps: number; peersDir: string; log: (message: string) => void },
): Promise<PeerFigures> {
  const spec = getSpec(name);
  const bin = installPeer(spec, options.peersDir, options.log);
  const runs: number[] = [];
  let peak: number | undefined;
  let failure: string | undefined;
  for (let rep = 0; rep < options.reps; rep += 1) {
    const outcome = await spawnMeasured(bin, spec.args, process.env, dir);
    peak = Math.max(peak ?? 0, outcome.treePeakRssBytes ?? 0) || undefined;
    if (outcome.code !== 0) {
      failure = `exit ${outcome.code ?? outcome.signal}: ${outcome.stderr.trim().slice(0, 300)}`;
      options.log(`${name} run ${rep + 1} failed: ${failure}`);
      continue;
    }
    runs.push(outcome.seconds);
    options.log(`${name} run ${rep + 1}: ${outcome.seconds.toFixed(2)} s`);
  }
  return {
    name,
    version: readInstalledVersion(bin, spec),
    command: `${spec.bin} ${spec.args.join(' ')}`,
    seconds: runs.length === 0 ? Number.NaN : median(runs),
    treePeakRssBytes: peak,
    coldTarget: spec.coldTarget,
    failure,
  };
}

function readInstalledVersion(bin: string, spec: PeerSpec): string {
  const manifest = join(bin, '..', '..', spec.packageName, 'package.json');
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string') return parsed.version;
  } catch {}
  return spec.version;
}

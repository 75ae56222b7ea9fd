/**
 * Mines a repository's history the way `checker analyze` does (io/git-history through isomorphic-git) and prints the
 * time, the window, the strongest co-change pairs and the most fix-prone files.
 *
 *   node --import tsx bench/history-mine.ts <repo or bare git dir> [maxCommits] [maxAgeDays] [massChangeFiles]
 *
 * A bare git directory (a mirror) is opened through a temporary `.git` pointer file.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findCoChangePartners } from '../src/graph/history/co-change.js';
import { findFixProneFiles } from '../src/graph/history/fix-prone.js';
import { mineHistory } from '../src/io/git-history.js';
import { openRepository } from '../src/io/git-repository.js';

const [target = '.', maxCommits = '6000', maxAgeDays = '36500', massChangeFiles = '50'] = process.argv.slice(2);
const path = resolve(target);
let root = path;
let temporary: string | undefined;
if (!statSync(join(path, '.git'), { throwIfNoEntry: false }) && statSync(join(path, 'HEAD'), { throwIfNoEntry: false })) {
  temporary = mkdtempSync(join(tmpdir(), 'history-mine-'));
  writeFileSync(join(temporary, '.git'), `gitdir: ${path}\n`);
  root = temporary;
}
try {
  const repo = await openRepository(root);
  const settings = { maxCommits: Number(maxCommits), maxAgeDays: Number(maxAgeDays), massChangeFiles: Number(massChangeFiles) };
  const started = performance.now();
  const history = await mineHistory(repo, 'HEAD', settings);
  const mined = performance.now() - started;
  const heap = process.memoryUsage().heapUsed;
  const files = [...new Set(history.commits.flatMap((commit) => commit.paths))];
  const analysed = performance.now();
  const partners = [...findCoChangePartners(history, files).values()].flat();
  const fixProne = findFixProneFiles(history, files);
  const derived = performance.now() - analysed;
  const cacheBytes = JSON.stringify(history).length;
  const cacheStarted = performance.now();
  JSON.parse(JSON.stringify(history));
  const cacheRoundTrip = performance.now() - cacheStarted;
  console.log(
    JSON.stringify(
      {
        settings,
        walked: history.walked,
        kept: history.commits.length,
        excluded: history.excluded,
        stoppedBy: history.stoppedBy,
        files: files.length,
        mineSeconds: Math.round(mined) / 1000,
        deriveSeconds: Math.round(derived) / 1000,
        cacheBytes,
        cacheRoundTripSeconds: Math.round(cacheRoundTrip) / 1000,
        heapMiB: Math.round(heap / 1048576),
      },
      null,
      1,
    ),
  );
  console.log('\nTop co-change partners (confidence, support):');
  partners.sort((a, b) => b.support * b.confidence - a.support * a.confidence || b.confidence - a.confidence);
  for (const partner of partners.slice(0, 15))
    console.log(
      `  ${partner.partner} with ${partner.path}: ${partner.support}/${partner.pathCommits} (${Math.round(partner.confidence * 100)}%, lift ${partner.lift}) e.g. ${partner.commits
        .slice(0, 2)
        .map((commit) => `${commit.oid.slice(0, 7)} ${commit.subject.slice(0, 50)}`)
        .join(' | ')}`,
    );
  console.log('\nMost fix-prone files (fix score, fixes/commits):');
  for (const file of fixProne.slice(0, 10))
    console.log(
      `  ${file.path}: ${file.fixScore} (${file.fixes}/${file.commits}, ${file.fixRatio}%) e.g. ${file.fixCommits
        .slice(0, 2)
        .map((commit) => `${commit.oid.slice(0, 7)} ${commit.subject.slice(0, 50)}`)
        .join(' | ')}`,
    );
} finally {
  if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
}

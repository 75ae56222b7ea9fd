/**
 * For each of the last <count> non-merge commits of a repository, the co-change partners it left out and its fix-prone
 * source files, each mined from the commit's parent with the default bounds: what `analyze` would have said on that
 * commit (docs changes and test/doc fix-prone files left out as the rules do). For judging the warnings by hand.
 *
 *   node --import tsx bench/history-judge.ts <bare git dir> [count]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { findMissedPartners } from '../src/graph/history/co-change.js';
import { findFixProneFiles } from '../src/graph/history/fix-prone.js';
import { mineHistory } from '../src/io/git-history.js';
import { openRepository } from '../src/io/git-repository.js';

const [gitdir = '', count = '60'] = process.argv.slice(2);
const root = mkdtempSync(join(tmpdir(), 'judge-'));
writeFileSync(join(root, '.git'), `gitdir: ${gitdir}\n`);
const repo = await openRepository(root);
const settings = { maxCommits: 2000, maxAgeDays: 730, massChangeFiles: 50 };
const head = await mineHistory(repo, 'HEAD', { ...settings, maxCommits: Number(count) });
let warnings = 0;
for (const change of head.commits) {
  const { commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: change.oid, cache: repo.cache });
  const parent = commit.parent[0];
  if (parent === undefined) continue;
  const window = await mineHistory(repo, parent, settings);
  const missed = findMissedPartners(window, change.paths, () => true);
  const fixes = findFixProneFiles(window, change.paths).filter(
    (file) =>
      file.fixScore >= 2 && file.fixRatio >= 30 && /\.(js|ts|mjs|cjs)$/.test(file.path) && !/(^|\/)(test|__tests__)\//.test(file.path),
  );
  for (const partner of missed.filter(
    (entry) => !/\.(md|txt)$/i.test(entry.path) && !/(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$/.test(entry.path),
  )) {
    warnings += 1;
    console.log(
      `MISSED ${change.oid.slice(0, 7)} "${change.message.split('\n')[0]?.slice(0, 60)}" changed ${partner.path}; left out ${partner.partner} (${partner.support}/${partner.pathCommits}, lift ${partner.lift})`,
    );
  }
  for (const file of fixes)
    console.log(`FIXPRONE ${change.oid.slice(0, 7)} ${file.path} score ${file.fixScore} ${file.fixes}/${file.commits}`);
}
console.log('commits', head.commits.length, 'missed warnings', warnings);

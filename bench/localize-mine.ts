/**
 * Mines the localization benchmark's cases (issue 40) from the repository cache and writes
 * bench/localize/cases/<owner>+<name>.json, one file per repository of bench/localize/repos.json.
 *
 *   node --import tsx bench/localize-mine.ts --repos <dir> [--repo owner/name] [--per-repo 40] [--since 2019-01-01]
 *     [--set localize|languages]
 *
 * `--set languages` mines bench/languages/repos.json (Python and Go repositories) into bench/languages/cases/.
 *
 * Only metadata is written (commit ids, task texts, truth paths); the sources stay in the clones.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getCaseSetPaths, loadRepoEntries, type RepoCases, toCaseSet, toRepoKey } from './localize/cases.js';
import { mineRepository } from './localize/mine.js';
import { findGitDir, resolveReposDir } from './localize/repo-cache.js';

const { values } = parseArgs({
  options: {
    repos: { type: 'string' },
    repo: { type: 'string', multiple: true },
    'per-repo': { type: 'string', default: '40' },
    since: { type: 'string', default: '2019-01-01' },
    set: { type: 'string' },
  },
  strict: true,
  allowPositionals: false,
});

const perRepo = Number(values['per-repo']);
// Issue 40 fixed 40 per repository; the languages set needs 20 commits per repository that also edit a test, which
// takes more of each history.
const maxPerRepo = values.set === 'languages' ? 200 : 40;
if (!Number.isInteger(perRepo) || perRepo < 1 || perRepo > maxPerRepo)
  throw new Error(`--per-repo must be an integer from 1 to ${maxPerRepo}, got "${values['per-repo']}"`);
if (Number.isNaN(Date.parse(values.since))) throw new Error(`--since must be a date such as 2019-01-01, got "${values.since}"`);
const reposDir = resolveReposDir(values.repos, process.env);
const set = toCaseSet(values.set);
const { casesDir } = getCaseSetPaths(set);
const entries = loadRepoEntries(set);
const wanted = values.repo ?? [];
const unknown = wanted.filter((name) => !entries.some((entry) => entry.repository === name));
if (unknown.length > 0) throw new Error(`--repo ${unknown.join(', ')}: not in bench/localize/repos.json`);

mkdirSync(casesDir, { recursive: true });
for (const entry of entries) {
  if (wanted.length > 0 && !wanted.includes(entry.repository)) continue;
  const gitDir = findGitDir(reposDir, entry.repository);
  if (gitDir === undefined) {
    process.stderr.write(`${entry.repository}: no clone at ${join(reposDir, toRepoKey(entry.repository))}, skipped\n`);
    continue;
  }
  const result = mineRepository(entry, gitDir, { since: values.since, perRepo });
  const file: RepoCases = {
    repository: entry.repository,
    split: entry.split,
    shape: entry.shape,
    mined: { head: result.head, since: values.since, qualifying: result.qualifying, perRepo },
    cases: result.cases,
  };
  writeFileSync(join(casesDir, `${toRepoKey(entry.repository)}.json`), `${JSON.stringify(file, null, 2)}\n`);
  const reasons = Object.entries(result.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `${reason} ${count}`)
    .join('; ');
  process.stderr.write(`${entry.repository}: ${result.cases.length} cases of ${result.qualifying} qualifying (skipped: ${reasons})\n`);
}

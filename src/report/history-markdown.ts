import type { CoChangePartner, HistoryInsights } from '../model/history.js';
import { renderTable } from './markdown-table.js';

const MAX_ROWS = 10;
const MIN_FIXES_SHOWN = 2;

/**
 * Partners of one changed file that sit in one folder and share the same commits are one row (`test/golden/ (7 files:
 * a.md, b.md, …)`): seven goldens that always move with a doc are one thing to check, not seven.
 */
function groupPartners(partners: readonly CoChangePartner[]): { partner: CoChangePartner; partners: string }[] {
  const groups = new Map<string, CoChangePartner[]>();
  for (const partner of partners) {
    const folder = partner.partner.includes('/') ? partner.partner.slice(0, partner.partner.lastIndexOf('/') + 1) : '';
    const key = [partner.path, folder, partner.support, oids(partner.commits)].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), partner]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as CoChangePartner;
    if (group.length === 1) return { partner: first, partners: first.partner };
    const folder = first.partner.slice(0, first.partner.lastIndexOf('/') + 1);
    const names = group.map((item) => item.partner.slice(folder.length));
    const shown = names.length > 4 ? [...names.slice(0, 3), `… ${names.length - 3} more`] : names;
    return { partner: first, partners: `${folder || './'} (${group.length} files: ${shown.join(', ')})` };
  });
}

const oids = (commits: readonly { oid: string }[]): string => commits.map((commit) => commit.oid.slice(0, 7)).join(', ');

/** The window's bounds in one sentence: what was read and what was left out. */
function describeWindow(history: HistoryInsights): string {
  const { window } = history;
  const stopped =
    window.stoppedBy === 'max-commits'
      ? `, stopped at history.maxCommits (${window.settings.maxCommits})`
      : window.stoppedBy === 'max-age'
        ? `, stopped at history.maxAgeDays (${window.settings.maxAgeDays})`
        : window.stoppedBy === 'shallow'
          ? ', stopped at the shallow clone boundary'
          : '';
  return (
    `Mined ${window.commits} of ${window.walked} commits behind ${window.fromOid.slice(0, 10)}${stopped}; ` +
    `left out ${window.excluded.merges} merges and ${window.excluded.massChanges} commits changing more than ${window.settings.massChangeFiles} files.`
  );
}

/** Missed co-change partners, fix-prone files and hotspots with the commits they rest on. */
export function renderHistoryInsights(history: HistoryInsights): string {
  const out = [describeWindow(history), ''];
  // Cells are escaped by renderTable: commit subjects are repository text.
  if (history.missedPartners.length === 0) out.push('No file that usually changes with these files was left out.', '');
  else
    out.push(
      '**Usual partners this change does not touch**',
      '',
      renderTable(
        ['changed', 'partner left out', 'together', 'confidence', 'lift', 'commits'],
        groupPartners(history.missedPartners)
          .slice(0, MAX_ROWS)
          .map(({ partner, partners }) => [
            partner.path,
            partners,
            `${partner.support} of ${partner.pathCommits}`,
            `${Math.round(partner.confidence * 100)}%`,
            partner.lift,
            oids(partner.commits),
          ]),
      ),
      '',
    );
  // One fix is an event, not a record: the JSON keeps every file with a fix, the Markdown the ones with two or more.
  const fixProne = history.fixProne.filter((file) => file.fixes >= MIN_FIXES_SHOWN);
  if (fixProne.length > 0)
    out.push(
      '**Changed files with a record of fixes**',
      '',
      renderTable(
        ['file', 'fixes', 'fix score', 'fix commits'],
        fixProne
          .slice(0, MAX_ROWS)
          .map((file) => [
            file.path,
            `${file.fixes} of ${file.commits} (${file.fixRatio}%)`,
            file.fixScore,
            file.fixCommits.map((commit) => `${commit.oid.slice(0, 7)} ${commit.subject.slice(0, 80)}`).join('; '),
          ]),
      ),
      '',
    );
  if (history.hotspots.length > 0)
    out.push(
      '**Changed hotspots** (churn × complexity)',
      '',
      renderTable(
        ['file', 'churn', 'complexity', 'score', 'rank among the churned code files'],
        history.hotspots.map((hotspot) => [
          hotspot.path,
          hotspot.churn,
          hotspot.complexity,
          hotspot.score,
          `${hotspot.rank} of ${hotspot.rankedFiles}`,
        ]),
      ),
      '',
    );
  return out.join('\n');
}

import type { HistoryInsights } from '../model/history.js';
import { renderTable } from './markdown-table.js';

const MAX_ROWS = 10;

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
        history.missedPartners
          .slice(0, MAX_ROWS)
          .map((partner) => [
            partner.path,
            partner.partner,
            `${partner.support} of ${partner.pathCommits}`,
            `${Math.round(partner.confidence * 100)}%`,
            partner.lift,
            oids(partner.commits),
          ]),
      ),
      '',
    );
  if (history.fixProne.length > 0)
    out.push(
      '**Fix-prone changed files**',
      '',
      renderTable(
        ['file', 'fixes', 'fix score', 'fix commits'],
        history.fixProne
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
        ['file', 'churn', 'complexity', 'score', 'rank'],
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

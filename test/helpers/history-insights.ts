import type { CoChangePartner, FixProneFile, HistoryInsights } from '../../src/model/history.js';

/** History insights over a fixed window (20 of 22 commits behind `fff…`, 2 merges left out, default settings). */
export function historyInsights(missedPartners: CoChangePartner[], fixProne: FixProneFile[]): HistoryInsights {
  return {
    window: {
      fromOid: 'f'.repeat(40),
      commits: 20,
      walked: 22,
      excluded: { merges: 2, massChanges: 0 },
      stoppedBy: '',
      settings: { maxCommits: 2000, maxAgeDays: 730, massChangeFiles: 50 },
    },
    missedPartners,
    fixProne,
    hotspots: [],
  };
}

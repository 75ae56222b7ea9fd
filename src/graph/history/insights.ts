import type { CoChangePartner, HistoryInsights, MinedHistory } from '../../model/history.js';
import { findMissedPartners } from './co-change.js';
import { findFixProneFiles } from './fix-prone.js';
import { isHotspot, rankHotspots } from './hotspots.js';
import { classifyRole } from '../roles.js';

export interface HistoryInsightInput {
  history: MinedHistory;
  /** Changed paths, with the base-side path of a rename. */
  changedPaths: readonly string[];
  /** Whether a path exists at the head side (a partner that was deleted is not missed). */
  exists: (path: string) => boolean;
  /** Whether a churned path is ranked for hotspots: a code file at HEAD (rankHotspots). */
  isRanked: (path: string) => boolean;
  /** Summed function complexity of a file at HEAD, undefined when unknown. */
  complexity: (path: string) => number | undefined;
  /** The co-change partners of `changedPaths`, when the caller found them already. */
  partners?: ReadonlyMap<string, readonly CoChangePartner[]>;
}

/** Missed co-change partners, fix-prone changed files and changed hotspots, from one mined window. */
export function deriveHistoryInsights(input: HistoryInsightInput): HistoryInsights {
  const { history, changedPaths } = input;
  const changed = new Set(changedPaths);
  return {
    window: {
      fromOid: history.fromOid,
      commits: history.commits.length,
      walked: history.walked,
      excluded: { ...history.excluded },
      stoppedBy: history.stoppedBy,
      settings: { ...history.settings },
    },
    missedPartners: findMissedPartners(history, changedPaths, input.exists, {}, input.partners),
    fixProne: findFixProneFiles(history, changedPaths),
    hotspots: rankHotspots(history, input.isRanked, input.complexity).filter((hotspot) => changed.has(hotspot.path) && isHotspot(hotspot)),
  };
}

/**
 * What the history rules judge, and no more: a changed doc's usual partners (a changelog's package.json) and a
 * changelog's "fixes" (every fix commit adds a line to it) were shown to the reviewer though no rule would fire. A doc
 * stays a partner worth naming for a changed source file.
 */
export function keepJudgedInsights(insights: HistoryInsights): HistoryInsights {
  return {
    ...insights,
    missedPartners: insights.missedPartners.filter((partner) => classifyRole(partner.path) !== 'doc'),
    fixProne: insights.fixProne.filter((file) => classifyRole(file.path) === 'source'),
  };
}

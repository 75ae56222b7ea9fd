import type { ProgressEvent } from '../model/progress.js';

/** A progress event in words: `parsing 1,000/2,000 files (1,000 files/s)`, `building the graph of 2,400 files`. */
export function describeProgress(event: ProgressEvent, filesPerSecond?: number): string {
  switch (event.phase) {
    case 'scan':
      return 'scanning files';
    case 'read':
    case 'parse': {
      const rate = filesPerSecond === undefined ? '' : ` (${formatCount(Math.round(filesPerSecond))} files/s)`;
      const counted = `${formatCount(event.done)}/${formatCount(event.total)} files`;
      return event.phase === 'read' ? `reading the imports and exports of ${counted}${rate}` : `parsing ${counted}${rate}`;
    }
    case 'resolve':
      return `resolving the imports of ${formatCount(event.files)} files`;
    case 'build':
      return `building the graph of ${formatCount(event.files)} files`;
    default:
      return 'analysing';
  }
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

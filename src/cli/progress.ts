import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProgressEvent, ProgressSink } from '../model/progress.js';
import { describeProgress } from '../report/progress-text.js';
import type { CliHost } from './host.js';

/** Runs shorter than this show nothing: a progress line that flashes past is noise. */
const SHOW_AFTER_MS = 1000;
/** Parse counts redraw at most this often (a large tree reports thousands of files a second). */
const REDRAW_MS = 100;
const CLEAR_LINE = '\r\x1b[2K';

const quietRuns = new AsyncLocalStorage<boolean>();

/** Runs `fn` with the progress line off (`--quiet`) for everything it awaits. */
export function withQuiet<T>(quiet: boolean, fn: () => Promise<T>): Promise<T> {
  return quietRuns.run(quiet, fn);
}

export interface ProgressLine {
  sink: ProgressSink;
  /** Clears the line, if one was drawn, before the command writes its own output. */
  finish(): Promise<void>;
}

/**
 * One line on a terminal's stderr saying what the graph build is doing (scanning, parsing k/N files with the rate,
 * resolving, building, analysing) once a run has taken a second, rewritten in place and cleared before the command
 * writes anything. Nothing on a stderr that is not a terminal (unless CHECKER_PROGRESS=1), with `--quiet`, or with
 * CHECKER_PROGRESS=0; stdout is never touched.
 */
export function startProgressLine(host: CliHost, now: () => number = () => performance.now()): ProgressLine | undefined {
  const forced = host.env.CHECKER_PROGRESS === '1';
  if (quietRuns.getStore() === true || host.env.CHECKER_PROGRESS === '0' || !(host.stderrIsTTY || forced)) return undefined;
  // CHECKER_PROGRESS=1 shows it at once, and also where stderr is not a terminal (a log that wants it).
  const showAfterMs = forced ? 0 : SHOW_AFTER_MS;
  const started = now();
  let latest: ProgressEvent | undefined;
  let parseStart: { phase: 'read' | 'parse'; at: number; done: number } | undefined;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let drawnPhase: ProgressEvent['phase'] | undefined;
  let isDrawn = false;
  let isFinished = false;
  let writes: Promise<void> = Promise.resolve();
  const write = (text: string): void => {
    writes = writes.then(() => host.writeStderr(text)).catch(() => undefined);
  };
  const draw = (): void => {
    if (latest === undefined || isFinished) return;
    drawnAt = now();
    drawnPhase = latest.phase;
    isDrawn = true;
    write(
      `${CLEAR_LINE}checker: ${describeProgress(latest, toRate(latest, parseStart, drawnAt))} · ${((drawnAt - started) / 1000).toFixed(1)} s`,
    );
  };
  const timer = setTimeout(draw, showAfterMs);
  timer.unref();
  return {
    sink(event) {
      const isCount = event.phase === 'read' || event.phase === 'parse';
      if (isCount && (parseStart === undefined || event.phase !== parseStart.phase))
        parseStart = { phase: event.phase, at: now(), done: event.done };
      latest = event;
      const at = now();
      if (at - started < showAfterMs) return;
      // A new phase always draws, and so does the last count; counts in between at most every REDRAW_MS.
      if (isCount && drawnPhase === event.phase && event.done < event.total && at - drawnAt < REDRAW_MS) return;
      draw();
    },
    async finish() {
      clearTimeout(timer);
      isFinished = true;
      if (isDrawn) {
        isDrawn = false;
        write(CLEAR_LINE);
      }
      await writes;
    },
  };
}

/** Files read or parsed per second since that phase began; undefined for other phases and its first 0.2 s (too early lies). */
function toRate(
  event: ProgressEvent,
  parseStart: { phase: 'read' | 'parse'; at: number; done: number } | undefined,
  at: number,
): number | undefined {
  if ((event.phase !== 'read' && event.phase !== 'parse') || parseStart?.phase !== event.phase) return undefined;
  const seconds = (at - parseStart.at) / 1000;
  return seconds > 0.2 ? (event.done - parseStart.done) / seconds : undefined;
}

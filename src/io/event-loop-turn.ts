/** Work done between two turns of the event loop at most, in milliseconds. */
const DEFAULT_SLICE_MS = 8;

/**
 * A long run of synchronous work inside an async function (a history walk reads and diffs thousands of commits, each
 * object read synchronously) awaits only promises that are already settled: the event loop gets no turn until it ends,
 * so nothing else this process does moves meanwhile (the parse children's answers wait unread, and they wait for the
 * next files). The returned function resolves after a turn of the loop once `sliceMs` passed since the last turn, and
 * at once otherwise; `await` it between steps.
 */
export function createTurnTaker(sliceMs = DEFAULT_SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        since = performance.now();
        resolve();
      });
    });
  };
}

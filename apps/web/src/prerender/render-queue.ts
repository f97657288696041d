/**
 * The language, the tenant and the session are the app's module state (one learner per browser
 * page). The server draws pages with them, so the drawing itself runs one page at a time: what a
 * render sets is never seen by another. Reads happen before, concurrently (signed-in.tsx).
 */
let queue: Promise<unknown> = Promise.resolve();

export function inTurn<T>(run: () => Promise<T>): Promise<T> {
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * Read-your-writes across API processes (decision 0059). Each API process keeps the viewer and
 * the home's stamps in memory, kept current by the database's notifications, so another process
 * may be a few milliseconds behind a write. Every signed-in write answers with the stamp it left
 * (`X-Parcours-Stamp: {user}.{content}`); the client sends the newest one it saw with its calls,
 * and a process whose copy is behind it reads the database instead of its memory.
 *
 * Kept for the token it was seen with: another token (another learner on a shared device, a new
 * session) starts without one, so one learner's stamp never makes another's calls slower.
 */
export const STAMP_HEADER = 'X-Parcours-Stamp';

let last: { token: string | null; user: number; content: number } | null = null;

/** Keeps the stamp of an answer when it is newer, part by part, than the one kept for `token`. */
export function noteStamp(token: string | null, header: string | null): void {
  const m = header ? /^(\d{1,15})\.(\d{1,15})$/.exec(header) : null;
  if (!m) return;
  const [user, content] = [Number(m[1]), Number(m[2])];
  if (!last || last.token !== token) last = { token, user, content };
  else last = { token, user: Math.max(last.user, user), content: Math.max(last.content, content) };
}

/** The stamp to send with a call made with `token`, if any. */
export function stampFor(token: string | null): string | null {
  return last && last.token === token ? `${last.user}.${last.content}` : null;
}

/** Tests start from no stamp. */
export function forgetStamp(): void {
  last = null;
}

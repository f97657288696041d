/**
 * The home's last successful reads, kept on the device per user (issue 12, decision 0020 "Cold
 * start offline"): when the installed app starts with no network, the home shows the classes as
 * last seen instead of nothing, so the lessons kept on the device can be reached from it. Online
 * the network answer wins and replaces the kept copy.
 *
 * The copies live in the device store (lib/device-store.ts) beside the offline lessons, so
 * sign-out clears them with the lesson store and the queue (the offline feature clears the whole
 * store; without it session.ts deletes the database; this module also clears its own keys when
 * the session ends). Keys carry the user id, and keeping one user's copy drops any other user's,
 * so a learner never sees another's classes.
 *
 * Issue 11: the device store's code loads on first use, and a copy is written once the home is
 * on screen (lib/after-first-screen.ts), so neither comes before the home's first paint. Reading
 * a copy (no network) loads it at once.
 */
import { useSyncExternalStore } from 'react';
import { afterFirstScreen } from '../../../lib/after-first-screen';
import { isNetworkError } from '../../../lib/api-errors';
import type { KeyValue } from '../../../lib/device-store';
import { getSession, subscribeSession } from '../../../lib/session';

export interface KeptRead<T> {
  savedAt: string;
  data: T;
}

const PREFIX = 'home:';
const keyOf = (userId: string, read: string) => `${PREFIX}${userId}:${read}`;

/** The device store, its module loaded on first use. */
const device = () => import('../../../lib/device-store').then((m) => m.deviceStore);
const lazyDeviceStore: KeyValue = {
  get: async <T>(key: string) => (await device()).get<T>(key),
  set: async (key, value) => (await device()).set(key, value),
  del: async (key) => (await device()).del(key),
  keys: async () => (await device()).keys(),
};

export class HomeReads {
  // Operations run one after the other: a read made while a copy is being kept finds it.
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly kv: KeyValue) {}

  private inOrder<R>(op: () => Promise<R>): Promise<R> {
    const next = this.last.then(op, op);
    this.last = next.catch(() => undefined);
    return next;
  }

  /** Keeps `data` once `when` settles (or at once), after the operations already asked for. */
  keep<T>(userId: string, read: string, data: T, now = new Date(), when?: Promise<void>): Promise<void> {
    return this.inOrder(async () => {
      await when;
      // Another learner's copies (a token expired without a sign-out) go before this one is kept.
      const others = (await this.kv.keys()).filter(
        (k) => k.startsWith(PREFIX) && !k.startsWith(`${PREFIX}${userId}:`),
      );
      for (const key of others) await this.kv.del(key);
      await this.kv.set(keyOf(userId, read), { savedAt: now.toISOString(), data } satisfies KeptRead<T>);
    });
  }

  read<T>(userId: string, read: string): Promise<KeptRead<T> | undefined> {
    return this.inOrder(() => this.kv.get<KeptRead<T>>(keyOf(userId, read)));
  }

  clear(): Promise<void> {
    return this.inOrder(async () => {
      for (const key of await this.kv.keys()) if (key.startsWith(PREFIX)) await this.kv.del(key);
    });
  }
}

export const homeReads = new HomeReads(lazyDeviceStore);

/** Which reads the home shows from the device right now, and as of when. */
const fromDevice = new Map<string, string>();
let snapshot: string | null = null;
const listeners = new Set<() => void>();

/** `null`: the network answered, so every read will be fresh again (the others refetch on reconnect). */
function mark(read: string, savedAt: string | null): void {
  if (savedAt) fromDevice.set(read, savedAt);
  else fromDevice.clear();
  // The oldest copy shown is the one the note dates.
  const next = [...fromDevice.values()].sort()[0] ?? null;
  if (next === snapshot) return;
  snapshot = next;
  listeners.forEach((l) => l());
}

// Signed out (or the token refused): the copies go, and the next learner's home has no note. The
// offline feature's sign-out hook clears the whole store too; this also holds in a tab without it.
subscribeSession(() => {
  if (getSession().status !== 'unauthenticated') return;
  mark('', null);
  void homeReads.clear().catch(() => undefined);
});

/** When the oldest read the home shows from the device was kept; null when all came from the network. */
export function useKeptSince(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => snapshot,
    () => snapshot,
  );
}

/** The user whose copies are read and written: the signed-in one, never a guess. */
export const currentUserId = (): string | null => getSession().user?._id ?? null;

/**
 * Runs a home read: its answer is kept for `userId`; when the network gives no answer at all, the
 * copy kept for `userId` is answered instead (and the home says so). Refusals and bugs still fail.
 */
export async function withKeptCopy<T>(
  userId: string | null,
  read: string,
  load: () => Promise<T>,
  reads: HomeReads = homeReads,
): Promise<T> {
  let data: T;
  try {
    data = await load();
  } catch (error) {
    if (!userId || !isNetworkError(error)) throw error;
    const kept = await reads.read<T>(userId, read).catch(() => undefined);
    if (!kept) throw error;
    mark(read, kept.savedAt);
    return kept.data;
  }
  mark(read, null);
  // Kept once the home is on screen (issue 11). A copy that could not be written only means no
  // offline home: the answer still shows.
  if (userId) void reads.keep(userId, read, data, new Date(), afterFirstScreen()).catch(() => undefined);
  return data;
}

/**
 * The device side of offline lessons (decisions 0013, 0020): one IndexedDB database holding the
 * answer queue and the stored lessons, the connection state the banner shows, and the send when
 * the connection returns — started by the app shell on every screen once signed in (OfflineSync),
 * under a Web Lock so two tabs never send the same answer. Signing out clears it (`onForget`).
 */
import { useSyncExternalStore } from 'react';
import { apiFetch } from '../../../lib/api-client';
import {
  clearDeviceStore,
  DEVICE_DB,
  deviceStore,
  isAnswerQueueKey,
  isNetworkError,
} from '../../../lib/device-store';
import { t } from '../../../lib/i18n';
import {
  getSession,
  onForget,
  setSignOutGuard,
  subscribeSession,
  type ForgetReason,
} from '../../../lib/session';
import { getUserId } from '../../../lib/storage';
import { lessonPath, type LessonPage } from '../api/lesson-page';
import { getCurrentPage } from '../api/get-current-page';
import { nextPage } from '../api/next-page';
import { patchPage } from '../api/patch-page';
import {
  AnswerKeyError,
  LessonStore,
  storablePage,
  type LessonSettings,
  type OfflinePage,
} from './lesson-store';
import { AnswerQueue, type FlushReport, type QueueLock, type QueueSender, type QueueState } from './queue';

export const OFFLINE_DB = DEVICE_DB;
const kv = deviceStore;

export const lessonStore = new LessonStore(kv);
/** Tells the other tabs of this origin that the queue changed, so their banners follow. */
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(OFFLINE_DB);

/** One holder at a time across the tabs of the origin (Web Locks); a lone tab without them. */
const lock: QueueLock = (task) =>
  typeof navigator !== 'undefined' && navigator.locks
    ? (navigator.locks.request('parcours-offline-queue', task) as Promise<Awaited<ReturnType<typeof task>>>)
    : task();

/**
 * Whose answers the queue holds (decision 0045): the learner signed in, or, once their session
 * has ended by itself, still them — an answer given as the token expired is theirs. It changes
 * only when another learner signs in; each learner's answers wait under their own key.
 */
let owner: string | null = getUserId();
const queueKey = (who: string | null) => `queue:${who ?? 'unknown'}`;

/** The learner whose answers the queue holds now. */
export const queueOwner = (): string | null => owner;

export const answerQueue = new AnswerQueue(
  {
    load: async () => {
      const mine = await kv.get<QueueState>(queueKey(owner));
      if (mine || !owner) return mine;
      // A queue kept before answers had owners: it was written in the session still open here.
      const legacy = await kv.get<QueueState>('queue');
      if (!legacy) return undefined;
      await kv.set(queueKey(owner), legacy);
      await kv.del('queue');
      return legacy;
    },
    save: async (state) => {
      await kv.set(queueKey(owner), state);
      channel?.postMessage('queue');
    },
  },
  lock,
);
channel?.addEventListener('message', () => void answerQueue.refresh().catch(() => undefined));

/** The network is gone for this call: a fetch that never got an answer (not a refusal). */
export { isNetworkError };

export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** What the banner shows: the connection, what waits, what the last send did. */
export interface OfflineStatus {
  online: boolean;
  waiting: number;
  sending: boolean;
  refused: QueueState['refused'];
  lastSent: FlushReport['sent'];
}

let status: OfflineStatus = { online: isOnline(), waiting: 0, sending: false, refused: [], lastSent: [] };
const listeners = new Set<() => void>();
function update(next: Partial<OfflineStatus>): void {
  status = { ...status, ...next };
  listeners.forEach((l) => l());
}
answerQueue.subscribe(() => {
  const q = answerQueue.snapshot();
  update({ waiting: q.items.length, refused: q.refused });
});

export function useOfflineStatus(): OfflineStatus {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => status,
    () => status,
  );
}

const sender: QueueSender = {
  patch: (lessonId, pageId, answers) => patchPage(lessonId, pageId, answers),
  next: (lessonId, fromPageId) => nextPage(lessonId, fromPageId),
  current: (lessonId) => getCurrentPage(lessonId),
};

const afterSend = new Set<(report: FlushReport) => void>();
/** The player refreshes its page once queued answers are graded. */
export function onQueueSent(listener: (report: FlushReport) => void): () => void {
  afterSend.add(listener);
  return () => afterSend.delete(listener);
}

/** Answers are only ever sent with their own learner's session (issue 29 R3-10). */
function ownersSession(): boolean {
  const session = getSession();
  return session.status === 'authenticated' && session.user !== null && session.user._id === owner;
}

/** Sends what waits, if anything and if online; the report reaches the banner and the player. */
export async function sendQueue(): Promise<FlushReport | null> {
  await answerQueue.ready();
  if (!isOnline() || !ownersSession() || answerQueue.snapshot().items.length === 0) return null;
  update({ sending: true });
  try {
    const report = await answerQueue.flush(sender);
    update({ lastSent: report.sent });
    afterSend.forEach((l) => l(report));
    // The server was down or slow while the network was up: no `online` event will come, so look
    // again later (the backoff inside the flush already waited 1 + 2 + 4 s).
    if (report.stopped) scheduleRetry();
    return report;
  } finally {
    update({ sending: false });
  }
}

const RETRY_LATER_MS = 60_000;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleRetry(): void {
  if (retryTimer !== null || typeof window === 'undefined') return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void sendQueue().catch((error: unknown) => console.warn('Offline answers not sent', error));
  }, RETRY_LATER_MS);
}

// A sign-in: the queue becomes that learner's (another learner's answers stay where they are),
// and what they left waiting — offline, or as their token expired — is sent now.
let signedIn = false;
subscribeSession(() => {
  const { status, user } = getSession();
  const now = status === 'authenticated' && user !== null;
  if (now && !signedIn) {
    const changed = owner !== user._id;
    owner = user._id;
    void (changed ? answerQueue.refresh() : Promise.resolve())
      .then(() => sendQueue())
      .catch((error: unknown) => console.warn('Offline answers not sent', error));
  }
  signedIn = now;
});

let started = false;
/** Listens to the connection once per tab (any screen): at start and back online, sends the queue. */
export function startOfflineSync(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  void answerQueue
    .ready()
    .then(() => sendQueue())
    .catch((error: unknown) => console.warn('Offline answers not sent', error));
  window.addEventListener('online', () => {
    update({ online: true });
    void sendQueue().catch((error: unknown) => console.warn('Offline answers not sent', error));
  });
  window.addEventListener('offline', () => update({ online: false }));
}

interface UpcomingDoc {
  data: { attributes: OfflinePage }[];
  meta?: {
    lesson?: LessonSettings & { needsNetwork: 'timed' | null; started: boolean };
  };
}

/** The upcoming pages of a lesson, public views only (GET offline/lessons/{id}/pages). */
async function fetchUpcoming(lessonId: string) {
  const doc = await apiFetch<UpcomingDoc>(`offline/${lessonPath(lessonId)}/pages`);
  return { pages: doc.data.map((r) => r.attributes), lesson: doc.meta?.lesson ?? null };
}

/** The service worker's cache of lesson media (vite.config.ts), cleared at sign-out. */
export const MEDIA_CACHE = 'parcours-media';
const MEDIA_PER_LESSON = 40;

/** The files the stored pages show (pictures, sounds, documents), as the API wrote their URLs. */
export function mediaUrls(pages: readonly OfflinePage[]): string[] {
  const urls = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(/\/api\/files\/[^\s"'<>)]+/g)) urls.add(m[0].replace(/&amp;/g, '&'));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(pages);
  return [...urls].slice(0, MEDIA_PER_LESSON);
}

/** Reading each file once online lets the service worker keep it for the pages shown offline. */
async function keepMedia(pages: readonly OfflinePage[]): Promise<void> {
  if (
    typeof caches === 'undefined' ||
    typeof navigator === 'undefined' ||
    !navigator.serviceWorker?.controller
  )
    return;
  for (const url of mediaUrls(pages)) await fetch(url, { credentials: 'same-origin' }).catch(() => undefined);
}

/** Keeps the lesson on the device from the page shown on: called online, failures are harmless. */
export async function keepLesson(shown: LessonPage): Promise<void> {
  try {
    const { pages: upcoming } = await fetchUpcoming(shown.lessonId);
    await lessonStore.save({
      lessonId: shown.lessonId,
      savedAt: new Date().toISOString(),
      cursor: storablePage(shown),
      cursorNodeId: null,
      upcoming,
    });
    await keepMedia([...upcoming]);
  } catch (error) {
    // Offline use is a bonus: a lesson not kept only means no offline pages for it.
    if (error instanceof AnswerKeyError) console.error(error);
  }
}

const AHEAD_LESSONS = 5;

/**
 * Decision 0020: the lessons the learner may begin next (unlocked, not begun) are kept on the
 * device ahead of time, with their media, so a learner who goes offline before opening them can
 * still begin them. Lessons already kept are left as they are (opening one refreshes it); a timed
 * lesson needs the server's clock and is not kept. Online only; failures are harmless.
 */
export async function keepAhead(userId: string): Promise<string[]> {
  // For the session it started in only: the shell starts it once the browser is idle after the
  // first screen, which can be just as that session ends. A call after the end would meet a
  // second 401, and a lesson kept then would stay on the device for the next learner (0045).
  const mine = () => getSession().user?._id === userId;
  if (!isOnline() || !mine()) return [];
  const kept: string[] = [];
  try {
    const doc = await apiFetch<{
      data: { id: string; attributes: { state: string; startedAt: string | null } }[];
    }>('lessons', { query: { 'filter[userId]': userId, 'page[size]': 50 } });
    const stored = new Set(await lessonStore.lessonIds());
    const fresh = doc.data.filter(
      (l) => l.attributes.state === 'AVAILABLE' && !l.attributes.startedAt && !stored.has(l.id),
    );
    for (const lesson of fresh.slice(0, AHEAD_LESSONS)) {
      if (!mine()) break;
      const { pages, lesson: meta } = await fetchUpcoming(lesson.id);
      if (!meta || meta.started || meta.needsNetwork || pages.length === 0) continue;
      if (!mine()) break;
      await lessonStore.save({
        lessonId: lesson.id,
        savedAt: new Date().toISOString(),
        cursor: null,
        cursorNodeId: null,
        upcoming: pages,
        settings: { lessonScoring: meta.lessonScoring, courseTypeSettings: meta.courseTypeSettings },
      });
      kept.push(lesson.id);
      await keepMedia(pages);
    }
  } catch (error) {
    if (error instanceof AnswerKeyError) console.error(error);
  }
  return kept;
}

/**
 * A session ends: the next person on this device finds no lesson and no media of this one. A
 * sign-out takes the learner's waiting answers too (they confirmed it); a session that ended by
 * itself leaves every learner's answers waiting for that learner (decision 0045).
 */
export async function clearDevice(reason: ForgetReason = 'signOut'): Promise<void> {
  // Whose answers, read now: the next learner may sign in before this has run to its end.
  const leaving = owner;
  if (reason === 'signOut') {
    await lock(() => kv.del(queueKey(leaving)));
    await answerQueue.refresh();
  }
  // The lessons and the home's copies kept for an offline cold start (0020); answers of others stay.
  await clearDeviceStore(isAnswerQueueKey);
  if (typeof caches !== 'undefined') await caches.delete(MEDIA_CACHE).catch(() => false);
}

/**
 * Before a chosen sign-out: what can be sent is sent; answers that still wait are listed and
 * their loss confirmed, or the learner stays signed in.
 */
export async function confirmSignOut(
  confirm: (message: string) => boolean = (m) => window.confirm(m),
): Promise<boolean> {
  await sendQueue().catch(() => null);
  const left = answerQueue.snapshot().items;
  if (left.length === 0) return true;
  const list = left.map((item) => `• ${item.title || t('offline.untitled')}`).join('\n');
  return confirm(t('offline.signOut.confirm', { list }));
}

onForget((reason) => clearDevice(reason));
setSignOutGuard(() => confirmSignOut());

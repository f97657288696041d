/**
 * The signed-in learner (docs/product.md §4 Session: connecting → authenticated | unauthenticated).
 * A tiny external store rather than a query: the guard, the header and the 401 handler all
 * need it synchronously, and it must be on the /login critical path without the query cache.
 */
import type { MeResponse } from '@parcours/domain/entities';
import { SANDBOX_TOKEN } from './sandbox';
import { useSyncExternalStore } from 'react';
import { ApiError, apiFetch } from './api-client';
import { apiBase } from './api-base';
import { requestScope, useRequestScope } from './request-scope';
import { forgetOwner, markOwner } from './device-owner';
import {
  clearAllExceptContext,
  getReturnUrl,
  getToken,
  getUserId,
  isForgetPending,
  setForgetPending,
  setReturnUrl,
  setToken,
  setUserId,
} from './storage';
import { isExpired, noteFreshToken, readToken, serverNow } from './token';

export type SessionStatus = 'connecting' | 'authenticated' | 'unauthenticated';

/** Why the last user load ended the session, shown on the sign-in screen (docs/product.md §8). */
export type SessionNotice = 'linkExpired' | 'linkInvalid' | 'reconnect' | 'accountMismatch' | 'sessionEnded';

/**
 * Why the device forgets: the learner signed out (their waiting answers go too, once they have
 * confirmed it), or the session ended by itself (expired or revoked token): then answers given
 * offline keep waiting, under their learner's id, for that learner's next sign-in (0044, 0045).
 */
export type ForgetReason = 'signOut' | 'ended';

export interface SessionState {
  status: SessionStatus;
  user: MeResponse | null;
  notice: SessionNotice | null;
  /**
   * The session ended by the learner's sign-out (signOut), not by itself: a signed-in screen still shown
   * goes to the sign-in screen and is not remembered as the page to come back to (decision 0057).
   */
  signedOut?: boolean;
}

let state: SessionState = { status: 'connecting', user: null, notice: null };
const listeners = new Set<() => void>();

function set(next: Partial<SessionState>): void {
  // A new status is no sign-out unless it says so (signOut).
  state = { ...state, ...(next.status ? { signedOut: false } : {}), ...next };
  listeners.forEach((listener) => listener());
}

export function getSession(): SessionState {
  return requestScope()?.session ?? state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The session once the user load has ended (authenticated or not). */
export function settledSession(): Promise<SessionState> {
  return new Promise((resolve) => {
    const check = () => {
      if (state.status === 'connecting') return false;
      resolve(state);
      return true;
    };
    if (check()) return;
    const stop = subscribeSession(() => {
      if (check()) stop();
    });
  });
}

export function useSession(): SessionState {
  const scope = useRequestScope();
  const current = useSyncExternalStore(subscribeSession, getSession, getSession);
  return scope ? scope.session : current;
}

function noticeFor(error: unknown): SessionNotice {
  if (error instanceof ApiError && error.status === 403) return 'linkExpired';
  if (error instanceof ApiError && error.status === 401) return 'linkInvalid';
  return 'reconnect';
}

const forgetHooks = new Set<(reason: ForgetReason) => Promise<void>>();

/**
 * What else a sign-out clears: the offline lessons and answer queue (decision 0013) register here
 * when the player loads, so this file (on the /login path) imports none of it. Without a hook the
 * database was not opened in this tab and is simply deleted.
 */
export function onForget(hook: (reason: ForgetReason) => Promise<void>): void {
  forgetHooks.add(hook);
}

let signOutGuard: (() => Promise<boolean>) | null = null;

/**
 * Asked before a sign-out the learner chose: the offline layer sends what waits and, if answers
 * would still be lost, asks (decision 0013). Null when nothing registered: sign out at once.
 */
export function setSignOutGuard(guard: (() => Promise<boolean>) | null): void {
  signOutGuard = guard;
}

export function getSignOutGuard(): (() => Promise<boolean>) | null {
  return signOutGuard;
}

/**
 * The clearing of the last session's copies, until it is done. The next sign-in waits for it
 * (markDevice): the clearing runs in the background (the worker's caches, the device store's
 * keys one transaction after another), and a learner signing in at once found the last one's
 * lesson still on the device, or had their own owner mark removed by the clearing's tail.
 */
let forgetting: Promise<unknown> = Promise.resolve();
let clearings = 0;

function forget(reason: ForgetReason): void {
  clearAllExceptContext();
  clearDeviceCopies(reason);
}

/**
 * The service worker's copies (users/me, lesson media) and the mark that lets it serve them, and
 * the device store's lessons and home copies: the next learner on this device must not get them
 * (issue 29 R3-06). The storage above goes at once; this takes a moment, and a tab closed or
 * navigated meanwhile (a session that ended in a tab left open, seen as it closed) stopped it
 * half-way: the next start found no token, so nothing to end, and the last learner's lesson and
 * media stayed on the device. So it is marked as pending until done (`resumeForgetting`).
 */
function clearDeviceCopies(reason: ForgetReason): void {
  setForgetPending(true);
  const work: Promise<unknown>[] = [forgetOwner()];
  if (forgetHooks.size > 0) forgetHooks.forEach((hook) => work.push(hook(reason)));
  else work.push(import('./device-store').then((m) => m.clearDeviceStore(m.isAnswerQueueKey)));
  const clearing = ++clearings;
  forgetting = Promise.all([forgetting, ...work.map((p) => p.catch(() => undefined))]).then(() => {
    // A later end may have started meanwhile: the mark goes with the last one.
    if (clearing === clearings) setForgetPending(false);
  });
}

/**
 * At start: a clearing that an earlier page began and could not finish is finished, before
 * anyone signs in (markDevice waits for it). As for a session that ended by itself: the answers
 * waiting on the device stay, each for its own learner (decision 0045).
 */
export function resumeForgetting(): void {
  if (isForgetPending()) clearDeviceCopies('ended');
}

/** Resolves once what the device kept of the sessions that ended is gone (tests, sign-in). */
export function deviceForgotten(): Promise<void> {
  return forgetting.then(() => undefined);
}

/**
 * The service worker may serve this learner's copies until the token's expiry (0045), once the
 * last session's copies are gone (forget).
 */
async function markDevice(userId: string): Promise<void> {
  await deviceForgotten();
  const expiresAt = readToken(getToken())?.expiresAt ?? null;
  const inDeviceClock = expiresAt === null ? null : expiresAt - (serverNow() - Date.now());
  return markOwner({ userId, expiresAt: inDeviceClock }).catch(() => undefined);
}

/**
 * The session ended without a sign-out (decision 0044): the token expired or the server refused
 * it (a password change elsewhere). Everything of the session goes at once — state, the device's
 * copies, the query cache (query-client.ts listens) — except answers waiting for their learner,
 * and the page to come back to after sign-in. Once: a session already over is left alone, so the
 * 401s of calls still in flight change nothing. Returns whether this call ended it.
 */
export function endExpiredSession(returnUrl: string | null = null): boolean {
  if (state.status === 'unauthenticated' && getToken() === null) return false;
  const back = returnUrl ?? getReturnUrl();
  forget('ended');
  if (back) setReturnUrl(back);
  set({ status: 'unauthenticated', user: null, notice: 'sessionEnded' });
  return true;
}

/**
 * The learner chose to open another account's sign-in link (issue 29 R3-11): the signed-in
 * session is left like one that ended by itself — its answers keep waiting for it — and the
 * link's credentials come next.
 */
export function leaveForLink(): void {
  forget('ended');
  set({ status: 'connecting', user: null, notice: null });
}

/** A renewed token (POST users/token) replaces the one it renewed. */
export function replaceToken(token: string): void {
  setToken(token);
  noteFreshToken(token);
  if (state.user) void markDevice(state.user._id);
}

/** A refused token only: the return URL saved before start must survive for the next sign-in. */
export function dropCredentials(): void {
  setToken(null);
  setUserId(null);
}

/**
 * Loads the user behind the stored token. `viaLink` is set when the token came from idT/idU
 * query parameters: failures then explain themselves (docs/product.md §8 "User load via link").
 */
export async function loadUser(options: { viaLink?: boolean } = {}): Promise<SessionState> {
  const token = getToken();
  // Sandbox mode (docs/product.md §6): a marker, not a credential; nobody to load.
  if (!token || token === SANDBOX_TOKEN) {
    set({ status: 'unauthenticated', user: null });
    return state;
  }
  // Expired since the last visit: the session ends here, network or not, and with it what the
  // device kept of it (issue 29: "including expiry seen at the next start").
  if (!options.viaLink && isExpired(token)) {
    endExpiredSession();
    return state;
  }
  set({ status: 'connecting' });
  try {
    const me = await apiFetch<MeResponse>('users/me');
    const expectedId = getUserId();
    if (expectedId && me._id !== expectedId) {
      forget('signOut');
      set({ status: 'unauthenticated', user: null, notice: 'accountMismatch' });
      return state;
    }
    setUserId(me._id);
    void markDevice(me._id);
    set({ status: 'authenticated', user: me, notice: null });
  } catch (error) {
    // No network and no cached copy (the service worker caches users/me once it controls the tab):
    // the token is not refused, so the learner stays "connecting" and is loaded when it returns,
    // instead of being sent to the sign-in page (issue 12).
    if (
      !options.viaLink &&
      !(error instanceof ApiError) &&
      typeof window !== 'undefined' &&
      !navigator.onLine
    ) {
      window.addEventListener('online', () => void loadUser(), { once: true });
      return state;
    }
    const expired = error instanceof ApiError && (error.status === 401 || error.status === 403);
    // A refused token at start (revoked while away) ends the session like a 401 later would.
    if (!options.viaLink && expired) {
      endExpiredSession();
      return state;
    }
    if (options.viaLink) forget('signOut');
    set({ status: 'unauthenticated', user: null, notice: options.viaLink ? noticeFor(error) : null });
  }
  return state;
}

/** docs/product.md §2: under /reset/ the stored token is not checked; the reset screen brings its own. */
export function skipUserLoad(): void {
  set({ status: 'unauthenticated', user: null });
}

/** After a successful POST users/login. */
export async function startSession(token: string, userId: string): Promise<SessionState> {
  setToken(token);
  noteFreshToken(token);
  // Before users/me goes: the service worker keeps that answer only for the device's learner (0045).
  await markDevice(userId);
  setUserId(userId);
  return loadUser();
}

/**
 * The server answered the reloaded user (PATCH users/{id}, docs/product.md §7 "then the user is reloaded").
 * After a password change the request's token is revoked and the answer carries the next one.
 */
export function setSessionUser(user: MeResponse, token?: string): void {
  if (token) {
    setToken(token);
    noteFreshToken(token);
  }
  setUserId(user._id);
  void markDevice(user._id);
  set({ status: 'authenticated', user, notice: null });
}

/** docs/product.md §4 logout: clear all stored data except the context; the caller navigates to /login. */
export function endSession(notice: SessionNotice | null = null): void {
  forget('signOut');
  set({ status: 'unauthenticated', user: null, notice });
}

/**
 * The learner signs out (the menu, "sign out of every device"; decision 0057): the server ends
 * this session — its token and the token's renewals are refused from then on — and the HTML
 * cookie goes, so the server draws this browser no signed-in page any more (decision 0046); then
 * the device forgets everything, as endSession, the page to come back to included. The calls leave
 * at once and outlive the page (keepalive: the caller navigates to /login); their answers change
 * nothing here. Offline they fail: the token then lives until its expiry, as before.
 */
export function signOut(notice: SessionNotice | null = null): void {
  const token = getToken();
  const send = (path: string, init: RequestInit) => {
    try {
      void fetch(`${apiBase()}/${path}`, { ...init, keepalive: true, credentials: 'same-origin' }).catch(
        () => undefined,
      );
    } catch {
      // No fetch (an old browser's private mode): the device still forgets.
    }
  };
  if (token && token !== SANDBOX_TOKEN)
    send('users/me/sign-out', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  // Even when the token is refused (over, revoked): the cookie holds it, and goes.
  send('users/html-session', { method: 'DELETE' });
  forget('signOut');
  set({ status: 'unauthenticated', user: null, notice, signedOut: true });
}

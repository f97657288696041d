/**
 * The signed-in learner (SPEC §4 Session: connecting → authenticated | unauthenticated).
 * A tiny external store rather than a query: the guard, the header and the 401 handler all
 * need it synchronously, and it must be on the /login critical path without the query cache.
 */
import type { MeResponse } from '@parcours/domain/entities';
import { SANDBOX_TOKEN } from './sandbox';
import { useSyncExternalStore } from 'react';
import { ApiError, apiFetch } from './api-client';
import { clearAllExceptContext, getToken, getUserId, setToken, setUserId } from './storage';

export type SessionStatus = 'connecting' | 'authenticated' | 'unauthenticated';

/** Why the last user load ended the session, shown on the sign-in screen (SPEC §8). */
export type SessionNotice = 'linkExpired' | 'linkInvalid' | 'reconnect' | 'accountMismatch';

export interface SessionState {
  status: SessionStatus;
  user: MeResponse | null;
  notice: SessionNotice | null;
}

let state: SessionState = { status: 'connecting', user: null, notice: null };
const listeners = new Set<() => void>();

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The server's renderer (prerender/signed-in.tsx) draws one learner's page at a time with this
 * module's state: it puts that learner in for the render and the previous state back after.
 */
export function replaceSession(next: SessionState): SessionState {
  const previous = state;
  state = next;
  return previous;
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

function noticeFor(error: unknown): SessionNotice {
  if (error instanceof ApiError && error.status === 403) return 'linkExpired';
  if (error instanceof ApiError && error.status === 401) return 'linkInvalid';
  return 'reconnect';
}

const forgetHooks = new Set<() => Promise<void>>();

/**
 * What else a sign-out clears: the offline lessons and answer queue (decision 0013) register here
 * when the player loads, so this file (on the /login path) imports none of it. Without a hook the
 * database was not opened in this tab and is simply deleted.
 */
export function onForget(hook: () => Promise<void>): void {
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

function forget(): void {
  clearAllExceptContext();
  // The service worker keeps users/me for offline starts; the next learner must not get it.
  if (typeof caches !== 'undefined') void caches.delete('parcours-session').catch(() => undefined);
  if (forgetHooks.size > 0) forgetHooks.forEach((hook) => void hook().catch(() => undefined));
  else if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase('parcours-offline');
}

/** A refused token only: the return URL saved before start must survive for the next sign-in. */
export function dropCredentials(): void {
  setToken(null);
  setUserId(null);
}

/**
 * Loads the user behind the stored token. `viaLink` is set when the token came from idT/idU
 * query parameters: failures then explain themselves (SPEC §8 "User load via link").
 */
export async function loadUser(options: { viaLink?: boolean } = {}): Promise<SessionState> {
  const token = getToken();
  // Sandbox mode (SPEC §6): a marker, not a credential; nobody to load.
  if (!token || token === SANDBOX_TOKEN) {
    set({ status: 'unauthenticated', user: null });
    return state;
  }
  set({ status: 'connecting' });
  try {
    const me = await apiFetch<MeResponse>('users/me');
    const expectedId = getUserId();
    if (expectedId && me._id !== expectedId) {
      forget();
      set({ status: 'unauthenticated', user: null, notice: 'accountMismatch' });
      return state;
    }
    setUserId(me._id);
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
    if (options.viaLink) forget();
    else if (expired) dropCredentials();
    set({ status: 'unauthenticated', user: null, notice: options.viaLink ? noticeFor(error) : null });
  }
  return state;
}

/** SPEC §2: under /reset/ the stored token is not checked; the reset screen brings its own. */
export function skipUserLoad(): void {
  set({ status: 'unauthenticated', user: null });
}

/** After a successful POST users/login. */
export async function startSession(token: string, userId: string): Promise<SessionState> {
  setToken(token);
  setUserId(userId);
  return loadUser();
}

/**
 * The server answered the reloaded user (PATCH users/{id}, SPEC §7 "then the user is reloaded").
 * After a password change the request's token is revoked and the answer carries the next one.
 */
export function setSessionUser(user: MeResponse, token?: string): void {
  if (token) setToken(token);
  setUserId(user._id);
  set({ status: 'authenticated', user, notice: null });
}

/** SPEC §4 logout: clear all stored data except the context; the caller navigates to /login. */
export function endSession(notice: SessionNotice | null = null): void {
  forget();
  set({ status: 'unauthenticated', user: null, notice });
}

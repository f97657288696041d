/**
 * What a page drawn on the server for a signed-in learner carries (decision 0046): the user it
 * was drawn for and the reads it made, in a JSON data block before `#root`
 * (apps/api/src/plugins/signed-in-html.ts writes it, src/main.tsx reads it to hydrate).
 */
import type { DehydratedState } from '@tanstack/react-query';
import type { MeResponse } from '@parcours/domain/entities';
import { HTML_MARKERS } from '@parcours/domain/routes';
import type { HydrationState } from 'react-router';
import { getToken, getUserId } from './storage';
import { isExpired } from './token';

export interface ServerState {
  me: MeResponse;
  queries: DehydratedState;
  /** The router's hydration data: each matched route's loader data (decision 0060). */
  router: HydrationState;
}

export const STATE_ELEMENT_ID = HTML_MARKERS.stateElementId;

/** Whether `root` holds a screen the server drew for a signed-in learner. */
export function isDrawnSignedIn(root: HTMLElement): boolean {
  return root.dataset.prerendered === HTML_MARKERS.drawnRoot;
}

/**
 * The page's state when this browser can take it over: its stored token is the session's, still
 * in force, and the page was drawn for the same learner. Null otherwise (signed out here since,
 * an expired stored session, another learner's token, a damaged block): the app then starts as it
 * would without the server's screen, and an expired session ends there with what the device kept
 * of it (decision 0045). Taken over, a drawn page would have skipped that end: a full journey run
 * saw the last learner's copies still on a shared device after the next one signed in.
 */
export function takeServerState(): ServerState | null {
  const text = document.getElementById(STATE_ELEMENT_ID)?.textContent;
  const token = getToken();
  if (!text || token === null || isExpired(token)) return null;
  try {
    const state = JSON.parse(text) as ServerState;
    const userId = getUserId();
    if (!state.me?._id || !state.router || (userId !== null && userId !== state.me._id)) return null;
    return state;
  } catch {
    return null;
  }
}

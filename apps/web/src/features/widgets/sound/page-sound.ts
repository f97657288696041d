/**
 * docs/product.md §4 sound player: one page, one player. The page's own sound (an audio row or a
 * sound widget) is the main track; a resource's sound opened from the toolbar plays as the
 * temporary track over it, in that same player, and closing it gives the main track back. Kept
 * outside React so the resources modal and the page's rows (different trees) share it.
 */
import { useEffect, useId, useSyncExternalStore } from 'react';
import type { SoundTrack } from './sound-tracks';

interface PageSound {
  /** Main players mounted on the page, in mounting order: the first one takes a temporary track. */
  mains: readonly string[];
  temporary: SoundTrack | null;
}

let state: PageSound = { mains: [], temporary: null };
const listeners = new Set<() => void>();

function set(next: PageSound): void {
  state = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the page shows a main player (a resource's sound then plays in it). */
export function hasMainPlayer(): boolean {
  return state.mains.length > 0;
}

/** True when the page shows a main player that can take `track` over; it then plays there. */
export function playOverMain(track: SoundTrack): boolean {
  if (state.mains.length === 0) return false;
  set({ ...state, temporary: track });
  return true;
}

export function closeTemporary(): void {
  if (state.temporary !== null) set({ ...state, temporary: null });
}

/**
 * For a main player: registers it while mounted and returns the temporary track it must play
 * (null unless it is the page's first main player and a resource's sound is open).
 */
export function usePageTemporary(isMain: boolean): SoundTrack | null {
  const id = useId();
  useEffect(() => {
    if (!isMain) return;
    set({ ...state, mains: [...state.mains, id] });
    return () => {
      const mains = state.mains.filter((m) => m !== id);
      // The page's last player gone (another page): a temporary track has nothing to play over.
      set({ mains, temporary: mains.length ? state.temporary : null });
    };
  }, [id, isMain]);
  const snapshot = useSyncExternalStore(subscribe, () => state);
  return isMain && snapshot.mains[0] === id ? snapshot.temporary : null;
}

/** Tests: back to no player and no temporary track. */
export function resetPageSound(): void {
  set({ mains: [], temporary: null });
}

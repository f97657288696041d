/** docs/product.md §4 sound player tracks: a main track and a temporary one that, closed, gives the main back. */

export interface SoundTrack {
  /** The URL the API gave for the file (signed for the learner). */
  src: string;
  name: string;
}

export interface SoundTracks {
  main: SoundTrack | null;
  temporary: SoundTrack | null;
}

export type SoundTracksAction =
  | { type: 'setMain'; track: SoundTrack | null }
  | { type: 'playTemporary'; track: SoundTrack }
  | { type: 'closeTemporary' };

export function soundTracksReducer(state: SoundTracks, action: SoundTracksAction): SoundTracks {
  switch (action.type) {
    case 'setMain':
      return { ...state, main: action.track };
    case 'playTemporary':
      return { ...state, temporary: action.track };
    case 'closeTemporary':
      return { ...state, temporary: null };
  }
}

/** What the player plays: the temporary track over the main one. */
export function activeTrack(state: SoundTracks): SoundTrack | null {
  return state.temporary ?? state.main;
}

import { describe, expect, it } from 'vitest';
import { activeTrack, soundTracksReducer, type SoundTracks, type SoundTracksAction } from './sound-tracks';

const main = { src: '/main.mp3', name: 'main' };
const extra = { src: '/extra.mp3', name: 'extra' };
const other = { src: '/other.mp3', name: 'other' };

describe('sound tracks (SPEC §4: closing the temporary returns to main)', () => {
  it.each<[string, SoundTracksAction[], string | null]>([
    ['main only', [{ type: 'setMain', track: main }], 'main'],
    [
      'temporary over main',
      [
        { type: 'setMain', track: main },
        { type: 'playTemporary', track: extra },
      ],
      'extra',
    ],
    [
      'closing the temporary gives the main back',
      [{ type: 'setMain', track: main }, { type: 'playTemporary', track: extra }, { type: 'closeTemporary' }],
      'main',
    ],
    [
      'a second temporary replaces the first',
      [
        { type: 'setMain', track: main },
        { type: 'playTemporary', track: extra },
        { type: 'playTemporary', track: other },
      ],
      'other',
    ],
    [
      'a temporary without main, closed: nothing',
      [{ type: 'playTemporary', track: extra }, { type: 'closeTemporary' }],
      null,
    ],
    [
      'changing the main keeps the temporary on top',
      [
        { type: 'playTemporary', track: extra },
        { type: 'setMain', track: main },
      ],
      'extra',
    ],
  ])('%s', (_label, actions, expected) => {
    const state = actions.reduce<SoundTracks>(soundTracksReducer, { main: null, temporary: null });
    expect(activeTrack(state)?.name ?? null).toBe(expected);
  });
});

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useReducer } from 'react';
import { SoundPlayer } from './SoundPlayer';
import { activeTrack, soundTracksReducer } from './sound-tracks';

// jsdom plays nothing: play/pause flip a flag and send the events a browser sends.
const paused = new WeakMap<HTMLMediaElement, boolean>();
let refuseAutoplay = false;
beforeEach(() => {
  refuseAutoplay = false;
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (refuseAutoplay) return Promise.reject(new DOMException('needs a gesture', 'NotAllowedError'));
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});

const audioOf = (container: HTMLElement) => container.querySelector('audio')!;

function withDuration(audio: HTMLAudioElement, seconds: number) {
  Object.defineProperty(audio, 'duration', { configurable: true, value: seconds });
  fireEvent.loadedMetadata(audio);
}

describe('SoundPlayer (SPEC §4, §9)', () => {
  it('toggles play and pause, its label saying what a press does', async () => {
    const user = userEvent.setup();
    const { container } = render(<SoundPlayer main={{ src: '/a.mp3', name: 'consigne.mp3' }} />);
    await user.click(screen.getByRole('button', { name: 'Play consigne.mp3' }));
    expect(audioOf(container).paused).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Pause consigne.mp3' }));
    expect(audioOf(container).paused).toBe(true);
    expect(screen.getByRole('button', { name: 'Play consigne.mp3' })).toBeInTheDocument();
  });

  it('cycles the volume 1 → 0.125 → 0.45 → 1 and announces it', async () => {
    const user = userEvent.setup();
    const { container } = render(<SoundPlayer main={{ src: '/a.mp3', name: 'a' }} />);
    const audio = audioOf(container);
    const seen: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await user.click(screen.getByRole('button', { name: /^Volume/ }));
      seen.push(audio.volume);
    }
    expect(seen).toEqual([0.125, 0.45, 1]);
    expect(screen.getByText('Volume 100 %', { selector: '[aria-live]' })).toBeInTheDocument();
  });

  it('seeks with the slider, ignoring moves under 0.5 s', () => {
    const { container } = render(<SoundPlayer main={{ src: '/a.mp3', name: 'a' }} />);
    const audio = audioOf(container);
    withDuration(audio, 60);
    const slider = screen.getByRole('slider', { name: 'Position in the sound' });
    // The input event is what a browser fires as the thumb moves (onChange listens to it).
    fireEvent.input(slider, { target: { value: '0.3' } });
    expect(audio.currentTime).toBe(0);
    fireEvent.input(slider, { target: { value: '12' } });
    expect(audio.currentTime).toBe(12);
    fireEvent.input(slider, { target: { value: '12.4' } });
    expect(audio.currentTime).toBe(12);
    expect(slider).toHaveAttribute('aria-valuetext', '0:12 of 1:00');
  });

  it('stops at the end of the track, back at its start', async () => {
    const user = userEvent.setup();
    const { container } = render(<SoundPlayer main={{ src: '/a.mp3', name: 'a' }} />);
    const audio = audioOf(container);
    withDuration(audio, 3);
    await user.click(screen.getByRole('button', { name: 'Play a' }));
    audio.currentTime = 3;
    fireEvent.ended(audio);
    expect(audio.paused).toBe(true);
    expect(audio.currentTime).toBe(0);
    expect(screen.getByRole('button', { name: 'Play a' })).toBeInTheDocument();
  });

  it('plays a temporary track over the main one; closing it returns to the main track', async () => {
    const user = userEvent.setup();
    function Harness() {
      const [state, dispatch] = useReducer(soundTracksReducer, {
        main: { src: '/main.mp3', name: 'main' },
        temporary: null,
      });
      return (
        <>
          <button
            type="button"
            onClick={() => dispatch({ type: 'playTemporary', track: { src: '/extra.mp3', name: 'extra' } })}
          >
            extra sound
          </button>
          <span data-testid="active">{activeTrack(state)?.name}</span>
          <SoundPlayer
            main={state.main}
            temporary={state.temporary}
            onCloseTemporary={() => dispatch({ type: 'closeTemporary' })}
          />
        </>
      );
    }
    const { container } = render(<Harness />);
    expect(audioOf(container)).toHaveAttribute('src', '/main.mp3');
    await user.click(screen.getByRole('button', { name: 'extra sound' }));
    expect(audioOf(container)).toHaveAttribute('src', '/extra.mp3');
    // A temporary track is asked for: it plays at once.
    await waitFor(() => expect(audioOf(container).paused).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Back to main' }));
    expect(audioOf(container)).toHaveAttribute('src', '/main.mp3');
    expect(screen.getByTestId('active')).toHaveTextContent('main');
    expect(screen.queryByRole('button', { name: 'Back to main' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play main' })).toBeInTheDocument();
  });

  it('plays a temporary track that is the same file as the main one (found by the sound journey)', async () => {
    const { container, rerender } = render(<SoundPlayer main={{ src: '/same.mp3', name: 'main' }} />);
    const before = audioOf(container);
    expect(before.paused).toBe(true);
    rerender(
      <SoundPlayer
        main={{ src: '/same.mp3', name: 'main' }}
        temporary={{ src: '/same.mp3', name: 'resource' }}
        onCloseTemporary={() => undefined}
      />,
    );
    // The temporary track is a track of its own: it starts from the beginning and plays.
    await waitFor(() => expect(audioOf(container).paused).toBe(false));
    expect(audioOf(container)).not.toBe(before);
  });

  it('autoplays when asked, and keeps the play button when the browser refuses', async () => {
    const first = render(<SoundPlayer main={{ src: '/a.mp3', name: 'a' }} autoPlay />);
    await waitFor(() => expect(audioOf(first.container).paused).toBe(false));
    expect(screen.getByRole('button', { name: 'Pause a' })).toBeInTheDocument();
    first.unmount();
    refuseAutoplay = true;
    const second = render(<SoundPlayer main={{ src: '/b.mp3', name: 'b' }} autoPlay />);
    await waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(2));
    expect(audioOf(second.container).paused).toBe(true);
    expect(screen.getByRole('button', { name: 'Play b' })).toBeInTheDocument();
  });

  it('truncates a long name to 56 characters', () => {
    render(<SoundPlayer main={{ src: '/a.mp3', name: `${'n'.repeat(70)}.mp3` }} />);
    expect(screen.getByRole('button', { name: `Play ${'n'.repeat(55)}…` })).toBeInTheDocument();
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FileViewer } from '../media/FileViewer';
import { resetPageSound } from './page-sound';
import { SoundPlayer } from './SoundPlayer';

// jsdom plays nothing: play resolves, pause does nothing.
beforeEach(() => {
  resetPageSound();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});

const MAIN = { src: '/page.mp3', name: 'consigne.mp3' };
const RESOURCE = { id: 'f1', name: 'rappel.mp3', url: '/rappel.mp3', mimeType: 'audio/mpeg' };

describe('a resource’s sound over the page’s main sound (docs/product.md §4)', () => {
  it('plays as the temporary track in the page’s player; closing it gives the main track back', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const { rerender } = render(<SoundPlayer main={MAIN} />);
    expect(screen.getByRole('group', { name: /consigne\.mp3/ })).toBeInTheDocument();
    // The resources modal opens the resource's sound.
    rerender(
      <>
        <SoundPlayer main={MAIN} />
        <FileViewer file={RESOURCE} onClose={onClose} />
      </>,
    );
    expect(await screen.findByText(/is playing in the page’s sound player/)).toBeInTheDocument();
    // One player on the page, now playing the resource's sound, offering the way back.
    expect(document.querySelectorAll('audio')).toHaveLength(1);
    expect(document.querySelector('audio')).toHaveAttribute('src', '/rappel.mp3');
    await user.click(screen.getByRole('button', { name: 'Back to consigne.mp3' }));
    expect(document.querySelector('audio')).toHaveAttribute('src', '/page.mp3');
    expect(screen.queryByRole('button', { name: 'Back to consigne.mp3' })).not.toBeInTheDocument();
  });

  it('plays in a player of its own on a page without a sound', async () => {
    render(<FileViewer file={RESOURCE} onClose={() => undefined} />);
    expect(document.querySelector('audio')).toHaveAttribute('src', '/rappel.mp3');
    expect(screen.getByRole('button', { name: 'Close rappel.mp3' })).toBeInTheDocument();
  });
});

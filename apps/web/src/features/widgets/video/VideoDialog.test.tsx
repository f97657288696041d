import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VideoButton } from './VideoButton';

describe('video player dialog (SPEC §2, §5)', () => {
  it('opens on its button and embeds a watch link, then closes', async () => {
    const user = userEvent.setup();
    render(
      <VideoButton
        title=""
        source={{ kind: 'external', url: 'https://www.youtube.com/watch?v=jNQXAC9IVRw' }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Watch the video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Video' });
    expect(dialog.querySelector('iframe')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/jNQXAC9IVRw',
    );
    await user.click(screen.getByRole('button', { name: 'Close the video' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('embeds nothing for a link that is not a watch or short form: a plain link instead', async () => {
    const user = userEvent.setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(
      <VideoButton
        title="Intro"
        source={{ kind: 'external', url: 'https://www.youtube.com/embed/jNQXAC9IVRw' }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Watch the video: Intro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Intro' });
    expect(dialog.querySelector('iframe')).toBeNull();
    expect(screen.getByRole('link', { name: /Intro/ })).toHaveAttribute(
      'href',
      'https://www.youtube.com/embed/jNQXAC9IVRw',
    );
    warn.mockRestore();
  });

  it('plays a stored video of a supported type with the browser controls', async () => {
    const user = userEvent.setup();
    render(
      <VideoButton
        title="Démo"
        source={{ kind: 'file', url: '/api/files/v1/download?sig=s', mimeType: 'video/mp4' }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Watch the video: Démo' }));
    const video = (await screen.findByRole('dialog', { name: 'Démo' })).querySelector('video')!;
    expect(video).toHaveAttribute('controls');
    expect(video.querySelector('source')).toHaveAttribute('src', '/api/files/v1/download?sig=s');
    expect(video.querySelector('source')).toHaveAttribute('type', 'video/mp4');
  });
});

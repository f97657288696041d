import type { PublicRowView } from '@parcours/domain/entities';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WidgetsRow } from './WidgetsRow';

describe('WidgetsRow video widget (SPEC §1, §2, §5)', () => {
  it.each([
    [
      'a stored video plays in the dialog from its signed URL',
      {
        kind: 'video',
        appFile: { id: 'v1', name: 'evacuation.webm', url: '/signed/v1', type: 'video/webm' },
      },
      'video',
      '/signed/v1',
    ],
    [
      'a watch link is embedded in the dialog',
      { kind: 'video', url: 'https://www.youtube.com/watch?v=abcdef12345' },
      'iframe',
      'https://www.youtube-nocookie.com/embed/abcdef12345',
    ],
  ])('%s', async (_case, widget, element, src) => {
    const user = userEvent.setup();
    const row = { type: 'widgets', widgets: [widget] } as unknown as PublicRowView;
    render(<WidgetsRow row={row} />);
    await user.click(screen.getByRole('button', { name: 'Watch the video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Video' });
    const media = dialog.querySelector(element)!;
    expect(media.getAttribute('src') ?? media.querySelector('source')?.getAttribute('src')).toBe(src);
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InteractiveImageView } from '@parcours/domain/entities';
import { InteractiveImage } from './InteractiveImage';

const image: InteractiveImageView = {
  appFile: { id: 'f1', url: '/api/files/f1/download' },
  alt: 'The workshop',
  viewBox: '0 0 808 500',
  spots: [
    {
      shape: 'rectangle',
      x: 552,
      y: 190,
      width: 60,
      height: 115,
      label: 'Fire extinguisher',
      html: '<p>On the wall.</p>',
    },
    { shape: 'circle', cx: 100, cy: 100, r: 30, label: 'Exit sign', html: '<p>Follow the green signs.</p>' },
    { shape: 'polygon', points: '0,0 10,0 10,10', label: 'Door', html: '<p>Way out.</p>' },
  ],
};

describe('InteractiveImage (decision 0052)', () => {
  it('draws the picture named by its text, with a button per spot; choosing one shows its text', async () => {
    const user = userEvent.setup();
    render(<InteractiveImage image={image} idPrefix="ii" />);
    expect(screen.getByRole('group', { name: 'The workshop' })).toHaveAttribute('viewBox', '0 0 808 500');
    expect(screen.getByText('3 spots to explore on this picture.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Exit sign' }));
    expect(screen.getByRole('button', { name: 'Exit sign' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Follow the green signs.')).toBeInTheDocument();
    expect(screen.queryByText('On the wall.')).not.toBeInTheDocument();
  });

  it('works with the keyboard alone (Tab to a spot, Enter or Space)', async () => {
    const user = userEvent.setup();
    render(<InteractiveImage image={image} idPrefix="ii" />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Fire extinguisher' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('On the wall.')).toBeInTheDocument();
    await user.tab();
    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByText('Way out.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fire extinguisher' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});

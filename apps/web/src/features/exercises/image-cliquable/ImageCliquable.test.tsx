import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { ImageCliquable } from './ImageCliquable';

const row = {
  type: 'image-cliquable' as const,
  viewBox: '0 0 808 300',
  appFile: { id: 'f1', url: '/api/files/f1/download' },
  choices: [
    { shape: 'circle', cx: 101, cy: 130, r: 88, label: 'Disque A' },
    { shape: 'rectangle', x: 200, y: 10, width: 100, height: 100, label: 'Disque B' },
    { shape: 'polygon', points: '400,10 500,10 450,90', label: 'Disque C' },
  ],
};

describe('image-cliquable', () => {
  it('draws focusable zones named by their label; clicks toggle them', async () => {
    const user = userEvent.setup();
    const view = renderRow(ImageCliquable, row);
    expect(screen.getByRole('group', { name: 'The question' })).toHaveAttribute('viewBox', '0 0 808 300');
    await user.click(screen.getByRole('checkbox', { name: 'Disque C' }));
    await user.click(screen.getByRole('checkbox', { name: 'Disque A' }));
    expect(view.last()).toEqual([0, 2]);
    expect(screen.getByRole('checkbox', { name: 'Disque A' })).toHaveAttribute('aria-checked', 'true');
  });

  it('works with the keyboard alone (Tab to a zone, Space or Enter)', async () => {
    const user = userEvent.setup();
    const view = renderRow(ImageCliquable, row);
    await user.tab();
    await user.tab();
    expect(screen.getByRole('checkbox', { name: 'Disque B' })).toHaveFocus();
    await user.keyboard(' ');
    expect(view.last()).toEqual([1]);
    await user.keyboard('{Enter}');
    expect(view.last()).toEqual([]);
  });

  it('lists the correction of each zone in words', () => {
    renderRow(ImageCliquable, row, {
      value: [0],
      readOnly: true,
      correction: {
        type: 'image-cliquable',
        ratio: 0,
        correct: false,
        detail: { items: ['wrong', 'neutral', 'missing'] },
      },
    });
    expect(screen.getByRole('checkbox', { name: 'Disque A' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Disque A ✗Wrong',
      'Disque C ◎Expected',
    ]);
    expect(screen.getByText('Wrong')).toBeInTheDocument();
    expect(screen.getByText('Expected')).toBeInTheDocument();
  });
});

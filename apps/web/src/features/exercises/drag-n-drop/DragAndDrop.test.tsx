import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { DragAndDrop } from './DragAndDrop';

const row = {
  type: 'drag-n-drop' as const,
  choices: [{ value: '25 %' }, { value: '50 %' }, { value: '10 %' }],
  targets: [{ value: '1/2' }, { value: '1/4' }],
};

describe('drag-n-drop', () => {
  it('places a label with the keyboard alone through its "Place in" list, and announces it', async () => {
    const user = userEvent.setup();
    const view = renderRow(DragAndDrop, row);
    expect(await screen.findByRole('group', { name: 'The question' })).toBeInTheDocument();
    const place = screen.getByRole('combobox', { name: 'Place “50 %” in' });
    await user.tab();
    await user.tab();
    expect(place).toHaveFocus();
    await user.selectOptions(place, '1/2');
    expect(screen.getByRole('combobox', { name: 'Place “50 %” in' })).toHaveFocus();
    expect(view.last()).toEqual([[1], []]);
    expect(view.announcements.at(-1)).toBe('“50 %” placed in “1/2”');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Place “25 %” in' }), '1/4');
    expect(view.last()).toEqual([[1], [0]]);
    expect(within(screen.getByRole('group', { name: '1/4' })).getByText('25 %')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Place “25 %” in' }), 'Not placed');
    expect(view.last()).toEqual([[1], []]);
  });

  it('places a label by dragging it with a pointer onto a box', async () => {
    const view = renderRow(DragAndDrop, row);
    const target = await screen.findByRole('group', { name: '1/4' });
    const handle = screen.getByText('10 %').closest('.dnd__handle')!;
    const original = document.elementFromPoint;
    document.elementFromPoint = () => target;
    try {
      fireEvent.pointerDown(handle, { button: 0, pointerId: 1, clientX: 0, clientY: 0 });
      fireEvent.pointerMove(handle, { pointerId: 1, clientX: 50, clientY: 80 });
      fireEvent.pointerUp(handle, { pointerId: 1, clientX: 50, clientY: 80 });
    } finally {
      document.elementFromPoint = original;
    }
    expect(view.last()).toEqual([[], [2]]);
  });

  it('shows placed and expected labels in correction mode', async () => {
    renderRow(DragAndDrop, row, {
      value: [[0], []],
      readOnly: true,
      correction: {
        type: 'drag-n-drop',
        ratio: 0,
        correct: false,
        detail: {
          items: [
            { status: 'wrong', placed: 0, expected: 1 },
            { status: 'missing', placed: null, expected: 0 },
            { status: 'neutral', placed: null, expected: null },
          ],
        },
      },
    });
    expect(await screen.findByText('Expected here: 50 %')).toBeInTheDocument();
    expect(screen.getByText('Expected here: 25 %')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Place “25 %” in' })).toBeDisabled();
    expect(screen.getAllByText('Wrong')).toHaveLength(1);
  });

  it('while a retry is open (key withheld): what was placed, right or wrong, nothing of where the rest belongs', async () => {
    renderRow(DragAndDrop, row, {
      value: [[0], []],
      readOnly: true,
      correction: {
        type: 'drag-n-drop',
        ratio: 0,
        correct: false,
        detail: {
          items: [
            { status: 'wrong', placed: 0 },
            { status: 'neutral', placed: null },
            { status: 'neutral', placed: null },
          ],
        },
      },
    });
    expect(await screen.findByText('Wrong')).toBeInTheDocument();
    expect(screen.queryByText(/Expected here/)).not.toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { CombinedChoice } from './CombinedChoice';

const row = {
  type: 'combined-choice' as const,
  choices: [{ value: '6' }, { value: '60' }, { value: '600' }],
};

describe('combined-choice', () => {
  it('is a radio group named by the question; a click picks one index', async () => {
    const user = userEvent.setup();
    const view = renderRow(CombinedChoice, row);
    expect(screen.getByRole('radiogroup', { name: 'The question' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '60' }));
    expect(view.last()).toBe(1);
    await user.click(screen.getByRole('radio', { name: '600' }));
    expect(view.last()).toBe(2);
    expect(screen.getByRole('radio', { name: '60' })).not.toBeChecked();
  });

  it('works with the keyboard alone (Tab in, arrows move and pick)', async () => {
    const user = userEvent.setup();
    const view = renderRow(CombinedChoice, row);
    await user.tab();
    await user.keyboard(' ');
    expect(view.last()).toBe(0);
    await user.keyboard('{ArrowDown}');
    expect(view.last()).toBe(1);
    expect(screen.getByRole('radio', { name: '60' })).toBeChecked();
  });

  it('marks the expected choice in correction mode', () => {
    renderRow(CombinedChoice, row, {
      value: 0,
      readOnly: true,
      correction: {
        type: 'combined-choice',
        ratio: 0,
        correct: false,
        detail: { items: ['wrong', 'missing', 'neutral'] },
      },
    });
    expect(screen.getByRole('radio', { name: /^6.*Wrong/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /60.*Expected/ })).toBeDisabled();
  });
});

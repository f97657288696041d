import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { MultipleChoice } from './MultipleChoice';

const row = {
  type: 'multiple-choice' as const,
  choices: [{ value: '2/4' }, { value: '<em>3/6</em>' }, { value: '2/3' }],
};

describe('multiple-choice', () => {
  it('is a checkbox group named by the question; clicks tick and untick', async () => {
    const user = userEvent.setup();
    const view = renderRow(MultipleChoice, row);
    expect(screen.getByRole('group', { name: 'The question' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: '3/6' }));
    await user.click(screen.getByRole('checkbox', { name: '2/4' }));
    expect(view.last()).toEqual([0, 1]);
    await user.click(screen.getByRole('checkbox', { name: '3/6' }));
    expect(view.last()).toEqual([0]);
    expect(screen.getByRole('checkbox', { name: '2/4' })).toBeChecked();
  });

  it('works with the keyboard alone (Tab, Space)', async () => {
    const user = userEvent.setup();
    const view = renderRow(MultipleChoice, row);
    await user.tab();
    await user.keyboard(' ');
    await user.tab();
    await user.tab();
    await user.keyboard(' ');
    expect(view.last()).toEqual([0, 2]);
  });

  it('shows the correction with icons and words, not colour alone', () => {
    renderRow(MultipleChoice, row, {
      value: [0, 2],
      readOnly: true,
      correction: {
        type: 'multiple-choice',
        ratio: 0,
        correct: false,
        detail: { items: ['correct', 'missing', 'wrong'] },
      },
    });
    expect(screen.getByRole('checkbox', { name: /2\/4.*Right/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /3\/6.*Expected/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /2\/3.*Wrong/ })).toBeChecked();
  });
});

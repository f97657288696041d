import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { FreeAnswer } from './FreeAnswer';

describe('free-answer', () => {
  it('is a text field named by the question; typing gives the answer', async () => {
    const user = userEvent.setup();
    const view = renderRow(FreeAnswer, {
      type: 'free-answer',
      placeholder: 'Prix en euros',
      inputMode: 'decimal',
    });
    const field = screen.getByRole('textbox', { name: 'The question Your answer' });
    expect(field).toHaveAttribute('inputmode', 'decimal');
    expect(field).toHaveAttribute('placeholder', 'Prix en euros');
    await user.tab();
    expect(field).toHaveFocus();
    await user.keyboard('60 €');
    expect(view.last()).toBe('60 €');
  });

  it('opens the text keyboard on text rows', () => {
    renderRow(FreeAnswer, { type: 'free-answer', inputMode: 'text' });
    expect(screen.getByRole('textbox')).toHaveAttribute('inputmode', 'text');
  });

  it('shows the expected answer in correction mode', () => {
    renderRow(
      FreeAnswer,
      { type: 'free-answer' },
      {
        value: '55',
        readOnly: true,
        correction: {
          type: 'free-answer',
          ratio: 0,
          correct: false,
          detail: { kind: 'number', value: 60, tolerance: 0.01, read: 55 },
        },
      },
    );
    expect(screen.getByRole('textbox')).toHaveAttribute('readonly');
    expect(screen.getByText('Wrong')).toBeInTheDocument();
    expect(screen.getByText('Expected answer: 60 (± 0.01)')).toBeInTheDocument();
  });

  it('while a retry is open (key withheld): right or wrong, no expected answer', () => {
    renderRow(
      FreeAnswer,
      { type: 'free-answer' },
      {
        value: '55',
        readOnly: true,
        correction: { type: 'free-answer', ratio: 0, correct: false, detail: { kind: 'number', read: 55 } },
      },
    );
    expect(screen.getByText('Wrong')).toBeInTheDocument();
    expect(screen.queryByText(/Expected answer/)).not.toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRow } from '../test-row';
import { PickWords } from './PickWords';
import { tokenize } from './tokenize';

const row = {
  type: 'pick-words' as const,
  text: "Satisfaire ses clients, payer l'entreprise.",
  words: ['Satisfaire', 'ses', 'clients', 'payer', "l'entreprise"],
};

describe('pick-words', () => {
  it('splits the text like the importer does', () => {
    expect(
      tokenize(row.text)
        .filter((s) => s.kind === 'word')
        .map((s) => s.text),
    ).toEqual(row.words);
  });

  it('makes each word a toggle button; clicks give positions', async () => {
    const user = userEvent.setup();
    const view = renderRow(PickWords, row);
    await user.click(screen.getByRole('button', { name: 'clients' }));
    await user.click(screen.getByRole('button', { name: 'Satisfaire' }));
    expect(view.last()).toEqual([0, 2]);
    expect(screen.getByRole('button', { name: 'clients' })).toHaveAttribute('aria-pressed', 'true');
    expect(view.announcements.at(-1)).toBe('“Satisfaire” selected, 2 words selected');
  });

  it('works with the keyboard alone: one Tab stop, arrows move, Space toggles', async () => {
    const user = userEvent.setup();
    const view = renderRow(PickWords, row);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Satisfaire' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('button', { name: 'clients' })).toHaveFocus();
    await user.keyboard(' ');
    await user.keyboard('{End} ');
    expect(view.last()).toEqual([2, 4]);
  });

  it('reads the correction status of each word', () => {
    renderRow(PickWords, row, {
      value: [1],
      readOnly: true,
      correction: {
        type: 'pick-words',
        ratio: 0,
        correct: false,
        detail: { items: ['neutral', 'wrong', 'missing', 'neutral', 'neutral'] },
      },
    });
    expect(screen.getByRole('button', { name: /^ses\s*\(Wrong\)$/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: /^clients\s*\(Expected\)$/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GlossaryText } from './GlossaryText';

const terms = [{ id: 't1', title: 'Asset', words: ['asset'], definition: '<p>What the firm owns.</p>' }];

describe('GlossaryText', () => {
  // The popover is a lazy chunk since issue 11: it must still open, close and give focus back.
  it('opens a term’s definition, closes it with Escape and returns focus to the term', async () => {
    render(<GlossaryText html="<p>An asset is listed.</p>" terms={terms} />);
    const term = screen.getByRole('button', { name: /asset/i });
    await userEvent.click(term);
    expect(await screen.findByRole('dialog', { name: 'Asset' })).toHaveTextContent('What the firm owns.');
    expect(term).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(term).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(term).toHaveFocus());
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Wysiwyg } from './Wysiwyg';

const terms = [
  { id: 't1', title: 'Numerator', words: ['numerator'], definition: '<p>The number on top.</p>' },
];

function renderRow(html: string) {
  render(
    <Wysiwyg
      row={{ type: 'wysiwyg', html }}
      rowIndex={0}
      idPrefix="p"
      labelledBy="x"
      value={null}
      onChange={() => undefined}
      readOnly={false}
      correction={null}
      announce={() => undefined}
      terms={terms}
    />,
  );
}

describe('wysiwyg content row', () => {
  it('marks the glossary terms of the block, as the statement does, and opens their definition', async () => {
    renderRow('<p>The numerator counts the parts.</p><script>alert(1)</script>');
    const term = screen.getByRole('button', { name: /numerator/i });
    expect(term).toHaveAttribute('aria-haspopup', 'dialog');
    await userEvent.click(term);
    expect(await screen.findByRole('dialog', { name: 'Numerator' })).toHaveTextContent('The number on top.');
    expect(document.querySelector('script')).toBeNull();
  });
});

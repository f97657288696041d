import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentsDialogProps } from '../row-props';
import { renderRow } from '../test-row';
import { MediasByMail } from './MediasByMail';

const row = {
  type: 'medias-by-mail' as const,
  title: 'Consignes',
  appFiles: [
    { id: 'f1', name: 'consignes.pdf', type: 'application/pdf' },
    { id: 'f2', name: 'plan.png' },
  ],
};

/** Stands in for features/contact's dialog: shows what it was given. */
function FakeDialog({ isOpen, files, title }: DocumentsDialogProps) {
  if (!isOpen) return null;
  return (
    <div role="dialog" aria-label={title}>
      {files.map((f) => (
        <span key={f.id}>{`${f.id}|${f.name}|${f.type}`}</span>
      ))}
    </div>
  );
}

describe('medias-by-mail', () => {
  it('lists every document as a download, and offers no sending without a dialog', () => {
    renderRow(MediasByMail, row);
    const list = screen.getByRole('list', { name: 'Documents' });
    expect(list.querySelectorAll('a[download]')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Receive by e-mail' })).not.toBeInTheDocument();
  });

  it('opens the documentation dialog with the row files, from the keyboard too', async () => {
    const user = userEvent.setup();
    renderRow(MediasByMail, row, { DocumentsDialog: FakeDialog });
    const button = screen.getByRole('button', { name: 'Receive by e-mail' });
    button.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Consignes' });
    expect(dialog).toHaveTextContent('f1|consignes.pdf|application/pdf');
    // A file without a type is still offered; the dialog shows a generic label for it.
    expect(dialog).toHaveTextContent('f2|plan.png|');
  });
});

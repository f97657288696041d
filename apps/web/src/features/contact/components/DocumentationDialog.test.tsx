import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { changeLanguage } from '../../../lib/i18n';
import { mockApi } from '../../../test/api-mock';
import { DocumentationDialog, type DocumentationFile } from './DocumentationDialog';

const FILES: DocumentationFile[] = [
  { id: 'f-1', name: 'Schéma du poste de travail.png', type: 'image/png' },
  { id: 'f-2', name: `Fiche sécurité ${'très '.repeat(12)}longue.pdf`, type: 'application/pdf' },
];

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <QueryClientProvider client={new QueryClient()}>
      <DocumentationDialog isOpen={open} onOpenChange={setOpen} files={FILES} />
      {open ? null : <p>closed</p>}
    </QueryClientProvider>
  );
}

describe('receive documentation by e-mail', () => {
  beforeEach(() => changeLanguage('fr'));

  it('previews the files, needs at least one, then sends the ticked ones', async () => {
    const fetchMock = mockApi({ 'POST users/contact': { status: 204 } });
    const { container } = render(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Recevoir la documentation par e-mail' });
    const image = container.ownerDocument.querySelector('.doc-file__preview img');
    expect(image).toHaveAttribute('src', '/api/files/f-1/download');
    // SPEC §9: names shortened to 56 characters, the full name kept as a tooltip.
    const longName = screen.getByTitle(FILES[1]!.name);
    expect(longName.textContent).toHaveLength(56);

    await userEvent.click(screen.getByRole('checkbox', { name: /Schéma du poste/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Fiche sécurité/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Recevoir par e-mail' }));
    expect(
      await screen.findByText('Des données sont manquantes pour satisfaire votre requète'),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('checkbox', { name: /Fiche sécurité/ }));
    await userEvent.type(screen.getByLabelText('Message (facultatif)'), 'Merci');
    await userEvent.click(screen.getByRole('button', { name: 'Recevoir par e-mail' }));
    expect(await screen.findByText('Les documents vous ont été envoyés par e-mail.')).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({
      fileIds: ['f-2'],
      message: 'Merci',
    });
    expect(dialog).toBeInTheDocument();
    expect(await screen.findByText('closed', {}, { timeout: 3_000 })).toBeInTheDocument();
  }, 15_000);

  it("shows the code's title when the server refuses", async () => {
    mockApi({
      'POST users/contact': { status: 403, body: { errors: [{ status: '403', code: 'Forbidden' }] } },
    });
    render(<Harness />);
    await screen.findByRole('dialog');
    await userEvent.click(screen.getByRole('button', { name: 'Recevoir par e-mail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Accès refusé');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { ATTACHMENT_MAX_BYTES } from '@parcours/domain/logbook';
import { changeLanguage } from '../../../lib/i18n';
import { setSessionUser } from '../../../lib/session';
import { calledUrls, mockApi, type MockHandler } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { LogbookTab } from './LogbookTab';

const ME = 'u-1';

function record(
  id: string,
  title: string,
  userId: string,
  createdAt: string,
  extra: Record<string, unknown> = {},
) {
  return {
    type: 'log-book-records',
    id,
    attributes: {
      title,
      message: `Message ${title}`,
      createdAt,
      lastInputAt: createdAt,
      studentId: ME,
      userId,
      attachmentIds: [],
      parentId: null,
      classId: null,
      companyId: null,
      ...extra,
    },
    relationships: {
      user: { data: { type: 'users', id: userId } },
      attachments: { data: [] as { type: string; id: string }[] },
    },
  };
}

const users = [
  { type: 'users', id: ME, attributes: { displayName: 'Jane Doe', avatarId: null } },
  { type: 'users', id: 'u-teacher', attributes: { displayName: 'Tess Teacher', avatarId: null } },
];

function listDoc(records: ReturnType<typeof record>[], included: unknown[] = users) {
  return { data: records, included, meta: { total: records.length } };
}

const twoNotes = () => {
  const mine = record('n-mine', 'Ma note', ME, '2026-03-01T10:00:00.000Z', { attachmentIds: ['f-1'] });
  mine.relationships.attachments.data = [{ type: 'files', id: 'f-1' }];
  return listDoc(
    [record('n-teacher', 'Note du formateur', 'u-teacher', '2026-03-02T10:00:00.000Z'), mine],
    [
      ...users,
      {
        type: 'files',
        id: 'f-1',
        attributes: {
          name: 'photo.png',
          mimeType: 'image/png',
          fileType: 'image',
          size: 10,
          ownerId: ME,
          download: '/api/files/f-1/download',
          createdAt: '2026-03-01T10:00:00.000Z',
        },
      },
    ],
  );
};

function renderTab(handlers: Record<string, MockHandler>) {
  const fetchMock = mockApi(handlers);
  render(
    // Strict mode as in main.tsx: effects run, are cleaned up and run again.
    <StrictMode>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <LogbookTab />
      </QueryClientProvider>
    </StrictMode>,
  );
  return fetchMock;
}

const user = () => userEvent.setup({ applyAccept: false });

describe('the logbook tab', () => {
  beforeEach(async () => {
    await changeLanguage('fr');
    setSessionUser(me('public', ME), 'token-1');
  });

  it("shows the spec's empty text when there is no note", async () => {
    const fetchMock = renderTab({ 'GET log-book-records': { body: listDoc([]) } });
    expect(await screen.findByText("Aucune note dans le journal pour l'instant")).toBeInTheDocument();
    const url = calledUrls(fetchMock)[0]!;
    expect(url.searchParams.get('filter[studentId]')).toBe('me');
    expect(url.searchParams.get('sort')).toBe('-createdAt');
    expect(url.searchParams.get('include')).toBe('user,attachments');
  });

  it('lists the notes as the server orders them (newest first), with author, message and attachments; edit only on mine', async () => {
    renderTab({ 'GET log-book-records': { body: twoNotes() } });
    const list = await screen.findByRole('list', { name: 'Notes du journal de bord' });
    const notes = within(list).getAllByRole('article');
    expect(notes.map((n) => within(n).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Note du formateur',
      'Ma note',
    ]);
    expect(within(notes[0]!).getByText('Par Tess Teacher,')).toBeInTheDocument();
    expect(within(notes[0]!).queryByRole('button', { name: /Modifier/ })).not.toBeInTheDocument();
    expect(within(notes[1]!).getByText('Message Ma note')).toBeInTheDocument();
    expect(within(notes[1]!).getByRole('link', { name: /Ouvrir photo\.png/ })).toHaveAttribute(
      'href',
      '/api/files/f-1/download',
    );
    expect(within(notes[1]!).getByRole('button', { name: 'Modifier Ma note' })).toBeInTheDocument();
  });

  it('adds a note: the title is required, then the note is sent and the list read again', async () => {
    let posted = false;
    const created = record('n-new', 'Jour 1', ME, '2026-03-03T10:00:00.000Z');
    const fetchMock = renderTab({
      'GET log-book-records': () => ({ body: listDoc(posted ? [created] : []) }),
      'POST log-book-records': () => {
        posted = true;
        return { status: 201, body: { data: created } };
      },
    });
    await screen.findByText("Aucune note dans le journal pour l'instant");
    await user().click(screen.getByRole('button', { name: 'Ajouter une note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter une note' });
    expect(within(dialog).getByLabelText('Titre')).toHaveFocus();
    await user().click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByText('Entrez un titre')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Titre')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user().type(within(dialog).getByLabelText('Titre'), 'Jour 1');
    await user().type(within(dialog).getByLabelText('Message'), 'Visite du site.');
    expect(within(dialog).getByText('15 / 10000 caractères')).toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post![1]!.body))).toEqual({
      title: 'Jour 1',
      message: 'Visite du site.',
      attachmentIds: [],
    });
    expect(await screen.findByRole('heading', { name: 'Jour 1' })).toBeInTheDocument();
  });

  it('edits my note in the same dialog, prefilled, keeping or removing its attachments', async () => {
    const fetchMock = renderTab({
      'GET log-book-records': { body: twoNotes() },
      'PATCH log-book-records/n-mine': {
        body: { data: record('n-mine', 'Ma note revue', ME, '2026-03-01T10:00:00.000Z') },
      },
    });
    await user().click(await screen.findByRole('button', { name: 'Modifier Ma note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier la note' });
    const title = within(dialog).getByLabelText('Titre');
    expect(title).toHaveValue('Ma note');
    expect(within(dialog).getByLabelText('Message')).toHaveValue('Message Ma note');
    await user().clear(title);
    await user().type(title, 'Ma note revue');
    await user().click(within(dialog).getByRole('button', { name: 'Retirer photo.png' }));
    await user().click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    // docs/product.md §5 outgoing records: an update sends only what changed (not the message).
    expect(JSON.parse(String(patch![1]!.body))).toEqual({
      title: 'Ma note revue',
      attachmentIds: [],
    });
  });

  it('checks each chosen file: wrong type and too large are refused one by one, a good one is uploaded and attached', async () => {
    const fetchMock = renderTab({
      'GET log-book-records': { body: listDoc([]) },
      'POST files': (_url, init) => {
        expect(init?.body).toBeInstanceOf(FormData);
        // As fetch does: an aborted upload never answers.
        if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return {
          status: 201,
          body: {
            data: {
              type: 'files',
              id: 'f-new',
              attributes: {
                name: 'plan.png',
                mimeType: 'image/png',
                fileType: 'image',
                size: 4,
                ownerId: ME,
                download: '/api/files/f-new/download',
                createdAt: '2026-03-03T10:00:00.000Z',
              },
            },
          },
        };
      },
      'POST log-book-records': {
        status: 201,
        body: { data: record('n-new', 'Avec plan', ME, '2026-03-03T10:00:00.000Z') },
      },
    });
    await user().click(await screen.findByRole('button', { name: 'Ajouter une note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter une note' });
    expect(
      within(dialog).getByText(/Images \(JPEG, PNG, GIF\) ou PDF, 5 Mo maximum par fichier/),
    ).toBeInTheDocument();
    const big = new File(['%PDF-'], 'gros.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    await user().upload(within(dialog).getByLabelText('Ajouter des fichiers'), [
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      big,
      new File(['\x89PNG'], 'plan.png', { type: 'image/png' }),
    ]);
    const items = within(dialog).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('notes.txt');
    expect(items[0]).toHaveTextContent('Type de fichier refusé : images JPEG, PNG, GIF ou PDF uniquement');
    expect(items[1]).toHaveTextContent('Fichier trop lourd : 5 Mo maximum');
    expect(await within(dialog).findByText('Envoyé')).toBeInTheDocument();
    expect(calledUrls(fetchMock).filter((u) => u.pathname === '/api/files')).toHaveLength(1);

    await user().type(within(dialog).getByLabelText('Titre'), 'Avec plan');
    await user().click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = fetchMock.mock.calls.find(
      ([input, init]) => String(input).includes('log-book-records') && init?.method === 'POST',
    );
    expect(JSON.parse(String(post![1]!.body)).attachmentIds).toEqual(['f-new']);
  });

  it("shows the server's message when it refuses an uploaded file's bytes", async () => {
    renderTab({
      'GET log-book-records': { body: listDoc([]) },
      'POST files': {
        status: 400,
        body: {
          errors: [
            {
              status: '400',
              code: 'TYPE_ERROR',
              title: 'x',
              detail: 'logbook.validation.fileType',
              source: { pointer: '/file' },
            },
          ],
        },
      },
    });
    await user().click(await screen.findByRole('button', { name: 'Ajouter une note' }));
    const dialog = await screen.findByRole('dialog');
    await user().upload(
      within(dialog).getByLabelText('Ajouter des fichiers'),
      new File(['<html>'], 'faux.png', { type: 'image/png' }),
    );
    expect(
      await within(dialog).findByText('Type de fichier refusé : images JPEG, PNG, GIF ou PDF uniquement'),
    ).toBeInTheDocument();
  });

  it('shows the quota the server names when it refuses an upload or a note (issue 29)', async () => {
    const refusal = (status: number, detail: string) => ({
      status,
      body: { errors: [{ status: String(status), code: 'TOO_MANY_REQUESTS', title: 'x', detail }] },
    });
    renderTab({
      'GET log-book-records': { body: listDoc([]) },
      'POST files': refusal(429, 'quota.uploadBytesPerDay'),
      'POST log-book-records': refusal(429, 'quota.notesPerDay'),
    });
    await user().click(await screen.findByRole('button', { name: 'Ajouter une note' }));
    const dialog = await screen.findByRole('dialog');
    await user().upload(
      within(dialog).getByLabelText('Ajouter des fichiers'),
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' }),
    );
    expect(
      await within(dialog).findByText(
        "Vous avez envoyé beaucoup de fichiers aujourd'hui : réessayez demain.",
      ),
    ).toBeInTheDocument();
    await user().type(within(dialog).getByLabelText('Titre'), 'Encore une');
    await user().click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(
      await within(dialog).findByText("Vous avez écrit beaucoup de notes aujourd'hui : réessayez demain."),
    ).toBeInTheDocument();
  });

  it('prints with the browser', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderTab({ 'GET log-book-records': { body: twoNotes() } });
    await screen.findByRole('list', { name: 'Notes du journal de bord' });
    await user().click(screen.getByRole('button', { name: 'Imprimer' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('reads in English too', async () => {
    await changeLanguage('en');
    renderTab({ 'GET log-book-records': { body: listDoc([]) } });
    expect(await screen.findByText('No notes in the logbook yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a note' })).toBeInTheDocument();
  });
});

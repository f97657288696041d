import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../../lib/i18n';
import { mockApi } from '../../../test/api-mock';
import { ContactTeacherAction } from './ContactTeacherAction';

function renderAction() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ContactTeacherAction classId="c-1" className="Promo printemps" />
    </QueryClientProvider>,
  );
}

const openDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Contacter les formateurs Promo printemps' }));
  return screen.findByRole('dialog', { name: 'Contacter les formateurs' });
};

describe('contact the teachers of a class', () => {
  beforeEach(() => changeLanguage('fr'));

  it('asks for the message when the field is left empty, and sends nothing', async () => {
    const fetchMock = mockApi({});
    renderAction();
    await openDialog();
    expect(screen.getByLabelText('Objet')).toHaveFocus();
    await userEvent.click(screen.getByLabelText('Message'));
    await userEvent.tab();
    expect(await screen.findByText('Entrez un message')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends object and message, says 'Message envoyé' and closes after 1.5 s", async () => {
    const fetchMock = mockApi({ 'POST users/contact': { status: 204 } });
    renderAction();
    await openDialog();
    await userEvent.type(screen.getByLabelText('Objet'), 'Question');
    await userEvent.type(screen.getByLabelText('Message'), 'Bonjour, une question sur le module 2.');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
      expect(await screen.findByText('Message envoyé')).toBeInTheDocument();
      expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({
        classId: 'c-1',
        subject: 'Question',
        message: 'Bonjour, une question sur le module 2.',
      });
      act(() => vi.advanceTimersByTime(1_400));
      expect(screen.getByRole('dialog')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(200));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the error code's title, and the missing-data message", async () => {
    mockApi({
      'POST users/contact': {
        status: 400,
        body: {
          errors: [
            {
              status: '400',
              code: 'VALIDATION_ERROR',
              detail: 'validation.contact.missingData',
              source: { pointer: '/classId' },
            },
          ],
        },
      },
    });
    renderAction();
    await openDialog();
    await userEvent.type(screen.getByLabelText('Message'), 'Bonjour');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Données invalides');
    expect(alert).toHaveTextContent('Des données sont manquantes pour satisfaire votre requète');
  });

  it('an unidentified failure shows UNDEFINED', async () => {
    mockApi({ 'POST users/contact': { status: 500, body: {} } });
    renderAction();
    await openDialog();
    await userEvent.type(screen.getByLabelText('Message'), 'Bonjour');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Une erreur est survenue');
  });
});

import type { MeResponse } from '@parcours/domain/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { getSession, setSessionUser } from '../../../lib/session';
import { getToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { me, withTenant } from '../../../test/fixtures';
import { ProfilePage } from './ProfilePage';

function renderProfile(user: MeResponse = me()) {
  setSessionUser(user, 'jwt-1');
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ProfilePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const bodyOf = (fetchMock: ReturnType<typeof mockApi>, index = 0) =>
  JSON.parse(String(fetchMock.mock.calls[index]![1]?.body)) as Record<string, unknown>;

const saved = (changes: Partial<MeResponse['profile']> = {}, token?: string) => {
  const user = me();
  return {
    body: { ...user, profile: { ...user.profile, ...changes }, ...(token ? { access_token: token } : {}) },
  };
};

describe('the profile form (/me)', () => {
  beforeEach(() => changeLanguage('fr'));

  it('shows the fields the tenant allows and locks a set e-mail', () => {
    withTenant({
      profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } },
    });
    renderProfile();
    expect(screen.getByLabelText('Nom')).toHaveValue('Doe');
    expect(screen.getByLabelText('Prénom')).toHaveValue('Jane');
    expect(screen.getByLabelText('E-mail')).toBeDisabled();
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Votre e-mail ne peut plus être modifié.',
    );
    expect(screen.queryByLabelText('Pseudonyme')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Date de naissance')).not.toBeInTheDocument();
  });

  it('shows every SPEC §5 message', async () => {
    withTenant({
      invitationCodes: { enabled: true, simplePassword: false },
      requiredDatas: true,
      profile: { fields: { firstname: true, lastname: true, email: true, username: true, birthday: true } },
    });
    const fetchMock = mockApi({});
    renderProfile({ ...me(), profile: { ...me().profile, username: null } });
    const save = screen.getByRole('button', { name: 'Enregistrer' });
    await userEvent.clear(screen.getByLabelText('Nom'));
    await userEvent.clear(screen.getByLabelText('Prénom'));
    await userEvent.clear(screen.getByLabelText('E-mail'));
    await userEvent.type(screen.getByLabelText('E-mail'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Changer mon mot de passe' }));
    await userEvent.click(save);
    expect(await screen.findByText('Entrez un nom')).toBeInTheDocument();
    expect(screen.getByText('Entrez un prénom')).toBeInTheDocument();
    expect(screen.getByText('Saisissez un e-mail valide')).toBeInTheDocument();
    expect(screen.getByText('Entrez un pseudonyme')).toBeInTheDocument();
    expect(screen.getByText("Choisissez votre date d'anniversaire")).toBeInTheDocument();
    expect(screen.getByText('Entrez votre nouveau mot de passe pour le changer')).toBeInTheDocument();
    expect(screen.getByLabelText('Nom')).toHaveAccessibleDescription('Entrez un nom');

    await userEvent.type(screen.getByLabelText('Nom'), 'Do');
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'abc');
    await userEvent.click(save);
    expect(await screen.findAllByText('Taille requise entre 3 et 60 caractères')).not.toHaveLength(0);
    expect(screen.getByText('Taille requise entre 6 et 254 caractères')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Nouveau mot de passe'));
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'abcdefgh');
    await userEvent.click(save);
    expect(
      await screen.findByText(
        'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Nouveau mot de passe'));
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'Ab1! xyz');
    await userEvent.click(save);
    expect(await screen.findByText('Les espaces ne sont pas autorisés')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  }, 30_000);

  it('sends only the changed fields, never a password unless the change is opened, then says thanks', async () => {
    withTenant();
    const fetchMock = mockApi({ 'PATCH users/u-1': saved({ firstname: 'Janet', displayName: 'Janet Doe' }) });
    renderProfile();
    await userEvent.clear(screen.getByLabelText('Prénom'));
    await userEvent.type(screen.getByLabelText('Prénom'), ' Janet ');
    await userEvent.type(screen.getByLabelText('Date de naissance'), '1990-05-04');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Merci');
    expect(status).toHaveTextContent('Vos données ont été mises à jour');
    expect(bodyOf(fetchMock)).toEqual({ firstname: 'Janet', birthday: '1990-05-04' });
    expect(getSession().user?.profile.displayName).toBe('Janet Doe');
  });

  it('changes the password with the current one and keeps the new token', async () => {
    withTenant();
    const fetchMock = mockApi({ 'PATCH users/u-1': saved({}, 'jwt-2') });
    renderProfile();
    const open = screen.getByRole('button', { name: 'Changer mon mot de passe' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    const section = screen.getByRole('group', { name: 'Changement de mot de passe' });
    await userEvent.type(within(section).getByLabelText('Mot de passe actuel'), 'Old#2025');
    await userEvent.type(within(section).getByLabelText('Nouveau mot de passe'), 'Nouveau#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Merci');
    expect(bodyOf(fetchMock)).toEqual({ password: 'Nouveau#2026', currentPassword: 'Old#2025' });
    expect(getToken()).toBe('jwt-2');
    // The section closes once saved.
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument();
  });

  it('asks for the current password at its field, and sends nothing, when it is left empty', async () => {
    withTenant();
    const fetchMock = mockApi({ 'PATCH users/u-1': saved({}, 'jwt-2') });
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Changer mon mot de passe' }));
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'Nouveau#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const current = screen.getByLabelText('Mot de passe actuel');
    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Entrez votre mot de passe actuel')).toBeInTheDocument();
    expect(screen.queryByText('Données invalides')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('closing the password change forgets what was typed', async () => {
    withTenant();
    const fetchMock = mockApi({ 'PATCH users/u-1': saved({ lastname: 'Smith' }) });
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Changer mon mot de passe' }));
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'Nouveau#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Ne pas changer le mot de passe' }));
    await userEvent.clear(screen.getByLabelText('Nom'));
    await userEvent.type(screen.getByLabelText('Nom'), 'Smith');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await screen.findByRole('status');
    expect(bodyOf(fetchMock)).toEqual({ lastname: 'Smith' });
  });

  it("shows 'Erreur' with the code's title, and the wrong current password at its field", async () => {
    withTenant();
    mockApi({
      'PATCH users/u-1': {
        status: 422,
        body: {
          errors: [
            { status: '422', code: 'INVALID_PASSWORD', title: 'x', source: { pointer: '/currentPassword' } },
          ],
        },
      },
    });
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Changer mon mot de passe' }));
    await userEvent.type(screen.getByLabelText('Mot de passe actuel'), 'wrong');
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'Nouveau#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Erreur');
    expect(alert).toHaveTextContent('Mot de passe invalide');
    expect(screen.getByLabelText('Mot de passe actuel')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Mot de passe actuel')).toHaveFocus();
  });

  it('an unknown failure reads as UNDEFINED', async () => {
    withTenant();
    mockApi({ 'PATCH users/u-1': { status: 500, body: {} } });
    renderProfile();
    await userEvent.clear(screen.getByLabelText('Nom'));
    await userEvent.type(screen.getByLabelText('Nom'), 'Smith');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Une erreur est survenue');
  });

  it('says when there is nothing to save', async () => {
    withTenant();
    const fetchMock = mockApi({});
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Aucune modification');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

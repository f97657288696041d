import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { getSession } from '../../../lib/session';
import { getStoredContext, getToken, setStoredContext, setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { LoginPage } from './LoginPage';
import { ResetPasswordPage } from './ResetPasswordPage';

function renderReset(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/reset/:token" element={<ResetPasswordPage />} />
        <Route path="/reset" element={<ResetPasswordPage />} />
        <Route path="/login" element={<LoginPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const link = { userId: 'u-1', email: 'jane@example.org', displayName: 'Jane Doe', simplePassword: false };
const failing = (status: number, code: string) => ({
  status,
  body: { errors: [{ status: String(status), code }] },
});

describe('password renewal (/reset)', () => {
  beforeEach(() => changeLanguage('fr'));

  it('checks the link, applies the password rule, sends the trimmed password, logs out and says so', async () => {
    setToken('someone-else');
    setStoredContext('{"ctx":1}');
    const fetchMock = mockApi({ 'users/reset/tok-1': { body: link }, 'POST users/reset': { status: 204 } });
    renderReset('/reset/tok-1');
    expect(
      await screen.findByText('Choisissez un nouveau mot de passe pour le compte jane@example.org.'),
    ).toBeInTheDocument();
    const field = screen.getByLabelText('Nouveau mot de passe');
    const submit = screen.getByRole('button', { name: 'Enregistrer le mot de passe' });

    await userEvent.click(submit);
    expect(await screen.findByText('Entrez votre nouveau mot de passe pour le changer')).toBeInTheDocument();
    await userEvent.type(field, 'abc');
    await userEvent.click(submit);
    expect(await screen.findByText('Taille requise entre 6 et 254 caractères')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'abcdefgh');
    await userEvent.click(submit);
    expect(
      await screen.findByText(
        'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'Ab1!x yz');
    await userEvent.click(submit);
    expect(await screen.findByText('Les espaces ne sont pas autorisés')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(field);
    await userEvent.type(field, '  Nouveau#2026  ');
    await userEvent.click(submit);
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Votre mot de passe a bien été mis à jour ! Vous pouvez désormais vous connecter',
    );
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toEqual({ token: 'tok-1', password: 'Nouveau#2026' });
    // Logout clears everything but the context (SPEC §4).
    expect(getToken()).toBeNull();
    expect(getStoredContext()).toBe('{"ctx":1}');
  }, 20_000);

  it.each([
    [403, 'Forbidden', 'Lien expiré'],
    [401, 'UNAUTHORIZED', 'Lien invalide ou expiré'],
  ])('a link answered %i opens the recover mode with the reason', async (status, code, text) => {
    mockApi({ 'users/reset/old': failing(status, code) });
    renderReset('/reset/old');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mot de passe oublié' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(text);
    expect(getSession().notice).not.toBeNull();
  });

  it('a link used meanwhile is refused at submit time', async () => {
    mockApi({ 'users/reset/tok-2': { body: link }, 'POST users/reset': failing(401, 'UNAUTHORIZED') });
    renderReset('/reset/tok-2');
    await userEvent.type(await screen.findByLabelText('Nouveau mot de passe'), 'Nouveau#2026');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Lien invalide ou expiré');
  });

  it('/reset without a token explains the link is invalid', async () => {
    renderReset('/reset');
    expect(await screen.findByRole('alert')).toHaveTextContent('Lien invalide ou expiré');
  });

  it('a simple-password account only needs 6 characters', async () => {
    mockApi({
      'users/reset/tok-3': { body: { ...link, simplePassword: true } },
      'POST users/reset': { status: 204 },
    });
    renderReset('/reset/tok-3');
    await userEvent.type(await screen.findByLabelText('Nouveau mot de passe'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByText('Taille minimale requise : 6 caractères')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'def');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
  });
});

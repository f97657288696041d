import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { getSession } from '../../../lib/session';
import { getToken, setReturnUrl } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { LoginPage } from './LoginPage';

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<p>home screen</p>} />
        <Route path="/niveaux" element={<p>levels screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const invalidPassword = {
  status: 401,
  body: { errors: [{ status: '401', code: 'INVALID_PASSWORD', title: 'Invalid password' }] },
};

describe('sign-in form', () => {
  it('shows translated inline errors for empty fields and sends nothing', async () => {
    const fetchMock = mockApi({});
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail or username')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    const email = screen.getByLabelText('E-mail or username');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Enter your e-mail or username');
    expect(email).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('toggles the password visibility', async () => {
    renderLogin();
    const password = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it("shows the 'Erreur de connexion' alert with the error's translated text", async () => {
    await changeLanguage('fr');
    mockApi({ 'POST users/login': invalidPassword });
    renderLogin();
    await userEvent.type(screen.getByLabelText('E-mail ou pseudonyme'), 'jane@example.org');
    await userEvent.type(screen.getByLabelText('Mot de passe'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Erreur de connexion');
    expect(alert).toHaveTextContent("L'e-mail, le pseudonyme ou le mot de passe est incorrect.");
    expect(getSession().status).toBe('unauthenticated');
  });

  it('signs in and goes to the saved return URL', async () => {
    setReturnUrl('/niveaux');
    const fetchMock = mockApi({
      'POST users/login': {
        body: { access_token: 'jwt', token_type: 'Bearer', expires_in: 28800, user_id: 'u-1' },
      },
      'users/me': { body: me() },
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText('E-mail or username'), '  jane@example.org ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('levels screen')).toBeInTheDocument();
    expect(getToken()).toBe('jwt');
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'jane@example.org', password: 'secret' });
    expect(calledUrls(fetchMock).map((url) => url.pathname)).toEqual(['/api/users/login', '/api/users/me']);
  });

  it('goes home after sign-in when no return URL was saved', async () => {
    mockApi({
      'POST users/login': {
        body: { access_token: 'jwt', token_type: 'Bearer', expires_in: 28800, user_id: 'u-1' },
      },
      'users/me': { body: me() },
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText('E-mail or username'), 'jane');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByText('home screen')).toBeInTheDocument());
  });
});

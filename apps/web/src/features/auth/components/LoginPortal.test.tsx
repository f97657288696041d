import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { endSession } from '../../../lib/session';
import { getToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { me, withTenant } from '../../../test/fixtures';
import { LoginPage } from './LoginPage';

function renderLogin(entry: string | { pathname: string; search?: string; state?: unknown } = '/login') {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<p>home screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the /login portal', () => {
  it('offers recover and, only when the tenant has invitation codes, register', async () => {
    withTenant({ invitationCodes: { enabled: false, simplePassword: false } });
    const { unmount } = renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/login?mode=recover',
    );
    expect(screen.queryByRole('link', { name: /invitation code/ })).not.toBeInTheDocument();
    unmount();

    withTenant({ invitationCodes: { enabled: true, simplePassword: false } });
    renderLogin('/login?mode=register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Invitation code')).toBeInTheDocument();
  });

  it('falls back to sign-in when register is asked for on a tenant without codes', () => {
    withTenant({ invitationCodes: { enabled: false, simplePassword: false } });
    renderLogin('/login?mode=register');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a recover link and says the same thing whether or not the address is known', async () => {
    await changeLanguage('fr');
    withTenant();
    const fetchMock = mockApi({ 'POST users/recover': { status: 204 } });
    renderLogin('/login?mode=recover');
    const email = await screen.findByLabelText('E-mail');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le lien' }));
    expect(await screen.findByText('Saisissez un e-mail valide')).toBeInTheDocument();
    expect(email).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.type(email, ' jane@example.org ');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le lien' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Vérifiez votre messagerie');
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'jane@example.org' });
  });

  it('registers with an invitation code, shows the server’s code error, then signs in', async () => {
    withTenant({ invitationCodes: { enabled: true, simplePassword: true } });
    let attempts = 0;
    const fetchMock = mockApi({
      'POST users/register': () =>
        ++attempts === 1
          ? {
              status: 422,
              body: {
                errors: [
                  {
                    status: '422',
                    code: 'INVALID_INVITATION_CODE',
                    title: 'x',
                    source: { pointer: '/code' },
                  },
                ],
              },
            }
          : {
              status: 201,
              body: { access_token: 'jwt-new', token_type: 'Bearer', expires_in: 1, user_id: 'u-1' },
            },
      'users/me': { body: me() },
    });
    renderLogin('/login?mode=register');
    await userEvent.click(await screen.findByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('Enter your invitation code')).toBeInTheDocument();
    expect(screen.getByText('Enter a username')).toBeInTheDocument();
    expect(screen.getByText('Enter your new password to change it')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Invitation code'), 'WRONG');
    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    // Simple-password tenant: only the 6-character minimum applies.
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'abcdef');
    await userEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('This code is not available, please check it.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid invitation code');

    await userEvent.clear(screen.getByLabelText('Invitation code'));
    await userEvent.type(screen.getByLabelText('Invitation code'), 'GOOD');
    await userEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('home screen')).toBeInTheDocument();
    expect(getToken()).toBe('jwt-new');
    const body = JSON.parse(String(fetchMock.mock.calls[1]![1]?.body)) as Record<string, unknown>;
    expect(body).toEqual({ code: 'GOOD', username: 'newbie', password: 'abcdef', preferredLocale: 'en' });
  }, 20_000);

  it('says why a registration was refused for too many accounts (issue 36)', async () => {
    withTenant({ invitationCodes: { enabled: true, simplePassword: true } });
    mockApi({
      'POST users/register': {
        status: 429,
        body: {
          errors: [
            { status: '429', code: 'TOO_MANY_REQUESTS', title: 'x', detail: 'quota.registrationsPerCode' },
          ],
        },
      },
    });
    renderLogin('/login?mode=register');
    await userEvent.type(await screen.findByLabelText('Invitation code'), 'SCHOOL');
    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'abcdef');
    await userEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(
      await screen.findByText(
        'Many accounts have just been created with this invitation code: try again in a while.',
      ),
    ).toBeInTheDocument();
  }, 20_000);

  it('shows the SSO link only for a tenant with an OpenID provider', async () => {
    withTenant({ login: { internal: true, oidc: { label: 'Acme ID' } } });
    renderLogin();
    const link = await screen.findByRole('link', { name: 'Sign in with Acme ID' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/ctx-1/login');
    expect(screen.getByLabelText('E-mail or username')).toBeInTheDocument();
  });

  it('shows only SSO when internal login is off', async () => {
    withTenant({ login: { internal: false, oidc: { label: 'Acme ID' } } });
    renderLogin();
    expect(await screen.findByRole('link', { name: 'Sign in with Acme ID' })).toBeInTheDocument();
    expect(screen.queryByLabelText('E-mail or username')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).not.toBeInTheDocument();
  });

  it('says when SSO failed', () => {
    withTenant({ login: { internal: true, oidc: { label: 'Acme ID' } } });
    renderLogin('/login?sso=failed');
    expect(screen.getByRole('alert')).toHaveTextContent('Single sign-on failed');
  });

  it('shows the link errors of SPEC §8 in French', async () => {
    await changeLanguage('fr');
    for (const [notice, text] of [
      ['linkExpired', 'Lien expiré'],
      ['linkInvalid', 'Lien invalide ou expiré'],
      ['reconnect', 'Vous devez vous reconnecter.'],
      [
        'accountMismatch',
        'Erreur lors du chargement de votre compte, veuillez recharger la page et réessayer.',
      ],
    ] as const) {
      endSession(notice);
      const { unmount } = renderLogin();
      expect(screen.getByRole('alert')).toHaveTextContent(text);
      unmount();
    }
  });

  it('shows the reset success message for 7 seconds', async () => {
    vi.useFakeTimers();
    try {
      await changeLanguage('fr');
      renderLogin({ pathname: '/login', state: { passwordReset: true } });
      expect(screen.getByRole('status')).toHaveTextContent(
        'Votre mot de passe a bien été mis à jour ! Vous pouvez désormais vous connecter',
      );
      act(() => vi.advanceTimersByTime(6_900));
      expect(screen.getByRole('status')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(200));
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

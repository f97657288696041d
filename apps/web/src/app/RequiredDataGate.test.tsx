import type { LegalText } from '@parcours/domain/entities';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../lib/i18n';
import { loadUser } from '../lib/session';
import { setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { me, withTenant } from '../test/fixtures';
import { renderRoutes } from '../test/render-routes';

const cgu: LegalText = { content: '<p>Conditions</p>', version: '2026-01', date: '2026-01-05' };

function incomplete() {
  const user = me();
  return { ...user, profile: { ...user.profile, birthday: null, needsRequiredDatas: true } };
}

async function signInIncomplete(extra: Parameters<typeof mockApi>[0] = {}) {
  setToken('token');
  const fetchMock = mockApi({
    'users/me': { body: incomplete() },
    'class-users': { body: { data: [], included: [], meta: { total: 0 } } },
    lessons: { body: { data: [], meta: { total: 0 } } },
    ...extra,
  });
  await loadUser();
  return fetchMock;
}

function renderAt(path: string) {
  return renderRoutes(path);
}

describe('the required-data gate (SPEC §5)', () => {
  beforeEach(() => changeLanguage('fr'));

  it('comes before any signed-in screen, asks for the data and the terms, then lets the learner in', async () => {
    withTenant({ requiredDatas: true, legal: { cgu, rgpd: null } });
    const done = me();
    const fetchMock = await signInIncomplete({
      'PATCH users/u-1': { body: { ...done, profile: { ...done.profile, birthday: '1990-05-04' } } },
    });
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Mes formations' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Lire les mentions légales/ })).toHaveAttribute(
      'href',
      '/legal/mentions',
    );
    expect(screen.getByRole('link', { name: /protection des données/ })).toHaveAttribute(
      'href',
      '/legal/protection-des-donnees',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Valider et continuer' }));
    expect(await screen.findByText("Choisissez votre date d'anniversaire")).toBeInTheDocument();
    expect(
      screen.getByText("Acceptez les conditions générales d'utilisation pour continuer"),
    ).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Date de naissance'), '1990-05-04');
    await userEvent.click(
      screen.getByLabelText("J'ai lu et j'accepte les conditions générales d'utilisation"),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Valider et continuer' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mes formations' })).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch[1]?.body))).toEqual({ birthday: '1990-05-04', acceptTerms: true });
  }, 20_000);

  it('leaves the legal texts readable', async () => {
    withTenant({ requiredDatas: true, legal: { cgu, rgpd: null } });
    await signInIncomplete();
    renderAt('/legal/mentions');
    expect(await screen.findByText('Conditions')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Avant de continuer' })).not.toBeInTheDocument();
  });

  it('does not ask for terms the tenant does not have', async () => {
    withTenant({ requiredDatas: true, legal: { cgu: null, rgpd: null } });
    await signInIncomplete();
    renderAt('/me');
    expect(await screen.findByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});

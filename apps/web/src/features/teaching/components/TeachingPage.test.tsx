import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { mockApi } from '../../../test/api-mock';
import { TeachingPage } from './TeachingPage';

const CLASSES = {
  data: [
    {
      type: 'class-users',
      id: 'cu-1',
      attributes: { classId: 'c-1', userId: 't', role: 'TEACHER', createdAt: '2026-01-01' },
      relationships: { class: { data: { type: 'classes', id: 'c-1' } } },
    },
  ],
  included: [{ type: 'classes', id: 'c-1', attributes: { name: 'Promo printemps' } }],
  meta: { total: 1 },
};

const learner = (userId: string, displayName: string, timeFactor: number | null, noTimeLimit = false) => ({
  type: 'class-user-data',
  id: `c-1:${userId}`,
  attributes: { userId, displayName, timeAccommodation: { classId: 'c-1', userId, timeFactor, noTimeLimit } },
});

function renderAt(path: string) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/enseignement" element={<TeachingPage />} />
          <Route path="/enseignement/:classId" element={<TeachingPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the teacher’s class screen (decision 0019)', () => {
  beforeEach(() => changeLanguage('fr'));

  it('lists the classes taught, each a link to its learners', async () => {
    mockApi({ 'class-users': { body: CLASSES } });
    renderAt('/enseignement');
    const link = await screen.findByRole('link', { name: 'Promo printemps' });
    expect(link).toHaveAttribute('href', '/enseignement/c-1');
  });

  it('shows each learner’s time, and saves a change with the route’s body, said once in a status', async () => {
    let learners = [learner('u-lea', 'Léa Dubois', 1.5), learner('u-cam', 'Camille Martin', null, true)];
    const fetchMock = mockApi({
      'class-users': { body: CLASSES },
      'classes/c-1/users/data': () => ({ body: { data: learners, meta: { total: 2 } } }),
      'PUT classes/c-1/users/u-lea/time-accommodation': () => {
        learners = [learner('u-lea', 'Léa Dubois', 2), learners[1]!];
        return { body: { data: learner('u-lea', 'Léa Dubois', 2) } };
      },
    });
    renderAt('/enseignement/c-1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Temps aménagé — Promo printemps' }),
    ).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Apprenants de la classe et leur temps' });
    const lea = within(table).getByRole('combobox', { name: 'Temps pour Léa Dubois' });
    expect(lea).toHaveDisplayValue('×1,5');
    expect(within(table).getByRole('combobox', { name: 'Temps pour Camille Martin' })).toHaveDisplayValue(
      'Sans limite de temps',
    );
    const saveLea = within(within(table).getByRole('row', { name: /Léa Dubois/ })).getByRole('button', {
      name: 'Enregistrer',
    });
    expect(saveLea).toBeDisabled(); // nothing changed yet
    await userEvent.selectOptions(lea, '×2');
    expect(saveLea).toBeEnabled();
    await userEvent.click(saveLea);
    expect(await screen.findByRole('status')).toHaveTextContent('Temps de Léa Dubois enregistré.');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put![1]!.body))).toEqual({ timeFactor: 2, noTimeLimit: false });
    expect(await within(table).findByRole('combobox', { name: 'Temps pour Léa Dubois' })).toHaveDisplayValue(
      '×2',
    );
  });

  it('a refusal shows its SPEC §8 title in an alert', async () => {
    mockApi({
      'class-users': { body: CLASSES },
      'classes/c-1/users/data': {
        body: { data: [learner('u-lea', 'Léa Dubois', null)], meta: { total: 1 } },
      },
      'PUT classes/c-1/users/u-lea/time-accommodation': {
        status: 403,
        body: { errors: [{ status: '403', code: 'Forbidden', title: 'Forbidden' }] },
      },
    });
    renderAt('/enseignement/c-1');
    await userEvent.selectOptions(
      await screen.findByRole('combobox', { name: 'Temps pour Léa Dubois' }),
      'Sans limite de temps',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Accès refusé');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { PlayerScreen } from '../../../app/screens/PlayerScreen';
import { errorBody, pageDoc } from '../../player/test-pages';

/**
 * Issue 12: an unknown lesson id used to show MODEL_NOT_FOUND's "Impossible de trouver la page
 * suivante". The player, composed by the app as the route does, now shows the lesson's not-found
 * page; a missing next page (409) keeps its own message.
 */
function open(lessonId: string) {
  setToken('token');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/session/${lessonId}`]}>
        <Routes>
          <Route path="/session/:id" element={<PlayerScreen />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('an unknown lesson id', () => {
  it('says the lesson is not found, in French, with the way home', async () => {
    await changeLanguage('fr');
    mockApi({ 'GET lessons/nope/pages/current': errorBody('MODEL_NOT_FOUND', 404) });
    open('nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Leçon introuvable' })).toBeVisible();
    expect(screen.getByText(/Cette leçon n'existe pas ou ne vous est pas ouverte/)).toBeVisible();
    expect(screen.queryByText('Impossible de trouver la page suivante.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Retour au tableau de bord' })).toHaveAttribute('href', '/');
  });

  it('keeps the "next page" message for a 409 MODEL_NOT_FOUND of a known lesson', async () => {
    mockApi({ 'GET lessons/l1/pages/current': errorBody('MODEL_NOT_FOUND', 409) });
    open('l1');
    expect(await screen.findByText('The next page cannot be found.')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Lesson not found' })).toBeNull();
  });

  it('a known lesson still plays', async () => {
    mockApi({ 'GET lessons/l1/pages/current': { body: pageDoc('p1') } });
    open('l1');
    expect(await screen.findByRole('button', { name: /Next/ })).toBeVisible();
    expect(screen.queryByText('Lesson not found')).toBeNull();
  });
});

import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { loadUser, setSessionUser } from '../../../lib/session';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { classUsersDoc, lesson, me, withTenant } from '../../../test/fixtures';
import { HomePage } from './HomePage';

/**
 * Issue 12, an offline cold start: the home's two reads answer the copy kept on the device by the
 * last visit, for this user only, with a note that says so and as of when.
 */
const CLASSES = [
  {
    id: 'c1',
    name: 'Class 1',
    programs: [
      { id: 'p1', name: 'Program 1', courses: [{ id: 'k1', title: 'Course k1', competencyIds: [] }] },
    ],
  },
];

function renderHome() {
  // A new client each time: a cold start has nothing in memory.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <HomePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The learner signed in with the network: the home's reads answer one class with one lesson. */
async function signedInOnline() {
  withTenant();
  setToken('token');
  mockApi({
    'users/me': { body: me() },
    'class-users': { body: classUsersDoc(CLASSES) },
    lessons: { body: { data: [lesson('l-1', 'c1', 'p1-k1', 'k1')], meta: { total: 1 } } },
    'course-competencies': { body: { data: [], meta: { total: 0 } } },
  });
  await loadUser();
}

function goOffline() {
  // Both the browser's flag and the query cache's (which pauses queries unless told otherwise).
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  onlineManager.setOnline(false);
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
  );
}

describe('home: offline cold start', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.restoreAllMocks();
  });

  it('shows the classes as last seen, with a note, and opens the lessons from them', async () => {
    await signedInOnline();
    const online = renderHome();
    expect(await screen.findByRole('link', { name: 'Start Course k1' })).toBeInTheDocument();
    expect(screen.queryByText('You are offline')).not.toBeInTheDocument();
    online.unmount();

    goOffline();
    renderHome();
    const card = await screen.findByRole('article', { name: 'Class 1' });
    expect(within(card).getByRole('link', { name: 'Start Course k1' })).toHaveAttribute(
      'href',
      '/session/l-1',
    );
    // A status (read politely, not shouted), before the classes.
    const note = screen.getByText('You are offline').closest('[role="status"]');
    expect(note).not.toBeNull();
    expect(note!.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(note!).toHaveTextContent(/Your classes as they were on .*2\d\d\d.*, kept on this device/);
  });

  it('never shows another learner’s kept classes', async () => {
    await signedInOnline();
    const online = renderHome();
    expect(await screen.findByRole('heading', { name: 'Class 1' })).toBeInTheDocument();
    online.unmount();

    // Another learner on this device (a token that expired, no sign-out), offline.
    setSessionUser(me('public', 'u-2'));
    goOffline();
    renderHome();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Class 1' })).not.toBeInTheDocument();
    expect(screen.queryByText('You are offline')).not.toBeInTheDocument();
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { loadUser } from '../../../lib/session';
import { setActiveLesson, setToken } from '../../../lib/storage';
import { calledUrls, mockApi, type MockHandler } from '../../../test/api-mock';
import { classUsersDoc, lesson, me, withTenant, type ClassSpec } from '../../../test/fixtures';
import { lessonsQueryOptions } from '../api/get-lessons';
import { HomePage } from './HomePage';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

const course = (id: string, competencyIds: string[] = []) => ({ id, title: `Course ${id}`, competencyIds });

// Classes alternate between two programs; only program 1's course names a competency.
const PROGRAMS = [
  { id: 'p1', name: 'Program 1', courses: [course('k1', ['comp-child'])] },
  { id: 'p2', name: 'Program 2', courses: [course('k2')] },
];

function classes(count: number, extra: Partial<ClassSpec> = {}): ClassSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i + 1}`,
    name: `Class ${i + 1}`,
    programs: [PROGRAMS[i % 2]!],
    ...extra,
  }));
}

async function setup(
  active: ClassSpec[],
  options: { past?: ClassSpec[]; extra?: Record<string, MockHandler> } = {},
) {
  setToken('token');
  const fetchMock = mockApi({
    'users/me': { body: me() },
    'class-users': (url) => ({
      body: classUsersDoc(url.searchParams.get('filter[expired]') === 'true' ? (options.past ?? []) : active),
    }),
    lessons: { body: { data: [], meta: { total: 0 } } },
    'course-competencies': {
      body: {
        data: [
          {
            type: 'course-competencies',
            id: 'comp-root',
            attributes: { parentId: null, isGeneric: false, title: 'Maths', icon: null, order: 1 },
          },
          {
            type: 'course-competencies',
            id: 'comp-child',
            attributes: { parentId: 'comp-root', isGeneric: false, title: 'Fractions', icon: null, order: 2 },
          },
        ],
        meta: { total: 2 },
      },
    },
    ...options.extra,
  });
  await loadUser();
  return fetchMock;
}

function renderHome(path = '/', client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/" element={<HomePage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const cards = () => screen.getAllByRole('article');

describe('home: pagination', () => {
  it('shows 5 classes a page with a pager when there are more', async () => {
    withTenant();
    await setup(classes(7));
    renderHome();
    expect(await screen.findByText('Classes 1 to 5 of 7')).toBeInTheDocument();
    expect(cards()).toHaveLength(5);
    const pager = screen.getByRole('navigation', { name: 'Pages of classes' });
    expect(within(pager).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pager).getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(within(pager).getByRole('button', { name: 'Page 2' }));
    expect(cards()).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Class 7' })).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('where')).toHaveTextContent('/?page=2');
  });

  it('hides the pager with 5 classes or fewer', async () => {
    withTenant();
    await setup(classes(5));
    renderHome();
    await waitFor(() => expect(cards()).toHaveLength(5));
    expect(screen.queryByRole('navigation', { name: 'Pages of classes' })).not.toBeInTheDocument();
  });

  it('restores the page of the last active class', async () => {
    withTenant();
    setActiveLesson({ classId: 'c7', lessonId: 'l-7' });
    await setup(classes(12));
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Class 7' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('home: filters', () => {
  it('loads expired classes for "Past classes" and reflects it in the URL', async () => {
    withTenant();
    const fetchMock = await setup(classes(2), {
      past: [{ id: 'old', name: 'Old class', expireAt: '2021-01-01T00:00:00Z' }],
    });
    renderHome();
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Past classes' }));
    expect(await screen.findByRole('heading', { name: 'Old class' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Past classes' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('where')).toHaveTextContent('period=past');
    const classUserCalls = calledUrls(fetchMock).filter((url) => url.pathname === '/api/class-users');
    expect(classUserCalls.map((url) => url.searchParams.get('filter[expired]'))).toEqual(['false', 'true']);
    expect(classUserCalls[0]!.searchParams.get('filter[role]')).toBe('STUDENT');
    expect(classUserCalls[0]!.searchParams.get('sort')).toBe('-createdAt');
    expect(classUserCalls[0]!.searchParams.get('include')).toBe(
      'class.classPrograms.program.programCourses.course,class.teachers',
    );
  });

  it('shows only upcoming classes for "Upcoming classes"', async () => {
    withTenant();
    await setup([...classes(2), { id: 'soon', name: 'Future class', startAt: '2999-01-01T00:00:00Z' }]);
    renderHome('/?period=next');
    expect(await screen.findByRole('heading', { name: 'Future class' })).toBeInTheDocument();
    expect(cards()).toHaveLength(1);
  });

  it('filters by program from the URL', async () => {
    withTenant();
    await setup(classes(4));
    renderHome('/?program=p2');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Class 2' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Class 4' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Program' })).toHaveValue('p2');
  });

  // Decision 0021: the filters are the browser's own <select>s.
  it('filters with the native program and competency selects, and says it in the URL', async () => {
    withTenant();
    await setup(classes(4));
    renderHome();
    await waitFor(() => expect(cards()).toHaveLength(4));
    const program = screen.getByRole('combobox', { name: 'Program' });
    await userEvent.selectOptions(program, 'Program 2');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByTestId('where')).toHaveTextContent('program=p2');
    await userEvent.selectOptions(program, 'All programs');
    await waitFor(() => expect(cards()).toHaveLength(4));
    const competency = await screen.findByRole('combobox', { name: 'Competency' });
    await waitFor(() => expect(competency.querySelectorAll('option').length).toBeGreaterThan(1));
    await userEvent.selectOptions(competency, 'Maths');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByTestId('where')).toHaveTextContent('competency=comp-root');
  });

  it('filters by competency, including sub-competencies', async () => {
    withTenant();
    const fetchMock = await setup(classes(3));
    renderHome('/?competency=comp-root');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'Class 1' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Class 3' })).toBeInTheDocument();
    const competencyCall = calledUrls(fetchMock).find((url) => url.pathname === '/api/course-competencies');
    expect(competencyCall?.searchParams.get('filter[id]')).toBe('comp-child');
  });
});

describe('home: empty states', () => {
  it('welcomes a learner without classes, mentioning the e-mail when the tenant sends one', async () => {
    withTenant({ emailNotifications: true, demoVideoUrl: 'https://video.example/demo' });
    await setup([]);
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Welcome Jane Doe!' })).toBeInTheDocument();
    expect(screen.getByText(/You will receive an e-mail/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Watch the demo video (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://video.example/demo',
    );
  });

  it('says the trainer will tell them when e-mails are off', async () => {
    withTenant({ emailNotifications: false });
    await setup([]);
    renderHome();
    expect(await screen.findByText(/Your trainer will let you know/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /demo video/ })).not.toBeInTheDocument();
  });

  it('explains an empty filtered list and clears the filters', async () => {
    withTenant();
    await setup(classes(2));
    renderHome('/?program=nope');
    expect(await screen.findByRole('heading', { name: 'No class found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('has its own text for no past classes', async () => {
    withTenant();
    await setup(classes(1));
    renderHome('/?period=past');
    expect(await screen.findByRole('heading', { name: 'No past class' })).toBeInTheDocument();
  });

  it('on small screens, hides classes not allowed on mobile and says why', async () => {
    withTenant();
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    await setup(classes(1, { mobileAllowed: false }));
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Use a larger screen' })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });
});

describe('home: lessons on cards', () => {
  it('joins the learner lessons to their courses', async () => {
    withTenant();
    await setup(classes(1), {
      extra: {
        lessons: {
          body: {
            data: [
              lesson('l-1', 'c1', 'p1-k1', 'k1', {
                percentProgression: 40,
                scoring: { global: { actual: 3, max: 4 } },
              }),
            ],
            meta: { total: 1 },
          },
        },
      },
    });
    renderHome();
    const bar = await screen.findByRole('progressbar', { name: 'Progress of Course k1' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    const card = screen.getByRole('article', { name: 'Class 1' });
    expect(within(card).getByText('Score: 75%')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue Course k1' })).toHaveAttribute('href', '/session/l-1');
    // Issue 12: the lesson in progress comes first, before the classes.
    const resume = screen.getByRole('region', { name: 'Pick up where you left off' });
    expect(within(resume).getByRole('link', { name: 'Resume Course k1' })).toHaveAttribute(
      'href',
      '/session/l-1',
    );
    expect(resume.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('home: keeping itself fresh', () => {
  afterEach(() => vi.useRealTimers());

  /** One class, whose lesson the server shows hidden until `unlock()`. */
  async function oneClassWhoseLessonUnlocks() {
    withTenant();
    let unlocked = false;
    const fetchMock = await setup(classes(1), {
      extra: {
        lessons: () => ({
          body: {
            data: [lesson('l-1', 'c1', 'p1-k1', 'k1', { state: unlocked ? 'AVAILABLE' : 'HIDDEN' })],
            meta: { total: 1 },
          },
        }),
      },
    });
    return { fetchMock, unlock: () => (unlocked = true) };
  }

  it('refreshes classes and lessons every 20 s, so a lesson that unlocks appears without reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock, unlock } = await oneClassWhoseLessonUnlocks();
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Class 1' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Course k1/ })).not.toBeInTheDocument();
    const count = (path: string) =>
      calledUrls(fetchMock).filter((url) => url.pathname === `/api/${path}`).length;
    const before = { classes: count('class-users'), lessons: count('lessons') };

    unlock();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(await screen.findByRole('link', { name: 'Start Course k1' })).toBeInTheDocument();
    expect(count('class-users')).toBeGreaterThan(before.classes);
    expect(count('lessons')).toBeGreaterThan(before.lessons);
  });

  it('asks again for the lessons when the home comes back, not for the read made just before it showed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock, unlock } = await oneClassWhoseLessonUnlocks();
    const count = (path: string) =>
      calledUrls(fetchMock).filter((url) => url.pathname === `/api/${path}`).length;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The first screen reads the lessons just before the home renders (decision 0030).
    await client.prefetchQuery(lessonsQueryOptions('u-1'));
    const first = renderHome('/', client);
    expect(await screen.findByRole('heading', { name: 'Class 1' })).toBeInTheDocument();
    expect(count('lessons')).toBe(1);
    first.unmount();

    // A while in a lesson, whose answers unlock the next one: back home, it shows at once.
    unlock();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    renderHome('/', client);
    expect(await screen.findByRole('link', { name: 'Start Course k1' })).toBeInTheDocument();
    expect(count('lessons')).toBe(2);
  });

  it('refreshes a class that has not started yet at its start plus 200 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    withTenant();
    const startAt = new Date(Date.now() + 5_000).toISOString();
    const fetchMock = await setup(classes(1, { startAt }));
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Class 1' })).toBeInTheDocument();
    const count = () => calledUrls(fetchMock).filter((url) => url.pathname === '/api/class-users').length;
    const before = count();
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(count()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(1_300));
    await waitFor(() => expect(count()).toBeGreaterThan(before));
  });
});

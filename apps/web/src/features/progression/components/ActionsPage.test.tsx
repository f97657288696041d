import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getActiveLesson } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { ActionsPage } from './ActionsPage';
import { lessonDoc, pageDoc, renderAt } from './test-utils';

const TWO = [
  { id: 'l-2', title: 'Percentages' },
  { id: 'l-3', title: 'Company culture' },
];

const renderActions = () =>
  renderAt('/session/l-1/actions', '/session/:id/actions', <ActionsPage lessonId="l-1" />);

describe('end-of-lesson actions', () => {
  it('shows the finished course and its score', async () => {
    mockApi({
      'lessons/l-1': { body: lessonDoc('l-1', { scoring: { global: { actual: 42, max: 50 } } }) },
    });
    renderActions();
    expect(await screen.findByRole('heading', { level: 1, name: 'Lesson complete' })).toBeInTheDocument();
    expect(screen.getByText('You have finished “Fractions”.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Score: 84 %' })).toBeInTheDocument();
    // Nothing unlocked: the way back only.
    expect(screen.getByText('No new lesson is unlocked for now.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
  });

  it('does not call a lesson left before its end finished: it says how far the learner got', async () => {
    mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', { progress: 'ONGOING', state: 'AVAILABLE', percentProgression: 42 }),
      },
    });
    renderActions();
    expect(await screen.findByRole('heading', { level: 1, name: 'Lesson in progress' })).toBeInTheDocument();
    expect(screen.getByText('You have gone through 42 % of “Fractions”.')).toBeInTheDocument();
    expect(screen.queryByText(/finished/)).not.toBeInTheDocument();
  });

  it('hides the score of a lesson without points', async () => {
    mockApi({ 'lessons/l-1': { body: lessonDoc('l-1', { scoring: { global: { actual: 0, max: 0 } } }) } });
    renderActions();
    await screen.findByRole('heading', { name: 'Lesson complete' });
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('waits for a pick among several lessons, then opens the chosen one in its first section', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', { actions: { interactive: [], unlockedLessons: [...TWO, TWO[0]!] } }),
      },
      'lessons/l-3': {
        body: lessonDoc('l-3', {
          state: 'AVAILABLE',
          progress: null,
          enabledSectionIds: ['s-7', 's-8'],
          classId: 'c-9',
        }),
      },
      'lessons/l-3/pages/current': { body: pageDoc('l-3') },
    });
    renderActions();
    const group = await screen.findByRole('radiogroup', { name: 'Choose your next lesson' });
    // Unique by content: the repeated lesson is offered once.
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Choose a lesson to continue.');

    await user.click(within(group).getByRole('radio', { name: 'Company culture' }));
    expect(next).toBeEnabled();
    await user.click(next);

    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/session/l-3'));
    const urls = calledUrls(fetchMock);
    const reload = urls.find((url) => url.pathname === '/api/lessons/l-3');
    expect(reload).toBeDefined();
    const page = urls.find((url) => url.pathname === '/api/lessons/l-3/pages/current');
    expect(page?.searchParams.get('section')).toBe('s-7');
    expect(getActiveLesson()).toEqual({ classId: 'c-9', lessonId: 'l-3' });
  });

  it('pre-selects a sole unlocked lesson', async () => {
    mockApi({
      'lessons/l-1': { body: lessonDoc('l-1', { actions: { interactive: [], unlockedLessons: [TWO[0]!] } }) },
    });
    renderActions();
    const group = await screen.findByRole('radiogroup', { name: 'Your next lesson' });
    expect(within(group).getByRole('radio', { name: 'Percentages' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('explains a failure to open the lesson, then goes home', async () => {
    const user = userEvent.setup();
    mockApi({
      'lessons/l-1': { body: lessonDoc('l-1', { actions: { interactive: [], unlockedLessons: [TWO[0]!] } }) },
      'lessons/l-2': {
        status: 403,
        body: { errors: [{ status: '403', code: 'Forbidden', title: 'Forbidden' }] },
      },
    });
    renderActions();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Access denied' });
    expect(within(dialog).getByText('You do not have permission to do this.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
  });

  it('says why the lesson could not be read', async () => {
    mockApi({
      'lessons/l-1': {
        status: 500,
        body: { errors: [{ status: '500', code: 'UNDEFINED', title: 'Error' }] },
      },
    });
    renderActions();
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred');
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toBeInTheDocument();
  });

  it('goes to the 404 screen for a lesson that does not exist (docs/product.md §2 /{code})', async () => {
    mockApi({});
    renderActions();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/404'));
  });
});

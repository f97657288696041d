import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadUser } from '../../../lib/session';
import { setActiveLesson, setToken } from '../../../lib/storage';
import { mockApi, type MockHandler } from '../../../test/api-mock';
import { classUsersDoc, me } from '../../../test/fixtures';
import { EvaluatePage } from './EvaluatePage';
import { lessonDoc, renderAt } from './test-utils';

const PROGRAM = { id: 'p-1', name: 'Core skills', courses: [] };

async function setup(handlers: Record<string, MockHandler> = {}) {
  setToken('token');
  const fetchMock = mockApi({
    'users/me': { body: me() },
    'class-users': {
      body: classUsersDoc([
        { id: 'c-1', name: 'Spring', programs: [PROGRAM] },
        { id: 'c-2', name: 'Autumn', programs: [PROGRAM] },
      ]),
    },
    'GET reviews': { body: { data: [], meta: { total: 0 } } },
    ...handlers,
  });
  await loadUser();
  return fetchMock;
}

const renderEvaluate = (type = 'program', id = 'p-1') =>
  renderAt(`/evaluate/${type}/${id}`, '/evaluate/:type/:id', <EvaluatePage type={type} id={id} />);

const review = (ratio: number, comment: string | null) => ({
  type: 'reviews',
  id: 'r-1',
  attributes: {
    classId: 'c-1',
    comment,
    resourceType: 'program',
    resourceId: 'p-1',
    ratio,
    userId: 'u-1',
    createdAt: '2026-01-01T00:00:00Z',
  },
});

describe('program evaluation', () => {
  it('sends any other type to the 404 page', async () => {
    await setup();
    renderEvaluate('course', 'k-1');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/404'));
  });

  it('keeps the result of the lesson that ended the program above the form', async () => {
    await setup({
      'lessons/l-9': {
        body: lessonDoc('l-9', { scoring: { global: { actual: 42, max: 50 } } }, 'Fractions'),
      },
    });
    setActiveLesson({ classId: 'c-1', lessonId: 'l-9' });
    renderEvaluate();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'You have finished “Fractions”' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Score: 84 %' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Rate your program' })).toBeInTheDocument();
  });

  it('asks for a rating and keeps the comment within 1000 characters, with a counter', async () => {
    const user = userEvent.setup();
    const fetchMock = await setup();
    renderEvaluate();
    expect(await screen.findByRole('heading', { name: 'Rate your program' })).toBeInTheDocument();
    expect(screen.getByText('Program: Core skills')).toBeInTheDocument();
    expect(screen.getByText('0 / 1000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send my rating' }));
    expect(await screen.findByText('Choose a rating')).toBeInTheDocument();

    const comment = screen.getByRole('textbox', { name: 'Comment (optional)' });
    // The input event is what a browser fires as the learner types (onChange listens to it).
    fireEvent.input(comment, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByText('1001 / 1000')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    await user.click(screen.getByRole('button', { name: 'Send my rating' }));
    expect(await screen.findByText('The comment must not exceed 1000 characters')).toBeInTheDocument();
    expect(comment).toHaveAccessibleDescription(/The comment must not exceed 1000 characters/);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('sends the rating as a ratio in the class of the lesson just finished, then locks the form', async () => {
    const user = userEvent.setup();
    setActiveLesson({ classId: 'c-2', lessonId: 'l-9' });
    const fetchMock = await setup({ 'POST reviews': { status: 201, body: { data: review(0.8, 'Great') } } });
    renderEvaluate();
    await user.click(await screen.findByRole('radio', { name: '4 stars' }));
    await user.type(screen.getByRole('textbox', { name: 'Comment (optional)' }), 'Great');
    expect(screen.getByText('5 / 1000')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to dashboard' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send my rating' }));

    const success = await screen.findByText('Thank you for your rating');
    expect(success.closest('[role="status"]')).toHaveTextContent('Your opinion has been saved.');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      classId: 'c-2',
      resourceType: 'program',
      resourceId: 'p-1',
      ratio: 0.8,
      comment: 'Great',
    });
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Comment (optional)' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Send my rating' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/');
  });

  it('shows the failure and the way back', async () => {
    const user = userEvent.setup();
    await setup({
      'POST reviews': {
        status: 409,
        body: { errors: [{ status: '409', code: 'BAD_REQUEST', title: 'Bad request' }] },
      },
    });
    renderEvaluate();
    await user.click(await screen.findByRole('radio', { name: '5 stars' }));
    await user.click(screen.getByRole('button', { name: 'Send my rating' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Incorrect data')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toBeInTheDocument();
    // The learner may correct and send again.
    expect(screen.getByRole('button', { name: 'Send my rating' })).toBeEnabled();
  });

  it('shows a review already given, locked', async () => {
    await setup({ 'GET reviews': { body: { data: [review(0.6, 'Fine')], meta: { total: 1 } } } });
    renderEvaluate();
    expect(await screen.findByText('Program already rated')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '3 stars' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue('Fine');
    expect(screen.queryByRole('button', { name: 'Send my rating' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toBeInTheDocument();
  });

  it('refuses a program the learner does not follow', async () => {
    await setup({ 'class-users': { body: classUsersDoc([{ id: 'c-1', name: 'Spring', programs: [] }]) } });
    renderEvaluate();
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied');
  });
});

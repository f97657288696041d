import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getActiveLesson } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { QuestionsPage } from './QuestionsPage';
import { lessonDoc, pageDoc, renderAt } from './test-utils';

const QUESTION = {
  label: 'What would you like to do next?',
  choices: [
    { response: 'Practise percentages', action: { target: 'pc-2' } },
    { response: 'Discover the company', action: { target: 'pc-3' } },
  ],
};

const renderQuestions = () =>
  renderAt('/session/l-1/questions', '/session/:id/questions', <QuestionsPage lessonId="l-1" />);

describe('end-of-lesson question', () => {
  it('shows the score and the question; Continue waits for an answer, then opens its target', async () => {
    const user = userEvent.setup();
    const fetchMock = mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', {
          scoring: { global: { actual: 9, max: 10 } },
          actions: { interactive: [QUESTION], unlockedLessons: [] },
        }),
      },
      'POST lessons/l-1/actions': { body: lessonDoc('l-3', { state: 'AVAILABLE', progress: null }) },
      'lessons/l-3': {
        body: lessonDoc('l-3', { state: 'AVAILABLE', progress: null, enabledSectionIds: ['s-1'] }),
      },
      'lessons/l-3/pages/current': { body: pageDoc('l-3') },
    });
    renderQuestions();
    expect(await screen.findByRole('img', { name: 'Score: 90 %' })).toBeInTheDocument();
    const group = screen.getByRole('radiogroup', { name: 'What would you like to do next?' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/');

    await user.click(within(group).getByRole('radio', { name: 'Discover the company' }));
    await user.click(next);

    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/session/l-3'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ inputs: [{ actionIdx: 0, choiceIdx: 1 }] });
    const page = calledUrls(fetchMock).find((url) => url.pathname === '/api/lessons/l-3/pages/current');
    expect(page?.searchParams.get('section')).toBe('s-1');
    expect(getActiveLesson()).toEqual({ classId: 'c-1', lessonId: 'l-3' });
  });

  it('pre-selects a sole choice', async () => {
    mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', {
          actions: { interactive: [{ ...QUESTION, choices: [QUESTION.choices[0]!] }], unlockedLessons: [] },
        }),
      },
    });
    renderQuestions();
    expect(await screen.findByRole('radio', { name: 'Practise percentages' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    // No score out of zero.
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows the error dialog when the answer is refused, then goes home', async () => {
    const user = userEvent.setup();
    mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', {
          actions: { interactive: [{ ...QUESTION, choices: [QUESTION.choices[0]!] }], unlockedLessons: [] },
        }),
      },
      'POST lessons/l-1/actions': {
        status: 409,
        body: { errors: [{ status: '409', code: 'INVALID_INPUTS', title: 'Already answered' }] },
      },
    });
    renderQuestions();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Already answered' });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
  });

  it('falls back to the generic texts for an error it has no words for', async () => {
    const user = userEvent.setup();
    mockApi({
      'lessons/l-1': {
        body: lessonDoc('l-1', {
          actions: { interactive: [{ ...QUESTION, choices: [QUESTION.choices[0]!] }], unlockedLessons: [] },
        }),
      },
      'POST lessons/l-1/actions': { status: 500, body: 'oops' },
    });
    renderQuestions();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'An error occurred' });
    expect(within(dialog).getByText('An unidentified error occurred. Please try again.')).toBeInTheDocument();
  });
});

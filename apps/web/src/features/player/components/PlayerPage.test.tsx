import { NEXT_DEBOUNCE_MS } from '@parcours/domain/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { setToken } from '../../../lib/storage';
import { mockApi, type MockHandler } from '../../../test/api-mock';
import { lesson } from '../../../test/fixtures';
import { rowRegistry } from '../../exercises/registry';
import { playerKeys } from '../api/query-keys';
import { PlayerSlotsContext } from '../player-slots';
import { block, errorBody, pageDoc, results } from '../test-pages';
import { PlayerPage } from './PlayerPage';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

function renderPlayer(
  handlers: Record<string, MockHandler>,
  mode: 'page' | 'correction' = 'page',
  client = newClient(),
) {
  setToken('token');
  const fetchMock = mockApi(handlers);
  render(
    <QueryClientProvider client={client}>
      <PlayerSlotsContext value={{ rows: rowRegistry }}>
        <MemoryRouter initialEntries={['/session/l1']}>
          <Routes>
            <Route path="/session/l1" element={<PlayerPage lessonId="l1" pageId={null} mode={mode} />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </PlayerSlotsContext>
    </QueryClientProvider>,
  );
  return fetchMock;
}

/** The tincan scores the player started (a mutation each), whatever became of them. */
const scores = (client: QueryClient) =>
  client.getMutationCache().findAll({ mutationKey: playerKeys.score('l1') });

const bodyOf = (fetchMock: ReturnType<typeof mockApi>, method: string, path: string) =>
  fetchMock.mock.calls
    .filter(([input, init]) => String(input).includes(path) && (init?.method ?? 'GET') === method)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

const lessonDoc = (attrs: Parameters<typeof lesson>[4]) => ({
  body: { data: lesson('l1', 'c1', 'pc1', 'k1', attrs) },
});

// The feedback dialogs' code (React Aria, a lazy chunk) is transformed on its first import: on a
// busy 2-core machine that alone outlasted the first test's wait for its dialog. Done once here.
beforeAll(() => import('../../../components/ui/DialogFrame'), 60_000);

describe('PlayerPage (page mode)', () => {
  it('sends the answers, shows general then answer feedback one at a time, then the next page', async () => {
    const user = userEvent.setup();
    const graded = pageDoc('p1', {
      inputs: { answers: [[0]] },
      results: results({
        feedbacks: [
          { source: 'answer', preset: 'success', message: 'Choice feedback', rowIndex: 0 },
          { source: 'general', preset: 'success', message: 'General feedback', rowIndex: null },
        ],
      }),
    });
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1') },
      'PATCH lessons/l1/pages/current': { body: graded },
      'POST lessons/l1/pages/next': {
        body: pageDoc('p2', { index: 1, block: block({ id: 'b2', title: 'Page two' }) }),
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: '2/4' }));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    const first = await screen.findByRole('dialog', { name: 'Well done' });
    expect(within(first).getByText('General feedback')).toBeInTheDocument();
    expect(within(first).getByText('Feedback 1 of 2')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([
      { pageId: 'p1', inputs: { answers: [[0]] } },
    ]);
    await user.click(within(first).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Choice feedback')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Page two' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(bodyOf(fetchMock, 'POST', 'pages/next')).toEqual([{ fromPageId: 'p1' }]);
  });

  it('skips feedback when the course type turns it off, and Enter triggers Next', async () => {
    const user = userEvent.setup();
    const off = { hints: true, feedbacks: false, retry: false };
    renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1', { courseTypeSettings: off }) },
      'PATCH lessons/l1/pages/current': {
        body: pageDoc('p1', {
          courseTypeSettings: off,
          inputs: { answers: [[1]] },
          results: results({
            feedbacks: [{ source: 'general', preset: 'info', message: 'Hidden', rowIndex: null }],
          }),
        }),
      },
      'POST lessons/l1/pages/next': {
        body: pageDoc('p2', { index: 1, block: block({ title: 'Page two' }) }),
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: '2/3' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Page two' })).toBeInTheDocument();
    expect(screen.queryByText('Hidden')).not.toBeInTheDocument();
  });

  it('asks before sending no answer: Stay keeps the page, Continue anyway sends it', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1') },
      'PATCH lessons/l1/pages/current': {
        body: pageDoc('p1', { inputs: { answers: [null] }, results: results() }),
      },
      'POST lessons/l1/pages/next': { body: pageDoc('p2', { index: 1 }) },
    });
    await user.click(await screen.findByRole('button', { name: /Next/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'No answer given' });
    expect(within(dialog).getByRole('button', { name: 'Stay' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([]);
    // Next is debounced (on performance.now): the clock moves past it, no wait.
    const realNow = performance.now.bind(performance);
    vi.spyOn(performance, 'now').mockImplementation(() => realNow() + NEXT_DEBOUNCE_MS);
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await user.click(await screen.findByRole('button', { name: 'Continue anyway' }));
    await waitFor(() =>
      expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([
        { pageId: 'p1', inputs: { answers: [null] } },
      ]),
    );
  });

  it('confirms a hint with a cost, saying the score will be reduced by it', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', { hints: { messages: ['First hint'], remaining: 1, nextMalus: 2 } }),
      },
      'POST lessons/l1/pages/current/hints': {
        body: { hints: { messages: ['First hint', 'Second hint'], remaining: 0, nextMalus: null } },
      },
    });
    expect(await screen.findByText('First hint')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Show a hint \(1 left\) — costs 2 points/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unlock this hint?' });
    expect(dialog).toHaveTextContent('Your score for this page will be reduced by 2 points.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bodyOf(fetchMock, 'POST', 'hints')).toEqual([]);
    await user.click(screen.getByRole('button', { name: /Show a hint/ }));
    await user.click(await screen.findByRole('button', { name: 'Unlock the hint' }));
    expect(await screen.findByText('Second hint')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', 'hints')).toEqual([{ pageId: 'p1' }]);
    expect(screen.queryByRole('button', { name: /Show a hint/ })).not.toBeInTheDocument();
  });

  it('labels tincan pages "End module", hides the dashboard button there, and ignores Enter', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', {
          block: block({
            type: 'tincan',
            settings: { hintCount: 0, template: { backToDashBoard: true } },
            content: { sections: [], tincan: { url: '/api/tincan/x/index.html' } },
          }),
        }),
      },
    });
    expect(await screen.findByRole('button', { name: /End module/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to dashboard' })).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([]);
  });

  describe('tincan scores', () => {
    const tincanBlock = block({
      type: 'tincan',
      title: 'Fire module',
      content: { sections: [], tincan: { url: '/api/tincan/x/index.html' } },
    });
    // Served unanswered, a module page carries the launch the server issued for it.
    const tincanPage = (id: string, overrides: Parameters<typeof pageDoc>[1] = {}) =>
      pageDoc(id, { block: tincanBlock, tincanLaunch: `launch-${id}`, ...overrides });
    const scored = tincanPage('p1', {
      tincanLaunch: null,
      progress: 'COMPLETED',
      inputs: { answers: [] },
      results: results({
        answerRatios: [],
        outcome: 'partial',
        score: { actual: 8, max: 10 },
        tincan: { scaled: 0.8 },
      }),
    });
    const fromModule = async (data: unknown) => {
      const frame = (await screen.findByTitle('Fire module')) as HTMLIFrameElement;
      act(() => {
        window.dispatchEvent(new MessageEvent('message', { data, source: frame.contentWindow }));
      });
    };

    it("sends the module's score, shows the recorded page, then End module just moves on", async () => {
      const user = userEvent.setup();
      const fetchMock = renderPlayer({
        'GET lessons/l1/pages/current': { body: tincanPage('p1') },
        'POST lessons/l1/pages/custom-tincan-score': { body: scored },
        'POST lessons/l1/pages/next': {
          body: pageDoc('p2', { index: 1, block: block({ id: 'b2', title: 'Page two' }) }),
        },
      });
      await fromModule({ type: 'score', score: { scaled: 0.8 } });
      expect(
        await screen.findByText('Your answer is recorded. Score for this page: 8 / 10.'),
      ).toBeInTheDocument();
      expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toEqual([
        { pageId: 'p1', launch: 'launch-p1', score: { scaled: 0.8 } },
      ]);
      // Scored: a second score is not sent.
      await fromModule({ type: 'score', score: { scaled: 1 } });
      await user.click(screen.getByRole('button', { name: /End module/ }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toBeInTheDocument();
      expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toHaveLength(1);
      expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([]);
      expect(bodyOf(fetchMock, 'POST', 'pages/next')).toEqual([{ fromPageId: 'p1' }]);
    });

    it("the module's next waits for its score to be recorded", async () => {
      let release: (answer: { body: unknown }) => void = () => undefined;
      const client = newClient();
      const fetchMock = renderPlayer(
        {
          'GET lessons/l1/pages/current': { body: tincanPage('p1') },
          'POST lessons/l1/pages/custom-tincan-score': () => new Promise((resolve) => (release = resolve)),
          'POST lessons/l1/pages/next': {
            body: pageDoc('p2', { index: 1, block: block({ id: 'b2', title: 'Page two' }) }),
          },
        },
        'page',
        client,
      );
      await fromModule({ type: 'score', score: { raw: 4, max: 5 } });
      await fromModule('action:next');
      // The move is started and waits its turn behind the score (a paused write of the scope):
      // it can reach the network only once the score is settled.
      const waiting = () =>
        client
          .getMutationCache()
          .findAll({ mutationKey: playerKeys.writes('l1') })
          .filter((m) => m.state.status === 'pending' && m.state.isPaused);
      await waitFor(() => expect(waiting()).toHaveLength(1));
      expect(bodyOf(fetchMock, 'POST', 'pages/next')).toEqual([]);
      act(() => release({ body: scored }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Page two' })).toBeInTheDocument();
      expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toEqual([
        { pageId: 'p1', launch: 'launch-p1', score: { raw: 4, max: 5 } },
      ]);
      expect(bodyOf(fetchMock, 'POST', 'pages/next')).toEqual([{ fromPageId: 'p1' }]);
    });

    it('an already scored page (409 INVALID_INPUTS) is no error; other refusals are', async () => {
      const client = newClient();
      renderPlayer(
        {
          'GET lessons/l1/pages/current': { body: tincanPage('p1') },
          'POST lessons/l1/pages/custom-tincan-score': errorBody('INVALID_INPUTS'),
        },
        'page',
        client,
      );
      await fromModule({ type: 'score', score: { scaled: 0.5 } });
      // A mutation is marked failed after its onError ran: by then an error dialog was opened.
      await waitFor(() => expect(scores(client).map((m) => m.state.status)).toEqual(['error']));
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('a refused score takes the error path', async () => {
      renderPlayer({
        'GET lessons/l1/pages/current': { body: tincanPage('p1') },
        'POST lessons/l1/pages/custom-tincan-score': errorBody('LESSON_PAGE_SKIPPED'),
      });
      await fromModule({ type: 'score', score: { scaled: 0.5 } });
      expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    });

    it('sends nothing for a malformed message', async () => {
      const fetchMock = renderPlayer({
        'GET lessons/l1/pages/current': { body: tincanPage('p1') },
        'POST lessons/l1/pages/custom-tincan-score': { body: scored },
      });
      await fromModule({ type: 'score', score: { scaled: 2 } });
      await fromModule({ type: 'score' });
      // Then a valid one: messages are handled in order, and a page takes one score, so once this
      // one is sent, a malformed one sent before would be the one in the list.
      await fromModule({ type: 'score', score: { scaled: 0.8 } });
      await waitFor(() => expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toHaveLength(1));
      expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toEqual([
        { pageId: 'p1', launch: 'launch-p1', score: { scaled: 0.8 } },
      ]);
    });

    it('sends nothing in correction mode', async () => {
      const client = newClient();
      const fetchMock = renderPlayer(
        { 'GET lessons/l1/pages/current': { body: tincanPage('p1') } },
        'correction',
        client,
      );
      await fromModule({ type: 'score', score: { scaled: 1 } });
      // The message is handled as it is dispatched, and a score to send is a mutation from then on
      // (its request follows): none, so none will go.
      expect(scores(client)).toEqual([]);
      expect(bodyOf(fetchMock, 'POST', 'custom-tincan-score')).toEqual([]);
    });
  });

  it('shows the dashboard button when the block asks for it', async () => {
    const user = userEvent.setup();
    renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', {
          block: block({ type: 'slide', settings: { hintCount: 0, template: { backToDashBoard: true } } }),
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Back to dashboard' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/');
  });

  it('asks before a timed exercise, in French; "Peut être plus tard" goes back to the dashboard', async () => {
    await changeLanguage('fr');
    const user = userEvent.setup();
    renderPlayer({ 'GET lessons/l1/pages/current': { body: pageDoc('p1', { timeLimit: 90 }) } });
    const dialog = await screen.findByRole('alertdialog', { name: 'Exercice chronométré' });
    expect(dialog).toHaveTextContent("L'exercice que vous allez faire est chronométré.");
    expect(within(dialog).getByRole('button', { name: "C'est parti" })).toHaveFocus();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Peut être plus tard' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/');
  });

  it('starts a timed exercise and shows the server countdown', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1', { timeLimit: 90 }) },
      'POST lessons/l1/pages/current/start': {
        body: pageDoc('p1', { timeLimit: 90, startedAt: '2026-01-01T00:00:00Z', remainingSeconds: 88 }),
      },
    });
    await user.click(await screen.findByRole('button', { name: "Let's go" }));
    expect(await screen.findByRole('timer', { name: 'Time left' })).toHaveTextContent('01:28');
    expect(screen.getByRole('checkbox', { name: '2/4' })).toBeEnabled();
    expect(bodyOf(fetchMock, 'POST', 'pages/current/start')).toEqual([{ pageId: 'p1' }]);
  });

  it('shows a player error with its button, then goes home', async () => {
    const user = userEvent.setup();
    renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1') },
      'PATCH lessons/l1/pages/current': errorBody('LESSON_PAGE_SKIPPED'),
    });
    await user.click(await screen.findByRole('checkbox', { name: '2/4' }));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Time is up' });
    await user.click(within(dialog).getByRole('button', { name: 'Back to dashboard' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/');
  });

  it('leaves the last page for the dashboard when nothing else is due', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p3', { index: 2, count: 3, inputs: { answers: [[0]] }, results: results() }),
      },
      'GET lessons/l1': lessonDoc({ progress: 'COMPLETED', isEndOfProgram: false }),
    });
    await user.click(await screen.findByRole('button', { name: /Next/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/'));
    expect(bodyOf(fetchMock, 'POST', 'pages/next')).toEqual([]);
  });

  it('goes to the program evaluation after the last page when it is due', async () => {
    const user = userEvent.setup();
    renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p3', { index: 2, count: 3, inputs: { answers: [[0]] }, results: results() }),
      },
      'GET lessons/l1': lessonDoc({ progress: 'COMPLETED', isEndOfProgram: true, classProgramId: 'cp1' }),
      'class-programs/cp1': {
        body: { data: { type: 'class-programs', id: 'cp1', attributes: { programId: 'prog1' } } },
      },
      reviews: { body: { data: [], meta: { total: 0 } } },
    });
    await user.click(await screen.findByRole('button', { name: /Next/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/evaluate/program/prog1'));
  });

  it('offers a multiblock by numbered titles and opens the chosen block', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', {
          block: null,
          node: {
            id: 'm1',
            type: 'multiblock',
            title: 'Training',
            parentId: 'c1',
            settings: {},
            tools: {},
            attachmentIds: [],
          },
          children: [
            { nodeId: 'n1', title: 'First', done: true },
            { nodeId: 'n2', title: 'Second', done: false },
          ],
        }),
      },
      'POST lessons/l1/pages/current/choose': { body: pageDoc('p2', { block: block({ title: 'Second' }) }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Training' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '2. Second' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Second' })).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', 'pages/current/choose')).toEqual([{ pageId: 'p1', nodeId: 'n2' }]);
  });

  it('moves past a slide with one call: next closes it', async () => {
    const user = userEvent.setup();
    const fetchMock = renderPlayer({
      'GET lessons/l1/pages/current': { body: pageDoc('p1', { block: block({ type: 'slide' }) }) },
      'POST lessons/l1/pages/next': {
        body: pageDoc('p2', { index: 1, block: block({ title: 'Page two' }) }),
      },
    });
    await user.click(await screen.findByRole('button', { name: /Next/ }));
    expect(await screen.findByRole('heading', { name: 'Page two' })).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([]);
  });

  describe('retry', () => {
    const retryOn = { hints: true, feedbacks: true, retry: true };
    const wrong = results({ outcome: 'incorrect', score: { actual: 0, max: 10 }, retryAllowed: true });

    it('offers a retry on an answered exercise the server allows, then shows the new attempt', async () => {
      const user = userEvent.setup();
      const fetchMock = renderPlayer({
        'GET lessons/l1/pages/current': {
          body: pageDoc('p1', { courseTypeSettings: retryOn, inputs: { answers: [[1]] }, results: wrong }),
        },
        'POST lessons/l1/pages/current/retry': {
          body: pageDoc('p1b', { courseTypeSettings: retryOn, attempt: 2 }),
        },
      });
      expect(await screen.findByText(/Score for this page: 0 \/ 10/)).toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: '2/3' })).toBeChecked();
      // Keyboard-reachable: Tab from the page title lands on it before any row.
      screen.getByRole('heading', { level: 1 }).focus();
      await user.tab();
      await user.tab();
      const button = screen.getByRole('button', { name: 'Retry this exercise' });
      expect(button).toHaveFocus();
      await user.keyboard('{Enter}');
      const heading = await screen.findByRole('heading', { level: 1 });
      await waitFor(() => expect(screen.getByRole('checkbox', { name: '2/3' })).not.toBeChecked());
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByRole('checkbox', { name: '2/4' })).toBeEnabled();
      expect(screen.queryByText(/Score for this page/)).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Retry this exercise' })).not.toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Attempt 2');
      expect(bodyOf(fetchMock, 'POST', 'pages/current/retry')).toEqual([{ pageId: 'p1' }]);
      expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([]);
    });

    it.each([
      [
        'the server refuses it (fully right)',
        { courseTypeSettings: retryOn, results: results({ retryAllowed: false }) },
      ],
      ['the course type turns it off', { results: wrong }],
      [
        'the page is a slide',
        { courseTypeSettings: retryOn, results: wrong, block: block({ type: 'slide' }) },
      ],
      ['the page is not answered yet', { courseTypeSettings: retryOn }],
    ])('offers no retry when %s', async (_, overrides) => {
      renderPlayer({ 'GET lessons/l1/pages/current': { body: pageDoc('p1', overrides) } });
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByRole('button', { name: 'Retry this exercise' })).not.toBeInTheDocument();
    });

    it('offers no retry in correction mode', async () => {
      renderPlayer(
        {
          'GET lessons/l1/pages/current': {
            body: pageDoc('p1', { courseTypeSettings: retryOn, inputs: { answers: [[1]] }, results: wrong }),
          },
        },
        'correction',
      );
      expect(await screen.findByRole('heading', { name: 'How to read the correction' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Retry this exercise' })).not.toBeInTheDocument();
    });

    it('shows a refused retry in the error dialog', async () => {
      const user = userEvent.setup();
      renderPlayer({
        'GET lessons/l1/pages/current': {
          body: pageDoc('p1', { courseTypeSettings: retryOn, results: wrong }),
        },
        'POST lessons/l1/pages/current/retry': errorBody('RETRY_RESTRICT'),
      });
      await user.click(await screen.findByRole('button', { name: 'Retry this exercise' }));
      const dialog = await screen.findByRole('alertdialog');
      await user.click(within(dialog).getByRole('button'));
      expect(screen.getByTestId('where')).toHaveTextContent('/');
    });
  });

  describe('NO_LESSON_PAGE_AVAILABLE', () => {
    const noPage = { 'GET lessons/l1/pages/current': errorBody('NO_LESSON_PAGE_AVAILABLE') };

    it('goes to the questions when the lesson has interactive actions', async () => {
      renderPlayer({
        ...noPage,
        'GET lessons/l1': lessonDoc({
          actions: {
            interactive: [{ label: 'Q', choices: [] }],
            unlockedLessons: [{ id: 'l2', title: 'x' }],
          },
        }),
      });
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/session/l1/questions'));
    });

    it('goes to the actions when lessons were unlocked', async () => {
      renderPlayer({
        ...noPage,
        'GET lessons/l1': lessonDoc({
          actions: { interactive: [], unlockedLessons: [{ id: 'l2', title: 'x' }] },
        }),
      });
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/session/l1/actions'));
    });

    it('treats a missing reviews call as "evaluation not due", then alerts and goes home', async () => {
      const user = userEvent.setup();
      renderPlayer({
        ...noPage,
        'GET lessons/l1': lessonDoc({ progress: 'COMPLETED', isEndOfProgram: true, classProgramId: 'cp1' }),
        'class-programs/cp1': {
          body: { data: { type: 'class-programs', id: 'cp1', attributes: { programId: 'prog1' } } },
        },
      });
      const dialog = await screen.findByRole('alertdialog', { name: 'No page available' });
      await user.click(within(dialog).getByRole('button', { name: 'OK' }));
      expect(screen.getByTestId('where')).toHaveTextContent('/');
    });
  });
});

describe('PlayerPage (correction mode)', () => {
  it("shows the legend and the learner's answers against the expected ones, without timers or pings", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = renderPlayer(
        {
          'GET lessons/l1/pages/current': {
            body: pageDoc('p1', {
              inputs: { answers: [[1]] },
              results: results({
                correction: [{ ratio: 0, correct: false, detail: { items: ['missing', 'wrong'] } }],
              }),
            }),
          },
        },
        'correction',
      );
      expect(await screen.findByRole('heading', { name: 'How to read the correction' })).toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: /2\/3.*Wrong/ })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: /2\/4.*Expected/ })).not.toBeChecked();
      expect(screen.getByText('Wrong answer.')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Next/ })).not.toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(25_000);
      });
      expect(fetchMock.mock.calls.some(([input]) => String(input).includes('ping'))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PlayerPage (timers)', () => {
  it("shows the lesson's clock beside the exercise's and, when it ends, sends what is answered", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const timed = {
        lessonTimeLimit: 600,
        lessonRemainingSeconds: 3,
        timeLimit: 90,
        startedAt: '2026-01-01T00:00:00Z',
        remainingSeconds: 80,
      };
      const fetchMock = renderPlayer({
        'GET lessons/l1/pages/current': { body: pageDoc('p1', timed) },
        'PATCH lessons/l1/pages/current': errorBody('LESSON_SKIPPED'),
      });
      expect(await screen.findByRole('timer', { name: 'Time left for the lesson' })).toHaveTextContent(
        '00:03',
      );
      expect(screen.getByRole('timer', { name: 'Time left for this exercise' })).toHaveTextContent('01:20');
      expect(screen.queryByRole('timer', { name: 'Time left' })).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('checkbox', { name: '2/4' }));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3_600);
      });
      await waitFor(() =>
        expect(bodyOf(fetchMock, 'PATCH', 'pages/current')).toEqual([
          { pageId: 'p1', inputs: { answers: [[0]] } },
        ]),
      );
      expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows only the lesson's clock on an untimed page, and keeps it once the page is answered", async () => {
    renderPlayer({
      'GET lessons/l1/pages/current': {
        body: pageDoc('p1', {
          lessonTimeLimit: 600,
          lessonRemainingSeconds: 125,
          inputs: { answers: [[0]] },
          results: results(),
        }),
      },
    });
    expect(await screen.findByRole('timer', { name: 'Time left for the lesson' })).toHaveTextContent('02:05');
    expect(screen.getAllByRole('timer')).toHaveLength(1);
  });

  it('shows no lesson clock in correction mode', async () => {
    renderPlayer(
      {
        'GET lessons/l1/pages/current': {
          body: pageDoc('p1', {
            lessonTimeLimit: 600,
            lessonRemainingSeconds: 125,
            inputs: { answers: [[0]] },
            results: results(),
          }),
        },
      },
      'correction',
    );
    await screen.findByRole('heading', { name: 'How to read the correction' });
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it('pings every 10 seconds in page mode', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = renderPlayer({
        'GET lessons/l1/pages/current': { body: pageDoc('p1') },
        'POST lessons/l1/pages/current/ping': { status: 204 },
      });
      await screen.findByRole('heading', { level: 1 });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_500);
      });
      expect(bodyOf(fetchMock, 'POST', 'pages/current/ping')).toEqual([{ pageId: 'p1' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('calls a row that earned some of its points partly right, never wrong', async () => {
    renderPlayer(
      {
        'GET lessons/l1/pages/current': {
          body: pageDoc('p1', {
            inputs: { answers: [[0, 1]] },
            results: results({
              correction: [{ ratio: 0.33, correct: false, detail: { items: ['correct', 'wrong'] } }],
            }),
          }),
        },
      },
      'correction',
    );
    const verdict = await screen.findByText('33 % of the points.');
    expect(verdict.closest('.row__verdict')).toHaveTextContent('Partly right');
    expect(verdict.closest('.row__verdict')).not.toHaveTextContent('Wrong');
  });

  it("closes the back office's window on MODEL_NOT_FOUND instead of sending the administrator home (SPEC §8)", async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const opener = Object.getOwnPropertyDescriptor(window, 'opener');
    Object.defineProperty(window, 'opener', { configurable: true, value: {} });
    try {
      renderPlayer(
        {
          'GET lessons/l1/pages/current': {
            status: 404,
            body: { errors: [{ status: '404', code: 'MODEL_NOT_FOUND', title: 'x' }] },
          },
        },
        'correction',
      );
      const dialog = await screen.findByRole('alertdialog');
      await userEvent.click(within(dialog).getByRole('button'));
      expect(close).toHaveBeenCalled();
    } finally {
      if (opener) Object.defineProperty(window, 'opener', opener);
      else Reflect.deleteProperty(window, 'opener');
      vi.restoreAllMocks();
    }
  });
});

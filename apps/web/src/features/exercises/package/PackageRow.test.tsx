import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, vi } from 'vitest';
import { mockApi } from '../../../test/api-mock';
import type { PublicRowView } from '@parcours/domain/entities';
import { BRIDGE_SOURCE, PACKAGE_SANDBOX, TERMINATE_MESSAGE } from './bridge-messages';
import { PackageRow } from './PackageRow';

const PACKAGES = 'http://localhost:3301';
const BRIDGE = `${PACKAGES}/packages/bridge/p-1#launch=secret`;

const row = {
  type: 'package',
  title: 'Passwords',
  package: { kind: 'scorm12', title: 'Strong passwords', width: null, height: null, launch: 'L-1' },
} as unknown as PublicRowView;

function renderRow(props: { played?: boolean; onPackageClosed?: () => void } = {}) {
  return render(
    <PackageRow
      row={row}
      rowIndex={-1}
      idPrefix="p-1"
      labelledBy="p-1-title"
      value={null}
      onChange={() => undefined}
      readOnly={false}
      correction={null}
      announce={() => undefined}
      packagePlay={props.played === false ? null : { lessonId: 'l-1', pageId: 'p-1' }}
      onPackageClosed={props.onPackageClosed}
    />,
  );
}

/** A window message as a browser delivers it: its sender's origin and window. */
function post(data: unknown, origin: string, source: MessageEventSource | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

const bridge = (type: string) => ({ source: BRIDGE_SOURCE, type });

async function openPlaying() {
  const fetchMock = mockApi({
    'POST packages/launches': {
      body: { url: BRIDGE, origin: PACKAGES, expiresAt: '2026-11-27T15:00:00.000Z' },
    },
  });
  const onPackageClosed = vi.fn();
  renderRow({ onPackageClosed });
  await userEvent.click(screen.getByRole('button', { name: 'Open the module: Strong passwords' }));
  const dialog = await screen.findByRole('dialog', { name: 'Strong passwords' });
  const frame = (await screen.findByTitle('Strong passwords')) as HTMLIFrameElement;
  return { fetchMock, onPackageClosed, dialog, frame, source: frame.contentWindow };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('PackageRow: launch', () => {
  it('opens the bridge the server named, sandboxed, with the page’s launch', async () => {
    const { fetchMock, frame } = await openPlaying();
    expect(frame.src).toBe(BRIDGE);
    expect(frame.getAttribute('sandbox')).toBe(PACKAGE_SANDBOX);
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-top-navigation|allow-popups/);
    // A package's own alert / confirm (resume?) is the learner's to answer (decision 0063).
    expect(frame.getAttribute('sandbox')).toMatch(/\ballow-modals\b/);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ lessonId: 'l-1', pageId: 'p-1', launch: 'L-1' });
  });

  it('refuses a launch on the app’s own origin (a package must never run beside the token)', async () => {
    mockApi({
      'POST packages/launches': {
        body: { url: `${window.location.origin}/bridge#k`, origin: window.location.origin, expiresAt: '' },
      },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRow();
    await userEvent.click(screen.getByRole('button', { name: /Open the module/ }));
    expect(
      await screen.findByText('The module could not open. Close this window and try again later.'),
    ).toBeVisible();
    expect(screen.queryByTitle('Strong passwords')).toBeNull();
  });

  it('cannot open outside a played lesson (preview, correction)', () => {
    renderRow({ played: false });
    expect(screen.getByRole('button', { name: /Open the module/ })).toBeDisabled();
    expect(screen.getByText('This module plays in the lesson, not in this preview.')).toBeVisible();
  });
});

describe('PackageRow: offline', () => {
  it('says the package needs the connection when the browser is offline, and does not call', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const fetchMock = mockApi({});
    renderRow();
    expect(
      screen.getByText('This module needs the connection: it opens once you are back online.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: /Open the module/ })).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says so too when the launch call gets no answer, and offers to try again', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderRow();
    await userEvent.click(screen.getByRole('button', { name: /Open the module/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Strong passwords' });
    expect(
      await screen.findByText('This module needs the connection: it opens once you are back online.', {
        selector: '.dialog *',
      }),
    ).toBeVisible();
    expect(dialog.querySelector('iframe')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });
});

describe('PackageRow: the bridge’s messages (origin and window checked)', () => {
  it('hears "ready" only from its frame and the packages origin', async () => {
    const { frame, source } = await openPlaying();
    post(bridge('ready'), window.location.origin, source);
    post(bridge('ready'), PACKAGES, window);
    expect(frame).toHaveAttribute('data-ready', 'false');
    post(bridge('ready'), PACKAGES, source);
    expect(frame).toHaveAttribute('data-ready', 'true');
  });

  it('closing asks the bridge to save, waits for its "terminated", then the player reads the page again', async () => {
    const { frame, source, onPackageClosed } = await openPlaying();
    post(bridge('ready'), PACKAGES, source);
    const sent = vi.spyOn(frame.contentWindow!, 'postMessage');
    await userEvent.click(screen.getByRole('button', { name: 'Close and save' }));
    expect(sent).toHaveBeenCalledWith(TERMINATE_MESSAGE, PACKAGES);
    expect(screen.getByText('Saving your progress…')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Close and save' })).toBeDisabled();

    // A forged "terminated" (another origin, or another window of the packages origin) changes nothing.
    post(bridge('terminated'), window.location.origin, source);
    post(bridge('terminated'), PACKAGES, window);
    expect(screen.getByRole('dialog', { name: 'Strong passwords' })).toBeVisible();
    expect(onPackageClosed).not.toHaveBeenCalled();

    post(bridge('terminated'), PACKAGES, source);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onPackageClosed).toHaveBeenCalledTimes(1);
  });

  it('a launch that cannot start says so (the bridge’s "error" before "ready")', async () => {
    const { source } = await openPlaying();
    post(bridge('error'), PACKAGES, window);
    expect(screen.getByTitle('Strong passwords')).toBeInTheDocument();
    post(bridge('error'), PACKAGES, source);
    expect(
      await screen.findByText('The module could not open. Close this window and try again later.'),
    ).toBeVisible();
    expect(screen.queryByTitle('Strong passwords')).toBeNull();
  });

  it('says so when the server refused a save for the learner’s budget (the bridge’s "refused", issue 36)', async () => {
    const { source, frame } = await openPlaying();
    post(bridge('ready'), PACKAGES, source);
    const refused = { ...bridge('refused'), detail: 'quota.commitsPerMinute' };
    // Only from its frame and origin, and only a catalogue key of the quotas.
    post(refused, PACKAGES, window);
    post({ ...refused, detail: '<b>free text</b>' }, PACKAGES, source);
    expect(screen.queryByRole('alert')).toBeNull();
    post(refused, PACKAGES, source);
    expect(
      await screen.findByText('This module is saving too often: your progress will be saved in a moment.'),
    ).toBeVisible();
    // The module stays open.
    expect(frame).toBeInTheDocument();
  });

  it('says why a launch was refused for the learner’s budget (issue 36)', async () => {
    mockApi({
      'POST packages/launches': {
        status: 429,
        body: { errors: [{ status: '429', code: 'TOO_MANY_REQUESTS', detail: 'quota.launchesPerMinute' }] },
      },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderRow();
    await userEvent.click(screen.getByRole('button', { name: 'Open the module: Strong passwords' }));
    expect(
      await screen.findByText('You have opened modules many times in a minute: try again in a moment.'),
    ).toBeVisible();
  });

  it('a package finishing by itself has the page read again, the dialog stays until closed', async () => {
    const { source, onPackageClosed } = await openPlaying();
    post(bridge('ready'), PACKAGES, source);
    post(bridge('terminated'), PACKAGES, source);
    expect(onPackageClosed).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog', { name: 'Strong passwords' })).toBeVisible();
    // Already saved: closing does not wait.
    await userEvent.click(screen.getByRole('button', { name: 'Close and save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onPackageClosed).toHaveBeenCalledTimes(2);
  });
});

describe('PackageRow: a course of several SCOs (issue 39)', () => {
  const course = {
    ...bridge('course'),
    toc: {
      id: 'org',
      title: 'Golf',
      sco: false,
      children: [
        {
          id: 'playing',
          title: 'Playing the game',
          sco: false,
          children: [
            { id: 'rules', title: 'Rules', sco: true },
            { id: 'par', title: 'Par', sco: true },
          ],
        },
        { id: 'quiz', title: 'Quiz', sco: true },
        { id: 'secret', title: 'Hidden', sco: true, hidden: true },
      ],
    },
    items: {
      rules: { completion: 'completed', success: 'unknown', choice: true },
      par: { completion: 'unknown', success: 'unknown', choice: true },
      quiz: { completion: 'unknown', success: 'unknown', choice: false },
    },
    current: 'par',
    canContinue: false,
    canPrevious: true,
    ended: false,
  };

  it('lists the contents with each SCO’s status and the current step; moves go to the bridge, closed ones are disabled', async () => {
    const { source, frame } = await openPlaying();
    post(bridge('ready'), PACKAGES, source);
    // Only from its frame.
    post(course, PACKAGES, window);
    expect(screen.queryByRole('navigation')).toBeNull();
    post(course, PACKAGES, source);
    const nav = await screen.findByRole('navigation', { name: 'Module contents' });
    expect(nav).toBeVisible();
    expect(screen.getByText('Playing the game')).toBeVisible();
    expect(screen.queryByText('Hidden')).toBeNull();
    const rules = screen.getByRole('button', { name: 'Rules Completed' });
    const par = screen.getByRole('button', { name: 'Par Not started' });
    expect(par).toHaveAttribute('aria-current', 'step');
    expect(screen.getByRole('button', { name: 'Quiz Not started' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('You are in: Par')).toBeInTheDocument();
    expect(frame).toHaveAttribute('data-sco', 'par');

    const sent = vi.spyOn(frame.contentWindow!, 'postMessage');
    await userEvent.click(rules);
    expect(sent).toHaveBeenCalledWith(
      { source: 'parcours-player', type: 'navigate', request: 'choice', target: 'rules' },
      PACKAGES,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(sent).toHaveBeenLastCalledWith(
      { source: 'parcours-player', type: 'navigate', request: 'previous' },
      PACKAGES,
    );
  });

  it('ignores a course message that is not one (a malformed table of contents)', async () => {
    const { source } = await openPlaying();
    post(bridge('ready'), PACKAGES, source);
    post({ ...course, toc: { id: 7, title: 'x' } }, PACKAGES, source);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});

describe('PackageRow: a cmi5 course of several AUs (issue 39)', () => {
  const course = (launch: string | null) =>
    ({
      type: 'package',
      title: 'Updates',
      package: {
        kind: 'cmi5',
        title: 'Updates and backups',
        width: null,
        height: null,
        launch,
        units: [
          { title: 'Quiz', ownWindow: false },
          { title: 'Checklist', ownWindow: false },
        ],
      },
    }) as unknown as PublicRowView;
  const renderCourse = (launch: string | null) => renderRow(course(launch));
  const renderRow = (courseRow: PublicRowView) =>
    render(
      <PackageRow
        row={courseRow}
        rowIndex={-1}
        idPrefix="p-1"
        labelledBy="p-1-title"
        value={null}
        onChange={() => undefined}
        readOnly={false}
        correction={null}
        announce={() => undefined}
        packagePlay={{ lessonId: 'l-1', pageId: 'p-1' }}
      />,
    );

  it('lists its units, each launched by its place', async () => {
    const fetchMock = mockApi({
      'POST packages/launches': {
        body: { url: BRIDGE, origin: PACKAGES, expiresAt: '2026-11-27T15:00:00.000Z' },
      },
    });
    renderCourse('L-1');
    const nav = screen.getByRole('navigation', { name: 'Units of Updates and backups' });
    expect(nav.querySelectorAll('li')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Open the unit: Checklist' }));
    await screen.findByTitle('Updates and backups');
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ lessonId: 'l-1', pageId: 'p-1', launch: 'L-1', au: 1 });
  });

  it.each([
    ['notAttempted', 'Not started'],
    ['inProgress', 'In progress'],
    ['completed', 'Completed'],
    ['passed', 'Passed'],
    ['failed', 'Failed'],
    ['satisfied', 'Validated'],
    ['waived', 'Exempted'],
  ])('shows a unit’s status %s as text, in its button’s description (decision 0071)', (status, text) => {
    const row = course('L-1');
    const pkg = (row as unknown as { package: { units: Record<string, unknown>[] } }).package;
    pkg.units = [
      { ...pkg.units[0], status },
      { ...pkg.units[1], status: 'notAttempted' },
    ];
    renderRow(row);
    const [first] = screen.getAllByRole('listitem');
    expect(first!.textContent).toContain(text);
    const button = screen.getByRole('button', { name: 'Open the unit: Quiz' });
    expect(button).toHaveAccessibleDescription(new RegExp(`^${text} `));
    expect(button.getAttribute('aria-describedby')?.split(' ')).toContain('p-1-unit-0-status');
    expect(document.getElementById('p-1-unit-0-status')?.textContent).toBe(text);
    expect(screen.getByRole('button', { name: 'Open the unit: Checklist' })).toHaveAccessibleDescription(
      /^Not started/,
    );
  });

  it('lists units without a status when the page gives none, and an unknown status is not shown', () => {
    const row = course('L-1');
    const pkg = (row as unknown as { package: { units: Record<string, unknown>[] } }).package;
    pkg.units = [{ ...pkg.units[0], status: 'bogus' }, pkg.units[1]!];
    renderRow(row);
    expect(document.getElementById('p-1-unit-0-status')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open the unit: Quiz' }).getAttribute('aria-describedby')).toBe(
      'p-1-package-note',
    );
  });

  it('plays again in Review once the course is satisfied (its page has no launch left)', async () => {
    const fetchMock = mockApi({
      'POST packages/launches': {
        body: { url: BRIDGE, origin: PACKAGES, expiresAt: '2026-11-27T15:00:00.000Z' },
      },
    });
    renderCourse(null);
    expect(screen.getByText(/review its units/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Open the unit: Quiz' }));
    await screen.findByTitle('Updates and backups');
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({
      lessonId: 'l-1',
      pageId: 'p-1',
      launch: 'relaunch',
      au: 0,
      launchMode: 'Review',
    });
  });
});

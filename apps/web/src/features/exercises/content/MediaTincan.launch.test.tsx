import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, vi } from 'vitest';
import { mockApi } from '../../../test/api-mock';
import { MediaTincan, TincanFrame } from './MediaTincan';
import { withLaunchParams } from './MediaTincan.launch';
import { FULL_SEEN_RATIO, SEEN_POLL_MS, seenFraction } from './MediaTincan.seen';

const PARAMS = {
  endpoint: 'http://en.localhost/api/xapi/',
  auth: 'Basic a2V5OnNlY3JldA==',
  actor: { objectType: 'Agent', name: 'lea', account: { homePage: 'http://en.localhost', name: 'u-1' } },
  registration: '00000000-0000-0000-0000-000000000000',
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('withLaunchParams (SPEC §7)', () => {
  it('adds endpoint, auth, actor as JSON and registration, keeping the query the address has', () => {
    const url = new URL(withLaunchParams('http://en.localhost/api/tincan/c/m/index.html?lang=fr', PARAMS));
    expect(url.pathname).toBe('/api/tincan/c/m/index.html');
    expect(url.searchParams.get('lang')).toBe('fr');
    expect(url.searchParams.get('endpoint')).toBe(PARAMS.endpoint);
    expect(url.searchParams.get('auth')).toBe(PARAMS.auth);
    expect(JSON.parse(url.searchParams.get('actor') ?? '')).toEqual(PARAMS.actor);
    expect(url.searchParams.get('registration')).toBe(PARAMS.registration);
  });
});

describe('seenFraction (SPEC §4: fully seen past 90 %)', () => {
  it.each([
    [{ top: 0, height: 600 }, 800, 1],
    [{ top: 200, height: 600 }, 800, 1],
    [{ top: 300, height: 600 }, 800, 500 / 600],
    [{ top: 260, height: 600 }, 800, 0.9],
    [{ top: 900, height: 600 }, 800, 0],
    [{ top: -400, height: 600 }, 800, 1],
    [{ top: 0, height: 0 }, 800, 0],
  ])('%o in a %i px viewport → %f', (rect, vh, expected) => {
    expect(seenFraction(rect, vh)).toBeCloseTo(expected, 5);
  });
  it('the threshold and the polling period are those of the spec', () => {
    expect(FULL_SEEN_RATIO).toBe(0.9);
    expect(SEEN_POLL_MS).toBe(200);
  });
});

/** A module page being played (with its launch). */
const renderLaunched = () =>
  render(
    <TincanFrame
      url="/api/tincan/ctx/module/index.html"
      title="Module"
      launch={{ lessonId: 'l-1', pageId: 'p-1', launch: 'L' }}
    />,
  );

/** A module page whose launch the server refuses with `error`; its console warning silenced. */
function refusedLaunch(status: number, error: Record<string, string>) {
  mockApi({ 'POST xapi/launches': { status, body: { errors: [error] } } });
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  renderLaunched();
  return warn;
}

describe('TincanFrame with a launch', () => {
  it('asks the LRS for the launch, then opens the module with its parameters', async () => {
    const fetchMock = mockApi({ 'POST xapi/launches': { status: 201, body: PARAMS } });
    renderLaunched();
    expect(screen.getByRole('status')).toBeInTheDocument();
    const frame = (await screen.findByTitle('Module')) as HTMLIFrameElement;
    const src = new URL(frame.src);
    expect(src.searchParams.get('auth')).toBe(PARAMS.auth);
    expect(src.searchParams.get('registration')).toBe(PARAMS.registration);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ lessonId: 'l-1', pageId: 'p-1', launch: 'L' });
  });

  it('opens the module without parameters when the launch is refused', async () => {
    const warn = refusedLaunch(403, { status: '403', code: 'Forbidden' });
    const frame = (await screen.findByTitle('Module')) as HTMLIFrameElement;
    expect(new URL(frame.src).searchParams.has('auth')).toBe(false);
    warn.mockRestore();
  });

  it('says so when the launch is refused for the learner’s budget, and opens the module all the same', async () => {
    const warn = refusedLaunch(429, {
      status: '429',
      code: 'TOO_MANY_REQUESTS',
      detail: 'quota.launchesPerMinute',
    });
    expect(
      await screen.findByText('You have opened modules many times in a minute: try again in a moment.'),
    ).toBeInTheDocument();
    expect(screen.getByTitle('Module')).toBeInTheDocument();
    warn.mockRestore();
  });

  it('turns data-full-seen true once the frame is in view (polled)', async () => {
    render(<TincanFrame url="/api/tincan/ctx/module/index.html" title="Module" />);
    const frame = screen.getByTitle('Module');
    expect(frame.getAttribute('data-full-seen')).toBe('false');
    vi.spyOn(frame, 'getBoundingClientRect').mockReturnValue({ top: 0, height: 600 } as DOMRect);
    await waitFor(() => expect(frame.getAttribute('data-full-seen')).toBe('true'));
  });
});

describe('a module in a content row', () => {
  it('opens in the tincan dialog and closes with its button', async () => {
    const user = userEvent.setup();
    render(
      <MediaTincan
        row={{ type: 'media-tincan', title: 'Fire', tincan: { url: '/api/tincan/ctx/m/index.html' } }}
        rowIndex={2}
        idPrefix="r"
        labelledBy="t"
        value={null}
        onChange={() => undefined}
        readOnly={false}
        correction={null}
        announce={() => undefined}
      />,
    );
    expect(screen.queryByTitle('Fire')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Fire/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Fire' });
    expect(dialog.querySelector('iframe.tincan-frame')).not.toBeNull();
    await user.click(screen.getAllByRole('button', { name: /module/i }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('a module whose page got scored', () => {
  it('keeps its address (and its run) when the launch goes away', async () => {
    mockApi({ 'POST xapi/launches': { status: 201, body: PARAMS } });
    const url = '/api/tincan/ctx/module/index.html';
    const { rerender } = render(
      <TincanFrame url={url} title="Module" launch={{ lessonId: 'l-1', pageId: 'p-1', launch: 'L' }} />,
    );
    const frame = (await screen.findByTitle('Module')) as HTMLIFrameElement;
    const src = frame.src;
    expect(new URL(src).searchParams.get('auth')).toBe(PARAMS.auth);
    rerender(<TincanFrame url={url} title="Module" launch={null} />);
    expect((screen.getByTitle('Module') as HTMLIFrameElement).src).toBe(src);
    rerender(<TincanFrame url="/api/tincan/ctx/other/index.html" title="Module" launch={null} />);
    expect(new URL((screen.getByTitle('Module') as HTMLIFrameElement).src).searchParams.has('auth')).toBe(
      false,
    );
  });
});

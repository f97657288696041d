import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { clearAllExceptContext, getDontShowAddToPhone, STORAGE_KEYS } from '../../lib/storage';
import { captureInstallPrompt, type BeforeInstallPromptEvent } from './install-event';
import { InstallOffer } from './InstallOffer';
import { INSTALL_CHECK_DELAY_MS } from './install-rule';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';

/** A phone-sized screen (the xs breakpoint), not running from the home screen. */
function phone(userAgent: string) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: !query.includes('display-mode'),
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList,
  );
}

/** What Chrome dispatches when the app can be installed. */
function offerInstall(outcome: 'accepted' | 'dismissed' = 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent;
  event.prompt = vi.fn(() => Promise.resolve());
  event.userChoice = Promise.resolve({ outcome });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

/** Renders the shell's slot on a clock the test moves (the 5 s check of docs/product.md §9). */
function renderOffer() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return render(<InstallOffer />);
}

/** Moves the clock past the check; real timers again so the banner's lazy chunk can arrive. */
function afterFiveSeconds() {
  act(() => {
    vi.advanceTimersByTime(INSTALL_CHECK_DELAY_MS - 1);
  });
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(1);
  });
  vi.useRealTimers();
}

/** Nothing offered: the decision is taken synchronously at 5 s, and an offer is recorded. */
function expectNoOffer() {
  expect(window.sessionStorage.getItem(STORAGE_KEYS.installOffered)).toBeNull();
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
}

/** A new visit: a new tab of the same phone (local storage stays, session storage goes). */
function newVisit() {
  window.sessionStorage.clear();
}

captureInstallPrompt(window);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('install offer (SPEC §4, §9)', () => {
  it('is offered 5 s after start, once, and never again once refused', async () => {
    phone(ANDROID);
    const first = renderOffer();
    const event = offerInstall();
    expect(event.defaultPrevented).toBe(true);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    afterFiveSeconds();
    const banner = await screen.findByRole('region', { name: 'Install the app' });
    expect(banner).toHaveTextContent('to your home screen');

    fireEvent.click(screen.getByRole('button', { name: 'No thanks' }));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(getDontShowAddToPhone()).toBe(true);
    expect(event.prompt).not.toHaveBeenCalled();
    first.unmount();

    // The flag outlives signing out (docs/product.md §4 keeps only the context... and this phone's answer).
    clearAllExceptContext();
    expect(window.localStorage.getItem(STORAGE_KEYS.dontShowAddToPhone)).toBe('1');
    newVisit();
    renderOffer();
    offerInstall();
    afterFiveSeconds();
    expectNoOffer();
  });

  it('is not offered twice in the same tab when left unanswered', async () => {
    phone(ANDROID);
    const first = renderOffer();
    offerInstall();
    afterFiveSeconds();
    expect(await screen.findByRole('region', { name: 'Install the app' })).toBeInTheDocument();
    first.unmount();
    renderOffer();
    offerInstall();
    afterFiveSeconds();
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(getDontShowAddToPhone()).toBe(false);
  });

  it('opens the browser’s install dialog from its Install button', async () => {
    phone(ANDROID);
    renderOffer();
    const event = offerInstall('accepted');
    afterFiveSeconds();
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Install' }));
    });
    expect(event.prompt).toHaveBeenCalledTimes(1);
    // The answer is recorded once the browser's userChoice promise settles.
    await waitFor(() => expect(getDontShowAddToPhone()).toBe(true));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('explains Share → Add to Home Screen on an iPhone, in French too, once', async () => {
    phone(IPHONE);
    await changeLanguage('fr');
    renderOffer();
    afterFiveSeconds();
    const banner = await screen.findByRole('region', { name: "Installer l'application" });
    expect(banner).toHaveTextContent("touchez le bouton Partager de Safari, puis « Sur l'écran d'accueil »");
    fireEvent.click(screen.getByRole('button', { name: "J'ai compris" }));
    expect(getDontShowAddToPhone()).toBe(true);
  });

  it('offers nothing on a browser without a prompt that is not iOS, nor on a desktop', async () => {
    phone(ANDROID);
    renderOffer();
    afterFiveSeconds();
    expectNoOffer();
  });
});

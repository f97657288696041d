import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: the one the test setup imported already counts the screen shown. */
async function freshModule() {
  vi.resetModules();
  return import('./after-first-screen');
}

describe('what waits for the first screen (issue 11)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts once the screen says its content is shown, not before', async () => {
    const { afterFirstScreen, firstScreenShown, SHOWN_DEADLINE_MS } = await freshModule();
    let started = false;
    void afterFirstScreen().then(() => {
      started = true;
    });
    await vi.advanceTimersByTimeAsync(SHOWN_DEADLINE_MS - 100);
    expect(started).toBe(false);
    firstScreenShown();
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBe(true);
  });

  it('starts anyway a while after the page loaded when no screen says so', async () => {
    const { afterFirstScreen, SHOWN_DEADLINE_MS } = await freshModule();
    let started = false;
    void afterFirstScreen().then(() => {
      started = true;
    });
    await vi.advanceTimersByTimeAsync(SHOWN_DEADLINE_MS - 100);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toBe(true);
  });
});

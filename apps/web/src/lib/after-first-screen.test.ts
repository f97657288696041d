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

  it('resumes each waiter in a task of its own, in the order they asked', async () => {
    const { afterFirstScreen, firstScreenShown } = await freshModule();
    const order: string[] = [];
    const waiter = (name: string) =>
      void afterFirstScreen().then(() => {
        order.push(name);
        // A microtask queued by one waiter runs before the next waiter starts: separate tasks.
        void Promise.resolve().then(() => order.push(`${name} done`));
      });
    waiter('a');
    waiter('b');
    waiter('c');
    firstScreenShown();
    await vi.advanceTimersByTimeAsync(50);
    expect(order).toEqual(['a', 'a done', 'b', 'b done', 'c', 'c done']);
  });
});

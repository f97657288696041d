import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk, loadErrorKind } from './load-errors';

describe('loadErrorKind (SPEC §8)', () => {
  it.each<[string, unknown, ReturnType<typeof loadErrorKind>]>([
    [
      'Chrome, missing script chunk',
      new TypeError('Failed to fetch dynamically imported module: https://x/assets/Player-abc.js'),
      'chunk-missing',
    ],
    ['Firefox', new TypeError('error loading dynamically imported module: https://x/a.js'), 'chunk-missing'],
    ['Safari', new TypeError('Importing a module script failed.'), 'chunk-missing'],
    ['Vite, style chunk', new Error('Unable to preload CSS for /assets/Player-abc.css'), 'style-chunk'],
    ['our own time-out', new ChunkLoadError('chunk-timeout', 'late'), 'chunk-timeout'],
    ['a rendering bug', new TypeError("Cannot read properties of undefined (reading 'x')"), null],
    ['not an error', 'Failed to fetch dynamically imported module', null],
  ])('%s', (_label, error, kind) => {
    expect(loadErrorKind(error)).toBe(kind);
  });
});

describe('loadChunk', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes a loaded module through', async () => {
    await expect(loadChunk(() => Promise.resolve({ Screen: 1 }))).resolves.toEqual({ Screen: 1 });
  });

  it('gives up after the 120 s chunk time-out (SPEC §9) with a chunk-load time-out error', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise<never>(() => undefined));
    const outcome = pending.catch((error: unknown) => error);
    vi.advanceTimersByTime(CHUNK_LOAD_TIMEOUT_MS - 1);
    vi.advanceTimersByTime(1);
    const error = await outcome;
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).kind).toBe('chunk-timeout');
  });

  it('does not time out a chunk that arrives in time', async () => {
    vi.useFakeTimers();
    let resolve!: (v: string) => void;
    const pending = loadChunk(() => new Promise<string>((r) => (resolve = r)));
    vi.advanceTimersByTime(CHUNK_LOAD_TIMEOUT_MS - 1);
    resolve('module');
    await vi.advanceTimersByTimeAsync(10);
    await expect(pending).resolves.toBe('module');
  });

  it('turns a missing chunk into a chunk-missing error and leaves other errors alone', async () => {
    const missing = await loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/a.js')),
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ChunkLoadError);
    expect((missing as ChunkLoadError).kind).toBe('chunk-missing');
    const bug = new RangeError('bug');
    await expect(loadChunk(() => Promise.reject(bug))).rejects.toBe(bug);
  });
});

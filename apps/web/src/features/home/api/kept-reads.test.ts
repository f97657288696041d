import { ApiError } from '../../../lib/api-client';
import { endSession, setSessionUser } from '../../../lib/session';
import { me } from '../../../test/fixtures';
import { isNetworkError } from '../../../lib/api-errors';
import { memoryKeyValue } from '../../../lib/device-store';
import { HomeReads, homeReads, withKeptCopy } from './kept-reads';

const offline = () => Promise.reject(new TypeError('Failed to fetch'));

describe('the home reads kept on the device', () => {
  it('keeps the answer per user and leaves no other user’s copy behind', async () => {
    const kv = memoryKeyValue();
    const reads = new HomeReads(kv);
    await reads.keep('ann', 'lessons', ['a'], new Date('2026-11-23T08:00:00Z'));
    expect(await reads.read('ann', 'lessons')).toEqual({ savedAt: '2026-11-23T08:00:00.000Z', data: ['a'] });
    expect(await reads.read('bob', 'lessons')).toBeUndefined();

    await kv.set('lesson:l1', { kept: 'by the offline lessons' });
    await reads.keep('bob', 'lessons', ['b']);
    expect(await reads.read('ann', 'lessons')).toBeUndefined();
    expect(await reads.read('bob', 'lessons')).toMatchObject({ data: ['b'] });
    // The lesson store's keys share the database and are not the home's to drop.
    expect(await kv.keys()).toEqual(['lesson:l1', 'home:bob:lessons']);

    await reads.clear();
    expect(await kv.keys()).toEqual(['lesson:l1']);
  });

  it.each([
    [new TypeError('Failed to fetch'), true],
    [new TypeError('NetworkError when attempting to fetch resource.'), true],
    [new TypeError('Load failed'), true],
    [new TypeError("Cannot read properties of undefined (reading 'data')"), false],
    [new ApiError(503, undefined, 'lessons'), false],
    [new DOMException('The operation was aborted.', 'AbortError'), false],
  ])('tells a network failure (%s) apart: %s', (error, expected) => {
    expect(isNetworkError(error)).toBe(expected);
  });
});

describe('withKeptCopy', () => {
  it('writes the network answer, then answers it when the network gives none', async () => {
    const reads = new HomeReads(memoryKeyValue());
    await expect(withKeptCopy('ann', 'lessons', async () => ['fresh'], reads)).resolves.toEqual(['fresh']);
    expect(await reads.read('ann', 'lessons')).toMatchObject({ data: ['fresh'] });

    await expect(withKeptCopy('ann', 'lessons', offline, reads)).resolves.toEqual(['fresh']);
    // Online again: the network wins and refreshes the copy.
    await expect(withKeptCopy('ann', 'lessons', async () => ['newer'], reads)).resolves.toEqual(['newer']);
    expect(await reads.read('ann', 'lessons')).toMatchObject({ data: ['newer'] });
  });

  it('answers without waiting for the copy to be written, and a later read sees the copy', async () => {
    const kv = memoryKeyValue();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // A slow device store: the write lands only when the gate opens.
    const slow = { ...kv, set: async (key: string, value: unknown) => gate.then(() => kv.set(key, value)) };
    const reads = new HomeReads(slow);
    await expect(withKeptCopy('ann', 'lessons', async () => ['fresh'], reads)).resolves.toEqual(['fresh']);
    expect(await kv.keys()).toEqual([]);
    const copy = reads.read('ann', 'lessons');
    open();
    await expect(copy).resolves.toMatchObject({ data: ['fresh'] });
  });

  it('never answers another user’s copy, and fails as before without one', async () => {
    const reads = new HomeReads(memoryKeyValue());
    await withKeptCopy('ann', 'lessons', async () => ['ann’s'], reads);
    await expect(withKeptCopy('bob', 'lessons', offline, reads)).rejects.toThrow('Failed to fetch');
    await expect(withKeptCopy(null, 'lessons', offline, reads)).rejects.toThrow('Failed to fetch');
  });

  it('lets refusals and bugs through: only a missing network answer reads the copy', async () => {
    const reads = new HomeReads(memoryKeyValue());
    await withKeptCopy('ann', 'lessons', async () => ['kept'], reads);
    const refused = new ApiError(401, undefined, 'lessons');
    await expect(withKeptCopy('ann', 'lessons', () => Promise.reject(refused), reads)).rejects.toBe(refused);
    const bug = new TypeError('x is not a function');
    await expect(withKeptCopy('ann', 'lessons', () => Promise.reject(bug), reads)).rejects.toBe(bug);
  });

  it('is cleared when the session ends', async () => {
    setSessionUser(me());
    await withKeptCopy(me()._id, 'lessons', async () => ['kept']);
    expect(await homeReads.read(me()._id, 'lessons')).toBeDefined();
    endSession();
    await vi.waitFor(async () => expect(await homeReads.read(me()._id, 'lessons')).toBeUndefined());
  });
});

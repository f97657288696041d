import { describe, expect, it, vi } from 'vitest';
import { deviceStore } from '../../../lib/device-store';
import { deviceForgotten, endExpiredSession, endSession, setSessionUser } from '../../../lib/session';
import { mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { pageDoc, results } from '../test-pages';
import { answerQueue, clearDevice, lessonStore, mediaUrls, queueOwner, sendQueue } from './device';
import type { OfflinePage } from './lesson-store';

const page = (block: unknown) => ({ block }) as unknown as OfflinePage;

describe('the media a kept page shows (decision 0020)', () => {
  it('finds every file URL of the pages, once, in rows, statements and settings', () => {
    const pages = [
      page({
        content: {
          statement: { html: '<p><img src="/api/files/a1/download?u=1&amp;exp=2&amp;sig=x" alt=""></p>' },
          sections: [{ rows: [{ type: 'image', url: '/api/files/b2/download' }] }],
        },
      }),
      page({ settings: { audio: '/api/files/c3/download' }, again: '/api/files/b2/download' }),
      page(null),
    ];
    expect(mediaUrls(pages)).toEqual([
      '/api/files/a1/download?u=1&exp=2&sig=x',
      '/api/files/b2/download',
      '/api/files/c3/download',
    ]);
  });

  it('keeps at most 40 files a lesson', () => {
    const many = Array.from({ length: 60 }, (_, i) => page({ url: `/api/files/f${i}/download` }));
    expect(mediaUrls(many)).toHaveLength(40);
  });
});

const slide = (lessonId: string) => ({
  lessonId,
  nodeId: 'n1',
  pageId: 'p1',
  fromPageId: null,
  fromNodeId: null,
  answers: null,
  title: 'Slide',
});

/** The device store's keys, the answer queues apart. */
const otherKeys = async () => (await deviceStore.keys()).filter((k) => !k.startsWith('queue')).sort();

describe('signing out (decisions 0013, 0020)', () => {
  it('clears the lessons, the queue and the home copies kept for an offline cold start', async () => {
    setSessionUser(me('public', 'u-1'), 'token');
    // The setup's sign-out clears the device in the background: done before this test writes.
    await deviceForgotten();
    await lessonStore.save({ lessonId: 'l1', savedAt: '', cursor: null, cursorNodeId: null, upcoming: [] });
    await answerQueue.enqueue(slide('l1'));
    // As features/home/api/kept-reads.ts writes them, in the same store.
    await deviceStore.set('home:u-1:lessons', { savedAt: '', data: [] });
    expect(await otherKeys()).toEqual(['home:u-1:lessons', 'lesson:l1']);
    expect(await deviceStore.keys()).toContain('queue:u-1');
    await clearDevice('signOut');
    expect(await deviceStore.keys()).toEqual([]);
    expect(answerQueue.snapshot().items).toEqual([]);
  });
});

describe('one device, several learners (issue 29, decision 0045)', () => {
  it("a session that ends by itself keeps the learner's answers, and only theirs are sent, with their session", async () => {
    setSessionUser(me('public', 'u-a'), 'token-a');
    await deviceForgotten();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await answerQueue.enqueue(slide('la'));
    await lessonStore.save({ lessonId: 'la', savedAt: '', cursor: null, cursorNodeId: null, upcoming: [] });
    expect(queueOwner()).toBe('u-a');

    // A's token expires: the lessons go, the answer stays for A.
    endExpiredSession('/');
    await vi.waitFor(async () => expect(await otherKeys()).toEqual([]));
    expect(await deviceStore.get('queue:u-a')).toMatchObject({ items: [{ lessonId: 'la' }] });

    // B signs in online: B's queue is empty, nothing of A's is sent with B's token.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const fetchMock = mockApi({
      'PATCH lessons/la/pages/current': { body: pageDoc('p1', { results: results() }) },
    });
    setSessionUser(me('public', 'u-b'), 'token-b');
    await vi.waitFor(() => expect(queueOwner()).toBe('u-b'));
    await vi.waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    expect(await sendQueue()).toBeNull();
    // B signs out and confirms: A's answer is not B's to throw away.
    await clearDevice('signOut');
    expect(await deviceStore.get('queue:u-a')).toMatchObject({ items: [{ lessonId: 'la' }] });
    expect(fetchMock).not.toHaveBeenCalled();
    endSession();

    // A signs in again: the answer goes, with A's token, once.
    setSessionUser(me('public', 'u-a'), 'token-a2');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls[0]!;
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer token-a2');
    await vi.waitFor(() => expect(answerQueue.snapshot().items).toEqual([]));
    vi.restoreAllMocks();
  });
});

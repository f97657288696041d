import { describe, expect, it } from 'vitest';
import { deviceStore } from '../../../lib/device-store';
import { answerQueue, clearDevice, lessonStore, mediaUrls } from './device';
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

describe('signing out (decisions 0013, 0020)', () => {
  it('clears the lessons, the queue and the home copies kept for an offline cold start', async () => {
    // The setup's sign-out clears the device in the background (memory store: microtasks only).
    await new Promise((resolve) => setTimeout(resolve, 0));
    await lessonStore.save({ lessonId: 'l1', savedAt: '', cursor: null, cursorNodeId: null, upcoming: [] });
    await answerQueue.enqueue({
      lessonId: 'l1',
      nodeId: 'n1',
      pageId: 'p1',
      fromPageId: null,
      fromNodeId: null,
      answers: null,
      title: 'Slide',
    });
    // As features/home/api/kept-reads.ts writes them, in the same store.
    await deviceStore.set('home:u-1:lessons', { savedAt: '', data: [] });
    expect((await deviceStore.keys()).sort()).toEqual(['home:u-1:lessons', 'lesson:l1', 'queue']);
    await clearDevice();
    expect(await deviceStore.keys()).toEqual([]);
    expect(answerQueue.snapshot().items).toEqual([]);
  });
});

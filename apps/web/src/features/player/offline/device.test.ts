import { describe, expect, it } from 'vitest';
import { mediaUrls } from './device';
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

import { describe, expect, it } from 'vitest';
import { VIDEO_URL } from '../../src/content/schemas/rows';

// docs/product.md §5: a video link is embedded only in the watch or short form; the importer refuses others.
describe('VIDEO_URL (content video links)', () => {
  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/76979871',
    'https://www.dailymotion.com/video/x7tgad0',
    'https://dai.ly/x7tgad0',
  ])('accepts %s', (url) => expect(VIDEO_URL.test(url)).toBe(true));

  it.each([
    ['an embed form', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['a YouTube Shorts page', 'https://www.youtube.com/shorts/dQw4w9WgXcQ'],
    ['a playlist', 'https://www.youtube.com/playlist?list=PL123456'],
    ['an id too short', 'https://www.youtube.com/watch?v=abc'],
    ['plain http', 'http://youtu.be/dQw4w9WgXcQ'],
    ['another site', 'https://example.com/watch?v=dQw4w9WgXcQ'],
    ['a vimeo showcase', 'https://vimeo.com/showcase/123456'],
  ])('refuses %s', (_label, url) => expect(VIDEO_URL.test(url)).toBe(false));
});

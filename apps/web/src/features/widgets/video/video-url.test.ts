import { describe, expect, it } from 'vitest';
import { videoEmbedUrl } from './video-url';

// docs/product.md §5: only the watch or short form of a video site is embedded.
describe('videoEmbedUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://www.dailymotion.com/video/x7tgad0', 'https://www.dailymotion.com/embed/video/x7tgad0'],
    ['https://dai.ly/x7tgad0', 'https://www.dailymotion.com/embed/video/x7tgad0'],
  ])('embeds %s', (url, embed) => expect(videoEmbedUrl(url)).toBe(embed));

  it.each([
    ['an embed form', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['a channel page', 'https://www.youtube.com/@someone'],
    ['a playlist', 'https://www.youtube.com/playlist?list=PL123456'],
    ['a watch link without id', 'https://www.youtube.com/watch'],
    ['an id with markup', 'https://www.youtube.com/watch?v=<script>'],
    ['another site', 'https://example.com/watch?v=dQw4w9WgXcQ'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['a vimeo showcase', 'https://vimeo.com/showcase/123456'],
    ['not a URL', 'youtube dQw4w9WgXcQ'],
    ['empty', ''],
  ])('refuses %s', (_label, url) => expect(videoEmbedUrl(url)).toBeNull());
});

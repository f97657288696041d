/**
 * docs/product.md §5: only the watch or short form of a video site is embedded. Returns the embed address,
 * or null (the caller logs it and offers a plain link).
 */
export function videoEmbedUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = parsed.hostname.replace(/^www\.|^m\./, '');
  const id = (value: string | null | undefined) => (value && /^[\w-]{6,20}$/.test(value) ? value : null);
  if (host === 'youtube.com' && parsed.pathname === '/watch') {
    const v = id(parsed.searchParams.get('v'));
    return v ? `https://www.youtube-nocookie.com/embed/${v}` : null;
  }
  if (host === 'youtu.be') {
    const v = id(parsed.pathname.slice(1));
    return v ? `https://www.youtube-nocookie.com/embed/${v}` : null;
  }
  if (host === 'vimeo.com') {
    const v = /^\/(\d{5,12})$/.exec(parsed.pathname)?.[1];
    return v ? `https://player.vimeo.com/video/${v}` : null;
  }
  if (host === 'dailymotion.com') {
    const v = id(/^\/video\/([\w-]+)$/.exec(parsed.pathname)?.[1]);
    return v ? `https://www.dailymotion.com/embed/video/${v}` : null;
  }
  if (host === 'dai.ly') {
    const v = id(parsed.pathname.slice(1));
    return v ? `https://www.dailymotion.com/embed/video/${v}` : null;
  }
  return null;
}

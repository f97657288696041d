import { describe, expect, it } from 'vitest';
import { paintFirst, PAINT_FIRST_MARKER } from '../../src/plugins/paint-first';

// Decision 0054: a page drawn on the server is painted before its code is asked for.
const PAGE = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="UTF-8" />
    <script>/* index.html's inline script */</script>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-2.js">
  </head>
  <body><div id="root" data-prerendered="signed-in"><h1>Bonjour</h1></div></body>
</html>`;

describe('paintFirst', () => {
  const html = paintFirst(PAGE);

  it.each([
    [
      'the marker the inline script reads, right after the charset',
      `<meta charset="UTF-8" />\n    ${PAINT_FIRST_MARKER}`,
    ],
    [
      'the entry script, inert',
      '<script type="parcours/after-paint" data-src="/assets/index-1.js"></script>',
    ],
    ['its module preload, inert', '<link rel="parcours-after-paint" href="/assets/react-2.js">'],
    ['the inline script, untouched', "<script>/* index.html's inline script */</script>"],
    ['the drawn screen, untouched', '<h1>Bonjour</h1>'],
  ])('keeps %s', (_, part) => {
    expect(html).toContain(part);
  });

  it.each([
    ['a module script', '<script type="module"'],
    ['a module preload', 'rel="modulepreload"'],
  ])('leaves no %s to start before the paint', (_, part) => {
    expect(html).not.toContain(part);
  });

  it('is idempotent, and leaves a page without a charset marker as it is', () => {
    expect(paintFirst(html)).toBe(html);
    const bare = '<html><head></head><body></body></html>';
    expect(paintFirst(bare)).toBe(bare);
  });
});

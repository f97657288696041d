import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { htmlToText, sanitizeHtml, sanitizerKind } from './sanitize-html';
// Content HTML in, what the app renders out: the same table runs on Chromium's own Sanitizer in
// e2e/tests/content-html.spec.ts, so both cleaners keep and drop the same things.
import cases from './sanitize-html.cases.json';

describe('content HTML cleaning (decision 0033)', () => {
  it('uses DOMPurify where the browser has no Sanitizer', () => {
    expect(sanitizerKind()).toBe('dompurify');
  });

  // jsdom has no HTML Sanitizer, so this runs DOMPurify with the importer's list.
  it.each(cases)('$what', ({ input, expected }) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    ['<p>Hello <em>world</em></p>', 'Hello world'],
    ['<p>a</p>\n\n<p>b</p>', 'a b'],
    ['<script>x()</script><style>p{}</style>text', 'text'],
    ['<img src=x onerror="window.__ran = true">caption', 'caption'],
    [null, ''],
  ])('reads the text of %j without running it', (html, text) => {
    expect(htmlToText(html)).toBe(text);
    expect((window as { __ran?: boolean }).__ran).toBeUndefined();
  });
});

describe('a component rendering content HTML before the cleaner is in', () => {
  it('waits for it (Suspense) and then shows the cleaned HTML', async () => {
    vi.resetModules();
    const { useSanitizedHtml, sanitizerKind: kind } = await import('./sanitize-html');
    expect(kind()).toBe('none');
    function Content() {
      return (
        <div
          data-testid="content"
          dangerouslySetInnerHTML={{ __html: useSanitizedHtml('<b onclick="x()">hi</b>') }}
        />
      );
    }
    render(
      <Suspense fallback={<p>loading</p>}>
        <Content />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect((await screen.findByTestId('content')).innerHTML).toBe('<b>hi</b>');
    expect(kind()).toBe('dompurify');
  });
});

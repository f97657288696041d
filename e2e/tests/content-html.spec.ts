import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

/**
 * Decision 0033: content HTML is cleaned by Chromium's own Sanitizer (`Element.setHTML`), and by
 * DOMPurify on browsers without one. jsdom has no Sanitizer, so the app's own module runs here in
 * Debian's Chromium: bundled as it is, on a blank page, once as it is and once with the Sanitizer
 * API taken away.
 */

const root = path.resolve(import.meta.dirname, '../..');
let bundle = '';
/** The table apps/web/src/lib/sanitize-html.test.tsx runs on DOMPurify in jsdom. */
const CASES = JSON.parse(
  readFileSync(path.join(root, 'apps/web/src/lib/sanitize-html.cases.json'), 'utf8'),
) as {
  what: string;
  input: string;
  expected: string;
}[];

test.beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(root, 'apps/web/src/lib/sanitize-html.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    // The module's one hook is React's: React comes bundled in, as in the app.
    define: { 'process.env.NODE_ENV': '"production"' },
    absWorkingDir: root,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const exports = result.outputFiles[0]!.text;
  // The module's exports, on the page's window for the test to call.
  bundle = `${exports.replace(/export\s*\{([^}]*)\};?\s*$/, (_all, names: string) => {
    const pairs = names.split(',').map((name) => name.trim().split(/\s+as\s+/));
    return `window.__clean = { ${pairs.map(([local, exported]) => `${exported ?? local}: ${local}`).join(', ')} };`;
  })}`;
});

interface Cleaner {
  sanitizerReady(): Promise<void>;
  sanitizeHtml(html: string): string;
  sanitizerKind(): string;
}

async function load(page: Page, withoutSanitizer: boolean): Promise<void> {
  await page.setContent('<!doctype html><html><body><main id="out"></main></body></html>');
  if (withoutSanitizer) {
    await page.evaluate(() => {
      delete (Element.prototype as { setHTML?: unknown }).setHTML;
      delete (window as { Sanitizer?: unknown }).Sanitizer;
    });
  }
  await page.addScriptTag({ content: bundle, type: 'module' });
  await page.waitForFunction(() => '__clean' in window);
  await page.evaluate(() => (window as unknown as { __clean: Cleaner }).__clean.sanitizerReady());
}

const clean = (page: Page, html: string) =>
  page.evaluate((input) => (window as unknown as { __clean: Cleaner }).__clean.sanitizeHtml(input), html);
const kind = (page: Page) =>
  page.evaluate(() => (window as unknown as { __clean: Cleaner }).__clean.sanitizerKind());

/** Markup that runs script in a browser if any of it survives (OWASP and DOMPurify's own vectors). */
const HOSTILE = [
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"></svg>',
  '<a href="javascript:window.__xss=1" id="go">go</a>',
  '<a href="jav&#x09;ascript:window.__xss=1" id="go">go</a>',
  '<a href=" &#14;javascript:window.__xss=1" id="go">go</a>',
  '<details open ontoggle="window.__xss=1"><summary>s</summary></details>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<object data="javascript:window.__xss=1"></object><embed src="javascript:window.__xss=1">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror="window.__xss=1">',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>"></noscript>',
  '<svg><style><img src=x onerror="window.__xss=1"></style></svg>',
  '<input autofocus onfocus="window.__xss=1"><video><source onerror="window.__xss=1"></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1"><base href="javascript:/">',
  '<div style="background:url(javascript:window.__xss=1)">s</div><style>@import "x";</style>',
  '<template><img src=x onerror="window.__xss=1"></template>',
  '<p><!--<img src=x onerror="window.__xss=1">--></p>',
];

for (const withoutSanitizer of [false, true]) {
  const cleaner = withoutSanitizer ? 'DOMPurify (no Sanitizer API)' : "Chromium's Sanitizer";
  test.describe(`content HTML cleaned by ${cleaner}`, () => {
    test('cleans by the shared table', async ({ page }) => {
      await load(page, withoutSanitizer);
      expect(await kind(page)).toBe(withoutSanitizer ? 'dompurify' : 'native');
      for (const { what, input, expected } of CASES) {
        expect(await clean(page, input), what).toBe(expected);
      }
    });

    test('runs nothing of hostile markup, rendered and clicked', async ({ page }) => {
      await load(page, withoutSanitizer);
      // The check can fail: uncleaned, the first vector runs.
      await page.evaluate((html) => (document.getElementById('out')!.innerHTML = html), HOSTILE[0]!);
      await expect.poll(() => page.evaluate(() => (window as { __xss?: number }).__xss)).toBe(1);
      await page.evaluate(() => delete (window as { __xss?: number }).__xss);

      for (const input of HOSTILE) {
        const output = await clean(page, input);
        expect(output, input).not.toMatch(
          /\son[a-z]+=|javascript:|<(script|style|iframe|object|embed|svg|math|form|input|base|meta|template|noscript)\b|style=/i,
        );
        await page.evaluate((html) => {
          document.getElementById('out')!.innerHTML = html;
          document
            .querySelectorAll<HTMLElement>('#out a, #out summary, #out button')
            .forEach((el) => el.click());
        }, output);
      }
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    });
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from '../fixtures';

/**
 * Issue 12 "Installable, per tenant": each demo tenant links its own manifest, touch icons and
 * iOS launch screens (docs/product.md §1, §3); the install prompt is offered once, 5 s after start, and
 * never again once refused (docs/product.md §4, §9).
 */

const SPLASH_SIZES = [
  '640x1136',
  '750x1334',
  '1242x2208',
  '1125x2436',
  '828x1792',
  '1242x2688',
  '1536x2048',
  '1668x2224',
  '1668x2388',
  '2048x2732',
];

interface Manifest {
  name: string;
  short_name: string;
  display: string;
  start_url: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string }[];
}

/** Fetched by the page itself, so the Host (localhost or en.localhost) picks the tenant. */
async function fetchStatus(page: Page, url: string): Promise<{ status: number; type: string | null }> {
  return page.evaluate(async (u) => {
    const res = await fetch(u);
    return { status: res.status, type: res.headers.get('content-type') };
  }, url);
}

test.describe('each demo tenant installs as itself', () => {
  for (const tenant of [
    { host: 'localhost', name: 'Parcours Formation', theme: '#1d4ed8' },
    { host: 'en.localhost', name: 'Pathways Learning', theme: '#0f766e' },
  ]) {
    test(`${tenant.host}: manifest, touch icons, splash screens and favicon`, async ({ page, baseURL }) => {
      const base = (baseURL ?? '').replace('://localhost', `://${tenant.host}`);
      await page.goto(`${base}/login`);
      await expect(page).toHaveTitle(new RegExp(tenant.name));

      // Linked once the first screen is painted (decision 0030).
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
      const manifestHref = '/manifest.webmanifest';
      const manifest = await page.evaluate(
        async (u) => (await fetch(u)).json() as Promise<Manifest>,
        manifestHref!,
      );
      expect(manifest).toMatchObject({
        name: tenant.name,
        display: 'standalone',
        start_url: '/',
        theme_color: tenant.theme,
      });
      expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
      for (const icon of manifest.icons) {
        expect(icon.src).toMatch(/^\/api\/files\//);
        expect(await fetchStatus(page, icon.src)).toEqual({ status: 200, type: 'image/png' });
      }

      // iOS reads its own links: the touch icon is the manifest's 192 px icon.
      await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
        'href',
        manifest.icons[0]!.src,
      );
      await expect(page.locator('meta[name="apple-mobile-web-app-title"]')).toHaveAttribute(
        'content',
        tenant.name,
      );
      const splash = page.locator('link[rel="apple-touch-startup-image"]');
      await expect(splash).toHaveCount(SPLASH_SIZES.length);
      for (const [i, size] of SPLASH_SIZES.entries()) {
        const link = splash.nth(i);
        const [w, h] = size.split('x').map(Number) as [number, number];
        const media = (await link.getAttribute('media')) ?? '';
        const [, cssW, cssH, ratio] =
          /device-width: (\d+)px\) and \(device-height: (\d+)px\) and \(-webkit-device-pixel-ratio: (\d)/
            .exec(media)!
            .map(Number) as [number, number, number, number];
        expect([cssW * ratio, cssH * ratio], `${size} media`).toEqual([w, h]);
        expect(await fetchStatus(page, (await link.getAttribute('href'))!)).toEqual({
          status: 200,
          type: 'image/png',
        });
      }

      // The tenant's icon replaces the default one once the first screen is painted (decision 0030).
      await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^\/api\/files\//);
      const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
      expect((await fetchStatus(page, favicon!)).status).toBe(200);
    });
  }

  // Lighthouse 12 dropped its PWA category: Chrome itself says whether the app installs, through
  // the DevTools Protocol (the checks behind the install button: manifest fields, icons, origin).
  // A normal profile, not an incognito-like test context (where nothing ever installs).
  for (const host of ['localhost', 'en.localhost']) {
    test(`${host}: Chrome finds nothing that prevents installing (Page.getInstallabilityErrors)`, async ({
      baseURL,
    }, testInfo) => {
      const profile = mkdtempSync(path.join(os.tmpdir(), 'parcours-install-'));
      const browser = await chromium.launchPersistentContext(profile, {
        ...testInfo.project.use.launchOptions,
        headless: true,
      });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        await page.goto(`${(baseURL ?? '').replace('://localhost', `://${host}`)}/login`);
        await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
        const cdp = await browser.newCDPSession(page);
        const manifest = await cdp.send('Page.getAppManifest');
        expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
        expect(manifest.errors).toEqual([]);
        // Chrome reads the manifest and its icons after the page: ask until the answer settles.
        await expect
          .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, {
            timeout: 15_000,
          })
          .toEqual([]);
      } finally {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      }
    });
  }

  test('the two tenants do not share icons', async ({ page, baseURL }) => {
    const icons = [];
    for (const host of ['localhost', 'en.localhost']) {
      await page.goto(`${(baseURL ?? '').replace('://localhost', `://${host}`)}/login`);
      // index.html's default icon until the first screen is shown; then the tenant's (decision 0030).
      const touchIcon = page.locator('link[rel="apple-touch-icon"]');
      await expect(touchIcon).not.toHaveAttribute('href', '/pwa-192x192.png');
      icons.push(await touchIcon.getAttribute('href'));
    }
    expect(icons[0]).not.toBe(icons[1]);
  });
});

/** What Chrome dispatches when the app can be installed; its prompt() is recorded. */
async function offerInstall(page: Page): Promise<void> {
  await page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>;
      userChoice: Promise<{ outcome: string }>;
    };
    event.prompt = async () => {
      (window as unknown as { promptCalls: number }).promptCalls = 1;
    };
    event.userChoice = Promise.resolve({ outcome: 'dismissed' });
    window.dispatchEvent(event);
  });
}

/**
 * The sign-in screen taken over by the app, so its 5 s check is counting: the server's HTML shows
 * the heading before any script runs, and a clock moved on before the app's effects start moves
 * nothing for it (on a slow machine `goto` returns well before that). The form ends the
 * prerender mark once hydrated, after the shell's effects; the manifest is linked once the first
 * screen is painted (decision 0030).
 */
async function signInStarted(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
}

const offered = (page: Page) => page.evaluate(() => window.sessionStorage.getItem('parcours.installOffered'));

test.describe('install prompt on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('offered once after 5 s, never again once refused; axe clean', async ({ page, context }) => {
    await page.clock.install();
    await page.goto('/login');
    await signInStarted(page);
    await offerInstall(page);
    const banner = page.getByRole('region', { name: "Installer l'application" });

    await page.clock.fastForward(5000);
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Parcours Formation');
    await expectNoSeriousA11yViolations(page);

    // Left unanswered, a reload of the same tab does not offer it again.
    await page.reload();
    await signInStarted(page);
    await offerInstall(page);
    await page.clock.fastForward(6000);
    await expect(banner).toHaveCount(0);

    // A new tab offers it again; this time it is refused.
    const second = await context.newPage();
    await second.clock.install();
    await second.goto('/login');
    await signInStarted(second);
    await offerInstall(second);
    await second.clock.fastForward(5000);
    const secondBanner = second.getByRole('region', { name: "Installer l'application" });
    await expect(secondBanner).toBeVisible();
    await secondBanner.getByRole('button', { name: 'Non merci' }).click();
    await expect(secondBanner).toHaveCount(0);
    expect(await second.evaluate(() => window.localStorage.getItem('parcours.dontShowAddToPhone'))).toBe('1');
    expect(
      await second.evaluate(() => (window as unknown as { promptCalls?: number }).promptCalls),
    ).toBeUndefined();

    // Never again on this device: the 5 s check runs and offers nothing.
    const third = await context.newPage();
    await third.clock.install();
    await third.goto('/login');
    await signInStarted(third);
    await offerInstall(third);
    await third.clock.fastForward(6000);
    expect(await offered(third)).toBeNull();
    await expect(third.getByRole('region', { name: "Installer l'application" })).toHaveCount(0);
  });

  test.describe('on an iPhone', () => {
    test.use({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });

    test('explains Share → Add to Home Screen instead, once', async ({ page }) => {
      await page.clock.install();
      await page.goto('/login');
      await signInStarted(page);
      await page.clock.fastForward(5000);
      const banner = page.getByRole('region', { name: "Installer l'application" });
      await expect(banner).toContainText(
        "touchez le bouton Partager de Safari, puis « Sur l'écran d'accueil »",
      );
      await expectNoSeriousA11yViolations(page);
      await banner.getByRole('button', { name: "J'ai compris" }).click();
      await expect(banner).toHaveCount(0);
      expect(await page.evaluate(() => window.localStorage.getItem('parcours.dontShowAddToPhone'))).toBe('1');
    });
  });
});

test.describe('a new version deployed while the app is open (SPEC §8)', () => {
  for (const chunk of [
    { kind: 'script chunk', pattern: /\/assets\/LegalPage-[^/]+\.js$/ },
    { kind: 'style chunk', pattern: /\/assets\/LegalPage-[^/]+\.css$/ },
  ]) {
    test(`a ${chunk.kind} gone from the server offers to reload instead of a blank page`, async ({
      page,
    }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
      // The app has taken the server's screen over (decision 0026): a click before that is a
      // page load, whose missing chunk the shell's banner reports instead of the screen.
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
      // What a deployment does to the open app: the old build's files answer 404.
      await page.route(chunk.pattern, (route) => route.fulfill({ status: 404, body: 'Not found' }));
      await page.getByRole('contentinfo').getByRole('link', { name: 'Mentions légales' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Une nouvelle version est disponible' });
      await expect(alert).toBeVisible();
      // Said once: the shell's banner does not repeat the screen's message.
      await expect(page.getByText('Une nouvelle version est disponible')).toHaveCount(1);
      await expectNoSeriousA11yViolations(page);

      await page.unroute(chunk.pattern);
      await alert.getByRole('button', { name: 'Recharger' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Mentions légales' })).toBeVisible();
      await expect(page.getByText('Une nouvelle version est disponible')).toHaveCount(0);
    });
  }
});

import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LEARNER, signIn, test } from '../fixtures';

/**
 * Issue 29 item 8, decision 0053: the CSP's `style-src` has no 'unsafe-inline', and no screen
 * breaks it. Every CSP violation the browser reports (the `securitypolicyviolation` event, from
 * the document's start, and its console error) fails the journey: on /login drawn by the server,
 * the home and a player page drawn for the learner, each dashboard tab, and the app shell the
 * service worker serves.
 */
test.use({ viewport: { width: 1280, height: 900 } });

/** Every CSP violation of the page, as `directive: blocked (source)`; collected from the start of each document. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (apply|load|execute)/i.test(text)) fromConsole.push(text);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.violatedDirective}: ${event.blockedURI} (${event.sourceFile}:${event.lineNumber}) ${event.sample}`,
      );
    });
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
}

/**
 * The style attributes of a served page: on `<html>` and in the drawn screen (`#root`); the head's
 * inline script is code, whose text could look like one.
 */
function styleAttributes(html: string): string[] {
  const root = html.slice(html.indexOf('<div id="root"'), html.indexOf('<noscript>'));
  const tags = [/<html[^>]*>/.exec(html)?.[0] ?? '', ...(root.match(/<[a-zA-Z][^>]*>/g) ?? [])];
  return tags.filter((tag) => /\sstyle\s*=/.test(tag));
}

/** The style-src of the response's CSP, split into sources. */
function styleSources(csp: string | undefined): string[] {
  const directive = (csp ?? '')
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('style-src '));
  return directive?.split(/\s+/).slice(1) ?? [];
}

test.describe('drawn by the server', () => {
  // The service worker would answer navigations with the app shell it keeps (decision 0046).
  test.use({ serviceWorkers: 'block' });

  test('/login, the home and a player page drawn by the server break no CSP rule', async ({ page }) => {
    const violations = await watchCsp(page);

    const login = await page.goto('/login');
    expect(styleSources(login?.headers()['content-security-policy'])).not.toContain("'unsafe-inline'");
    const loginHtml = (await login?.text()) ?? '';
    expect(loginHtml).toContain('data-prerendered="sign-in"');
    expect(styleAttributes(loginHtml)).toEqual([]);
    await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
    // Hydrated: the early script's hold on the form is gone and the mark with it.
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
    expect(await violations()).toEqual([]);

    await signIn(page, LEARNER);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
    expect(await violations()).toEqual([]);

    // The home, drawn for the learner (the sign-in set the HTML session cookie): its progress
    // bars' widths travel as rules, then go back on their elements before React hydrates.
    const home = await page.goto('/');
    const html = (await home?.text()) ?? '';
    expect(html).toContain('data-prerendered="signed-in"');
    expect(styleAttributes(html)).toEqual([]);
    expect(html).toContain('data-parcours-style=');
    expect(styleSources(home?.headers()['content-security-policy'])).not.toContain("'unsafe-inline'");
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
    await expect(page.locator('[data-parcours-style]')).toHaveCount(0);
    const fill = page.locator('.progress__fill').first();
    await expect(fill).toHaveAttribute('style', /width:/);
    expect(await violations()).toEqual([]);

    // A player page, drawn too.
    const lesson = await page.locator('a[href^="/session/"]').first().getAttribute('href');
    const player = await page.goto(lesson!);
    const playerHtml = (await player?.text()) ?? '';
    expect(playerHtml).toContain('data-prerendered="signed-in"');
    expect(styleAttributes(playerHtml)).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /./);
    expect(await violations()).toEqual([]);
    await expectNoSeriousA11yViolations(page);
  });

  test('each dashboard tab breaks no CSP rule', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto('/login');
    await signIn(page, LEARNER);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
    await page.goto('/niveaux');
    const tabs = page.getByRole('navigation', { name: 'Sections du tableau de bord' }).getByRole('link');
    await expect(tabs.first()).toBeVisible();
    const names = await tabs.allInnerTexts();
    expect(names.length).toBeGreaterThanOrEqual(4);
    const panel = page.locator('.dashboard__panel');
    for (const name of names) {
      await tabs.filter({ hasText: name }).click();
      await expect(panel.getByRole('heading', { level: 2, name })).toBeVisible();
      // Loaded: no spinner left in the panel (what a tab draws once its data is in).
      await expect(panel.locator('.spinner')).toHaveCount(0);
      expect(await violations(), name).toEqual([]);
    }
  });
});

test('opening the menus and dialogs breaks no CSP rule', async ({ page }) => {
  // Issue 37: React Aria's usePress added a <style> the CSP refused as the user menu opened.
  const violations = await watchCsp(page);
  await page.goto('/login');
  await signIn(page, LEARNER);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();

  await page.getByRole('button', { name: /Menu utilisateur/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Mon profil' })).toBeVisible();
  expect(await violations(), 'user menu').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Mon profil' })).toBeHidden();

  const contact = page.getByRole('button', { name: /Contacter les formateurs/ }).first();
  if (await contact.isVisible()) {
    await contact.click();
    await expect(page.getByRole('dialog', { name: 'Contacter les formateurs' })).toBeVisible();
    expect(await violations(), 'contact dialog').toEqual([]);
    await page.keyboard.press('Escape');
  }

  await page.goto('/logbook');
  const panel = page.getByRole('region', { name: 'Journal de bord' });
  await panel.getByRole('button', { name: 'Ajouter une note' }).click();
  await expect(page.getByRole('dialog', { name: 'Ajouter une note' })).toBeVisible();
  expect(await violations(), 'note dialog').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Ajouter une note' })).toBeHidden();
  expect(await violations()).toEqual([]);
});

test('the app shell the service worker serves breaks no CSP rule', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/login');
  await signIn(page, LEARNER);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // A navigation the worker answers with the shell it keeps, and the header it kept with it.
  await page.reload();
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  expect(await violations()).toEqual([]);
});

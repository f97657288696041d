import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';
import type { Page } from '@playwright/test';

/**
 * Issue 9, the dashboard shell, the Levels and Jobs tabs, the XP badge and /test-badges with the
 * demo learner. The demo content (content/demo) grows while this is written: the journeys check
 * roles, names and shapes (a medal, a job out of 100), never exact figures.
 */

const MEDAL = /médaille (de bronze|d'argent|d'or)/;

async function signInAt(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page);
  await expect(page).not.toHaveURL(/\/login$/);
}

test.describe('on a desktop screen', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the demo learner opens the dashboard on their levels, then their jobs', async ({ page }) => {
    await signInAt(page, '/tableau-de-bord');
    await page.goto('/tableau-de-bord');
    await expect(page).toHaveURL(/\/niveaux$/);
    await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();

    const tabs = page.getByRole('navigation', { name: 'Sections du tableau de bord' });
    await expect(tabs.getByRole('link', { name: 'Niveaux' })).toHaveAttribute('aria-current', 'page');
    // Desktop: statistics offered; the demo tenant allows certification (its wording).
    await expect(tabs.getByRole('link', { name: 'Statistiques' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Certifications' })).toBeVisible();

    const levels = page.getByRole('region', { name: 'Niveaux' });
    await expect(levels.getByRole('heading', { level: 3 }).first()).toBeVisible();
    await expect(levels.getByRole('img', { name: MEDAL }).first()).toBeVisible();
    // The medal pictures are built from SVG at build time and served as PNG.
    const picture = levels.locator('.badge__img').first();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    // The XP badge beside the title, with its change over the week.
    await expect(page.getByRole('img', { name: /points d'expérience, évolution/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await tabs.getByRole('link', { name: 'Métiers' }).click();
    await expect(page).toHaveURL(/\/metiers$/);
    await expect(tabs.getByRole('link', { name: 'Métiers' })).toHaveAttribute('aria-current', 'page');
    const jobs = page.getByRole('region', { name: 'Métiers' });
    await expect(jobs.getByRole('img', { name: /sur 100$/ }).first()).toBeVisible();
    await expect(jobs.getByRole('progressbar').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('/test-badges shows every badge with built pictures', async ({ page }) => {
    await signInAt(page, '/test-badges');
    if (!page.url().endsWith('/test-badges')) await page.goto('/test-badges');
    await expect(page.getByRole('heading', { name: 'Test des badges', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('img', { name: /^Niveau \(compétence\), gold, ratio 1,/ }).first(),
    ).toBeVisible();
    const png = await page.request.get('/static/images/badges/badge-PI_xp_xl.png');
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toContain('image/png');
    // Rings of the PI xl badges and ratings on both themes.
    await expect(page.locator('.badge__ring')).toHaveCount(5);
    await expect(page.getByRole('img', { name: /étoiles sur 3/ })).toHaveCount(10);
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('the tabs are a select, statistics are not offered, sub-competencies expand', async ({ page }) => {
    await signInAt(page, '/niveaux');
    if (!page.url().endsWith('/niveaux')) await page.goto('/niveaux');

    const select = page.getByRole('combobox', { name: 'Sections du tableau de bord' });
    await expect(select).toHaveValue('/niveaux');
    const options = await select.getByRole('option').allInnerTexts();
    expect(options).toContain('Métiers');
    expect(options).not.toContain('Statistiques');
    await expect(page.getByRole('navigation', { name: 'Sections du tableau de bord' })).toHaveCount(0);

    const toggle = page.getByRole('button', { name: /^Sous-compétences de/ }).first();
    if ((await toggle.count()) > 0) {
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const list = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
      await expect(list.getByRole('heading', { level: 4 }).first()).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);

    await select.selectOption({ label: 'Métiers' });
    await expect(page).toHaveURL(/\/metiers$/);
    await expect(page.getByRole('region', { name: 'Métiers' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A tab this screen does not offer sends back to the levels.
    await page.goto('/statistiques');
    await expect(page).toHaveURL(/\/niveaux$/);
  });
});

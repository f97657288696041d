import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

test.describe('public pages', () => {
  test('an unknown path shows the 404 page with a way back', async ({ page }) => {
    await page.goto('/ceci-n-existe-pas');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: 'Page introuvable' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Retour au tableau de bord' }).click();
    // Signed out, the dashboard is guarded: the learner is asked to sign in.
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the 403 page says access is restricted', async ({ page }) => {
    await page.goto('/403');
    await expect(page.getByRole('heading', { name: 'Accès restreint' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('a lesson route needs a signed-in learner and answers 403 otherwise', async ({ page }) => {
    await page.goto('/session/some-lesson');
    await expect(page).toHaveURL(/\/403$/);
  });

  test('legal mentions and data protection are readable signed out, from the login footer', async ({
    page,
  }) => {
    await page.goto('/login');
    const footer = page.getByRole('navigation', { name: 'Informations légales' });
    await footer.getByRole('link', { name: 'Mentions légales' }).click();
    await expect(page).toHaveURL(/\/legal\/mentions$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mentions légales' })).toBeVisible();
    await expect(page.getByText(/Version/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.goto('/legal/protection-des-donnees');
    await expect(page.getByRole('heading', { level: 1, name: 'Protection des données' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the profile screen opens signed in, accessibly', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
    await page.goto('/me');
    await expect(page.getByRole('main')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('languages and tenants', () => {
  test.describe('English browser', () => {
    test.use({ locale: 'en-US' });
    test('the interface follows the browser language on the French tenant', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await signIn(page);
      await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible();
    });
  });

  test.describe('German browser', () => {
    test.use({ locale: 'de-DE' });
    test('a language Parcours does not have falls back to English', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    });
  });

  test.describe('Swiss French browser', () => {
    test.use({ locale: 'fr-CH' });
    test('regional French gets French', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    });
  });

  test.describe('English tenant', () => {
    test.use({ locale: 'en-GB' });
    test('en.localhost is another organisation with its own name, branding and classes', async ({
      page,
      baseURL,
    }) => {
      const enBase = (baseURL ?? '').replace('://localhost', '://en.localhost');
      await page.goto(`${enBase}/login`);
      await expect(page).toHaveTitle(/Pathways Learning/);
      await expect(page.getByRole('link', { name: /Pathways Learning/ })).toBeVisible();
      await signIn(page);
      await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible();
      // The French tenant's classes are not there.
      await expect(page.getByRole('article', { name: /Promo printemps/ })).toHaveCount(0);
      await expect(page.getByRole('article').first()).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  });
});

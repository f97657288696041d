import { expect, expectNoSeriousA11yViolations, LEARNER, test } from '../fixtures';

/**
 * Decision 0026: the server's HTML of /login is the real sign-in screen (tenant, language), before
 * any script; the app then hydrates the same nodes (decision 0035), keeping what was typed and the
 * focus, without a mismatch.
 */
test.describe('the sign-in screen in the HTML', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the French tenant, in French', async ({ page }) => {
      await page.goto('/login');
      await expect(page).toHaveTitle('Parcours Formation – Connexion');
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'E-mail ou pseudonyme' })).toBeVisible();
      await expect(page.getByLabel('Mot de passe', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
      // Never in the address: a submit without the app posts the form.
      await expect(page.locator('form')).toHaveAttribute('method', 'post');
    });

    test.describe('an English browser', () => {
      test.use({ locale: 'en-GB' });
      test('the English tenant, in English', async ({ page, baseURL }) => {
        const enBase = (baseURL ?? '').replace('://localhost', '://en.localhost');
        await page.goto(`${enBase}/login`);
        await expect(page).toHaveTitle(/Pathways Learning/);
        await expect(page.locator('html')).toHaveAttribute('lang', 'en');
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
        await expect(page.getByRole('link', { name: /Pathways Learning/ })).toBeVisible();
        await expect(page.getByRole('textbox', { name: 'E-mail or username' })).toBeVisible();
      });
    });
  });

  test('what was typed before the app started is kept, with the focus, and signs in', async ({ page }) => {
    // The app's scripts wait until the learner has typed (a slow phone).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // React reports a mismatch between the server's HTML and the app's first render (src/main.tsx).
    const hydrationErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('Hydration'))
        hydrationErrors.push(message.text());
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByRole('textbox', { name: 'E-mail ou pseudonyme' });
    await email.fill(LEARNER.email);
    const password = page.getByLabel('Mot de passe', { exact: true });
    await password.fill(LEARNER.password);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'sign-in');
    // The server's screen, before the app: accessible as it is (axe needs scripts, so not above).
    await expectNoSeriousA11yViolations(page);
    release();
    // The app has taken over the same screen.
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'sign-in');
    await expect(email).toHaveValue(LEARNER.email);
    await expect(password).toHaveValue(LEARNER.password);
    await expect(password).toBeFocused();
    expect(hydrationErrors).toEqual([]);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();

    // Signed in, /login sends the learner on without showing the form on the way.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  });

  test('Enter pressed before the app started signs in once it has', async ({ page }) => {
    // Issue 37: the early script held the submit (no post, no reload) and then dropped it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'E-mail ou pseudonyme' }).fill(LEARNER.email);
    const password = page.getByLabel('Mot de passe', { exact: true });
    await password.fill(LEARNER.password);
    await password.press('Enter');
    // Held: nothing sent, nothing lost, the page not reloaded.
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'sign-in');
    release();
    await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  });
});

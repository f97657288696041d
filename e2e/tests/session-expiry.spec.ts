import type { Page } from '@playwright/test';
import { availableLesson, expect, INES, signIn, test, THEO } from '../fixtures';
import { claimsOf, forgeToken, storedToken, watchUnauthorized } from '../tokens';

/**
 * Issue 27 item 1, SPEC §2 "401 → /login": a token that expires, or that a password change on
 * another device revokes, ends the session once: one 401 per call that was in flight, then the
 * sign-in page saying the session ended, and after sign-in the page the learner was on. An
 * answer given meanwhile waits on the device and is graded once after sign-in (decision 0044).
 * Inès and Théo are demo learners of "Promo printemps" kept for these journeys.
 */
const ENDED = 'Votre session a pris fin. Reconnectez-vous pour continuer.';

/** A move inside the app (no reload), as a click on one of its links would make. */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test.describe('session expiry', () => {
  test('a password changed on another device ends the session once: one 401 per call in flight, /login, then back', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await signIn(page, THEO);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();

    // Watched from before the change: a call of the tab's own (its keep-alive ping, every 10 s)
    // may meet the revoked token before the move below does.
    const seen = watchUnauthorized(page);
    // Another device: Théo changes his password there, which revokes every older token.
    const login = await request.post('/api/users/login', { data: THEO });
    const { access_token: other, user_id: userId } = (await login.json()) as {
      access_token: string;
      user_id: string;
    };
    const changed = 'Theo#Changed2026';
    const patch = await request.patch(`/api/users/${userId}`, {
      headers: { Authorization: `Bearer ${other}` },
      data: { password: changed, currentPassword: THEO.password },
    });
    expect(patch.status()).toBe(200);
    try {
      await endsOnceThenComesBack(page, changed, seen);
    } finally {
      // The demo learner keeps his password for the next journeys and runs, even when this one
      // failed half-way (CI once saw the next two journeys fail to sign Théo in after a failure here).
      const again = await request.post('/api/users/login', { data: { ...THEO, password: changed } });
      if (again.ok()) {
        const { access_token: token } = (await again.json()) as { access_token: string };
        const restore = await request.patch(`/api/users/${userId}`, {
          headers: { Authorization: `Bearer ${token}` },
          data: { password: THEO.password, currentPassword: changed },
        });
        expect(restore.status()).toBe(200);
      }
    }
  });

  /** After Théo's password changed elsewhere: the session ends once, then sign-in brings him back. */
  async function endsOnceThenComesBack(
    page: Page,
    changed: string,
    seen: ReturnType<typeof watchUnauthorized>,
  ): Promise<void> {
    // The dashboard asks for several things at once with the revoked token.
    await goInApp(page, '/niveaux');
    await expect(page).toHaveURL(/\/login$/);
    // A loop would go on asking (514 calls in 12 s before the fix): a moment is plenty to see one.
    await page.waitForTimeout(1500);
    expect(seen.unauthorized).toBeGreaterThan(0);
    expect(seen.lateCalls, `401s after the session ended: ${seen.paths.join(', ')}`).toBe(0);
    await expect(page.getByText(ENDED)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedToken(page)).toBeNull();

    // Signed in again (with the new password): back on the page he was on.
    await signIn(page, { ...THEO, password: changed });
    await expect(page).toHaveURL(/\/niveaux$/);
    await expect(page.getByText(ENDED)).toHaveCount(0);
  }

  test('a token the server stops accepting mid-lesson: the answer waits on the device and is graded once after sign-in', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/login');
    await signIn(page, INES);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
    const lessonId = await availableLesson(page, 'Fractions et pourcentages');
    // The shell's work after the first screen (the lessons kept ahead, decision 0020) starts once
    // the browser is idle: on a busy machine that was just as the answer's 401 came back, and its
    // call, sent before the app had read that 401, counted as one after the session's end.
    const keptAhead = page.waitForResponse((r) => /\/api\/lessons\?.*page(%5B|\[)size/.test(r.url()));
    await page.goto(`/session/${lessonId}`);
    await expect(page.getByRole('heading', { level: 1, name: "Qu'est-ce qu'une fraction ?" })).toBeVisible();
    await keptAhead;
    // The server drew the page (decision 0046): its keys work once React owns it.
    await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'signed-in');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Lire une fraction sur un disque' }),
    ).toBeVisible();

    // The 8 hours are over, for the server, as Inès presses Next: the token the tab holds is
    // refused from that very press on (swapped in the press's own event, so no keep-alive ping,
    // sent every 10 s, meets the 401 first and ends the session before the answer is given). It
    // still reads as valid for two hours, past the renewal hour: with an `exp` already passed the
    // app's own check (every minute, and on a tap a minute after the last) would end the session
    // first, which a full run on a busy machine saw; that path has its unit tests
    // (lib/token-renewal.test.ts). Here the answer itself meets the server's 401.
    const token = (await storedToken(page))!;
    const refused = forgeToken(
      token,
      Math.floor(Date.now() / 1000) + 7200,
      'not-the-server-secret-at-all-0000',
    );
    await page.evaluate((swap) => {
      const onPress = (event: Event) => {
        if (!(event.target instanceof Element) || !event.target.closest('.player-footer__next')) return;
        window.localStorage.setItem('parcours.token', swap);
        window.removeEventListener('pointerdown', onPress, true);
      };
      window.addEventListener('pointerdown', onPress, true);
    }, refused);
    const patches: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PATCH' && /\/pages\//.test(response.url()))
        patches.push(response.status());
    });
    const seen = watchUnauthorized(page);
    await page.getByRole('checkbox', { name: 'Disque D' }).click();
    // docs/product.md §4 ignores a Next within 200 ms of the last (the Enter above).
    await page.waitForTimeout(250);
    await page.getByRole('button', { name: /^Suivant/ }).click();

    await expect(page).toHaveURL(/\/login$/);
    await page.waitForTimeout(1000);
    expect(seen.lateCalls, `401s after the session ended: ${seen.paths.join(', ')}`).toBe(0);
    await expect(page.getByText(ENDED)).toBeVisible();

    // Signed in again: back in the lesson, and the answer kept on the device is graded, once.
    const graded = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && /\/pages\//.test(r.url()) && r.status() === 200,
    );
    await signIn(page, INES);
    await expect(page).toHaveURL(new RegExp(`/session/${lessonId}`));
    const body = (await (await graded).json()) as {
      data: { attributes: { results: { score?: { max: number } } | null } };
    };
    expect(body.data.attributes.results?.score?.max).toBeGreaterThan(0);
    // The page shows the answer she gave before the session ended, graded by the server.
    await expect(
      page.getByRole('heading', { level: 1, name: 'Lire une fraction sur un disque' }),
    ).toBeVisible();
    await expect(page.getByText(/Votre réponse est enregistrée\. Score sur cette page/)).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Disque D' })).toBeChecked();
    expect(patches.filter((s) => s === 200)).toHaveLength(1);
  });

  test('a token close to its expiry is renewed while the learner is active', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, THEO);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
    // Ten minutes left on the token, and Théo at work.
    const soon = forgeToken((await storedToken(page))!, Math.floor(Date.now() / 1000) + 600);
    await page.evaluate((token) => window.localStorage.setItem('parcours.token', token), soon);
    const renewed = page.waitForResponse((r) => r.url().endsWith('/api/users/token') && r.status() === 200);
    await page.keyboard.press('Tab');
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await renewed;
    await expect
      .poll(async () => claimsOf((await storedToken(page)) ?? soon).exp)
      .toBeGreaterThan(claimsOf(soon).exp + 7 * 3600);
    // The fresh token works.
    await goInApp(page, '/niveaux');
    await expect(page).toHaveURL(/\/niveaux$/);
    await expect(page.getByText(ENDED)).toHaveCount(0);
  });
});

import type { Page } from '@playwright/test';
import { pattern, stringsOf } from '../../apps/api/test/helpers/demo-secrets';
import { expect, expectNoSeriousA11yViolations, LEARNER, signIn, test } from '../fixtures';

/**
 * Decision 0046: a signed-in browser's home and player pages come drawn by the server (the HTML
 * session cookie), then React hydrates them from the reads the page carries.
 */

/** Signs in through the API only: the browser keeps the HTML session cookie it sets. Returns the token. */
async function cookieSignIn(page: Page, who = LEARNER): Promise<string> {
  const res = await page.request.post('/api/users/login', { data: who });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The lesson of a player path, as the API answers it to the learner (`startedAt`: opened once). */
async function lessonOf(page: Page, token: string, path: string): Promise<{ startedAt: string | null }> {
  const id = path.split('/')[2];
  const res = await page.request.get(`/api/lessons/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { attributes: { startedAt: string | null } } }).data.attributes;
}

/** A lesson the learner never opened, as a player path. */
async function unopenedLesson(page: Page, token: string, userId: string): Promise<string> {
  const res = await page.request.get(`/api/lessons?filter[userId]=${userId}&page[size]=50`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const list = (await res.json()) as {
    data: { id: string; attributes: { state: string; startedAt: string | null } }[];
  };
  const lesson = list.data.find((l) => l.attributes.state === 'AVAILABLE' && l.attributes.startedAt === null);
  expect(lesson).toBeTruthy();
  return `/session/${lesson!.id}`;
}

/** The first lesson link of the home's cards. */
async function firstLessonPath(page: Page): Promise<string> {
  const href = await page.locator('a[href^="/session/"]').first().getAttribute('href');
  expect(href).toBeTruthy();
  return href!;
}

/**
 * As the API's answer-key test: the lessons the learner can open whose current page is
 * unanswered (an answered page carries its correction by design), as player paths.
 */
async function openableLessons(page: Page): Promise<string[]> {
  const login = await page.request.post('/api/users/login', { data: LEARNER });
  const { access_token: token, user_id: userId } = (await login.json()) as {
    access_token: string;
    user_id: string;
  };
  const api = async (url: string) =>
    (await page.request.get(url, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<{
      data: { id: string; attributes: Record<string, unknown> };
    }>;
  const list = (await api(`/api/lessons?filter[userId]=${userId}&page[size]=50`)) as unknown as {
    data: { id: string; attributes: { state: string } }[];
  };
  const lessons: string[] = [];
  for (const lesson of list.data.filter((l) => l.attributes.state === 'AVAILABLE')) {
    const current = await api(`/api/lessons/${lesson.id}/pages/current`);
    if (current.data?.attributes.answeredAt === null) lessons.push(`/session/${lesson.id}`);
  }
  return lessons;
}

/**
 * The same, read by the signed-in page with its stored token on its own tenant's host (the
 * browser finds en.localhost; the test's own requests do not).
 */
async function openableLessonsInPage(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const token = window.localStorage.getItem('parcours.token');
    const userId = window.localStorage.getItem('parcours.userId');
    const api = async (url: string) =>
      (await (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: { id: string; attributes: Record<string, unknown> }[] & {
          id: string;
          attributes: Record<string, unknown>;
        };
      };
    const list = await api(`/api/lessons?filter[userId]=${userId}&page[size]=50`);
    const lessons: string[] = [];
    for (const lesson of list.data.filter((l) => l.attributes.state === 'AVAILABLE')) {
      const current = await api(`/api/lessons/${lesson.id}/pages/current`);
      if (current.data?.attributes.answeredAt === null) lessons.push(`/session/${lesson.id}`);
    }
    return lessons;
  });
}

/** Fails the test on any hydration error React reports (main.tsx logs them as "Hydration"). */
function watchHydration(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /hydrat|did not match|server rendered/i.test(text)) errors.push(text);
  });
  page.on('pageerror', (error) => {
    if (/hydrat|Minified React error #4(18|19|23|25)/i.test(error.message)) errors.push(error.message);
  });
  return errors;
}

test.describe('signed-in screens drawn by the server', () => {
  // An installed service worker answers navigations with the app shell it keeps (decision 0046,
  // limits): these journeys are a browser's first visits.
  test.use({ serviceWorkers: 'block' });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test("the home shows the learner's classes and a player page its title and statement", async ({
      page,
    }) => {
      const token = await cookieSignIn(page);
      // The learner's app has read the home once (a first read makes the learner's lessons, and a
      // page load writes nothing: decision 0057); alone on a fresh server, no journey did before.
      const read = await page.request.get('/api/lessons', { headers: { authorization: `Bearer ${token}` } });
      expect(read.status()).toBe(200);
      await page.goto('/');
      await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'signed-in');
      await expect(page.getByText(/Bonjour Camille Martin/)).toBeVisible();
      await expect(
        page.getByText('Entraînement continu — calcul, entreprise et sécurité').first(),
      ).toBeVisible();
      const lesson = await firstLessonPath(page);
      // Opened once by the learner's app (decision 0057: drawing a page never opens a lesson).
      const id = lesson.split('/')[2];
      await page.request.get(`/api/lessons/${id}/pages/current`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await page.goto(lesson);
      await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'signed-in');
      await expect(page.locator('h1.block__title')).toBeVisible();
      await expect(page.locator('.statement')).not.toBeEmpty();
    });

    test('a link from another site draws nothing of the learner and starts no lesson (decision 0057)', async ({
      page,
    }) => {
      const token = await cookieSignIn(page);
      const userId = (
        JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }
      ).sub;
      const path = await unopenedLesson(page, token, userId);
      // A page of another site (an opaque origin) links to the lesson; the Lax cookie rides the click.
      await page.goto('/login');
      const href = new URL(path, page.url()).href;
      await page.goto(`data:text/html,<a id="go" href="${href}">go</a>`);
      const [document] = await Promise.all([page.waitForResponse(href), page.click('#go')]);
      expect(await document.text()).not.toContain('data-prerendered="signed-in"');
      await expect(page.getByText('Camille')).toHaveCount(0);
      // Even from the learner's own address bar, drawing it opens nothing: the page is the shell.
      await page.goto(path);
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'signed-in');
      expect((await lessonOf(page, token, path)).startedAt).toBeNull();
    });

    test('without the cookie the home is the plain page (nothing of a learner)', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'signed-in');
      await expect(page.getByText('Camille')).toHaveCount(0);
    });
  });

  const TENANTS = [
    { name: 'French', host: 'localhost', greeting: /Bonjour Camille Martin/, next: /Suivant|Terminer/ },
    { name: 'English', host: 'en.localhost', greeting: /Hello Alex Morgan/, next: /Next|Finish|End/ },
  ];
  for (const tenant of TENANTS) {
    test(`the home and a player page hydrate without a mismatch and read nothing twice (${tenant.name} tenant)`, async ({
      page,
      baseURL,
    }) => {
      const base = (baseURL ?? '').replace('://localhost', `://${tenant.host}`);
      const hydration = watchHydration(page);
      await page.goto(`${base}/login`);
      await signIn(page);
      await expect(page.getByText(tenant.greeting)).toBeVisible();

      // A full load of the home: drawn by the server, its reads in the page.
      const reads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        // By the document now shown (not one the previous page sent as it was left).
        const by = new URL(request.frame().url()).pathname;
        if (url.pathname.startsWith('/api/')) reads.push(`${request.method()} ${url.pathname} by ${by}`);
      });
      const home = await page.reload();
      expect(await home?.text()).toContain('data-prerendered="signed-in"');
      await expect(page.getByText(tenant.greeting)).toBeVisible();
      // Hydrated: the data mark is gone and the learner can act at once.
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'signed-in');
      expect(reads.filter((r) => /\/(users\/me|class-users|lessons) by \/$/.test(r))).toEqual([]);
      await expectNoSeriousA11yViolations(page);

      const [lesson] = await openableLessonsInPage(page);
      expect(lesson).toBeTruthy();
      // From here on, the player's own reads (the home keeps lessons for offline use meanwhile).
      reads.length = 0;
      const document = await page.goto(`${base}${lesson!}`);
      expect(await document?.text()).toContain('data-prerendered="signed-in"');
      await expect(page.locator('h1.block__title')).toBeVisible();
      await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', 'signed-in');
      // The player's page came with the HTML: it is not asked for again.
      expect(reads.filter((r) => r.startsWith('GET') && r.endsWith(`/pages/current by ${lesson!}`))).toEqual(
        [],
      );
      // The hydrated player works: the clock runs and Next answers.
      await expect(page.getByRole('button', { name: tenant.next }).first()).toBeEnabled();
      expect(hydration).toEqual([]);
    });
  }

  test('a browser whose stored session ended drops the drawn page and the cookie', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await expect(page.getByText(/Bonjour Camille Martin/)).toBeVisible();
    // The stored token is gone (another tab signed out, storage cleared) but the cookie is not.
    await page.evaluate(() => window.localStorage.clear());
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === '__Host-parcours_html')).toBeUndefined();
  });

  test('the served HTML holds no expected answer, feedback or hint of any lesson the learner can open', async ({
    page,
  }) => {
    const { secrets } = stringsOf('fr');
    expect(secrets.size).toBeGreaterThan(20);
    const lessons = await openableLessons(page);
    expect(lessons.length).toBeGreaterThan(0);
    for (const path of lessons) {
      const html = await (await page.request.get(path)).text();
      const leaks = [...secrets].filter((secret) => pattern(secret).test(html));
      expect({ path, leaks }).toEqual({ path, leaks: [] });
    }
  });
});

import type { BrowserContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * Offline lessons (issue 12, decision 0013), on the English tenant whose demo learner's
 * "Fractions and percentages" (class "Spring intake — Numeracy") stands at its 4th page, a slide,
 * followed by a free answer, a drag and drop and a timed exercise. Online the player keeps the
 * pages ahead on the device; offline the learner goes on, the answers wait on the device (a
 * reload included); back online they are sent, graded once by the server, and the page shows it.
 */

const MATHS = 'Fractions and percentages';
/** The English tenant's second learner, whose Fractions lesson is unlocked and not begun. */
const JORDAN = { email: 'jordan@example.com', password: 'Jordan#Demo2026' };
const CUSTOMERS = 'Customer first';
const PRACTICE = 'Continuous practice — numeracy, safety and customers';

interface LessonsDoc {
  data: { id: string; attributes: { courseId: string; state: string } }[];
  included?: { type: string; id: string; attributes: { title?: string } }[];
}

interface PagesDoc {
  data: {
    id: string;
    attributes: {
      nodeId: string;
      state: string;
      progress: string | null;
      answeredAt: string | null;
      score: { actual: number | null; max: number | null };
    };
  }[];
}

async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const token = window.localStorage.getItem('parcours.token');
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    return (await response.json()) as T;
  }, path);
}

async function availableLesson(page: Page, title: string): Promise<string> {
  const doc = await api<LessonsDoc>(page, '/api/lessons?include=course');
  const course = doc.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
  const lesson = doc.data.find(
    (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, `available lesson of ${title}`).toBeTruthy();
  return lesson!.id;
}

/** How many pages ahead the device keeps for the lesson (IndexedDB, read as the app wrote it). */
async function keptPages(page: Page, lessonId: string): Promise<number> {
  return page.evaluate(
    (id) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('parcours-offline');
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('kv')) return resolve(0);
          const get = db.transaction('kv').objectStore('kv').get(`lesson:${id}`);
          get.onsuccess = () =>
            resolve((get.result as { upcoming?: unknown[] } | undefined)?.upcoming?.length ?? 0);
          get.onerror = () => resolve(0);
        };
      }),
    lessonId,
  );
}

/** The keys of the device store (IndexedDB `parcours-offline`) whose name starts with `prefix`. */
async function deviceKeys(page: Page, prefix: string): Promise<string[]> {
  return page.evaluate(
    (start) =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('parcours-offline');
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('kv')) return resolve([]);
          const all = db.transaction('kv').objectStore('kv').getAllKeys();
          all.onsuccess = () => resolve(all.result.map(String).filter((k) => k.startsWith(start)));
          all.onerror = () => resolve([]);
        };
      }),
    prefix,
  );
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const next = (page: Page) => page.getByRole('button', { name: /^Next/ });
/**
 * Next, until the page titled `title` shows: docs/product.md §4 ignores a press within 200 ms of the last
 * one, and offline the pages follow each other faster than that.
 */
async function nextUntil(page: Page, title: string): Promise<void> {
  await expect(async () => {
    await next(page).click();
    await expect(heading(page, title)).toBeVisible({ timeout: 1000 });
  }).toPass();
}

/** A demo learner (by default the main one) signed in on the English tenant (en.localhost); its base URL. */
async function signInEnglish(page: Page, baseURL: string | undefined, who?: typeof JORDAN): Promise<string> {
  const enBase = (baseURL ?? '').replace('://localhost', '://en.localhost');
  await page.goto(`${enBase}/login`);
  await signIn(page, who);
  await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible();
  return enBase;
}

const banner = (page: Page) => page.locator('.offline-banner[role="status"]');

async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

test.describe('offline lessons', () => {
  test.use({ locale: 'en-GB' });

  test('answers given offline wait on the device, survive a reload, and are graded once back online', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const enBase = await signInEnglish(page, baseURL);
    const lessonId = await availableLesson(page, MATHS);
    const before = await api<PagesDoc>(page, `/api/pages?filter[lessonId]=${lessonId}&page[size]=50`);

    await page.goto(`${enBase}/session/${lessonId}`);
    await expect(heading(page, 'Fractions, decimals and percentages')).toBeVisible();
    // The pages ahead are on the device, and the service worker controls the tab (offline reload).
    await expect.poll(() => keptPages(page, lessonId), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect(heading(page, 'Fractions, decimals and percentages')).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await goOffline(context, page);
    await expect(banner(page)).toContainText('Offline');

    // 1. The slide: seen offline.
    await next(page).click();
    await expect(heading(page, 'Working out a sale price')).toBeVisible();
    await expect(banner(page)).toContainText('Offline: 1 answer waits on this device');
    // No error dialog ("invalid data") and no trip home.
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // 2. A free answer.
    await page.getByRole('textbox').first().fill('60');
    await nextUntil(page, 'Matching percentages and fractions');
    await expect(banner(page)).toContainText('Offline: 2 answers wait');
    await expectNoSeriousA11yViolations(page);

    // Closing and reopening the page offline: the session and the two answers are still there.
    await page.reload();
    await expect(heading(page, 'Matching percentages and fractions')).toBeVisible();
    await expect(banner(page)).toContainText('Offline: 2 answers wait');

    // 3. A drag and drop left empty: the learner confirms, it waits too.
    await next(page).click();
    await page.getByRole('button', { name: 'Continue anyway' }).click();
    // The timed page needs the server's clock: the player says so and stays.
    const stop = page.getByRole('alertdialog', { name: 'Connection needed' });
    await expect(stop).toContainText('timed');
    await expect(banner(page)).toContainText('Offline: 3 answers wait');
    await stop.getByRole('button', { name: 'Got it' }).click();

    // Back online: the three answers are sent, in order, and graded by the server.
    await context.setOffline(false);
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
    const after = await api<PagesDoc>(
      page,
      `/api/pages?filter[lessonId]=${lessonId}&page[size]=50&sort=createdAt`,
    );
    const fresh = after.data.filter((p) => !before.data.some((b) => b.id === p.id));
    // Two pages were reached offline (the free answer and the drag and drop), one page each.
    expect(fresh).toHaveLength(2);
    expect(new Set(after.data.map((p) => p.attributes.nodeId)).size).toBe(after.data.length);
    const [sale, match] = fresh;
    expect(sale!.attributes.answeredAt).not.toBeNull();
    expect(sale!.attributes.score.actual).toBeGreaterThan(0);
    expect(sale!.attributes.score.actual).toBe(sale!.attributes.score.max);
    expect(match!.attributes.answeredAt).not.toBeNull();
    expect(match!.attributes.score.actual).toBe(0);
    // The slide was open before going offline: it is closed now.
    const slide = after.data.find((p) =>
      before.data.some((b) => b.id === p.id && b.attributes.progress !== 'COMPLETED'),
    );
    expect(slide?.attributes.progress).toBe('COMPLETED');

    // The player shows the server's graded page.
    await expect(heading(page, 'Matching percentages and fractions')).toBeVisible();
    await expect(page.getByText(/Score for this page: 0 \/ \d+/)).toBeVisible();

    // On the home, what the learner was doing comes first and leads back to the lesson's page.
    await page.getByRole('banner').getByRole('link').first().click();
    const resume = page.getByRole('region', { name: 'Pick up where you left off' });
    await expect(resume).toContainText(MATHS);
    await expect(resume).toContainText('Spring intake — Numeracy · Numeracy basics');
    await expectNoSeriousA11yViolations(page);
    await resume.getByRole('link', { name: `Resume ${MATHS}` }).click();
    await expect(page).toHaveURL(new RegExp(`/session/${lessonId}$`));
    await expect(heading(page, 'Matching percentages and fractions')).toBeVisible();
  });

  test('a queued answer the server refuses (answered meanwhile on another device) is explained on the home; the rest is sent', async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const enBase = await signInEnglish(page, baseURL);
    const lessonId = await availableLesson(page, CUSTOMERS);
    // Opened from its class card (an in-app move): the home's code stays loaded for later, offline.
    await page
      .getByRole('article', { name: PRACTICE })
      .getByRole('link', { name: `Start ${CUSTOMERS}` })
      .click();
    await expect(heading(page, 'Active listening')).toBeVisible();
    await expect.poll(() => keptPages(page, lessonId), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    // Offline on the phone: the slide is seen, the last page answered; the lesson is left for the home.
    await goOffline(context, page);
    await next(page).click();
    await expect(heading(page, 'A complaint at the counter')).toBeVisible();
    // By keyboard: the drawn choice covers the radio itself.
    const listen = page.getByRole('radio', { name: 'I let them explain and sum up their problem' });
    await listen.focus();
    await page.keyboard.press('Space');
    await expect(listen).toBeChecked();
    await expect(async () => {
      await next(page).click();
      await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible({ timeout: 1000 });
    }).toPass();

    // Meanwhile, online on another device, the same learner goes past the slide (which closes it).
    const other = await browser.newContext({ locale: 'en-GB' });
    const laptop = await other.newPage();
    await signInEnglish(laptop, baseURL);
    await laptop.goto(`${enBase}/session/${lessonId}`);
    await expect(heading(laptop, 'Active listening')).toBeVisible();
    await next(laptop).click();
    await expect(heading(laptop, 'A complaint at the counter')).toBeVisible();
    await other.close();

    // The connection returns on the home: the shell sends the queue (no player open).
    await context.setOffline(false);
    const refused = page.getByRole('alert').filter({ hasText: 'The server refused 1 answer given offline' });
    await expect(refused).toBeVisible({ timeout: 20_000 });
    await expect(refused).toContainText('“Active listening”: Already answered');
    await expect(page.locator('.offline-banner[role="status"]')).toHaveCount(0, { timeout: 20_000 });
    await expectNoSeriousA11yViolations(page);

    // The refused slide did not block the answer after it: placed on the same page, graded once.
    const after = await api<PagesDoc>(page, `/api/pages?filter[lessonId]=${lessonId}&page[size]=50`);
    expect(after.data).toHaveLength(2);
    const complaint = after.data.find((p) => p.attributes.answeredAt !== null && p.attributes.score.max);
    expect(complaint?.attributes.score.actual).toBeGreaterThan(0);
    expect(complaint?.attributes.score.actual).toBe(complaint?.attributes.score.max);
    await refused.getByRole('button', { name: 'Got it' }).click();
    await expect(refused).toHaveCount(0);
  });

  test('an offline cold start shows the home as last seen, and a lesson kept ahead is played from it and graded once back online', async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const enBase = await signInEnglish(page, baseURL, JORDAN);
    const lessonId = await availableLesson(page, MATHS);
    const userId = await page.evaluate(() => window.localStorage.getItem('parcours.userId'));
    const card = page.getByRole('article', { name: 'Spring intake — Numeracy' });
    await expect(card.getByRole('link', { name: `Start ${MATHS}` })).toBeVisible();
    // The home's reads are kept for this learner, and the lesson, never opened, is kept ahead.
    await expect
      .poll(() => deviceKeys(page, 'home:'), { timeout: 15_000 })
      .toEqual(expect.arrayContaining([`home:${userId}:lessons`, `home:${userId}:class-users:active`]));
    await expect.poll(() => keptPages(page, lessonId), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    // The service worker controls the tab and has the session's reads (users/me, contexts/current).
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect(card).toBeVisible();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const before = await api<PagesDoc>(page, `/api/pages?filter[lessonId]=${lessonId}&page[size]=50`);
    expect(before.data).toHaveLength(0);

    // On the train: the installed app opens with no network at all.
    await goOffline(context, page);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible();
    const note = page.getByRole('status').filter({ hasText: 'You are offline' });
    await expect(note).toContainText(/Your classes as they were on .+, kept on this device/);
    await expect(card).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A lesson the device does not keep (here an id it never saw) says it needs the network.
    await page.goto(`${enBase}/session/not-kept-here`);
    const stop = page.getByRole('alertdialog', { name: 'Connection needed' });
    await expect(stop).toContainText('not kept on this device');
    await stop.getByRole('button', { name: 'Got it' }).click();
    await expect(note).toBeVisible();

    // The lesson kept ahead opens from its card and goes on offline.
    await card.getByRole('link', { name: `Start ${MATHS}` }).click();
    await expect(page).toHaveURL(new RegExp(`/session/${lessonId}$`));
    await expect(heading(page, 'What is a fraction?')).toBeVisible();
    await next(page).click();
    await expect(heading(page, 'Reading a fraction on a disc')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Disc C' }).click();
    await nextUntil(page, 'Equivalent fractions');
    await expect(banner(page)).toContainText('Offline: 2 answers wait');

    // Back online: sent, and graded once by the server.
    await context.setOffline(false);
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
    const after = await api<PagesDoc>(page, `/api/pages?filter[lessonId]=${lessonId}&page[size]=50`);
    expect(after.data).toHaveLength(2);
    expect(new Set(after.data.map((p) => p.attributes.nodeId)).size).toBe(2);
    const disc = after.data.find((p) => p.attributes.score.max);
    expect(disc?.attributes.answeredAt).not.toBeNull();
    expect(disc?.attributes.score.actual).toBeGreaterThan(0);
    expect(disc?.attributes.score.actual).toBe(disc?.attributes.score.max);
    expect(after.data.find((p) => p !== disc)?.attributes.progress).toBe('COMPLETED');

    // Online, the home is the network's again (no note), and signing out leaves no copy behind.
    await page.goto(`${enBase}/`);
    await expect(card).toBeVisible();
    await expect(page.getByText('You are offline')).toHaveCount(0);
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => deviceKeys(page, '')).toEqual([]);
  });

  test('an unknown lesson id says the lesson is not found', async ({ page, baseURL }) => {
    const enBase = await signInEnglish(page, baseURL);
    await page.goto(`${enBase}/session/no-such-lesson`);
    await expect(heading(page, 'Lesson not found')).toBeVisible();
    await expect(page.getByText('The next page cannot be found.')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'My courses' })).toBeVisible();
  });
});

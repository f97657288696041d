import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../fixtures';

/**
 * Parametrised exercises (issue 27 item 2, decision 0042) in both demo tenants: the French
 * learner's "Les étapes de la vente" ends with « Annoncer un prix remisé », the English learner's
 * "Quoting prices" is « Quoting a discounted price ». Each learner's page draws its own price and
 * discount once: a reload shows the same numbers, the two learners see different ones (2 166
 * pairs), and each is graded right by the server for the answer computed from their own numbers.
 */

interface LessonsDoc {
  data: { id: string; attributes: { courseId: string; state: string } }[];
  included?: { type: string; id: string; attributes: { title?: string } }[];
}
interface PageDoc {
  data: {
    id: string;
    attributes: {
      answeredAt: string | null;
      block: { title: string } | null;
      results: { answerRatios: (number | null)[] } | null;
    };
  };
}

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([m, u, b]) => {
      const token = window.localStorage.getItem('parcours.token');
      const response = await fetch(u as string, {
        method: m as string,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return (await response.json()) as T;
    },
    [method, url, body] as const,
  );
}

async function availableLesson(page: Page, title: string): Promise<string> {
  const doc = await api<LessonsDoc>(page, 'GET', '/api/lessons?include=course');
  const course = doc.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
  const lesson = doc.data.find(
    (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, `available lesson of ${title}`).toBeTruthy();
  return lesson!.id;
}

/** Moves the lesson on through the API (pages before it answered blank) to the page of `block`; its id. */
async function reachBlock(page: Page, lessonId: string, block: string): Promise<string> {
  const base = `/api/lessons/${lessonId}/pages`;
  let doc = await api<PageDoc>(page, 'GET', `${base}/current`);
  for (let i = 0; i < 20 && doc.data.attributes.block?.title !== block; i++) {
    if (!doc.data.attributes.answeredAt)
      await api(page, 'PATCH', `${base}/current`, { pageId: doc.data.id, inputs: { answers: [] } });
    doc = await api<PageDoc>(page, 'POST', `${base}/next`, { fromPageId: doc.data.id });
  }
  expect(doc.data.attributes.block?.title).toBe(block);
  return doc.data.id;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

interface Tenant {
  base: (baseURL: string) => string;
  course: string;
  block: string;
  /** Price and discount as the statement shows them. */
  read: RegExp;
  yes: string;
  no: string;
  next: RegExp;
  continue: string;
  decimal: string;
}

const FR: Tenant = {
  base: (b) => b,
  course: 'Les étapes de la vente',
  block: 'Annoncer un prix remisé',
  read: /affiché à (\d+) €.*remise de (\d+) %/,
  yes: 'Oui',
  no: 'Non',
  next: /^Suivant/,
  continue: 'Continuer',
  decimal: ',',
};
const EN: Tenant = {
  base: (b) => b.replace('://localhost', '://en.localhost'),
  course: 'Quoting prices',
  block: 'Quoting a discounted price',
  read: /offer (\d+) % off.*priced £(\d+)/,
  yes: 'Yes',
  no: 'No',
  next: /^Next/,
  continue: 'Continue',
  decimal: '.',
};

/** Price and discount read from the page's statement, as the learner sees them. */
async function shownValues(page: Page, t: Tenant): Promise<{ price: number; discount: number }> {
  const text = (await page.locator('.block').first().textContent()) ?? '';
  const m = t.read.exec(text.replace(/\s+/g, ' '));
  expect(m, text).not.toBeNull();
  const [a, b] = [Number(m![1]), Number(m![2])];
  return t === EN ? { discount: a, price: b } : { price: a, discount: b };
}

async function playDiscount(page: Page, baseURL: string, t: Tenant) {
  const base = t.base(baseURL);
  await page.goto(`${base}/login`);
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
  const lessonId = await availableLesson(page, t.course);
  const pageId = await reachBlock(page, lessonId, t.block);

  await page.goto(`${base}/session/${lessonId}`);
  await expect(heading(page, t.block)).toBeVisible();
  const values = await shownValues(page, t);
  expect(values.price).toBeGreaterThanOrEqual(40);
  expect(values.price).toBeLessThanOrEqual(400);

  // A reload (the service worker and the query cache included) keeps the learner's numbers.
  await page.reload();
  await expect(heading(page, t.block)).toBeVisible();
  expect(await shownValues(page, t)).toEqual(values);

  // The right answers for these numbers, typed the tenant's way.
  const saving = Math.round(values.price * values.discount) / 100;
  const price = String(Math.round((values.price - saving) * 100) / 100).replace('.', t.decimal);
  await page.getByRole('textbox').fill(price);
  const choice = page.getByRole('radio', { name: saving > 50 ? t.yes : t.no, exact: true });
  await choice.focus();
  await page.keyboard.press('Space');
  await expect(choice).toBeChecked();
  await page.getByRole('button', { name: t.next }).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: t.continue }) });
  await expect(dialog.first()).toBeVisible();

  // Graded by the server against this learner's own values.
  const graded = await api<PageDoc>(page, 'GET', `/api/lessons/${lessonId}/pages/current?pageId=${pageId}`);
  expect(graded.data.attributes.results?.answerRatios).toEqual([1, 1]);
  return values;
}

test.describe('parametrised exercise', () => {
  test('two learners get their own numbers, keep them on reload, and are each graded right', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const fr = await browser.newContext({ locale: 'fr-FR' });
    const en = await browser.newContext({ locale: 'en-GB' });
    try {
      const frValues = await playDiscount(await fr.newPage(), baseURL!, FR);
      const enValues = await playDiscount(await en.newPage(), baseURL!, EN);
      expect(enValues).not.toEqual(frValues);
    } finally {
      await fr.close();
      await en.close();
    }
  });
});

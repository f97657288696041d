import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LEA, signIn, test } from '../fixtures';

/**
 * A learning module (tincan) scored by itself: Léa's "Santé et sécurité au travail" lesson
 * (class "Sécurité atelier — session 3") holds the demo module "Le triangle du feu"
 * (content/demo/tincan/triangle-du-feu). The player launches it with learning-record parameters
 * (docs/product.md §7); when finished it records a `completed` statement with its score in the built-in LRS,
 * which scores the page, then posts 'action:next'. The pages before it are closed through the API
 * with her own token; the module is played in the player.
 */

const SAFETY = 'Santé et sécurité au travail';

interface PageResource {
  id: string;
  attributes: {
    answeredAt: string | null;
    block: { type: string; title: string } | null;
    results?: { score: { actual: number; max: number }; tincan?: { scaled: number } } | null;
  };
}

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('parcours.token'));
  expect(token, 'signed-in token').toBeTruthy();
  return token!;
}

/** Léa's available lesson of the safety course. */
async function safetyLesson(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/lessons?include=course&page[size]=100', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const doc = (await response.json()) as {
    data: { id: string; attributes: { courseId: string; state: string } }[];
    included?: { type: string; id: string; attributes: { title?: string } }[];
  };
  const course = doc.included?.find((r) => r.type === 'courses' && r.attributes.title === SAFETY);
  const lesson = doc.data.find(
    (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, `available lesson of ${SAFETY}`).toBeTruthy();
  return lesson!.id;
}

/** Closes the pages before the lesson's tincan page (empty answers) and returns that page's id. */
async function walkToModule(request: APIRequestContext, token: string, lessonId: string): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const base = `/api/lessons/${encodeURIComponent(lessonId)}`;
  let response = await request.get(`${base}/pages/current`, { headers });
  for (let step = 0; step < 20; step++) {
    expect(response.ok(), `${response.url()} → ${response.status()} ${await response.text()}`).toBe(true);
    const current = ((await response.json()) as { data: PageResource }).data;
    if (current.attributes.block?.type === 'tincan') return current.id;
    if (!current.attributes.answeredAt) {
      const answer = await request.patch(`${base}/pages/current`, {
        headers,
        data: { pageId: current.id, inputs: { answers: [] } },
      });
      expect(answer.ok(), await answer.text()).toBe(true);
    }
    response = await request.post(`${base}/pages/next`, { headers, data: { fromPageId: current.id } });
  }
  throw new Error('no learning module in the safety lesson');
}

test('a learning module keeps its bookmark in the State API and resumes there after a reload', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/login');
  await signIn(page, LEA);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  const token = await tokenOf(page);
  const lessonId = await safetyLesson(page.request, token);
  await walkToModule(page.request, token, lessonId);
  const stateCalls: { method: string; status: number }[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/xapi/activities/state'))
      stateCalls.push({ method: response.request().method(), status: response.status() });
  });

  await page.goto(`/session/${lessonId}`);
  const module = page.frameLocator('iframe.tincan-frame');
  await expect(module.getByText('0 / 3 découverts')).toBeVisible();
  await module.getByRole('button', { name: 'Combustible' }).click();
  await module.getByRole('button', { name: 'Comburant' }).click();
  await expect(module.getByText('2 / 3 découverts')).toBeVisible();
  await expect.poll(() => stateCalls.filter((c) => c.method === 'PUT' && c.status === 204).length).toBe(2);

  // Reloaded (a new launch, new credentials): the module reads its bookmark and resumes.
  await page.reload();
  await expect(module.getByText('2 / 3 découverts')).toBeVisible();
  await expect(module.getByRole('button', { name: 'Comburant' })).toHaveAttribute('aria-pressed', 'true');
  expect(stateCalls).toContainEqual({ method: 'GET', status: 200 });
});

test('a learning module records its score through the LRS: the page is scored and the player moves on', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/login');
  await signIn(page, LEA);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  const token = await tokenOf(page);
  const lessonId = await safetyLesson(page.request, token);
  const modulePageId = await walkToModule(page.request, token, lessonId);

  await page.goto(`/session/${lessonId}`);
  await expect(page.getByRole('heading', { level: 1, name: /Le triangle du feu/ })).toBeVisible();
  await expect(page.getByText('Page 5 sur 7')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The module was opened with the launch parameters of docs/product.md §7.
  const src = new URL((await page.locator('iframe.tincan-frame').getAttribute('src'))!, page.url());
  const auth = src.searchParams.get('auth');
  expect(auth).toMatch(/^Basic /);
  expect(src.searchParams.get('endpoint')).toMatch(/\/api\/xapi\/$/);
  expect(JSON.parse(src.searchParams.get('actor')!)).toMatchObject({ account: { name: expect.any(String) } });
  expect(src.searchParams.get('registration')).toMatch(/^[0-9a-f-]{36}$/);
  const lrsCalls: { method: string; status: number }[] = [];
  const scoreMessages: string[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (url.includes('/api/xapi/statements'))
      lrsCalls.push({ method: response.request().method(), status: response.status() });
    if (url.includes('custom-tincan-score')) scoreMessages.push(url);
  });

  // Inside the module: explore the three sides, then finish it.
  const module = page.frameLocator('iframe.tincan-frame');
  for (const side of ['Combustible', 'Comburant', 'Énergie'])
    await module.getByRole('button', { name: side }).click();
  await module.getByRole('button', { name: "J'ai compris, terminer le module" }).click();

  // The player moved on by itself ('action:next'), after the score was recorded.
  await expect(page.getByText('Page 6 sur 7')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Les bons réflexes' })).toBeVisible();
  const recorded = await page.request.get(
    `/api/lessons/${encodeURIComponent(lessonId)}/pages/current?pageId=${modulePageId}`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  const results = ((await recorded.json()) as { data: PageResource }).data.attributes.results;
  expect(results).toMatchObject({ score: { actual: 10, max: 10 }, tincan: { scaled: 1 } });

  // Scored through the LRS, not by the score message: the statement is there, with its score.
  expect(lrsCalls).toContainEqual({ method: 'POST', status: 200 });
  expect(scoreMessages).toEqual([]);
  const statements = await page.request.get(
    `/api/xapi/statements?verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/completed')}`,
    { headers: { Authorization: auth!, 'X-Experience-API-Version': '1.0.3' } },
  );
  expect(statements.status()).toBe(200);
  expect(statements.headers()['x-experience-api-version']).toBe('1.0.3');
  const body = (await statements.json()) as {
    statements: { result: { score: { raw: number; max: number } } }[];
  };
  expect(body.statements).toHaveLength(1);
  expect(body.statements[0]!.result.score).toMatchObject({ raw: 3, max: 3 });
});

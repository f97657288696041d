import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { ADMIN, expect, expectNoSeriousA11yViolations, LEARNER, signIn, test } from '../fixtures';
import { baseURL } from '../playwright.config';

/**
 * Issue 13: the content preview tool (the demo tenants' back office on localhost:3300) opens
 * /preview and posts a block; a page of another origin is refused with both origins named; a
 * learner never reaches /preview.
 */
const TOOL = 'http://localhost:3300';
const STRANGER_PORT = 3302;
let tool: ChildProcess;
let stranger: Server;

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

test.beforeAll(async () => {
  const root = path.resolve(import.meta.dirname, '../..');
  tool = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/authoring/server.ts'], {
    cwd: root,
    env: { ...process.env, AUTHOR_PORT: '3300', APP_URL: baseURL },
    stdio: 'ignore',
  });
  // A page of an origin the tenant does not know, posting a well-formed block anyway.
  stranger = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><html lang="en"><title>stranger</title><button id="go">open</button><script>
      document.getElementById('go').onclick = () => {
        const w = window.open(${JSON.stringify(`${baseURL}/preview`)}, 'stranger-preview');
        window.addEventListener('message', (e) => {
          if (e.data === 'mounted') w.postMessage({ block: { title: 'Intrus', type: 'slide', content: { sections: [] } } }, '*');
        });
      };
    </script></html>`);
  });
  await new Promise<void>((resolve) => stranger.listen(STRANGER_PORT, 'localhost', resolve));
  await waitFor(`${TOOL}/api/version`);
});

test.afterAll(async () => {
  tool?.kill();
  await new Promise<void>((resolve) => stranger.close(() => resolve()));
});

test('an author opens a demo block from the preview tool, answers it and sees the grade', async ({
  page,
  context,
}) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();

  const toolPage = await context.newPage();
  await toolPage.goto(TOOL);
  await expect(toolPage.getByText(/Aucun problème/)).toBeVisible();
  const choice = toolPage.getByRole('button', { name: /multiple-choice/ }).first();
  const title = (await choice.locator('span').first().textContent()) ?? '';
  const [popup] = await Promise.all([context.waitForEvent('page'), choice.click()]);
  await expect(popup.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(popup.getByRole('note')).toContainText(/Aperçu/);
  await expectNoSeriousA11yViolations(popup);

  // By keyboard, as the player journeys do: the styled label covers the native box.
  const first = popup.getByRole('checkbox').first();
  await first.focus();
  await popup.keyboard.press('Space');
  await expect(first).toBeChecked();
  await popup.getByRole('button', { name: 'Vérifier mes réponses' }).click();
  await expect(popup.getByRole('heading', { level: 2, name: /Score : [\d.,]+ \/ \d+/ })).toBeVisible();
  await expectNoSeriousA11yViolations(popup);
  await expect(toolPage.getByRole('status')).toContainText(title);

  // Every row type of the demo opens in the same preview window, in the real block screen.
  for (const rowType of [
    'combined-choice',
    'free-answer',
    'drag-n-drop',
    'pick-words',
    'image-cliquable',
    'wysiwyg-table',
    'media-internal',
    'video-external',
    'medias-by-mail',
    'widgets',
  ]) {
    const button = toolPage.getByRole('button', { name: new RegExp(`[(, ]${rowType}[,)]`) }).first();
    const blockTitle = (await button.locator('span').first().textContent()) ?? '';
    await button.click();
    await expect(popup.getByRole('heading', { level: 1, name: blockTitle }), rowType).toBeVisible();
  }
  await expectNoSeriousA11yViolations(popup);
});

test('a block posted from another origin is refused, naming both origins', async ({ page, context }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  const strangerPage = await context.newPage();
  await strangerPage.goto(`http://localhost:${STRANGER_PORT}`);
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    strangerPage.getByRole('button', { name: 'open' }).click(),
  ]);
  const alert = popup.getByRole('alert');
  await expect(alert).toContainText(`http://localhost:${STRANGER_PORT}`);
  await expect(alert).toContainText(TOOL);
  await expect(popup.getByRole('heading', { name: 'Intrus' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(popup);
});

test("correction by message shows a learner's answers against the expected ones", async ({
  page,
  context,
  request,
}) => {
  // The demo learner answers one exercise page (through the API) in the workshop safety class.
  const learnerToken = (
    (await (await request.post('/api/users/login', { data: LEARNER })).json()) as { access_token: string }
  ).access_token;
  const as = { authorization: `Bearer ${learnerToken}` };
  const lessons = (await (await request.get('/api/lessons?include=class', { headers: as })).json()) as {
    data: { id: string; attributes: { state: string; classId: string } }[];
    included?: { type: string; id: string; attributes: { name?: string } }[];
  };
  const workshop = lessons.included?.find(
    (r) => r.type === 'classes' && /Sécurité atelier/.test(r.attributes.name ?? ''),
  );
  const lesson = lessons.data.find(
    (l) => l.attributes.classId === workshop?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, 'the workshop safety lesson of the demo learner').toBeTruthy();
  const lessonId = lesson!.id;
  type Row = { type: string; choices?: unknown[]; targets?: unknown[] };
  type Doc = {
    data: {
      id: string;
      attributes: {
        block: { type: string; content: { sections: { rows: Row[] }[] } } | null;
        answeredAt: string | null;
      };
    };
  };
  const answerOf = (row: Row): unknown => {
    switch (row.type) {
      case 'multiple-choice':
      case 'image-cliquable':
        return [0];
      case 'combined-choice':
        return 0;
      case 'free-answer':
        return 'x';
      case 'drag-n-drop':
        return (row.targets ?? []).map(() => []);
      case 'pick-words':
        return [];
      default:
        return null;
    }
  };
  let answeredPage: string | null = null;
  let doc = (await (
    await request.get(`/api/lessons/${lessonId}/pages/current`, { headers: as })
  ).json()) as Doc;
  for (let i = 0; i < 12 && !answeredPage; i++) {
    const block = doc.data.attributes.block;
    const rows = block?.content.sections.flatMap((s) => s.rows) ?? [];
    if (block?.type === 'exercice' && !doc.data.attributes.answeredAt) {
      const res = await request.patch(`/api/lessons/${lessonId}/pages/current`, {
        headers: as,
        data: { pageId: doc.data.id, inputs: { answers: rows.map(answerOf) } },
      });
      expect(res.status()).toBe(200);
      answeredPage = doc.data.id;
      break;
    }
    if (!doc.data.attributes.answeredAt) {
      await request.patch(`/api/lessons/${lessonId}/pages/current`, {
        headers: as,
        data: { pageId: doc.data.id },
      });
    }
    const next = await request.post(`/api/lessons/${lessonId}/pages/next`, {
      headers: as,
      data: { fromPageId: doc.data.id },
    });
    expect(next.status()).toBe(200);
    doc = (await next.json()) as Doc;
  }
  expect(answeredPage, 'an exercise page answered').toBeTruthy();

  // The administrator's back office (the preview tool's origin) opens /correction and posts {page, lesson}.
  await page.goto('/login');
  await signIn(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  const office = await context.newPage();
  await office.goto(TOOL);
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    office.evaluate(
      ({ url, page, lesson }) => {
        const w = window.open(url, 'correction');
        window.addEventListener('message', (e) => {
          if (e.data === 'mounted') w?.postMessage({ page, lesson }, new URL(url).origin);
        });
      },
      { url: `${baseURL}/correction`, page: answeredPage!, lesson: lessonId },
    ),
  ]);
  await expect(popup.getByRole('heading', { name: 'Comment lire la correction' })).toBeVisible();
  await expect(popup.locator('.row__verdict').first()).toBeVisible();
  await expectNoSeriousA11yViolations(popup);
});

test('a learner opening /preview is refused', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, LEARNER);
  await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  await page.goto('/preview');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'Accès restreint' })).toBeVisible();
});

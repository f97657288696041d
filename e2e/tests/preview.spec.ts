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

test('a learner opening /preview is refused', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, LEARNER);
  await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
  await page.goto('/preview');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'Accès restreint' })).toBeVisible();
});

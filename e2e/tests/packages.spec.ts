import type { APIRequestContext, FrameLocator, Locator, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * E-learning packages (issue 31, decision 0050). Camille's "Cybersécurité au quotidien" lesson
 * (content/demo/tenants/fr) holds the three demo packages of content/tools/make-packages.ts:
 * SCORM 1.2, SCORM 2004 4th edition and cmi5, each a quiz of four questions. Each journey plays
 * one of them in the player's package dialog (the package on the packages origin, PORT + 1),
 * answers three of four right, and finds 7.5 / 10 on the page and on the lesson. The SCORM 1.2
 * journey reloads mid-package and resumes at the saved question. The last journey plays a
 * hostile package, imported only for the journeys (e2e/fixtures/package-tenant), and checks it
 * got nothing of the learner's.
 */

const CAMILLE = { email: 'camille.morel@example.com', password: 'Camille#Demo2026' };
const PROBED = { email: 'probed@example.com', password: 'Probed#2026' };
const CYBER = 'Cybersécurité au quotidien';

interface PageResource {
  id: string;
  attributes: {
    answeredAt: string | null;
    block: { type: string; title: string } | null;
    results?: { score: { actual: number; max: number } } | null;
  };
}

interface LessonResource {
  id: string;
  attributes: { courseId: string; state: string; scoring: { global: { actual: number; max: number } } };
}

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('parcours.token'));
  expect(token, 'signed-in token').toBeTruthy();
  return token!;
}

/** The learner's available lesson of a course, by the course's title (asked by the page itself: its host picks the tenant). */
async function lessonOf(page: Page, token: string, title: string): Promise<string> {
  const doc = await page.evaluate(async (bearer) => {
    const response = await fetch('/api/lessons?include=course&page[size]=100', {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    return (await response.json()) as {
      data: { id: string; attributes: { courseId: string; state: string } }[];
      included?: { type: string; id: string; attributes: { title?: string } }[];
    };
  }, token);
  const course = doc.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
  const lesson = doc.data.find(
    (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, `available lesson of ${title}`).toBeTruthy();
  return lesson!.id;
}

async function lessonScore(request: APIRequestContext, token: string, lessonId: string) {
  const response = await request.get(`/api/lessons/${encodeURIComponent(lessonId)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: LessonResource }).data.attributes.scoring.global;
}

async function pageResults(request: APIRequestContext, token: string, lessonId: string, pageId: string) {
  const response = await request.get(
    `/api/lessons/${encodeURIComponent(lessonId)}/pages/current?pageId=${encodeURIComponent(pageId)}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: PageResource }).data.attributes.results ?? null;
}

/** Closes the pages before the one titled `title` through the API (as the learner) and returns its id. */
async function walkTo(
  request: APIRequestContext,
  token: string,
  lessonId: string,
  title: string,
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const base = `/api/lessons/${encodeURIComponent(lessonId)}`;
  let response = await request.get(`${base}/pages/current`, { headers });
  for (let step = 0; step < 10; step++) {
    expect(response.ok(), `${response.url()} → ${response.status()} ${await response.text()}`).toBe(true);
    const current = ((await response.json()) as { data: PageResource }).data;
    if (current.attributes.block?.title === title) return current.id;
    if (!current.attributes.answeredAt) {
      const answer = await request.patch(`${base}/pages/current`, {
        headers,
        data: { pageId: current.id, inputs: { answers: [] } },
      });
      expect(answer.ok(), await answer.text()).toBe(true);
    }
    response = await request.post(`${base}/pages/next`, { headers, data: { fromPageId: current.id } });
  }
  throw new Error(`no page "${title}" in the lesson`);
}

/** The dialog's frame (the bridge, on the packages origin). */
const bridgeFrame = (page: Page): Locator => page.locator('iframe.package-frame');

/** The package's own page, which the bridge holds in its frame. */
const packagePage = (page: Page): FrameLocator =>
  page.frameLocator('iframe.package-frame').frameLocator('iframe');

async function openPackage(page: Page, title: string, unit?: string) {
  // A cmi5 course of several AUs lists them (issue 39): each opens by its own button.
  await page
    .getByRole('button', { name: unit ? `Ouvrir l’unité : ${unit}` : `Ouvrir le module : ${title}` })
    .click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await expect(bridgeFrame(page)).toHaveAttribute('data-ready', 'true');
  return dialog;
}

/**
 * Picks an answer and moves on, then waits for the package's save to reach the server: a SCORM
 * package's commit (the bridge says `committed`), a cmi5 AU's bookmark (a State API PUT).
 */
async function answer(page: Page, choice: string, button: string, saved: 'commit' | 'state' | 'none') {
  const quiz = packagePage(page);
  await quiz.getByLabel(choice, { exact: true }).check();
  const before = Number(await bridgeFrame(page).getAttribute('data-commits'));
  const state =
    saved === 'state'
      ? page.waitForResponse((r) => r.url().includes('/activities/state') && r.request().method() === 'PUT')
      : null;
  await quiz.getByRole('button', { name: button }).click();
  if (state) expect((await state).ok()).toBe(true);
  if (saved === 'commit')
    await expect
      .poll(async () => Number(await bridgeFrame(page).getAttribute('data-commits')))
      .toBeGreaterThan(before);
}

/** The quiz's start button, once its first bookmark is saved (see answer()). */
async function start(page: Page, saved: 'commit' | 'state') {
  const quiz = packagePage(page);
  const state =
    saved === 'state'
      ? page.waitForResponse((r) => r.url().includes('/activities/state') && r.request().method() === 'PUT')
      : null;
  await quiz.getByRole('button', { name: 'Commencer' }).click();
  if (state) expect((await state).ok()).toBe(true);
  else await expect(bridgeFrame(page)).not.toHaveAttribute('data-commits', '0');
}

/** Closes the dialog (the bridge saves and ends the package) and finds the page's score. */
async function closeAndFindScore(page: Page, dialog: Locator, score = /Score sur cette page : 7[.,]5 \/ 10/) {
  await dialog.getByRole('button', { name: 'Fermer et enregistrer' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(score)).toBeVisible();
}

async function signedInAsCamille(page: Page) {
  await page.goto('/login');
  await signIn(page, CAMILLE);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  const token = await tokenOf(page);
  const lessonId = await lessonOf(page, token, CYBER);
  return { token, lessonId };
}

test.describe('e-learning packages', () => {
  test.describe.configure({ timeout: 120_000 });

  test('SCORM 1.2: a reload mid-package resumes at the saved question; the score lands on the page and the lesson', async ({
    page,
  }) => {
    const { token, lessonId } = await signedInAsCamille(page);
    const pageId = await walkTo(page.request, token, lessonId, 'Des mots de passe solides');
    const before = await lessonScore(page.request, token, lessonId);

    await page.goto(`/session/${lessonId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Des mots de passe solides' })).toBeVisible();
    let dialog = await openPackage(page, 'Des mots de passe solides');
    await expectNoSeriousA11yViolations(page);
    // Served from the packages origin, never the app's (decision 0050).
    const bridge = new URL((await bridgeFrame(page).getAttribute('src'))!);
    expect(bridge.origin).not.toBe(new URL(page.url()).origin);

    const quiz = packagePage(page);
    await start(page, 'commit');
    await answer(page, 'cheval-agrafe-pluie-7-lampe', 'Question suivante', 'commit');
    await answer(page, 'Non : une seule fuite ouvre alors tous vos comptes', 'Question suivante', 'commit');
    await expect(quiz.getByRole('heading', { name: 'Question 3 sur 4' })).toBeVisible();

    // Reloaded mid-package: a new launch resumes at the saved question, with the answers kept.
    await page.reload();
    dialog = await openPackage(page, 'Des mots de passe solides');
    await expect(quiz.getByRole('heading', { name: 'Question 3 sur 4' })).toBeVisible();
    await expect(quiz.getByText('Vous reprenez là où vous vous étiez arrêté.')).toBeVisible();
    await answer(page, 'Dans un gestionnaire de mots de passe', 'Question suivante', 'commit');
    await answer(page, 'Je le lui donne, j’ai confiance', 'Voir mon résultat', 'none');
    await expect(quiz.getByText('Votre score : 3 sur 4 (75 %)')).toBeVisible();
    await closeAndFindScore(page, dialog);

    expect(await pageResults(page.request, token, lessonId, pageId)).toMatchObject({
      score: { actual: 7.5, max: 10 },
    });
    const after = await lessonScore(page.request, token, lessonId);
    expect(after.actual - before.actual).toBeCloseTo(7.5, 5);
  });

  test('SCORM 2004: scaled score, completion and success land on the page and the lesson', async ({
    page,
  }) => {
    const { token, lessonId } = await signedInAsCamille(page);
    const pageId = await walkTo(page.request, token, lessonId, "Déjouer l'hameçonnage");
    const before = await lessonScore(page.request, token, lessonId);

    await page.goto(`/session/${lessonId}`);
    const dialog = await openPackage(page, "Déjouer l'hameçonnage");
    const quiz = packagePage(page);
    await start(page, 'commit');
    await answer(
      page,
      'Je ne clique pas, je vérifie l’expéditeur et je signale le message',
      'Question suivante',
      'commit',
    );
    await answer(page, 'Rien ne le prouve : c’est un domaine inconnu', 'Question suivante', 'commit');
    await answer(
      page,
      'Je change le mot de passe et je préviens tout de suite le service informatique',
      'Question suivante',
      'commit',
    );
    await answer(page, 'Je l’ouvre pour voir', 'Voir mon résultat', 'none');
    await expect(quiz.getByText('Votre score : 3 sur 4 (75 %)')).toBeVisible();
    await closeAndFindScore(page, dialog);

    expect(await pageResults(page.request, token, lessonId, pageId)).toMatchObject({
      score: { actual: 7.5, max: 10 },
    });
    const after = await lessonScore(page.request, token, lessonId);
    expect(after.actual - before.actual).toBeCloseTo(7.5, 5);
  });

  test('cmi5: the quiz AU fetches its token, reads LMS.LaunchData, passes; the checklist AU completes; the course satisfied scores the page and the lesson', async ({
    page,
  }) => {
    const { token, lessonId } = await signedInAsCamille(page);
    const pageId = await walkTo(page.request, token, lessonId, 'Mises à jour et sauvegardes');
    const before = await lessonScore(page.request, token, lessonId);
    // The statements the AU sends (the server records `launched` and `satisfied` itself).
    const verbs: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'POST' || !/\/statements(\?|$)/.test(request.url())) return;
      const body = request.postDataJSON() as { verb?: { id?: string } }[] | { verb?: { id?: string } };
      for (const s of Array.isArray(body) ? body : [body])
        verbs.push(String(s.verb?.id ?? '').replace(/^.*\//, ''));
    });

    await page.goto(`/session/${lessonId}`);
    // Each unit says where the learner is with it, to a screen reader too (decision 0071).
    const unit = (title: string) => page.getByRole('button', { name: `Ouvrir l’unité : ${title}` });
    await expect(unit('Mises à jour et sauvegardes')).toHaveAccessibleDescription(/^Non commencé/);
    await expect(unit('Ma liste de vérification')).toHaveAccessibleDescription(/^Non commencé/);
    await expect(page.getByText('Non commencé')).toHaveCount(2);
    const dialog = await openPackage(page, 'Mises à jour et sauvegardes', 'Mises à jour et sauvegardes');
    const quiz = packagePage(page);
    await start(page, 'state');
    await answer(page, 'Je l’installe dès que possible', 'Question suivante', 'state');
    await answer(
      page,
      'Trois copies, sur deux supports, dont une hors du site',
      'Question suivante',
      'state',
    );
    await answer(page, 'Je la remets au service informatique sans la brancher', 'Question suivante', 'state');
    await answer(page, 'J’éteins seulement l’écran', 'Voir mon résultat', 'none');
    await expect(quiz.getByText('Votre score : 3 sur 4 (75 %)')).toBeVisible();
    await expect
      .poll(() => verbs)
      .toEqual([
        'initialized',
        'answered',
        'answered',
        'answered',
        'answered',
        'passed',
        'completed',
        'terminated',
      ]);
    await dialog.getByRole('button', { name: 'Fermer et enregistrer' }).click();
    await expect(dialog).toBeHidden();
    // Passed and completed: its moveOn (CompletedAndPassed) is met.
    await expect(unit('Mises à jour et sauvegardes')).toHaveAccessibleDescription(/^Validé/);
    await expect(unit('Ma liste de vérification')).toHaveAccessibleDescription(/^Non commencé/);
    // The course's second AU (moveOn Completed): once done, the course is satisfied and the page
    // scored, the mean of its AUs (0.75 and 1).
    const second = await openPackage(page, 'Mises à jour et sauvegardes', 'Ma liste de vérification');
    await packagePage(page).getByRole('button', { name: 'J’ai vérifié ces points' }).click();
    await expect(packagePage(page).getByText('C’est noté : cette unité est terminée.')).toBeVisible();
    await closeAndFindScore(page, second, /Score sur cette page : 8[.,]75 \/ 10/);
    await expect(unit('Ma liste de vérification')).toHaveAccessibleDescription(/^Validé/);

    expect(await pageResults(page.request, token, lessonId, pageId)).toMatchObject({
      score: { actual: 8.75, max: 10 },
    });
    const after = await lessonScore(page.request, token, lessonId);
    expect(after.actual - before.actual).toBeCloseTo(8.75, 5);
  });

  test('a hostile package gets nothing of the learner: no token, no storage, no API call, no say in the player', async ({
    page,
    baseURL,
    context,
  }) => {
    const probe = (baseURL ?? '').replace('://localhost', '://probe.localhost');
    await page.goto(`${probe}/login`);
    await signIn(page, PROBED);
    await expect(page.getByRole('heading', { name: /my courses|mes formations/i })).toBeVisible();
    const token = await tokenOf(page);
    const lessonId = await lessonOf(page, token, 'Probe');
    await page.goto(`${probe}/session/${lessonId}`);
    const appUrl = page.url();
    await page.getByRole('button', { name: /^(Open the module|Ouvrir le module) ?: Probe$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Probe' });
    await expect(dialog).toBeVisible();
    const probePage = packagePage(page);
    await expect(probePage.getByRole('status')).toHaveText('Probe finished', { timeout: 20_000 });
    const text = await probePage.locator('#report').innerText();
    // What the probe got, kept with the run's results for whoever reads a failure.
    await test.info().attach('probe-report.json', { body: text, contentType: 'application/json' });
    if (process.env.PROBE_REPORT) console.log(text);
    const report = JSON.parse(text) as Record<
      string,
      { ok?: boolean; status?: number; value?: unknown; error?: string }
    > & {
      received: unknown[];
      ancestorOrigins: string[];
    };

    // Nothing of the app's window: its storage, its document, its cookie.
    for (const probeName of ['topLocalStorage', 'topToken', 'topSessionStorage', 'topDocument', 'topCookie'])
      expect(report[probeName], probeName).toMatchObject({ ok: false, error: 'SecurityError' });
    // The app's origin is the top one; the package's frames are on another.
    expect(report.ancestorOrigins.at(-1)).toBe(new URL(probe).origin);
    expect(report.ancestorOrigins[0]).not.toBe(new URL(probe).origin);
    // No call to the app's API or pages with the learner's cookie or the launch's credential.
    for (const call of [
      'appApiWithCookies',
      'appPageWithCookies',
      'appLessonsWithCookies',
      'appApiWithLaunchCredential',
    ]) {
      const result = report[call]!;
      expect(result.ok && result.status === 200, `${call}: ${JSON.stringify(result)}`).toBe(false);
    }
    // The SCORM API gives the learner's id and name (SCORM's own data), nothing named like a token.
    const scorm = report.scorm!.value as Record<string, { value: string; error: string }>;
    for (const name of ['cmi.token', 'cmi.core.token', 'adl.token'])
      expect(scorm[name], name).toEqual({ value: '', error: '401' });
    // Posing as the bridge, or asking the player for anything, got no answer and closed nothing.
    expect(report.received).toEqual([]);
    await expect(dialog).toBeVisible();
    expect(page.url()).toBe(appUrl);
    // Whatever the package saw (its own storage, the SCORM API's data and settings): never the token or the cookie.
    const cookies = (await context.cookies()).map((c) => c.value).filter((v) => v.length > 8);
    for (const secret of [token, ...cookies]) expect(text).not.toContain(secret);
    expect(await page.evaluate(() => window.localStorage.getItem('parcours.token'))).toBe(token);
  });
});

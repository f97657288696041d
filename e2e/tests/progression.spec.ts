import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * Issue 4 journey on the demo content (content/demo/tenants/fr/programs.yaml, program
 * "integration" in the class "Intégration — groupe B"): the company course unlocks TWO courses,
 * the sales course ends with a question whose choice opens the maths course, and the maths course
 * ends the program, whose evaluation follows.
 *
 * Lessons are finished through the lesson-page calls with the learner's own token (an empty
 * answer is accepted, docs/api.md "Lesson player"); the end screens are then reached through
 * the real player, which meets NO_LESSON_PAGE_AVAILABLE and routes on (docs/product.md §4).
 */

const CLASS = /Intégration — groupe B/;
const COMPANY = "Culture d'entreprise";
const SAFETY = 'Santé et sécurité au travail';
const SALES = 'Les étapes de la vente';
const MATHS = 'Fractions et pourcentages';
const QUESTION = 'Pour terminer votre intégration, que souhaitez-vous faire maintenant ?';
const TO_MATHS = "M'entraîner au calcul des remises et des fractions";

interface PageResource {
  id: string;
  attributes: { answeredAt: string | null; block: unknown; children?: { nodeId: string; done: boolean }[] };
}

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('parcours.token'));
  expect(token, 'signed-in token').toBeTruthy();
  return token!;
}

/** Answers every page of a lesson (empty answers, first block of a choice) until none is left. */
async function finishLesson(request: APIRequestContext, token: string, lessonId: string): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  const base = `/api/lessons/${encodeURIComponent(lessonId)}`;
  let response = await request.get(`${base}/pages/current`, { headers });
  for (let step = 0; step < 80; step++) {
    if (response.status() === 409) {
      const body = (await response.json()) as { errors: { code: string }[] };
      expect(body.errors[0]?.code).toBe('NO_LESSON_PAGE_AVAILABLE');
      return;
    }
    expect(response.ok(), `${response.url()} → ${response.status()} ${await response.text()}`).toBe(true);
    let current = ((await response.json()) as { data: PageResource }).data;
    const children = current.attributes.children ?? [];
    if (!current.attributes.block && children.length > 0) {
      const choice = await request.post(`${base}/pages/current/choose`, {
        headers,
        data: { pageId: current.id, nodeId: (children.find((c) => !c.done) ?? children[0])!.nodeId },
      });
      expect(choice.ok(), await choice.text()).toBe(true);
      current = ((await choice.json()) as { data: PageResource }).data;
    }
    if (!current.attributes.answeredAt) {
      const answer = await request.patch(`${base}/pages/current`, {
        headers,
        data: { pageId: current.id, inputs: { answers: [] } },
      });
      expect(answer.ok(), await answer.text()).toBe(true);
    }
    response = await request.post(`${base}/pages/next`, { headers, data: { fromPageId: current.id } });
  }
  throw new Error(`lesson ${lessonId} did not end`);
}

/** The lesson id behind a course's open link on the class card. */
async function lessonIdOf(page: Page, name: RegExp): Promise<string> {
  const href = await page
    .getByRole('article', { name: CLASS })
    .getByRole('link', { name })
    .getAttribute('href');
  const id = /\/session\/([^/]+)$/.exec(href ?? '')?.[1];
  expect(id, `lesson link ${String(name)}`).toBeTruthy();
  return decodeURIComponent(id!);
}

const activeLessonId = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(window.sessionStorage.getItem('parcours.activeLesson') ?? '{}') as { lessonId?: string })
        .lessonId,
  );

test.describe('progression: end of lesson, next lessons, question and evaluation', () => {
  test.describe.configure({ mode: 'serial' });

  test('the demo learner finishes lessons, chooses the next ones, answers the question and rates the program', async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    await page.goto('/login');
    await signIn(page);
    const card = page.getByRole('article', { name: CLASS });
    await expect(card).toBeVisible();
    const companyId = await lessonIdOf(page, new RegExp(`^(Commencer|Continuer) ${COMPANY}$`));
    // Not unlocked yet: no way into the safety course.
    await expect(card.getByRole('link', { name: new RegExp(SAFETY) })).toHaveCount(0);

    // The company course ends (through the API) while the home stays open: within one 20 s
    // refresh, the two courses it unlocks show up, without a reload.
    const token = await tokenOf(page);
    await finishLesson(request, token, companyId);
    await expect(card.getByRole('link', { name: `Commencer ${SAFETY}` })).toBeVisible({ timeout: 25_000 });
    await expect(card.getByRole('link', { name: `Commencer ${SALES}` })).toBeVisible();

    // The player meets the end of the lesson and shows the chooser of unlocked lessons.
    await page.goto(`/session/${encodeURIComponent(companyId)}`);
    await expect(page).toHaveURL(new RegExp(`/session/${companyId}/actions$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Leçon terminée' })).toBeVisible();
    await expect(page.getByText(`Vous avez terminé « ${COMPANY} ».`)).toBeVisible();
    await expect(page.getByRole('img', { name: /^Score : \d+ %$/ })).toBeVisible();
    const chooser = page.getByRole('radiogroup', { name: 'Choisissez votre prochaine leçon' });
    await expect(chooser.getByRole('radio')).toHaveCount(2);
    const next = page.getByRole('button', { name: 'Continuer' });
    await expect(next).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Retour au tableau de bord' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await chooser.getByText(SALES).click();
    await expect(chooser.getByRole('radio', { name: SALES })).toBeChecked();
    await expect(next).toBeEnabled();
    await next.click();
    await expect(page).toHaveURL(/\/session\/[^/]+$/);
    const salesId = decodeURIComponent(/\/session\/([^/]+)$/.exec(page.url())![1]!);
    expect(salesId).not.toBe(companyId);
    expect(await activeLessonId(page)).toBe(salesId);

    // The sales course ends with the interactive question.
    await finishLesson(request, token, salesId);
    await page.goto(`/session/${encodeURIComponent(salesId)}`);
    await expect(page).toHaveURL(new RegExp(`/session/${salesId}/questions$`));
    const question = page.getByRole('radiogroup', { name: QUESTION });
    await expect(question.getByRole('radio')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Continuer' })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
    // Keyboard: into the group, the arrow moves to the second answer and back to the first.
    await question.getByRole('radio', { name: TO_MATHS }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(question.getByRole('radio', { name: TO_MATHS })).toBeChecked();
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page).toHaveURL(/\/session\/[^/]+$/);
    const mathsId = decodeURIComponent(/\/session\/([^/]+)$/.exec(page.url())![1]!);
    expect([companyId, salesId]).not.toContain(mathsId);
    expect(await activeLessonId(page)).toBe(mathsId);

    // The maths course is the program's last: its end leads to the evaluation.
    await finishLesson(request, token, mathsId);
    await page.goto(`/session/${encodeURIComponent(mathsId)}`);
    await expect(page).toHaveURL(/\/evaluate\/program\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Évaluez votre programme' })).toBeVisible();
    await expect(page.getByText('0 / 1000')).toBeVisible();

    const send = page.getByRole('button', { name: 'Envoyer mon évaluation' });
    await send.click();
    await expect(page.getByText('Choisissez une note')).toBeVisible();
    const comment = page.getByRole('textbox', { name: 'Commentaire (facultatif)' });
    await comment.fill('a'.repeat(1001));
    await expect(page.getByText('1001 / 1000')).toBeVisible();
    // Keyboard: focus the stars, pick 3 with Space, then the arrow moves the rating to 4.
    await page.getByRole('radio', { name: '3 étoiles' }).focus();
    await page.keyboard.press('Space');
    await expect(page.getByRole('radio', { name: '3 étoiles' })).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: '4 étoiles' })).toBeChecked();
    await send.click();
    await expect(page.getByText('Le commentaire ne doit pas dépasser 1000 caractères')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await comment.fill('Très utile pour mes premières semaines.');
    await expect(page.getByText('39 / 1000')).toBeVisible();
    await send.click();
    await expect(page.getByText('Merci pour votre évaluation')).toBeVisible();
    await expect(page.getByRole('radio', { name: '4 étoiles' })).toBeDisabled();
    await expect(send).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Back home: the sales and maths lessons are done, the safety course is still to take.
    await page.getByRole('link', { name: 'Retour au tableau de bord' }).click();
    await expect(page).toHaveURL(/\/(\?.*)?$/);
    await expect(card.getByRole('link', { name: `Commencer ${SAFETY}` })).toBeVisible();
    await expect(card.getByRole('progressbar', { name: `Progression de ${MATHS}` })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );

    // A second visit of the evaluation shows the review already given.
    await page.goBack();
    await expect(page.getByText('Programme déjà évalué')).toBeVisible();
  });

  test('an evaluation of anything but a program is a 404', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Mes formations' })).toBeVisible();
    await page.goto('/evaluate/course/anything');
    await expect(page).toHaveURL(/\/404$/);
  });
});

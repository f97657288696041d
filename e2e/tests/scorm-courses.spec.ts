import type { FrameLocator, Locator, Page } from '@playwright/test';
import { availableLesson, expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * SCORM packages nobody here wrote (issue 39 item 2): Rustici Software's golf examples (CC BY
 * 3.0), fetched by e2e/scripts/fetch-scorm-examples.mjs and imported as the golf.localhost tenant
 * (e2e/fixtures/scorm-examples-tenant). Run with e2e/playwright.scorm.config.ts.
 * - the single-SCO 1.2 course asks "resume?" with its own confirm(): answered, it resumes at its
 *   bookmark after a reload;
 * - the 18-SCO 1.2 "minimum calls" course: every SCO reachable (Next, and the contents), SCOs that
 *   only initialize and finish completed, the page scored;
 * - SCORM 2004 3rd edition "forced order": the next SCO stays closed until the one before is
 *   satisfied, as its sequencing rules say; the SCO reads the moves open (adl.nav.request_valid);
 * - SCORM 2004 4th edition: every SCO of the organization delivered by the engine.
 */
const GOLFER = { email: 'golfer@example.com', password: 'Golfer#2026' };

const bridgeFrame = (page: Page): Locator => page.locator('iframe.package-frame');
/** The SCO's page, which the bridge holds in its frame. */
const sco = (page: Page): FrameLocator => page.frameLocator('iframe.package-frame').frameLocator('iframe');
/** The bridge's window (the packages origin), where the API objects live. */
const bridgeWindow = async (page: Page) => {
  const handle = await bridgeFrame(page).elementHandle();
  const frame = await handle!.contentFrame();
  return frame!;
};

async function signedIn(page: Page, baseURL: string | undefined) {
  const golf = (baseURL ?? '').replace('://localhost', '://golf.localhost');
  await page.goto(`${golf}/login`);
  await signIn(page, GOLFER);
  await expect(page).not.toHaveURL(/\/login/);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('parcours.token'))).toBeTruthy();
  return golf;
}

async function openCourse(page: Page, golf: string, course: string) {
  const lessonId = await availableLesson(page, course);
  await page.goto(`${golf}/session/${lessonId}`);
  await page.getByRole('button', { name: /^(Open the module|Ouvrir le module)/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(bridgeFrame(page)).toHaveAttribute('data-ready', 'true');
  return { dialog, lessonId };
}

const commits = async (page: Page) => Number(await bridgeFrame(page).getAttribute('data-commits'));

/** The lesson's score (its one page is the package's). */
async function lessonScore(page: Page, lessonId: string) {
  return page.evaluate(async (id) => {
    const token = window.localStorage.getItem('parcours.token');
    const res = await fetch(`/api/lessons/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    const doc = (await res.json()) as {
      data?: { attributes: { scoring: { global: { actual: number; max: number } } } };
    };
    return doc.data?.attributes.scoring.global ?? null;
  }, lessonId);
}

test.describe('SCORM courses: the golf examples', () => {
  test('a package’s own confirm() resumes it at its bookmark after a reload (single SCO, SCORM 1.2)', async ({
    page,
    baseURL,
  }) => {
    const golf = await signedIn(page, baseURL);
    await openCourse(page, golf, 'Golf basic calls (SCORM 1.2)');
    const content = sco(page).frameLocator('#contentFrame');
    await expect(content.getByRole('heading', { level: 1 })).toBeVisible();
    for (let i = 0; i < 3; i++) await sco(page).getByRole('button', { name: 'Next ->' }).click();
    await expect(sco(page).locator('#contentFrame')).toHaveAttribute('src', '../Playing/OtherScoring.html');
    // scorm-again saves on its own clock (autocommit): the bookmark reaches the server.
    await expect.poll(() => commits(page), { timeout: 30_000 }).toBeGreaterThan(0);

    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.reload();
    await page.getByRole('button', { name: /^(Open the module|Ouvrir le module)/ }).click();
    await expect(bridgeFrame(page)).toHaveAttribute('data-ready', 'true');
    // The package asked, the learner said yes: it resumes where it was, not at page 1.
    await expect(sco(page).locator('#contentFrame')).toHaveAttribute('src', '../Playing/OtherScoring.html');
    expect(asked).toEqual(['Would you like to resume from where you previously left off?']);
  });

  test('every SCO of an 18-SCO SCORM 1.2 course is reachable; SCOs that only initialize and finish are completed', async ({
    page,
    baseURL,
  }) => {
    const golf = await signedIn(page, baseURL);
    const { dialog, lessonId } = await openCourse(page, golf, 'Golf minimum calls (SCORM 1.2)');
    const nav = dialog.getByRole('navigation');
    await expect(nav).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const scoButtons = nav.locator('.course-nav__item');
    await expect(scoButtons).toHaveCount(18);
    await expect(bridgeFrame(page)).toHaveAttribute('data-sco', 'playing_playing_item');
    await expect(sco(page).getByRole('heading', { level: 1 })).toHaveText('Play of the game');

    const bridge = await bridgeWindow(page);
    // The SCO in the frame has begun its session (its LMSInitialize, when its page loaded).
    const initialized = () =>
      bridge.evaluate(() => {
        const api = (window as unknown as { API?: { isInitialized(): boolean } }).API;
        return !!api && api.isInitialized();
      });
    const seen = new Set<string>([(await bridgeFrame(page).getAttribute('data-sco'))!]);
    for (let i = 1; i < 18; i++) {
      await expect.poll(initialized).toBe(true);
      const before = await commits(page);
      await nav.getByRole('button', { name: /^(Next|Suivant)$/ }).click();
      // The SCO left finishes (its LMSFinish, or the bridge's), saved before the next one plays.
      await expect.poll(() => commits(page)).toBeGreaterThan(before);
      await expect(bridgeFrame(page)).not.toHaveAttribute('data-sco', [...seen].at(-1)!);
      seen.add((await bridgeFrame(page).getAttribute('data-sco'))!);
    }
    expect(seen.size).toBe(18);
    await expect(nav.getByRole('button', { name: /^(Next|Suivant)$/ })).toBeDisabled();
    // The contents reach any SCO: back to the first.
    await nav.getByRole('button', { name: /^How to Play/ }).click();
    await expect(bridgeFrame(page)).toHaveAttribute('data-sco', 'playing_playing_item');
    await expect(nav.getByRole('button', { name: /^Par (Completed|Terminé)$/ })).toBeVisible();

    await dialog.getByRole('button', { name: /^(Close and save|Fermer et enregistrer)$/ }).click();
    await expect(dialog).toBeHidden();
    // Every SCO completed: the page scores whole.
    await expect.poll(async () => (await lessonScore(page, lessonId))?.actual ?? 0).toBeGreaterThan(0);
    const score = await lessonScore(page, lessonId);
    expect(score?.actual).toBe(score?.max);
  });

  test('SCORM 2004 sequencing is honoured: forced order, the SCO reads the moves open', async ({
    page,
    baseURL,
  }) => {
    const golf = await signedIn(page, baseURL);
    const { dialog } = await openCourse(page, golf, 'Golf forced order (SCORM 2004 3rd)');
    const nav = dialog.getByRole('navigation');
    await expect(bridgeFrame(page)).toHaveAttribute('data-sco', 'playing_item');
    const etiquette = nav.getByRole('button', { name: /^Etiquette/ });
    const handicapping = nav.getByRole('button', { name: /^Handicapping/ });
    await expect(etiquette).toBeDisabled();
    await expect(handicapping).toBeDisabled();
    const bridge = await bridgeWindow(page);
    const valid = (element: string) =>
      bridge.evaluate(
        (e) =>
          (window as unknown as { API_1484_11: { GetValue(e: string): string } }).API_1484_11.GetValue(e),
        element,
      );
    expect(['true', 'false']).toContain(await valid('adl.nav.request_valid.continue'));
    // The example's own identifier (sic).
    expect(await valid('adl.nav.request_valid.choice.{target=etuqiette_item}')).toBe('false');

    // Through the SCO's own pages to its end: it is completed and passed.
    for (let i = 0; i < 4; i++) await sco(page).getByRole('button', { name: 'Next ->' }).click();
    await expect(sco(page).locator('#contentFrame')).toHaveAttribute('src', '../Playing/RulesOfGolf.html');
    await nav.getByRole('button', { name: /^(Next|Suivant)$/ }).click();
    await expect(bridgeFrame(page)).toHaveAttribute('data-sco', 'etuqiette_item');
    // Playing is satisfied; Handicapping still waits for Etiquette.
    await expect(nav.getByRole('button', { name: /^Playing the Game (Passed|Réussi)$/ })).toBeVisible();
    await expect(handicapping).toBeDisabled();
    await expect(nav.getByRole('button', { name: /^Playing the Game/ })).toBeEnabled();
  });

  test('SCORM 2004 4th edition: the engine delivers every SCO of the organization', async ({
    page,
    baseURL,
  }) => {
    const golf = await signedIn(page, baseURL);
    const { dialog } = await openCourse(page, golf, 'Golf post-test rollup (SCORM 2004 4th)');
    const nav = dialog.getByRole('navigation');
    await expect(nav).toBeVisible();
    const count = await nav.locator('.course-nav__item').count();
    expect(count).toBeGreaterThan(1);
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) {
      await expect(bridgeFrame(page)).toHaveAttribute('data-sco', /.+/);
      const at = (await bridgeFrame(page).getAttribute('data-sco'))!;
      seen.add(at);
      // Each SCO is completed by reading it to its last page; the next one opens then (its
      // precondition reads the previous SCO's completion through a global objective).
      const own = sco(page).getByRole('button', { name: 'Next ->' });
      for (let page_ = 0; page_ < 10 && (await own.isVisible()) && (await own.isEnabled()); page_++)
        await own.click();
      const next = nav.getByRole('button', { name: /^(Next|Suivant)$/ });
      if (i === count - 1) break;
      await expect(next).toBeEnabled();
      await next.click();
      await expect(bridgeFrame(page)).not.toHaveAttribute('data-sco', at);
    }
    expect(seen.size).toBe(count);
  });
});

import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LEA, signIn, test } from '../fixtures';

/**
 * Media widgets (issue 14) on the demo content, as Léa, in node mode (which records nothing, so
 * her lessons stay as the other journeys expect): the last block of "Santé et sécurité au
 * travail" (content/demo/tenants/fr/courses/sante-securite.yaml, "Les consignes à garder sous la
 * main") holds a three-page PDF guide (media-internal), a row with its own sound (audioFile), a
 * stored evacuation video (video widget) and attached documents, and the resource node "Le point
 * de rassemblement" (resources).
 */

const SAFETY = 'Santé et sécurité au travail';
const BLOCK = 'Les consignes à garder sous la main';

interface NodeResource {
  id: string;
  attributes: { kind: string; title: string | null };
}

/** The nodes of a course Léa follows, found through the API with her own token. */
async function courseNodes(page: Page, courseTitle: string): Promise<NodeResource[]> {
  return page.evaluate(async (title) => {
    const token = window.localStorage.getItem('parcours.token');
    const headers = { Authorization: `Bearer ${token}` };
    const lessons = (await (
      await fetch('/api/lessons?include=course&page[size]=100', { headers })
    ).json()) as {
      included?: { type: string; id: string; attributes: { title?: string } }[];
    };
    const course = lessons.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
    if (!course) return [];
    const query = new URLSearchParams({ 'filter[courseId]': course.id, sort: 'order' });
    return (
      (await (await fetch(`/api/course-nodes?${query.toString()}`, { headers })).json()) as {
        data: NodeResource[];
      }
    ).data;
  }, courseTitle);
}

test('media: a PDF paged by keyboard, a row sound played, a video dialog, the resources modal', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/login');
  await signIn(page, LEA);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  const node = (await courseNodes(page, SAFETY)).find(
    (n) => n.attributes.kind === 'block' && n.attributes.title === BLOCK,
  );
  expect(node, 'the instructions block node').toBeTruthy();
  await page.goto(`/render/node/${node!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: BLOCK })).toBeVisible();

  // PDF: pdf.js draws page 1 with its text layer; focused, the viewer pages by keyboard.
  const viewer = page.getByRole('region', { name: /^Document PDF .+ — Page 1 sur 3$/ });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText('1. Donner l’alerte')).toBeAttached();
  await expectNoSeriousA11yViolations(page);
  await viewer.focus();
  await page.keyboard.press('PageDown');
  const second = page.getByRole('region', { name: /— Page 2 sur 3$/ });
  await expect(second).toBeFocused();
  await expect(second.getByText('2. Attaquer un début de feu')).toBeAttached();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('region', { name: /— Page 3 sur 3$/ }).getByText('3. Évacuer')).toBeAttached();
  await page.keyboard.press('PageUp');
  await expect(page.getByRole('region', { name: /— Page 2 sur 3$/ })).toBeVisible();

  // Sound: the row's own audio (audioFile), muted so the journey makes no noise.
  const audio = page.locator('.row-audio audio');
  await expect(audio).toHaveCount(1);
  await audio.evaluate((element: HTMLAudioElement) => {
    element.muted = true;
  });
  await page.getByRole('button', { name: /^Écouter consignes-audio/ }).click();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(false);
  await expect(page.getByRole('button', { name: /^Mettre en pause consignes-audio/ })).toBeVisible();
  await page.getByRole('button', { name: /^Volume 100 %/ }).click();
  await expect(page.getByRole('button', { name: /^Volume 13 %/ })).toBeVisible();
  await page.getByRole('button', { name: /^Mettre en pause consignes-audio/ }).click();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(true);

  // Video: the lesson's evacuation video (a stored WebM) in the video player dialog, played by
  // the browser from the signed download URL.
  await page.getByRole('button', { name: 'Voir la vidéo' }).click();
  const video = page.getByRole('dialog', { name: 'Vidéo' });
  await expect(video).toBeVisible();
  const player = video.locator('video');
  await expect(player.locator('source')).toHaveAttribute('src', /\/api\/files\/[^/]+\/download\?/);
  await expect
    .poll(() =>
      player.evaluate((element: HTMLVideoElement) => [
        element.readyState > 0,
        element.videoWidth,
        // MediaRecorder writes no duration; make-video.ts adds it so the video can be sought.
        element.duration > 10 && element.duration < 15,
      ]),
    )
    .toEqual([true, 640, true]);
  await expectNoSeriousA11yViolations(page);
  await video.getByRole('button', { name: 'Fermer la vidéo' }).click();
  await expect(video).toHaveCount(0);

  // Resources: the toolbar's count (the resource node and the node's attached document) opens
  // the resource modal: the resource block "Le point de rassemblement" with its own document.
  await page.getByRole('button', { name: 'Ressources (2)' }).click();
  const resources = page.getByRole('dialog', { name: 'Ressources' });
  await expect(resources).toBeVisible();
  await expect(resources.getByRole('heading', { name: 'Le point de rassemblement' })).toBeVisible();
  await expect(
    resources.getByText("Le point de rassemblement est indiqué sur le plan d'évacuation"),
  ).toBeVisible();
  await expect(resources.getByRole('link', { name: /^Télécharger/ }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await resources.getByRole('button', { name: 'Fermer' }).click();
  await expect(resources).toHaveCount(0);
});

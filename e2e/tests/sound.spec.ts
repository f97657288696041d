import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LEA, signIn, test } from '../fixtures';

/**
 * The sound's two tracks (issue 27 item 7, docs/product.md §4): on the last block of "Santé et
 * sécurité au travail" ("Les consignes à garder sous la main", in node mode, which records nothing)
 * a row has its own sound, the page's main track. The resource "Le point de rassemblement" has a
 * sound of its own: opened from the resources, it plays as the temporary track in the page's
 * player, over the main one; closing it there gives the main track back.
 */

const SAFETY = 'Santé et sécurité au travail';
const BLOCK = 'Les consignes à garder sous la main';

async function instructionsNode(page: Page): Promise<string | undefined> {
  return page.evaluate(
    async ({ courseTitle, blockTitle }) => {
      const token = window.localStorage.getItem('parcours.token');
      const headers = { Authorization: `Bearer ${token}` };
      const lessons = (await (
        await fetch('/api/lessons?include=course&page[size]=100', { headers })
      ).json()) as {
        included?: { type: string; id: string; attributes: { title?: string } }[];
      };
      const course = lessons.included?.find(
        (r) => r.type === 'courses' && r.attributes.title === courseTitle,
      );
      if (!course) return undefined;
      const query = new URLSearchParams({ 'filter[courseId]': course.id, sort: 'order' });
      const nodes = (await (await fetch(`/api/course-nodes?${query.toString()}`, { headers })).json()) as {
        data: { id: string; attributes: { kind: string; title: string | null } }[];
      };
      return nodes.data.find((n) => n.attributes.kind === 'block' && n.attributes.title === blockTitle)?.id;
    },
    { courseTitle: SAFETY, blockTitle: BLOCK },
  );
}

test("sound: a resource's sound plays over the page's main track, and closing it gives the main track back", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/login');
  await signIn(page, LEA);
  await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
  const nodeId = await instructionsNode(page);
  expect(nodeId, 'the instructions block node').toBeTruthy();
  await page.goto(`/render/node/${nodeId}`);
  await expect(page.getByRole('heading', { level: 1, name: BLOCK })).toBeVisible();

  // The same page's interactive image (decision 0052): a spot chosen by keyboard shows its text.
  const picture = page.getByRole('group', { name: /^L'atelier/ });
  await expect(picture).toBeVisible();
  await picture.getByRole('button', { name: 'Extincteur' }).focus();
  await page.keyboard.press('Enter');
  await expect(picture.getByRole('button', { name: 'Extincteur' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText("Repérez-le avant d'en avoir besoin")).toBeVisible();

  // The page's main track: the row's own sound, muted so the journey makes no noise.
  const player = page.getByRole('group', { name: /^Lecteur audio : consignes-audio/ });
  await expect(player).toBeVisible();
  const audio = player.locator('audio');
  await audio.evaluate((element: HTMLAudioElement) => {
    element.muted = true;
  });
  await expect(player.getByRole('button', { name: /^Écouter consignes-audio/ })).toBeVisible();
  await expect(player).not.toHaveClass(/sound-player--temporary/);

  // The resource's sound, opened from the resources: it goes to the page's player.
  await page.getByRole('button', { name: /^Ressources \(\d+\)$/ }).click();
  const resources = page.getByRole('dialog', { name: 'Ressources' });
  await expect(resources.getByRole('heading', { name: 'Le point de rassemblement' })).toBeVisible();
  await resources.getByRole('button', { name: /consignes-audio/ }).click();
  await expect(resources.getByText(/est lu dans le lecteur de la page/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await resources.getByRole('button', { name: 'Fermer' }).click();
  await expect(resources).toHaveCount(0);

  // The temporary track plays in the page's player, over the main one, which offers the way back.
  await expect(player).toHaveClass(/sound-player--temporary/);
  const back = player.getByRole('button', { name: /^Revenir à consignes-audio/ });
  await expect(back).toBeVisible();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(false);
  await expectNoSeriousA11yViolations(page);

  // Closing it: the main track is back, at rest, ready to play again.
  await back.click();
  await expect(player).not.toHaveClass(/sound-player--temporary/);
  await expect(player.getByRole('button', { name: /^Revenir à/ })).toHaveCount(0);
  await expect(player.getByRole('button', { name: /^Écouter consignes-audio/ })).toBeVisible();
  await player.getByRole('button', { name: /^Écouter consignes-audio/ }).click();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(false);
  await player.getByRole('button', { name: /^Mettre en pause consignes-audio/ }).click();
});

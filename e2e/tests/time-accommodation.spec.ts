import { expect, expectNoSeriousA11yViolations, signIn, TEACHER, test } from '../fixtures';

/**
 * Time accommodation (RGAA 13.1, decision 0019): the demo teacher opens "Mes classes" from the
 * user menu, sees Hugo's ×1.5 in « Promo printemps », changes it with the keyboard and back; a
 * learner is offered no teacher screen. The server's side (limits judged and sent with the
 * factor) is tested on both databases in apps/api/test/modules/player-time-accommodation.test.ts.
 */
const HUGO = { email: 'hugo.lefevre@example.com', password: 'Hugo#Demo2026' };
const CLASS = 'Promo printemps — Savoirs de base';

test.describe('time accommodation', () => {
  test('a teacher sees and changes a learner’s time in their class', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, TEACHER);
    await page.getByRole('button', { name: /Menu utilisateur/ }).click();
    await page.getByRole('menuitem', { name: 'Mes classes (formateur)' }).click();
    await expect(page).toHaveURL(/\/enseignement$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mes classes' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: CLASS }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Temps aménagé — ${CLASS}` })).toBeVisible();
    const table = page.getByRole('table', { name: 'Apprenants de la classe et leur temps' });
    const hugo = table.getByRole('combobox', { name: 'Temps pour Hugo Lefèvre' });
    await expect(hugo).toHaveValue('1.5');
    await expect(table.getByRole('combobox', { name: 'Temps pour Léa Dubois' })).toHaveValue('none');
    await expectNoSeriousA11yViolations(page);

    // Keyboard only: the select, then its row's Save button.
    const row = table.getByRole('row', { name: /Hugo Lefèvre/ });
    const save = row.getByRole('button', { name: 'Enregistrer' });
    await expect(save).toBeDisabled();
    await hugo.focus();
    await hugo.selectOption('2');
    await page.keyboard.press('Tab');
    await expect(save).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'enregistré' })).toHaveText(
      'Temps de Hugo Lefèvre enregistré.',
    );
    await page.reload();
    await expect(table.getByRole('combobox', { name: 'Temps pour Hugo Lefèvre' })).toHaveValue('2');
    await expectNoSeriousA11yViolations(page);

    // Back to the demo's ×1.5 for whoever comes next.
    await table.getByRole('combobox', { name: 'Temps pour Hugo Lefèvre' }).selectOption('1.5');
    await row.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'enregistré' })).toBeVisible();
    await expect(table.getByRole('combobox', { name: 'Temps pour Hugo Lefèvre' })).toHaveValue('1.5');
  });

  test('Hugo’s timed page counts down from 2:15 (90 s × 1.5), not Léa’s 1:30', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, HUGO);
    await expect(page.getByRole('button', { name: /Menu utilisateur/ })).toBeVisible();
    // Through the API with his own token, up to the timed choice: the exercises on the way are
    // Léa's journey (player.spec.ts), not this one's.
    const lessonId = await page.evaluate(async (title) => {
      const headers = { Authorization: `Bearer ${window.localStorage.getItem('parcours.token')}` };
      const json = async (url: string, init: RequestInit = {}) =>
        (await (
          await fetch(url, { ...init, headers: { ...headers, 'Content-Type': 'application/json' } })
        ).json()) as {
          data:
            | { id: string; attributes: Record<string, unknown> }
            | { id: string; attributes: Record<string, unknown> }[];
          included?: { type: string; id: string; attributes: { title?: string } }[];
        };
      const lessons = await json('/api/lessons?include=course');
      const course = lessons.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
      const lesson = (lessons.data as { id: string; attributes: Record<string, unknown> }[]).find(
        (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
      )!;
      const base = `/api/lessons/${lesson.id}/pages`;
      let current = (await json(`${base}/current`)).data as {
        id: string;
        attributes: Record<string, unknown>;
      };
      for (let i = 0; i < 20 && (current.attributes.node as { type: string }).type !== 'multiblock'; i++) {
        await json(`${base}/current`, { method: 'PATCH', body: JSON.stringify({ pageId: current.id }) });
        current = (
          await json(`${base}/next`, { method: 'POST', body: JSON.stringify({ fromPageId: current.id }) })
        ).data as typeof current;
      }
      return lesson.id;
    }, 'Fractions et pourcentages');
    await page.goto(`/session/${lessonId}`);
    await expect(page.getByRole('heading', { name: 'Entraînement chronométré' })).toBeVisible();
    await page.getByRole('button', { name: '1. Chrono : 30 % de 200' }).click();
    const timed = page.getByRole('alertdialog', { name: 'Exercice chronométré' });
    await timed.getByRole('button', { name: "C'est parti" }).click();
    // Léa (no accommodation) sees 01:2x–01:3x here (player.spec.ts).
    await expect(page.getByRole('timer', { name: 'Temps restant' })).toHaveText(/02:(0|1)\d/);
    await expectNoSeriousA11yViolations(page);
  });

  test('in node mode too, Hugo’s timed block counts down from 2:15 (decision 0019 follow-up)', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, HUGO);
    await expect(page.getByRole('button', { name: /Menu utilisateur/ })).toBeVisible();
    // The multiblock "Entraînement chronométré" found with his own token (player-node.spec.ts).
    const multiblockId = await page.evaluate(async (title) => {
      const headers = { Authorization: `Bearer ${window.localStorage.getItem('parcours.token')}` };
      const lessons = (await (await fetch('/api/lessons?include=course', { headers })).json()) as {
        included?: { type: string; id: string; attributes: { title?: string } }[];
      };
      const course = lessons.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
      const query = new URLSearchParams({
        'filter[courseId]': course?.id ?? '',
        'filter[type]': 'multiblock',
      });
      const nodes = (await (await fetch(`/api/course-nodes?${query.toString()}`, { headers })).json()) as {
        data: { id: string }[];
      };
      return nodes.data[0]?.id ?? null;
    }, 'Fractions et pourcentages');
    expect(multiblockId, 'the multiblock node').toBeTruthy();
    await page.goto(`/render/node/${multiblockId}`);
    await page.getByRole('button', { name: '2. Chrono : de la fraction au pourcentage' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Chrono : de la fraction au pourcentage' }),
    ).toBeVisible();
    // Léa (no accommodation) sees 01:2x–01:3x here (player-node.spec.ts).
    await expect(page.getByRole('timer', { name: 'Temps restant' })).toHaveText(/02:(0|1)\d/);
    await expectNoSeriousA11yViolations(page);
  });

  test('a learner is offered no teacher screen, and reads none', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, HUGO);
    await page.getByRole('button', { name: /Menu utilisateur/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Mon profil' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Mes classes (formateur)' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/enseignement');
    await expect(page.getByText("Vous n'enseignez dans aucune classe.")).toBeVisible();
  });
});

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

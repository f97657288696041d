import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

// A real 1×1 PNG: the server checks the bytes, not the name.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test.describe('dashboard: the logbook', () => {
  test('the demo learner adds a note with a picture, edits it, and prints the logbook', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/logbook');
    const panel = page.getByRole('region', { name: 'Journal de bord' });
    await expect(panel).toBeVisible();
    const notes = panel.getByRole('list', { name: 'Notes du journal de bord' });
    // The demo may or may not hold notes already; either the list or the spec's empty text shows.
    await expect(notes.or(panel.getByText("Aucune note dans le journal pour l'instant"))).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Add a note: title, message and a picture, in the dialog.
    await panel.getByRole('button', { name: 'Ajouter une note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter une note' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Titre')).toBeFocused();
    // Saving without a title says what is missing.
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(dialog.getByText('Entrez un titre')).toBeVisible();
    await dialog.getByLabel('Titre').fill("Visite de l'atelier");
    await dialog
      .getByLabel('Message')
      .fill('Rencontre avec le chef d’atelier.\nPrise de notes sur la sécurité.');
    await dialog.getByLabel('Ajouter des fichiers').setInputFiles([
      { name: 'atelier.png', mimeType: 'image/png', buffer: PNG_1X1 },
      {
        name: 'script.png',
        mimeType: 'image/png',
        buffer: Buffer.from('<html><script>alert(1)</script></html>'),
      },
    ]);
    await expect(dialog.getByRole('listitem').filter({ hasText: 'atelier.png' })).toContainText('Envoyé');
    // The forged picture is refused by the server, on its own line, without blocking the other.
    await expect(dialog.getByRole('listitem').filter({ hasText: 'script.png' })).toContainText(
      'Type de fichier refusé',
    );
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(dialog).toBeHidden();

    // Newest first: the new note heads the list, with its author, message and picture.
    const first = notes.getByRole('article').first();
    await expect(first.getByRole('heading', { level: 3 })).toHaveText("Visite de l'atelier");
    await expect(first).toContainText('Prise de notes sur la sécurité.');
    await expect(first.getByRole('link', { name: /Ouvrir atelier\.png/ })).toBeVisible();
    await expect(first.getByRole('link', { name: /Ouvrir atelier\.png/ }).locator('img')).toHaveJSProperty(
      'naturalWidth',
      1,
    );

    // Edit it in the same dialog.
    await first.getByRole('button', { name: "Modifier Visite de l'atelier" }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier la note' });
    await expect(edit.getByLabel('Titre')).toHaveValue("Visite de l'atelier");
    await edit.getByLabel('Titre').fill("Visite de l'atelier (suite)");
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(edit).toBeHidden();
    await expect(first.getByRole('heading', { level: 3 })).toHaveText("Visite de l'atelier (suite)");
    await expect(first.getByText(/modifiée le/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Print opens the browser's print dialog (stubbed here: headless Chromium has none)…
    await page.evaluate(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => {
        w.printed += 1;
      };
    });
    await panel.getByRole('button', { name: 'Imprimer' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

    // …and on paper only the notes remain: no banner, tabs, footer nor buttons.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('contentinfo')).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Sections du tableau de bord' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Ajouter une note' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Imprimer' })).toBeHidden();
    await expect(first.getByRole('button', { name: /^Modifier/ })).toBeHidden();
    await expect(first.getByRole('heading', { level: 3 })).toBeVisible();
    await expect(panel.getByRole('heading', { level: 2, name: 'Journal de bord' })).toBeVisible();
    // Whose logbook, printed when: shown on paper only.
    await expect(panel.getByText(/^Journal de bord de .+, imprimé le /)).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await expect(panel.getByText(/^Journal de bord de .+, imprimé le /)).toBeHidden();
    await expect(page.getByRole('banner')).toBeVisible();
  });
});

import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * Issue 9, the stats tab on a desktop screen with the demo learner, whose demo history has pages
 * answered over the last weeks (content/demo/tenants/fr/classes.yaml): the default period, a
 * year of months, a legend entry hiding its series, and the tables that say the charts in words.
 * Figures depend on the demo content and on the day; the journey checks shapes, not numbers.
 */
test.use({ viewport: { width: 1280, height: 900 } });

test('the demo learner reads their statistics, changes the period and hides a series', async ({ page }) => {
  await page.goto('/statistiques');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page);
  // Signed in: back to the screen asked for, or to the home; then the tab by its URL.
  await expect(page).not.toHaveURL(/\/login$/);
  if (!page.url().endsWith('/statistiques')) await page.goto('/statistiques');

  await expect(page.getByRole('heading', { name: 'Statistiques', level: 2 })).toBeVisible();
  const periods = page.getByRole('group', { name: 'Période' });
  await expect(periods.getByRole('radio', { name: '1 semaine' })).toBeChecked();
  await expect(page.getByText('Grains terminés')).toBeVisible();
  await expect(page.getByText('Temps passé', { exact: true })).toBeVisible();

  // A year holds the whole demo history: the three charts, each with its table of 12 months.
  const year = page.waitForResponse(
    (r) => r.url().includes('/api/statistics') && decodeURIComponent(r.url()).includes('filter[period]=1y'),
  );
  await periods.getByRole('radio', { name: '1 an' }).check();
  expect((await year).status()).toBe(200);
  await expect(periods.getByRole('radio', { name: '1 an' })).toBeChecked();
  for (const chart of ['Activité', 'Progression', 'Temps']) {
    await expect(page.getByRole('heading', { name: chart, level: 3 })).toBeVisible();
    const table = page.getByRole('table', { name: `${chart} : données du graphique` });
    // Header row + one row per month.
    await expect(table.getByRole('row')).toHaveCount(13);
  }
  // uPlot drew its canvases (hidden from assistive technologies: the tables say the same).
  await expect(page.locator('.stats-chart__canvas canvas')).toHaveCount(3);

  const activity = page.getByRole('table', { name: 'Activité : données du graphique' });
  const pages = await activity.getByRole('cell').allInnerTexts();
  expect(pages.map(Number).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  // The legend: each entry is a toggle button.
  const legend = page.getByRole('list', { name: 'Légende : Progression' });
  const cumulative = legend.getByRole('button', { name: 'Cumul de la période (%)' });
  await expect(cumulative).toHaveAttribute('aria-pressed', 'true');
  await cumulative.click();
  await expect(cumulative).toHaveAttribute('aria-pressed', 'false');
  await expect(legend.getByRole('button', { name: 'Points obtenus (%)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await cumulative.press('Enter');
  await expect(cumulative).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('list', { name: 'Légende : Activité' }).getByRole('button').click();
  await expect(page.getByRole('list', { name: 'Légende : Activité' }).getByRole('button')).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await expectNoSeriousA11yViolations(page);

  // Three months are twelve Monday weeks.
  await periods.getByRole('radio', { name: '3 mois' }).check();
  await expect(
    page.getByRole('table', { name: 'Activité : données du graphique' }).getByRole('row'),
  ).toHaveCount(13);
  await expect(
    page
      .getByRole('table', { name: 'Activité : données du graphique' })
      .getByRole('columnheader', { name: 'Semaine' }),
  ).toBeAttached();
  await page.screenshot({ path: '../test-results/dashboard-stats.png', fullPage: true });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect, expectNoSeriousA11yViolations, LEARNER, signIn, test } from '../fixtures';
import { e2eDataDir } from '../playwright.config';

/**
 * The demo gives the learner an ended certifying lesson with its reference (content/demo). Until
 * that content exists in a given tree, the journey gives one to the learner itself, in the
 * journey's own database, so it still tests the download rather than skipping it.
 */
function ensureDemoCertificate(): void {
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3') as new (file: string) => {
    prepare(sql: string): { run(...args: unknown[]): unknown; get(...args: unknown[]): unknown };
    close(): void;
  };
  const db = new Database(path.join(e2eDataDir, 'parcours.sqlite'));
  try {
    const learner = db.prepare('select id from users where email = ?').get(LEARNER.email) as
      { id: string } | undefined;
    if (!learner) return;
    const ended = "(l.progress = 'COMPLETED' or l.state = 'SKIPPED')";
    const has = db
      .prepare(`select 1 from lessons l where l.user_id = ? and l.certification_ref is not null and ${ended}`)
      .get(learner.id);
    if (has) return;
    db.prepare(
      `update lessons set certification_ref = 'DEMO-' || upper(substr(replace(id, '-', ''), 1, 10))
       where id = (select l.id from lessons l join courses co on co.id = l.course_id join course_types ct on ct.id = co.type_id
                   where l.user_id = ? and ${ended} and ct.settings like '%"certificate":true%' limit 1)`,
    ).run(learner.id);
  } finally {
    db.close();
  }
}

test.describe('dashboard: certificates', () => {
  test('the demo learner sees the certificates table and downloads a certificate PDF', async ({ page }) => {
    ensureDemoCertificate();
    await page.goto('/login');
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/validations');
    const panel = page.getByRole('region', { name: 'Certifications', exact: true });
    await expect(panel).toBeVisible();
    const table = panel.getByRole('table', { name: 'Vos certifications' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Cours et score' })).toBeVisible();
    await expect(table.getByText(/Score : \d+ \/ 1000/).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const button = table.getByRole('button', { name: /^Certificat \(PDF\) : / }).first();
    await expect(button).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = await download.path();
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The download went through fetch with the token in a header: no token in any URL.
    expect(download.url()).toMatch(/^blob:/);

    // The Open Badges credential beside it is a signed JWT.
    const credential = table.getByRole('button', { name: /^Badge numérique \(Open Badges\) : / }).first();
    const [jwt] = await Promise.all([page.waitForEvent('download'), credential.click()]);
    expect(jwt.suggestedFilename()).toMatch(/\.jwt$/);
    expect(readFileSync(await jwt.path()).toString('utf8')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    // And the file a wallet imports: the credential with its embedded proof (decision 0058).
    const wallet = table.getByRole('button', { name: /^Badge pour un portefeuille \(JSON-LD\) : / }).first();
    const [json] = await Promise.all([page.waitForEvent('download'), wallet.click()]);
    expect(json.suggestedFilename()).toMatch(/\.json$/);
    const credentialLd = JSON.parse(readFileSync(await json.path()).toString('utf8')) as {
      type: string[];
      proof: { type: string; cryptosuite: string };
    };
    expect(credentialLd.type).toContain('OpenBadgeCredential');
    expect(credentialLd.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('dashboard: certificates on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('each certificate is a card with its download buttons in view, nothing off to the side', async ({
    page,
  }) => {
    ensureDemoCertificate();
    await page.goto('/login');
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/validations');
    const table = page.getByRole('table', { name: 'Vos certifications' });
    await expect(table).toBeVisible();
    const button = table.getByRole('button', { name: /^Certificat \(PDF\) : / }).first();
    await button.scrollIntoViewIfNeeded();
    // In view without scrolling sideways: the card fits the screen's width.
    await expect(button).toBeInViewport();
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    const card = table
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^Certificat \(PDF\) : / }) })
      .first();
    const cardBox = await card.boundingBox();
    expect(cardBox!.x).toBeGreaterThanOrEqual(0);
    expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(375);
    // The dates are labelled in the card, and the page itself never scrolls sideways.
    await expect(card.getByText(/Score : \d+ \/ 1000/)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  });
});

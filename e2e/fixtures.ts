import AxeBuilder from '@axe-core/playwright';
import { expect, test as base } from '@playwright/test';
import type { Page } from '@playwright/test';

export const LEARNER = { email: 'learner@example.com', password: 'Learner#2026' };
export const TEACHER = { email: 'teacher@example.com', password: 'Teacher#2026' };
export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
/** A second demo learner with untouched lessons (content/demo/tenants/fr/users.yaml). */
export const LEA = { email: 'lea.dubois@example.com', password: 'Lea#Demo2026' };
/** Demo learners of "Promo printemps" kept for the session journeys (session-expiry, shared-device). */
export const THEO = { email: 'theo.roux@example.com', password: 'Theo#Demo2026' };
export const INES = { email: 'ines.garnier@example.com', password: 'Ines#Demo2026' };

/** Fails on any serious or critical axe violation (WCAG 2.1 A/AA), listing them readably. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, 'axe serious/critical violations').toEqual([]);
}

/** Signs in through the real form, in French (the default browser locale of these journeys). */
export async function signIn(page: Page, who = LEARNER): Promise<void> {
  await page.getByRole('textbox', { name: /e-mail ou pseudonyme|e-mail or username/i }).fill(who.email);
  await page.getByRole('textbox', { name: /^(mot de passe|password)$/i }).fill(who.password);
  await page.getByRole('button', { name: /^(se connecter|sign in)$/i }).click();
}

export const test = base.extend({
  // French browser by default: the demo's main tenant is French.
  locale: 'fr-FR',
});
export { expect };

interface LessonsDoc {
  data: { id: string; attributes: { courseId: string; state: string } }[];
  included?: { type: string; id: string; attributes: { title?: string } }[];
}

/** The signed-in learner's available lesson of the course titled `title` (read with the stored token). */
export async function availableLesson(page: Page, title: string): Promise<string> {
  const doc = await page.evaluate(async () => {
    const token = window.localStorage.getItem('parcours.token');
    const response = await fetch('/api/lessons?include=course', {
      headers: { Authorization: `Bearer ${token}` },
    });
    return (await response.json()) as LessonsDoc;
  });
  const course = doc.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
  const lesson = doc.data.find(
    (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
  );
  expect(lesson, `available lesson of ${title}`).toBeTruthy();
  return lesson!.id;
}

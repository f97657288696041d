import AxeBuilder from '@axe-core/playwright';
import { expect, test as base } from '@playwright/test';
import type { Page } from '@playwright/test';

export const LEARNER = { email: 'learner@example.com', password: 'Learner#2026' };
export const TEACHER = { email: 'teacher@example.com', password: 'Teacher#2026' };
export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };

/** Fails on any serious or critical axe violation, listing them readably. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, 'axe serious/critical violations').toEqual([]);
}

export const test = base;
export { expect };

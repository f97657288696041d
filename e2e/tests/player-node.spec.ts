import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LEA, signIn, test } from '../fixtures';

/**
 * Node mode (docs/product.md §2 /render/node/{id}) on the demo content, as Léa: the course "Fractions et
 * pourcentages" (content/demo/tenants/fr/courses/maths-fractions.yaml) holds a block node with
 * the calculator ("Calculer un prix soldé", followed by "Associer pourcentages et fractions") and
 * the multiblock "Entraînement chronométré", last of its section, with two timed children.
 * Node mode records nothing, so these journeys leave Léa's lessons as they were.
 */

const MATHS = 'Fractions et pourcentages';

interface NodeResource {
  id: string;
  attributes: { kind: string; title: string | null; blockId: string | null; tools: { calculator?: boolean } };
}

/** The nodes of a course Léa follows, found through the API with her own token. */
async function courseNodes(page: Page, courseTitle: string): Promise<NodeResource[]> {
  return page.evaluate(async (title) => {
    const token = window.localStorage.getItem('parcours.token');
    const headers = { Authorization: `Bearer ${token}` };
    const lessons = (await (await fetch('/api/lessons?include=course', { headers })).json()) as {
      included?: { type: string; id: string; attributes: { title?: string } }[];
    };
    const course = lessons.included?.find((r) => r.type === 'courses' && r.attributes.title === title);
    if (!course) return [];
    const query = new URLSearchParams({ 'filter[courseId]': course.id, sort: 'order' });
    const nodes = (await (await fetch(`/api/course-nodes?${query.toString()}`, { headers })).json()) as {
      data: NodeResource[];
    };
    return nodes.data;
  }, courseTitle);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

test.describe('node mode', () => {
  let nodes: NodeResource[] = [];

  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await signIn(page, LEA);
    await expect(page.getByRole('heading', { name: /mes formations/i })).toBeVisible();
    nodes = await courseNodes(page, MATHS);
    expect(nodes.length, `nodes of ${MATHS}`).toBeGreaterThan(0);
  });

  test('shows a block node with its toolbar, and Next opens the next node', async ({ page }) => {
    const node = nodes.find(
      (n) => n.attributes.kind === 'block' && n.attributes.title === 'Calculer un prix soldé',
    );
    expect(node, 'the calculator block node').toBeTruthy();
    await page.goto(`/render/node/${node!.id}`);
    await expect(heading(page, 'Calculer un prix soldé')).toBeVisible();
    await expect(page.getByText('Elle est soldée à')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Votre réponse/ })).toBeEditable();
    await expect(page.getByRole('button', { name: 'Calculatrice' })).toBeVisible();
    // Progression: the second node of its section (four nodes).
    await expect(page.getByText('Page 2 sur 4')).toBeVisible();
    // Hints: the free one by click; the one with a cost is left to the lesson (decision 0018).
    await expect(page.getByText('Un autre indice, payant, se débloque dans la leçon.')).toBeVisible();
    await page.getByRole('button', { name: 'Voir un indice (1 restant)' }).click();
    await expect(page.getByText("Calculez d'abord le montant de la remise, 25 % de 80 €.")).toBeVisible();
    await expect(page.getByText('25 % = 1/4')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: /^Suivant/ }).click();
    await expect(heading(page, 'Associer pourcentages et fractions')).toBeVisible();
    await expect(page).toHaveURL(/\/render\/node\/[^/]+$/);
    expect(page.url()).not.toContain(node!.id);

    // docs/product.md §4 Next flow in node mode shows the block's general feedback, then the next
    // node; but this block is still to be answered for a grade in one of the learner's lessons,
    // and its feedback states every expected pair (issue 29 K-1): the server withholds it, so
    // Next goes straight on.
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Entraînement chronométré')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Bon à savoir' })).toHaveCount(0);
    await expect(page.getByText('Retenez : 1/2 = 50 %')).toHaveCount(0);
  });

  test('offers a multiblock by numbered titles, renders the chosen block, then goes home', async ({
    page,
  }) => {
    const multiblock = nodes.find((n) => n.attributes.kind === 'multiblock');
    expect(multiblock, 'the multiblock node').toBeTruthy();
    await page.goto(`/render/node/${multiblock!.id}`);
    await expect(heading(page, 'Entraînement chronométré')).toBeVisible();
    const choices = page.getByRole('navigation', { name: 'Activités' }).getByRole('button');
    await expect(choices).toHaveText([
      '1. Chrono : 30 % de 200',
      '2. Chrono : de la fraction au pourcentage',
    ]);
    await expectNoSeriousA11yViolations(page);

    // Keyboard alone: the second choice, then its content with the node's countdown.
    await choices.nth(1).focus();
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Chrono : de la fraction au pourcentage')).toBeVisible();
    await expect(page.getByRole('timer', { name: 'Temps restant' })).toHaveText(/01:(2|3)\d/);
    await expectNoSeriousA11yViolations(page);

    // The multiblock is the last node of its section: Next goes home.
    await page.getByRole('button', { name: /^Suivant/ }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

import { describe, expect, it } from 'vitest';
import { withPageValues } from './page-values';
import { block } from './test-pages';

const parametrised = block({
  content: {
    statement: { html: '<p>Un article à {{prix}} € soldé {{remise}} %.</p>' },
    sections: [{ rows: [{ type: 'free-answer', message: 'Prix soldé de {{prix}} € ?' }] }],
    datasetNames: ['prix', 'remise'],
  },
});

describe('withPageValues', () => {
  it.each([
    ['fr', { prix: 84.5, remise: 15 }, '<p>Un article à 84,5 € soldé 15 %.</p>'],
    ['en', { prix: 84.5, remise: 15 }, '<p>Un article à 84.5 € soldé 15 %.</p>'],
    ['fr', { prix: 1200, remise: 5 }, '<p>Un article à 1\u202f200 € soldé 5 %.</p>'],
  ])('%s %j', (language, values, html) => {
    const shown = withPageValues(parametrised, { datasetComputed: values }, language);
    expect(shown.content.statement?.html).toBe(html);
    expect(shown.content.sections[0]?.rows[0]?.message).not.toContain('{{');
  });

  it('keeps the block as it is without values, and the same object for the same values', () => {
    expect(withPageValues(parametrised, undefined, 'fr')).toBe(parametrised);
    const plain = block();
    expect(withPageValues(plain, { datasetComputed: { prix: 1 } }, 'fr')).toBe(plain);
    const a = withPageValues(parametrised, { datasetComputed: { prix: 2, remise: 3 } }, 'fr');
    expect(withPageValues(parametrised, { datasetComputed: { prix: 2, remise: 3 } }, 'fr')).toBe(a);
  });
});

import { pageTitle } from './use-page-title';

describe('page title (SPEC §2)', () => {
  it('is the product name plus the route name', () => {
    expect(pageTitle('Acme Academy', 'My courses', 'Espace Apprenant')).toBe('Acme Academy – My courses');
  });
  it("falls back to 'Espace Apprenant'", () => {
    expect(pageTitle(null, null, 'Espace Apprenant')).toBe('Espace Apprenant');
    expect(pageTitle('  ', 'Connexion', 'Espace Apprenant')).toBe('Espace Apprenant – Connexion');
  });
});

import { brandPalette, contrastRatio, parseHex } from './branding';

describe('tenant branding', () => {
  it('turns the context colours into CSS variables', () => {
    const palette = brandPalette({ primary: '#1d4ed8', secondary: '#0f766e' });
    expect(palette['--color-primary']).toBe('#1d4ed8');
    expect(palette['--color-on-primary']).toBe('#ffffff');
  });

  it('keeps text drawn from a light brand colour readable (WCAG AA)', () => {
    const palette = brandPalette({ primary: '#ffd400', secondary: '#9be7ff' });
    expect(palette['--color-on-primary']).not.toBe('#ffffff');
    const text = parseHex(palette['--color-primary-text'])!;
    expect(contrastRatio(text, [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
  });

  it('ignores invalid colours', () => {
    expect(brandPalette({ primary: 'not-a-colour', secondary: '' })).toEqual({});
  });
});

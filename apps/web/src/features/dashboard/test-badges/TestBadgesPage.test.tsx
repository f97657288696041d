import { allBadgePictures } from '@parcours/domain/badges';
import { render, screen } from '@testing-library/react';
import { TestBadgesPage } from './TestBadgesPage';

describe('/test-badges', () => {
  it('shows every kind, level and size at the five test ratios, with changes of both signs', () => {
    const { container } = render(<TestBadgesPage />);
    const badges = container.querySelectorAll('.badge');
    expect(badges).toHaveLength(allBadgePictures().length * 5);
    const pictures = new Set(
      [...container.querySelectorAll('.badge__img')].map((img) => img.getAttribute('src')),
    );
    expect(pictures.size).toBe(allBadgePictures().length);
    expect(container.querySelectorAll('.badge__delta--positive').length).toBeGreaterThan(0);
    expect(container.querySelectorAll('.badge__delta--negative').length).toBeGreaterThan(0);
    expect(container.querySelectorAll('.badge__ring')).toHaveLength(5);
    // Role queries over 150 badges are slow in jsdom: the names are read from the attributes.
    const names = [...container.querySelectorAll('[role="img"]')].map((el) => el.getAttribute('aria-label'));
    expect(names).toContain('Level (competency), gold, ratio 0.2, change +10 from 100');
    expect(names).toContain('Level (competency), gold, ratio 0.4, change -20 from 100');
    expect(names).toContain('Certification, attestation, ratio 1, change +50 from 100, certifying');
    expect(names.filter((name) => name?.includes('stars out of 3'))).toHaveLength(10);
    expect(screen.getByRole('heading', { level: 1, name: 'Badge test' })).toBeInTheDocument();
  });
});

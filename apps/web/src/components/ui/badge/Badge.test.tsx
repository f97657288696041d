import { render, screen } from '@testing-library/react';
import { Badge } from './Badge';

describe('badge display', () => {
  it('shows the built picture of its type, level and size, named for screen readers', () => {
    render(<Badge type="level" level="gold" size="xl" label="Maths: gold medal" value="80 %" />);
    const badge = screen.getByRole('img', { name: 'Maths: gold medal' });
    expect(badge.querySelector('.badge__img')).toHaveAttribute(
      'src',
      '/static/images/badges/badge-level_gold_xl.png',
    );
    expect(badge).toHaveTextContent('80 %');
  });

  it('md has no size suffix; img replaces the picture', () => {
    const { rerender } = render(<Badge type="theme" level="silver" label="Sales" />);
    expect(screen.getByRole('img', { name: 'Sales' }).querySelector('.badge__img')).toHaveAttribute(
      'src',
      '/static/images/badges/badge-theme_silver.png',
    );
    rerender(<Badge type="theme" level="silver" label="Sales" img="/x.png" />);
    expect(screen.getByRole('img', { name: 'Sales' }).querySelector('.badge__img')).toHaveAttribute(
      'src',
      '/x.png',
    );
  });

  it.each([
    [12, 'positive', '+12'],
    [-4, 'negative', '-4'],
    [0, 'negative', '0'],
  ])('delta %d is %s', (delta, sign, text) => {
    render(<Badge type="PI" level="xp" label="XP" delta={delta} deltaStart={100} />);
    const shown = document.querySelector('.badge__delta');
    expect(shown).toHaveClass(`badge__delta--${sign}`);
    expect(shown).toHaveTextContent(text);
    expect(screen.getByRole('img', { name: `XP, change ${text} from 100` })).toBeInTheDocument();
  });

  it('draws the done ring only for PI at xl, clamped', () => {
    const { rerender, container } = render(<Badge type="PI" level="xp" size="xl" done={1.4} label="XP" />);
    expect(container.querySelector('.badge__ring-done')).toHaveAttribute('data-done', '1');
    rerender(<Badge type="PI" level="xp" size="md" done={0.4} label="XP" />);
    expect(container.querySelector('.badge__ring')).toBeNull();
    rerender(<Badge type="level" level="gold" size="xl" done={0.4} label="XP" />);
    expect(container.querySelector('.badge__ring')).toBeNull();
  });

  it('carries the certification mark and an icon by name or URL', () => {
    const { container, rerender } = render(
      <Badge type="certification" level="certification" certif icon="calculator" label="Maths" />,
    );
    expect(screen.getByRole('img', { name: 'Maths, certifying' })).toBeInTheDocument();
    expect(container.querySelector('.badge__certif')).not.toBeNull();
    expect(container.querySelector('svg.badge__icon')).not.toBeNull();
    rerender(<Badge type="level" level="none" icon="/icons/a.png" label="Maths" />);
    expect(container.querySelector('img.badge__icon')).toHaveAttribute('src', '/icons/a.png');
  });

  it('puts the value under the picture when an icon is drawn on it', () => {
    const { container, rerender } = render(
      <Badge type="level" level="gold" icon="calculator" value="80 %" label="Maths" />,
    );
    expect(container.querySelector('.badge__art .badge__value')).toBeNull();
    expect(container.querySelector('.badge__value--below')).toHaveTextContent('80 %');
    rerender(<Badge type="PI" level="xp" value="120" label="XP" />);
    expect(container.querySelector('.badge__art .badge__value')).toHaveTextContent('120');
  });

  it('is hidden from screen readers without a label', () => {
    const { container } = render(<Badge type="level" level="bronze" />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
  });
});

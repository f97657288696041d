import { render, screen } from '@testing-library/react';
import { changeLanguage } from '../../../lib/i18n';
import { RatingDisplay } from './RatingDisplay';

describe('rating display', () => {
  it.each([
    [0.2, 'full 0 half 1', '0.5 stars out of 3 (20.0 %)'],
    [0.7333, 'full 2 half 0', '2 stars out of 3 (73.3 %)'],
    [5 / 6, 'full 2 half 1', '2.5 stars out of 3 (83.3 %)'],
    [1, 'full 3 half 0', '3 stars out of 3 (100.0 %)'],
  ])('%d draws %s and says %s', (percent, fills, name) => {
    const { container } = render(<RatingDisplay percent={percent} />);
    const stars = screen.getByRole('img', { name });
    const count = (fill: string) => container.querySelectorAll(`.rating__star--${fill}`).length;
    expect(`full ${count('full')} half ${count('half')}`).toBe(fills);
    expect(stars.querySelectorAll('.rating__star')).toHaveLength(3);
    expect(stars).toHaveAttribute('tabindex', '0');
  });

  it('shows the percent with one decimal in its tooltip, in the learner language', async () => {
    await changeLanguage('fr');
    const { container } = render(<RatingDisplay percent={0.7333} message="Votre avis" theme="dark" />);
    expect(container.querySelector('.rating__tooltip')).toHaveTextContent('73,3 %');
    expect(container.firstElementChild).toHaveClass('rating--dark');
    expect(screen.getByText('Votre avis')).toBeInTheDocument();
  });

  it('can go without tooltip', () => {
    const { container } = render(<RatingDisplay percent={0.5} tooltip={false} />);
    expect(container.querySelector('.rating__tooltip')).toBeNull();
    expect(screen.getByRole('img')).not.toHaveAttribute('tabindex');
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { changeLanguage } from '../../../lib/i18n';
import { StarRating } from './StarRating';

function Harness({ initial = 0, error }: { initial?: number; error?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <StarRating value={value} onChange={setValue} label="Your rating" error={error} />
      <output>{value}</output>
    </>
  );
}

describe('star rating', () => {
  it('is a group of five named stars', () => {
    render(<Harness />);
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    expect(group).toBeInTheDocument();
    for (const name of ['1 star', '2 stars', '3 stars', '4 stars', '5 stars']) {
      expect(screen.getByRole('radio', { name })).toBeInTheDocument();
    }
    expect(screen.getAllByRole('radio')).toHaveLength(5);
  });

  it('names the stars in French too', async () => {
    await changeLanguage('fr');
    render(<Harness />);
    expect(screen.getByRole('radio', { name: '1 étoile' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '4 étoiles' })).toBeInTheDocument();
  });

  it('is picked by click and moved with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('radio', { name: '3 stars' }));
    expect(screen.getByRole('status')).toHaveTextContent('3');
    expect(screen.getByRole('radio', { name: '3 stars' })).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('4');
  });

  it('reads its error with the group', () => {
    render(<Harness error="Choose a rating" />);
    expect(screen.getByText('Choose a rating')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Your rating' })).toHaveAccessibleDescription(
      'Choose a rating',
    );
  });
});

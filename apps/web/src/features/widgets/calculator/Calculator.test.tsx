import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Calculator } from './Calculator';

describe('Calculator', () => {
  it('computes from its keys and from typed keys, and closes from its button', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Calculator onClose={onClose} />);
    const display = screen.getByRole('status', { name: 'Result' });
    for (const key of ['8', '0', 'Times', '0', 'Decimal point', '7', '5', 'Equals'])
      await user.click(screen.getByRole('button', { name: key }));
    expect(display).toHaveTextContent('60');
    await user.click(screen.getByRole('button', { name: 'C — Clear' }));
    await user.keyboard('7+5=');
    expect(display).toHaveTextContent('12');
    await user.click(screen.getByRole('button', { name: 'Close the calculator' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('names every key with the text it shows first (WCAG 2.5.3 label in name)', () => {
    render(<Calculator onClose={() => undefined} />);
    const keys = screen.getAllByRole('button').filter((b) => /^[a-z]+$/i.test(b.textContent ?? ''));
    expect(keys.map((b) => b.textContent)).toEqual(
      expect.arrayContaining(['sin', 'cos', 'tan', 'asin', 'acos', 'atan']),
    );
    for (const key of keys) {
      expect(key.getAttribute('aria-label') ?? key.textContent).toMatch(new RegExp(`^${key.textContent}\\b`));
    }
    expect(screen.getByRole('button', { name: /^sin — Sine \(degrees\)$/ })).toBeInTheDocument();
  });
});

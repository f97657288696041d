import { act, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { RadialScore } from './RadialScore';

function mockReducedMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduce && query.includes('reduce'),
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

describe('radial score', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is one image named by its score, and fills 500 ms after it shows', () => {
    vi.useFakeTimers();
    mockReducedMotion(false);
    render(<RadialScore percent={84} label="Score: 84 %" valueText="84 %" />);
    const image = screen.getByRole('img', { name: 'Score: 84 %' });
    expect(image).toHaveAttribute('data-filled', 'false');
    act(() => vi.advanceTimersByTime(499));
    expect(image).toHaveAttribute('data-filled', 'false');
    act(() => vi.advanceTimersByTime(1));
    expect(image).toHaveAttribute('data-filled', 'true');
  });

  it('draws the full score at once when the learner asks for less motion', () => {
    mockReducedMotion(true);
    render(<RadialScore percent={40} label="Score: 40 %" valueText="40 %" />);
    expect(screen.getByRole('img', { name: 'Score: 40 %' })).toHaveAttribute('data-filled', 'true');
  });
});

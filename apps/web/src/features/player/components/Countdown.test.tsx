import { act, render, screen } from '@testing-library/react';
import { Countdown } from './Countdown';

describe('Countdown (SPEC §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("goes 'ending' at 5 s, 'ended' at 0, and emits ended 0.5 s later, once", () => {
    const onEnded = vi.fn();
    const { container } = render(<Countdown seconds={7} restartKey="p1" onEnded={onEnded} />);
    const phase = () => container.querySelector('[data-phase]')?.getAttribute('data-phase');
    expect(screen.getByRole('timer')).toHaveTextContent('00:07');
    expect(phase()).toBe('running');
    act(() => vi.advanceTimersByTime(2000));
    expect(phase()).toBe('ending');
    expect(screen.getByText('Less than 5 seconds left')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(phase()).toBe('ended');
    expect(screen.getByText('Time is up')).toBeInTheDocument();
    expect(onEnded).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(500));
    expect(onEnded).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(5000));
    expect(onEnded).toHaveBeenCalledTimes(1);
  });
});

import { act, render, screen } from '@testing-library/react';
import { fireEvent } from '@testing-library/react';
import { CountdownWidget } from './CountdownWidget';

/** The learner's own countdown (a widgets row): the same 20-second warning as the player's clock. */
describe('CountdownWidget states (decision 0019)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each<[string, number, number, string, string, string]>([
    // label, seconds, running for (s), clock, class, status
    ['not started', 30, 0, '00:30', '', ''],
    ['21 s left', 30, 9, '00:21', '', ''],
    ['20 s left: warned', 30, 10, '00:20', 'is-warning', 'Less than 20 seconds left'],
    ['5 s left', 30, 25, '00:05', 'is-ending', 'Less than 20 seconds left'],
    ['ended', 30, 30, '00:00', 'is-ending', 'Time is up'],
    ['a 10 s countdown warns when started', 10, 1, '00:09', 'is-warning', 'Less than 20 seconds left'],
  ])('%s', (_label, seconds, runFor, clock, cls, status) => {
    render(<CountdownWidget seconds={seconds} />);
    if (runFor > 0) {
      fireEvent.click(screen.getByRole('button', { name: 'Start' }));
      act(() => vi.advanceTimersByTime(runFor * 1000));
    }
    const timer = screen.getByRole('timer', { name: 'Countdown' });
    expect(timer).toHaveTextContent(clock);
    if (cls) expect(timer).toHaveClass(cls);
    else expect(timer).not.toHaveClass('is-warning', 'is-ending');
    expect(screen.getByRole('status').textContent).toBe(status);
  });

  it('a paused countdown says nothing; reset starts over', () => {
    render(<CountdownWidget seconds={20} />);
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByRole('status').textContent).toBe('Less than 20 seconds left');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('timer')).toHaveTextContent('00:20');
  });
});

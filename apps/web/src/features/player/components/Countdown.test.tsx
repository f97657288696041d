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

  it('names the lesson clock apart from the exercise clock, and speaks its two moments politely', () => {
    const onEnded = vi.fn();
    const { container } = render(
      <>
        <Countdown seconds={6} restartKey="lesson:p1" onEnded={onEnded} scope="lesson" />
        <Countdown seconds={60} restartKey="p1" onEnded={() => undefined} scope="exercise" />
      </>,
    );
    const lesson = screen.getByRole('timer', { name: 'Time left for the lesson' });
    expect(lesson).toHaveTextContent('00:06');
    expect(screen.getByRole('timer', { name: 'Time left for this exercise' })).toHaveTextContent('01:00');
    const lessonBox = container.querySelector('.countdown--lesson');
    const live = lessonBox?.querySelector('[aria-live]');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toHaveTextContent('');
    act(() => vi.advanceTimersByTime(1000));
    expect(lessonBox).toHaveAttribute('data-phase', 'ending');
    expect(live).toHaveTextContent('Less than 5 seconds left for the lesson');
    act(() => vi.advanceTimersByTime(5000));
    expect(lessonBox).toHaveAttribute('data-phase', 'ended');
    expect(live).toHaveTextContent('The time for the lesson is up');
    act(() => vi.advanceTimersByTime(500));
    expect(onEnded).toHaveBeenCalledTimes(1);
    // The exercise clock keeps its own time and its urgent announcements.
    expect(container.querySelector('.countdown--exercise [aria-live]')).toHaveAttribute(
      'aria-live',
      'assertive',
    );
    expect(screen.getByRole('timer', { name: 'Time left for this exercise' })).toHaveTextContent('00:54');
  });
});

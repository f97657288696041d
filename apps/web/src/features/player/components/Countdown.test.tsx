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
    expect(phase()).toBe('warning');
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

describe('Countdown states and the 20-second warning (SPEC §4, RGAA 13.1, decision 0019)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const regions = (container: HTMLElement) => {
    const [urgent, warning] = [...container.querySelectorAll('[aria-live]')];
    return { urgent: urgent!, warning: warning! };
  };

  it.each<[string, number, number, string, string, string, string]>([
    // label, start (s), elapsed (s), phase, clock, polite warning, urgent announcement
    ['a minute left', 60, 0, 'running', '01:00', '', ''],
    ['21 s left', 60, 39, 'running', '00:21', '', ''],
    ['20 s left: warned', 60, 40, 'warning', '00:20', 'Less than 20 seconds left', ''],
    ['6 s left', 60, 54, 'warning', '00:06', 'Less than 20 seconds left', ''],
    ['5 s left', 60, 55, 'ending', '00:05', 'Less than 20 seconds left', 'Less than 5 seconds left'],
    ['ended', 60, 60, 'ended', '00:00', 'Less than 20 seconds left', 'Time is up'],
    [
      '(re)started with 12 s left: warned at once',
      12,
      0,
      'warning',
      '00:12',
      'Less than 20 seconds left',
      '',
    ],
    [
      '(re)started with 3 s left',
      3,
      0,
      'ending',
      '00:03',
      'Less than 20 seconds left',
      'Less than 5 seconds left',
    ],
  ])('%s', (_label, seconds, elapsed, phase, clock, warning, urgent) => {
    const { container } = render(<Countdown seconds={seconds} restartKey="p1" onEnded={() => undefined} />);
    act(() => vi.advanceTimersByTime(0)); // the task right after the first render
    // One tick at a time, rendered each time, as a browser shows them.
    for (let i = 0; i < elapsed; i++) act(() => vi.advanceTimersByTime(1000));
    expect(container.firstElementChild).toHaveAttribute('data-phase', phase);
    expect(container.firstElementChild).toHaveClass(`countdown--${phase}`);
    expect(screen.getByRole('timer')).toHaveTextContent(clock);
    const live = regions(container);
    expect(live.warning).toHaveAttribute('aria-live', 'polite');
    expect(live.warning.textContent).toBe(warning);
    expect(live.urgent.textContent).toBe(urgent);
  });

  it('says the warning once: its live region changes once between 20 s and the end', () => {
    const { container } = render(<Countdown seconds={30} restartKey="p1" onEnded={() => undefined} />);
    const { warning } = regions(container);
    const observer = new MutationObserver(() => undefined);
    observer.observe(warning, { childList: true, characterData: true, subtree: true });
    act(() => vi.advanceTimersByTime(10_000));
    expect(warning.textContent).toBe('Less than 20 seconds left');
    const filled = observer.takeRecords().length;
    expect(filled).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(20_000));
    expect(observer.takeRecords()).toEqual([]);
    observer.disconnect();
  });

  it('a new page (restart key) with a fresh limit is silent again until its own 20 s', () => {
    const { container, rerender } = render(
      <Countdown seconds={15} restartKey="p1" onEnded={() => undefined} />,
    );
    // Silent in the first render (screen readers skip it), warned in the task right after.
    expect(regions(container).warning.textContent).toBe('');
    act(() => vi.advanceTimersByTime(0));
    expect(regions(container).warning.textContent).toBe('Less than 20 seconds left');
    rerender(<Countdown seconds={90} restartKey="p2" onEnded={() => undefined} />);
    expect(regions(container).warning.textContent).toBe('');
    act(() => vi.advanceTimersByTime(70_000));
    expect(regions(container).warning.textContent).toBe('Less than 20 seconds left');
  });

  it("the lesson's clock names itself in its warning", () => {
    const { container } = render(
      <Countdown seconds={25} restartKey="lesson:p1" onEnded={() => undefined} scope="lesson" />,
    );
    act(() => vi.advanceTimersByTime(5000));
    expect(regions(container).warning.textContent).toBe('Less than 20 seconds left for the lesson');
    expect(regions(container).urgent.textContent).toBe('');
  });
});

import { act, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { TincanFrame, tincanScoreOf } from './MediaTincan';

/** Posts a window message as if it came from `source` (the module's frame, or anything else). */
function post(data: unknown, source: MessageEventSource | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source }));
  });
}

function renderFrame() {
  const onAction = vi.fn();
  const onScore = vi.fn();
  render(
    <TincanFrame
      url="/api/tincan/ctx/module/index.html"
      title="Module"
      onAction={onAction}
      onScore={onScore}
    />,
  );
  const frame = screen.getByTitle('Module') as HTMLIFrameElement;
  return { onAction, onScore, source: frame.contentWindow };
}

describe('TincanFrame messages', () => {
  it('passes a score message from its frame to onScore', () => {
    const { onAction, onScore, source } = renderFrame();
    expect(source).not.toBeNull();
    post({ type: 'score', score: { scaled: 0.8 } }, source);
    expect(onScore).toHaveBeenCalledWith({ scaled: 0.8 });
    post({ type: 'score', score: { raw: 15, min: 10, max: 20, extra: 'ignored' } }, source);
    expect(onScore).toHaveBeenLastCalledWith({ raw: 15, min: 10, max: 20 });
    expect(onScore).toHaveBeenCalledTimes(2);
    expect(onAction).not.toHaveBeenCalled();
  });

  it('still passes the action messages', () => {
    const { onAction, onScore, source } = renderFrame();
    post('action:next', source);
    post('action:close', source);
    expect(onAction.mock.calls).toEqual([['next'], ['close']]);
    expect(onScore).not.toHaveBeenCalled();
  });

  it('ignores messages from another source', () => {
    const { onAction, onScore } = renderFrame();
    post({ type: 'score', score: { scaled: 1 } }, window);
    post({ type: 'score', score: { scaled: 1 } }, null);
    post('action:next', window);
    expect(onScore).not.toHaveBeenCalled();
    expect(onAction).not.toHaveBeenCalled();
  });

  it('ignores malformed data without throwing', () => {
    const { onAction, onScore, source } = renderFrame();
    const malformed: unknown[] = [
      null,
      undefined,
      42,
      'score',
      'action:other',
      [],
      { type: 'score' },
      { type: 'score', score: null },
      { type: 'score', score: 'high' },
      { type: 'score', score: {} },
      { type: 'score', score: { scaled: '0.5' } },
      { type: 'score', score: { scaled: 1.5 } },
      { type: 'score', score: { scaled: -0.1 } },
      { type: 'score', score: { scaled: Number.NaN } },
      { type: 'score', score: { raw: Number.POSITIVE_INFINITY, max: 10 } },
      { type: 'score', score: { raw: 5 } },
      { type: 'score', score: { raw: 11, max: 10 } },
      { type: 'score', score: { raw: 5, min: 5, max: 5 } },
      { type: 'result', score: { scaled: 1 } },
    ];
    for (const data of malformed) expect(() => post(data, source)).not.toThrow();
    expect(onScore).not.toHaveBeenCalled();
    expect(onAction).not.toHaveBeenCalled();
  });

  it('listens for scores alone (no action handler)', () => {
    const onScore = vi.fn();
    render(<TincanFrame url="/api/tincan/ctx/module/index.html" title="Module" onScore={onScore} />);
    const source = (screen.getByTitle('Module') as HTMLIFrameElement).contentWindow;
    expect(() => post('action:next', source)).not.toThrow();
    post({ type: 'score', score: { raw: 3, max: 4 } }, source);
    expect(onScore).toHaveBeenCalledWith({ raw: 3, max: 4 });
  });
});

describe('tincanScoreOf', () => {
  it('keeps the xAPI score fields of a valid score message only', () => {
    expect(tincanScoreOf({ type: 'score', score: { scaled: 0 } })).toEqual({ scaled: 0 });
    expect(tincanScoreOf({ type: 'score', score: { scaled: 1, raw: 2, max: 4 } })).toEqual({
      scaled: 1,
      raw: 2,
      max: 4,
    });
    expect(tincanScoreOf({ type: 'score', score: { raw: 0, min: -5, max: 5 } })).toEqual({
      raw: 0,
      min: -5,
      max: 5,
    });
    expect(tincanScoreOf({ type: 'score', score: { scaled: 0.5, raw: 9, max: 4 } })).toBeNull();
  });
});

describe('TincanFrame isolation (issue 10 finding 10)', () => {
  it('sandboxes the module: scripts only, never the app origin (so it cannot read the token)', () => {
    renderFrame();
    const frame = screen.getByTitle('Module') as HTMLIFrameElement;
    const rights = (frame.getAttribute('sandbox') ?? '').split(/\s+/).filter(Boolean);
    expect(frame.hasAttribute('sandbox')).toBe(true);
    expect(rights).toEqual(['allow-scripts']);
  });
});

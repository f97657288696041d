import { afterEach, beforeEach, vi } from 'vitest';
import { mockApi } from '../test/api-mock';
import { getSession, setSessionUser } from './session';
import { scheduleUserScoreRefresh } from './user-score';

const me = (xp: number) => ({ _id: 'u1', profile: { id: 'u1', scoring: { xp } } });

describe('scheduleUserScoreRefresh (docs/product.md §9 score debounce 200 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    setSessionUser(me(1) as never);
  });
  afterEach(() => vi.useRealTimers());

  it('reads the user once, 200 ms after the last of several answers', async () => {
    const fetchMock = mockApi({ 'users/me': { body: me(30) } });
    scheduleUserScoreRefresh();
    await vi.advanceTimersByTimeAsync(150);
    scheduleUserScoreRefresh();
    await vi.advanceTimersByTimeAsync(150);
    scheduleUserScoreRefresh();
    await vi.advanceTimersByTimeAsync(199);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(getSession().user?.profile.scoring).toEqual({ xp: 30 }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

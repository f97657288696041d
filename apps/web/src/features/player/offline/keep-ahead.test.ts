/**
 * Decision 0020 (lessons kept ahead) under decision 0045 (shared device): keepAhead works for the
 * session it was started in. A full journey (session-expiry.spec.ts) saw it ask for the lessons
 * once more after the session had ended, with no token: a second 401 after the first.
 */
import { endExpiredSession, setSessionUser } from '../../../lib/session';
import { mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { keepAhead, lessonStore } from './device';

const lessons = {
  data: ['l1', 'l2'].map((id) => ({
    type: 'lessons',
    id,
    attributes: { state: 'AVAILABLE', startedAt: null },
  })),
};
const pages = (lessonId: string) => ({
  data: [{ type: 'offline-pages', id: `${lessonId}:n1`, attributes: { lessonId, nodeId: 'n1', index: 0 } }],
  meta: { lesson: { started: false, needsNetwork: false, lessonScoring: null, courseTypeSettings: null } },
});

afterEach(async () => {
  await lessonStore.clear();
});

describe('lessons kept ahead belong to the session that asked (decisions 0020, 0045)', () => {
  it('keeps the lessons the signed-in learner may begin', async () => {
    setSessionUser(me('public', 'u-1'), 'token');
    mockApi({
      'GET lessons': { body: lessons },
      'GET offline/lessons/l1/pages': { body: pages('l1') },
      'GET offline/lessons/l2/pages': { body: pages('l2') },
    });
    expect(await keepAhead('u-1')).toEqual(['l1', 'l2']);
    expect((await lessonStore.lessonIds()).sort()).toEqual(['l1', 'l2']);
  });

  it('asks for nothing once that session has ended', async () => {
    setSessionUser(me('public', 'u-1'), 'token');
    endExpiredSession();
    const fetchMock = mockApi({ 'GET lessons': { body: lessons } });
    expect(await keepAhead('u-1')).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stops as the session ends: no further call, nothing more kept on the device', async () => {
    setSessionUser(me('public', 'u-1'), 'token');
    const fetchMock = mockApi({
      'GET lessons': { body: lessons },
      'GET offline/lessons/l1/pages': () => {
        // The session ends while the first lesson's pages are on their way.
        endExpiredSession();
        return { body: pages('l1') };
      },
      'GET offline/lessons/l2/pages': { body: pages('l2') },
    });
    expect(await keepAhead('u-1')).toEqual([]);
    expect(await lessonStore.lessonIds()).toEqual([]);
    expect(fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost').pathname)).toEqual([
      '/api/lessons',
      '/api/offline/lessons/l1/pages',
    ]);
  });
});

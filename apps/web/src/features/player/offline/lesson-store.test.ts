import { describe, expect, it } from 'vitest';
import type { LessonPage } from '../api/lesson-page';
import { pageAttributes } from '../test-pages';
import {
  AnswerKeyError,
  findAnswerKey,
  isOfflinePage,
  LessonStore,
  storablePage,
  toOfflineLessonPage,
  type KeyValue,
  type OfflinePage,
} from './lesson-store';

function memory(): KeyValue & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return {
    map,
    get: async <T>(key: string) => map.get(key) as T | undefined,
    set: async (key, value) => void map.set(key, structuredClone(value)),
    del: async (key) => void map.delete(key),
    keys: async () => [...map.keys()],
  };
}

const upcoming = (index: number, extra: Partial<OfflinePage> = {}): OfflinePage => ({
  lessonId: 'L',
  nodeId: `n${index}`,
  index,
  count: 4,
  sectionId: 's1',
  node: {
    id: `n${index}`,
    type: 'block',
    title: null,
    parentId: 's1',
    settings: { timeLimit: null },
    tools: {},
    attachmentIds: [],
  },
  block: {
    id: `b${index}`,
    title: `Page ${index}`,
    type: 'exercice',
    settings: { template: {}, hintCount: 0 },
    content: {
      statement: null,
      sections: [{ rows: [{ type: 'free-answer', placeholder: 'Type here' }] }],
      tincan: null,
    },
    terms: [],
  } as unknown as OfflinePage['block'],
  needsNetwork: null,
  ...extra,
});

describe('what the device keeps', () => {
  it.each([
    ['an expected answer', { rows: [{ type: 'free-answer', expected: 'forty-two' }] }, '/rows/0/expected'],
    ['a solution', { solution: { validators: [] } }, '/solution'],
    ['validators', { validators: [] }, '/validators'],
    ['an answer-tied feedback', { choices: [{ value: 'a', feedback: 'Well done' }] }, '/choices/0/feedback'],
    ['a list of feedbacks', { feedbacks: [{ message: 'x' }] }, '/feedbacks'],
    ['a correction', { results: { correction: [] } }, '/results/correction'],
  ])('finds %s', (_what, value, path) => {
    expect(findAnswerKey(value)).toBe(path);
  });

  it("lets the course type's feedback switch through", () => {
    expect(findAnswerKey({ courseTypeSettings: { hints: true, feedbacks: true, retry: false } })).toBeNull();
  });

  it('refuses to store a lesson that carries an answer key, and stores a public one', async () => {
    const kv = memory();
    const store = new LessonStore(kv);
    const leaking = upcoming(1);
    (leaking.block!.content.sections[0]!.rows[0] as Record<string, unknown>).expected = 'forty-two';
    await expect(
      store.save({ lessonId: 'L', savedAt: '', cursor: null, cursorNodeId: null, upcoming: [leaking] }),
    ).rejects.toBeInstanceOf(AnswerKeyError);
    expect(kv.map.size).toBe(0);

    await store.save({
      lessonId: 'L',
      savedAt: '',
      cursor: null,
      cursorNodeId: null,
      upcoming: [upcoming(1), upcoming(2)],
    });
    // Everything the device holds, read back: no key that grades or tells answers apart.
    for (const value of kv.map.values()) expect(findAnswerKey(value)).toBeNull();
    expect((await store.pageAfter('L', 1))?.nodeId).toBe('n2');
    expect(await store.pageAfter('L', 2)).toBeUndefined();
  });

  it('keeps a page the server sent only while it is unanswered', () => {
    const open = { ...pageAttributes(), id: 'p1' } as LessonPage;
    expect(storablePage(open)).toBe(open);
    const answered = { ...open, answeredAt: '2026-01-01T00:00:00Z', inputs: { answers: [1] } } as LessonPage;
    expect(storablePage(answered)).toBeNull();
  });

  it('moving the cursor past an answered page keeps the last unanswered one', async () => {
    const kv = memory();
    const store = new LessonStore(kv);
    const open = { ...pageAttributes(), id: 'p1' } as LessonPage;
    await store.save({
      lessonId: 'L',
      savedAt: '',
      cursor: open,
      cursorNodeId: null,
      upcoming: [upcoming(1)],
    });
    const answered = {
      ...open,
      answeredAt: 'x',
      inputs: { answers: [] },
      results: { correction: [] },
    } as unknown as LessonPage;
    await store.moveCursor('L', answered, 'n1', { pageId: open.id, nodeId: open.nodeId });
    const stored = await store.get('L');
    expect(stored?.cursor?.id).toBe(open.id);
    expect(stored?.cursorNodeId).toBe('n1');
    for (const value of kv.map.values()) expect(findAnswerKey(value)).toBeNull();
  });

  it('shows a stored page as an unanswered page with no server id, and clear() empties the store', async () => {
    const base = { ...pageAttributes(), id: 'p1' } as LessonPage;
    const shown = toOfflineLessonPage(upcoming(2), base);
    expect(isOfflinePage(shown)).toBe(true);
    expect(shown).toMatchObject({
      index: 2,
      results: null,
      inputs: null,
      tincanLaunch: null,
      hints: { remaining: 0 },
    });
    const kv = memory();
    const store = new LessonStore(kv);
    await store.save({
      lessonId: 'L',
      savedAt: '',
      cursor: null,
      cursorNodeId: null,
      upcoming: [upcoming(1)],
    });
    await store.clear();
    expect(kv.map.size).toBe(0);
  });
});

describe('where a kept lesson resumes offline (decision 0020)', () => {
  const settings = {
    lessonScoring: { global: { actual: 0, max: 0 } },
    courseTypeSettings: { hints: true, feedbacks: true, retry: false },
  } as unknown as LessonPage;
  const kept = (extra: Partial<Parameters<LessonStore['save']>[0]>) => ({
    lessonId: 'L',
    savedAt: '2026-01-01T00:00:00Z',
    cursor: null,
    cursorNodeId: null,
    upcoming: [upcoming(0), upcoming(1)],
    ...extra,
  });

  it('a lesson kept ahead, never opened, begins at its first page, with no server id', async () => {
    const store = new LessonStore(memory());
    await store.save(kept({ settings }));
    const resume = await store.resumePoint('L');
    expect(resume?.page).toMatchObject({ nodeId: 'n0', index: 0, results: null, hints: { remaining: 0 } });
    expect(isOfflinePage(resume!.page)).toBe(true);
    expect(resume?.page.courseTypeSettings).toEqual(settings.courseTypeSettings);
    expect(resume?.from).toBeNull();
  });

  it('after moving on offline it resumes at the page reached, remembering where it came from', async () => {
    const store = new LessonStore(memory());
    await store.save(kept({ settings, cursorNodeId: 'n1', cursorFrom: { pageId: null, nodeId: 'n0' } }));
    const resume = await store.resumePoint('L');
    expect(resume?.page.nodeId).toBe('n1');
    expect(resume?.from).toEqual({ pageId: null, nodeId: 'n0' });
  });

  it.each([
    ['nothing kept', null],
    ['no settings and no page of the server', kept({})],
    ['a begun lesson whose current page is not kept', kept({ settings, upcoming: [upcoming(2)] })],
    [
      'a first page that needs the network',
      kept({ settings, upcoming: [upcoming(0, { needsNetwork: 'timed' })] }),
    ],
  ])('is not playable offline: %s', async (_why, lesson) => {
    const store = new LessonStore(memory());
    if (lesson) await store.save(lesson);
    expect(await store.resumePoint('L')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  AnswerQueue,
  type QueueLock,
  type QueueSender,
  type QueueState,
  type QueueStore,
  type SentPage,
} from './queue';

/** A store kept in a variable, copied like IndexedDB's structured clone. */
class MemoryStore implements QueueStore {
  data: QueueState | undefined;
  async load() {
    return this.data ? structuredClone(this.data) : undefined;
  }
  async save(state: QueueState) {
    this.data = structuredClone(state);
  }
}

const refusal = (status: number, code: string) =>
  new ApiError(status, { errors: [{ status: String(status), code }] }, 'x');
const offline = () => new TypeError('Failed to fetch');

/**
 * A fake server: pages by node in a line (n1 → n2 → n3 …), `calls` in the order they came.
 * `failures` maps "patch:nodeId" / "next:fromId" to the errors to throw, one per call.
 */
function fakeServer(failures: Record<string, unknown[]> = {}) {
  const calls: string[] = [];
  const order = ['n1', 'n2', 'n3', 'n4'];
  const pageOf = (nodeId: string): SentPage => ({
    id: `page-${nodeId}`,
    nodeId,
    results: { score: { actual: 1, max: 1 } },
  });
  const fail = (name: string) => {
    const list = failures[name];
    if (list && list.length > 0) throw list.shift();
  };
  const sender: QueueSender = {
    async patch(_lessonId, pageId, answers) {
      calls.push(`patch ${pageId} ${JSON.stringify(answers ?? null)}`);
      fail(`patch:${pageId}`);
      return pageOf(pageId.replace('page-', ''));
    },
    async current() {
      calls.push('current');
      fail('current');
      return pageOf(order[0]!);
    },
    async next(_lessonId, fromPageId) {
      calls.push(`next ${fromPageId}`);
      fail(`next:${fromPageId}`);
      const at = order.indexOf(fromPageId.replace('page-', ''));
      return pageOf(order[at + 1]!);
    },
  };
  return { sender, calls };
}

const noSleep = { sleep: async () => undefined };

/** One lock shared by the "tabs" of a test, as navigator.locks is by the tabs of an origin. */
function mutex(): QueueLock {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Answers on n1 (opened online) then n2 and n3, reached offline. */
async function queueThree(queue: AnswerQueue) {
  await queue.enqueue({
    lessonId: 'L',
    nodeId: 'n1',
    pageId: 'page-n1',
    fromPageId: null,
    fromNodeId: null,
    answers: [1],
    title: 'One',
  });
  await queue.enqueue({
    lessonId: 'L',
    nodeId: 'n2',
    pageId: null,
    fromPageId: 'page-n1',
    fromNodeId: 'n1',
    answers: null,
    title: 'Two',
  });
  await queue.enqueue({
    lessonId: 'L',
    nodeId: 'n3',
    pageId: null,
    fromPageId: null,
    fromNodeId: 'n2',
    answers: ['x'],
    title: 'Three',
  });
}

describe('AnswerQueue', () => {
  it('sends in order, reaching offline pages through next, and empties the queue', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    const { sender, calls } = fakeServer();
    const report = await queue.flush(sender, noSleep);
    expect(calls).toEqual([
      'patch page-n1 [1]',
      'next page-n1',
      'patch page-n2 null',
      'next page-n2',
      'patch page-n3 ["x"]',
    ]);
    expect(report.sent.map((s) => s.title)).toEqual(['One', 'Two', 'Three']);
    expect(report.stopped).toBe(false);
    expect(store.data?.items).toEqual([]);
    expect(store.data?.resolved).toEqual({});
  });

  it('survives a reload: a new queue on the same store finds the entries, in order', async () => {
    const store = new MemoryStore();
    await queueThree(new AnswerQueue(store));
    const reopened = new AnswerQueue(store);
    await reopened.ready();
    expect(reopened.snapshot().items.map((i) => [i.seq, i.title])).toEqual([
      [1, 'One'],
      [2, 'Two'],
      [3, 'Three'],
    ]);
    await reopened.enqueue({
      lessonId: 'L',
      nodeId: 'n4',
      pageId: null,
      fromPageId: null,
      fromNodeId: 'n3',
      answers: [],
      title: 'Four',
    });
    expect(store.data?.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
  });

  it('retries a network failure with growing delays, then sends', async () => {
    const queue = new AnswerQueue(new MemoryStore());
    await queueThree(queue);
    const { sender, calls } = fakeServer({ 'patch:page-n1': [offline(), refusal(503, 'UNDEFINED')] });
    const delays: number[] = [];
    const report = await queue.flush(sender, { baseDelayMs: 100, sleep: async (ms) => void delays.push(ms) });
    expect(delays).toEqual([100, 200]);
    expect(calls.filter((c) => c.startsWith('patch page-n1'))).toHaveLength(3);
    expect(report.sent).toHaveLength(3);
  });

  it('stops when the network stays down, keeping every entry for the next connection', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    const { sender } = fakeServer({ 'next:page-n1': [offline(), offline(), offline()] });
    const report = await queue.flush(sender, { attempts: 3, ...noSleep });
    expect(report.stopped).toBe(true);
    expect(report.sent.map((s) => s.title)).toEqual(['One']);
    expect(store.data?.items.map((i) => i.title)).toEqual(['Two', 'Three']);
    // The next connection goes on from where it stopped.
    const again = await queue.flush(fakeServer().sender, noSleep);
    expect(again.sent.map((s) => s.title)).toEqual(['Two', 'Three']);
  });

  it('moves a refused answer aside with its code and sends the rest', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    // Answered meanwhile from another device: the server refuses this one only.
    const { sender, calls } = fakeServer({ 'patch:page-n1': [refusal(409, 'INVALID_INPUTS')] });
    const report = await queue.flush(sender, noSleep);
    expect(report.refused.map((r) => [r.title, r.code])).toEqual([['One', 'INVALID_INPUTS']]);
    expect(report.sent.map((s) => s.title)).toEqual(['Two', 'Three']);
    expect(calls.filter((c) => c.startsWith('patch page-n1'))).toHaveLength(1);
    expect(store.data?.items).toEqual([]);
    expect(store.data?.refused.map((r) => r.answers)).toEqual([[1]]);
    await queue.dismissRefused();
    expect(store.data?.refused).toEqual([]);
  });

  it('refuses an entry whose page is no longer the one the server reaches', async () => {
    const queue = new AnswerQueue(new MemoryStore());
    await queue.enqueue({
      lessonId: 'L',
      nodeId: 'n9',
      pageId: null,
      fromPageId: 'page-n1',
      fromNodeId: 'n1',
      answers: [],
      title: 'Gone',
    });
    const report = await queue.flush(fakeServer().sender, noSleep);
    expect(report.refused.map((r) => r.code)).toEqual(['MODEL_NOT_FOUND']);
  });

  it('an expired session stops the send and loses nothing', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    const report = await queue.flush(
      fakeServer({ 'patch:page-n1': [refusal(401, 'UNAUTHORIZED')] }).sender,
      noSleep,
    );
    expect(report.stopped).toBe(true);
    expect(store.data?.items).toHaveLength(3);
    expect(store.data?.refused).toEqual([]);
  });

  it('backs off 1 s, 2 s, 4 s by default, then stops until the next connection', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    const down = Array.from({ length: 4 }, offline);
    const delays: number[] = [];
    const report = await queue.flush(fakeServer({ 'patch:page-n1': down }).sender, {
      sleep: async (ms) => void delays.push(ms),
    });
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(report.stopped).toBe(true);
    expect(store.data?.items.map((i) => i.title)).toEqual(['One', 'Two', 'Three']);
  });

  it('two tabs sending at once (one lock, one store) send each entry once, in order', async () => {
    const store = new MemoryStore();
    const lock = mutex();
    const tabA = new AnswerQueue(store, lock);
    const tabB = new AnswerQueue(store, lock);
    await queueThree(tabA);
    const { sender, calls } = fakeServer();
    const [a, b] = await Promise.all([tabA.flush(sender, noSleep), tabB.flush(sender, noSleep)]);
    expect(calls).toEqual([
      'patch page-n1 [1]',
      'next page-n1',
      'patch page-n2 null',
      'next page-n2',
      'patch page-n3 ["x"]',
    ]);
    expect([...a.sent, ...b.sent].map((s) => s.title).sort()).toEqual(['One', 'Three', 'Two']);
    expect(store.data?.items).toEqual([]);
  });

  it('an answer queued in another tab during a send is neither lost nor sent twice', async () => {
    const store = new MemoryStore();
    const lock = mutex();
    const player = new AnswerQueue(store, lock);
    const shell = new AnswerQueue(store, lock);
    await queueThree(player);
    const { sender, calls } = fakeServer();
    // While the shell's tab sends, the player's tab (offline a moment ago) adds a fourth answer.
    const patch = sender.patch.bind(sender);
    let added = false;
    sender.patch = async (...args) => {
      if (!added) {
        added = true;
        void player.enqueue({
          lessonId: 'L',
          nodeId: 'n4',
          pageId: null,
          fromPageId: null,
          fromNodeId: 'n3',
          answers: [4],
          title: 'Four',
        });
      }
      return patch(...args);
    };
    const report = await shell.flush(sender, noSleep);
    expect(report.sent.map((s) => s.title)).toEqual(['One', 'Two', 'Three', 'Four']);
    expect(calls.filter((c) => c.startsWith('patch'))).toHaveLength(4);
    expect(store.data?.items).toEqual([]);
    expect(store.data?.nextSeq).toBe(5);
    await player.refresh();
    expect(player.snapshot().items).toEqual([]);
  });

  it('a lesson begun offline (kept ahead, never opened) places its first page through current', async () => {
    const queue = new AnswerQueue(new MemoryStore());
    await queue.enqueue({
      lessonId: 'L',
      nodeId: 'n1',
      pageId: null,
      fromPageId: null,
      fromNodeId: null,
      answers: null,
      title: 'First',
    });
    await queue.enqueue({
      lessonId: 'L',
      nodeId: 'n2',
      pageId: null,
      fromPageId: null,
      fromNodeId: 'n1',
      answers: [2],
      title: 'Second',
    });
    const { sender, calls } = fakeServer();
    const report = await queue.flush(sender, noSleep);
    expect(calls).toEqual(['current', 'patch page-n1 null', 'next page-n1', 'patch page-n2 [2]']);
    expect(report.sent.map((s) => s.title)).toEqual(['First', 'Second']);
  });

  it('clear() empties the device', async () => {
    const store = new MemoryStore();
    const queue = new AnswerQueue(store);
    await queueThree(queue);
    await queue.clear();
    expect(store.data?.items).toEqual([]);
  });
});

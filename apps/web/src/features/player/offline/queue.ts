/**
 * The device's queue of answers given offline (issue 12, decision 0013). Pure logic over a
 * `QueueStore` (IndexedDB in the app, a map in tests) and a `QueueSender` (the player's API
 * calls): the server grades everything when the queue is sent, the device never does.
 *
 * A page reached offline has no server page yet (the server creates pages as the learner moves
 * on), so an entry names its node and the page it was reached from; sending it first asks the
 * server for the next page from there, checks it is the same node, then answers it. Entries go in
 * the order they were given. A refusal (4xx) moves the entry to `refused` with its code and the
 * rest goes on; a network failure or a 5xx is retried with backoff, then the send stops and
 * everything left waits for the next connection.
 */
import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';

export interface QueuedAnswer {
  /** Order of arrival on this device. */
  seq: number;
  lessonId: string;
  nodeId: string;
  /** The server's page id when the page was opened online, else null (reached offline). */
  pageId: string | null;
  /** The page this one was reached from: its server id, or its node for a page reached offline. */
  fromPageId: string | null;
  fromNodeId: string | null;
  /** One answer per row; null for a slide (the empty patch marks it seen). */
  answers: unknown[] | null;
  /** Shown to the learner when the server refuses the answer. */
  title: string;
  queuedAt: string;
}

export interface RefusedAnswer extends QueuedAnswer {
  code: ErrorCode;
  refusedAt: string;
}

/** A queued answer the server took: its graded page's score, shown after the send. */
export interface SentAnswer {
  seq: number;
  lessonId: string;
  pageId: string;
  title: string;
  score: { actual: number; max: number } | null;
}

export interface QueueState {
  items: QueuedAnswer[];
  refused: RefusedAnswer[];
  /** Server page ids learned while sending, by `${lessonId}:${nodeId}`. */
  resolved: Record<string, string>;
  nextSeq: number;
}

export const EMPTY_QUEUE: QueueState = { items: [], refused: [], resolved: {}, nextSeq: 1 };

export interface QueueStore {
  load(): Promise<QueueState | undefined>;
  save(state: QueueState): Promise<void>;
}

/**
 * Runs `task` while no other holder of the same lock runs (the Web Locks API in the app, so two
 * tabs never send the same entry twice nor overwrite each other's new entries). Each change to the
 * queue takes the lock and first re-reads the store, which another tab may have changed.
 */
export type QueueLock = <T>(task: () => Promise<T>) => Promise<T>;

const noLock: QueueLock = (task) => task();

/** What the server answers about a page, as far as the queue needs it. */
export interface SentPage {
  id: string;
  nodeId: string;
  results?: { score?: { actual: number; max: number } } | null;
}

export interface QueueSender {
  patch(lessonId: string, pageId: string, answers: unknown[] | undefined): Promise<SentPage>;
  next(lessonId: string, fromPageId: string): Promise<SentPage>;
  /** The lesson's current page (GET …/pages/current creates the first one). */
  current(lessonId: string): Promise<SentPage>;
}

export interface FlushOptions {
  /** Attempts per entry before the send stops (network or 5xx). */
  attempts?: number;
  /** First backoff delay, doubled at each attempt. */
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

export interface FlushReport {
  sent: SentAnswer[];
  refused: RefusedAnswer[];
  /** True when the send stopped on the network: what is left waits. */
  stopped: boolean;
}

/** Statuses that say "try again later", not "no". */
const TRANSIENT = new Set([408, 425, 429]);

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

/** A refusal the server means (4xx), as opposed to no answer at all or a server fault. */
export function isRefusal(error: unknown): boolean {
  const status = statusOf(error);
  return status !== null && status >= 400 && status < 500 && !TRANSIENT.has(status);
}

/** The 401 ends the session: the queue keeps the entry for the next sign-in of the same learner. */
const isUnauthorized = (error: unknown) => statusOf(error) === 401;

const key = (lessonId: string, nodeId: string) => `${lessonId}:${nodeId}`;

type HeadStep =
  | { kind: 'empty' }
  | { kind: 'unauthorized' }
  | { kind: 'retry'; seq: number }
  | { kind: 'sent'; sent: SentAnswer }
  | { kind: 'refused'; refused: RefusedAnswer };

class Refused extends Error {
  constructor(readonly code: ErrorCode) {
    super(code);
  }
}

export class AnswerQueue {
  private state: QueueState = EMPTY_QUEUE;
  private loaded: Promise<void> | null = null;
  private flushing: Promise<FlushReport> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: QueueStore,
    private readonly lock: QueueLock = noLock,
  ) {}

  /** Reads the stored queue once (a reopened tab finds what the last one left). */
  ready(): Promise<void> {
    this.loaded ??= this.store.load().then((stored) => {
      if (stored) this.state = stored;
      this.emit();
    });
    return this.loaded;
  }

  /** Re-reads the store (another tab changed it): what the banner shows follows. */
  async refresh(): Promise<void> {
    await this.ready();
    await this.lock(() => this.reload());
  }

  private async reload(): Promise<void> {
    this.state = (await this.store.load()) ?? EMPTY_QUEUE;
    this.emit();
  }

  /** Under the lock, on the stored state: `change` returns the next state (or null for none). */
  private update<T>(change: (state: QueueState) => { next: QueueState | null; result: T }): Promise<T> {
    return this.lock(async () => {
      await this.reload();
      const { next, result } = change(this.state);
      if (next) await this.commit(next);
      return result;
    });
  }

  snapshot(): QueueState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async enqueue(entry: Omit<QueuedAnswer, 'seq' | 'queuedAt'>, now = new Date()): Promise<QueuedAnswer> {
    await this.ready();
    return this.update((state) => {
      const item: QueuedAnswer = { ...entry, seq: state.nextSeq, queuedAt: now.toISOString() };
      return { next: { ...state, items: [...state.items, item], nextSeq: item.seq + 1 }, result: item };
    });
  }

  /** The learner read the refusals: they leave the device. */
  async dismissRefused(): Promise<void> {
    await this.ready();
    await this.update((state) => ({ next: { ...state, refused: [] }, result: undefined }));
  }

  async clear(): Promise<void> {
    await this.ready();
    await this.update(() => ({ next: EMPTY_QUEUE, result: undefined }));
  }

  /** Sends the queue in order; one send at a time (a second call joins the running one). */
  flush(sender: QueueSender, options: FlushOptions = {}): Promise<FlushReport> {
    this.flushing ??= this.run(sender, options).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async run(sender: QueueSender, o: FlushOptions): Promise<FlushReport> {
    await this.ready();
    const attempts = o.attempts ?? 4;
    const base = o.baseDelayMs ?? 1000;
    const sleep = o.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const now = o.now ?? (() => new Date());
    const report: FlushReport = { sent: [], refused: [], stopped: false };
    let failures = 0;
    let failedSeq: number | null = null;
    for (;;) {
      // One entry per turn of the lock: another tab may send or add entries between turns, and
      // the head is read afresh from the store, so no entry is ever sent twice.
      const step = await this.lock(() => this.sendHead(sender, now));
      if (step.kind === 'empty') break;
      if (step.kind === 'unauthorized') {
        report.stopped = true;
        return report;
      }
      if (step.kind === 'sent') report.sent.push(step.sent);
      else if (step.kind === 'refused') report.refused.push(step.refused);
      else {
        failures = failedSeq === step.seq ? failures + 1 : 1;
        failedSeq = step.seq;
        if (failures >= attempts) {
          report.stopped = true;
          return report;
        }
        await sleep(base * 2 ** (failures - 1));
      }
    }
    // Every entry is settled: the ids learned on the way are needed no more.
    await this.lock(async () => {
      await this.reload();
      if (this.state.items.length === 0 && Object.keys(this.state.resolved).length > 0)
        await this.commit({ ...this.state, resolved: {} });
    });
    return report;
  }

  /** Sends the first entry of the stored queue once (called under the lock). */
  private async sendHead(sender: QueueSender, now: () => Date): Promise<HeadStep> {
    await this.reload();
    const item = this.state.items[0];
    if (!item) return { kind: 'empty' };
    let outcome: SentAnswer | Refused;
    try {
      outcome = await this.send(sender, item);
    } catch (error) {
      if (error instanceof Refused) outcome = error;
      else if (isUnauthorized(error)) return { kind: 'unauthorized' };
      else if (isRefusal(error)) outcome = new Refused(readErrorCode(error) ?? 'UNDEFINED');
      else return { kind: 'retry', seq: item.seq };
    }
    const rest = this.state.items.slice(1);
    if (outcome instanceof Refused) {
      const refused: RefusedAnswer = { ...item, code: outcome.code, refusedAt: now().toISOString() };
      await this.commit({ ...this.state, items: rest, refused: [...this.state.refused, refused] });
      return { kind: 'refused', refused };
    }
    await this.commit({ ...this.state, items: rest });
    return { kind: 'sent', sent: outcome };
  }

  /** The server page of an entry (asking for it when it was reached offline), then its answer. */
  private async send(sender: QueueSender, item: QueuedAnswer): Promise<SentAnswer> {
    let pageId = item.pageId ?? this.state.resolved[key(item.lessonId, item.nodeId)] ?? null;
    if (!pageId) {
      const from =
        item.fromPageId ??
        (item.fromNodeId ? this.state.resolved[key(item.lessonId, item.fromNodeId)] : undefined);
      // The page it came from was refused or never reached: the server cannot place this one.
      if (!from && item.fromNodeId !== null) throw new Refused('NO_LESSON_PAGE_AVAILABLE');
      // Coming from nowhere: the first page of a lesson kept ahead and begun offline (0020).
      const reached = from ? await sender.next(item.lessonId, from) : await sender.current(item.lessonId);
      // The lesson changed under the device (content, sections): not the page that was answered.
      if (reached.nodeId !== item.nodeId) throw new Refused('MODEL_NOT_FOUND');
      pageId = reached.id;
    }
    // Known before the answer goes: a refused answer still leaves a page the next entries follow.
    if (this.state.resolved[key(item.lessonId, item.nodeId)] !== pageId)
      await this.commit({
        ...this.state,
        resolved: { ...this.state.resolved, [key(item.lessonId, item.nodeId)]: pageId },
      });
    const graded = await sender.patch(item.lessonId, pageId, item.answers ?? undefined);
    return {
      seq: item.seq,
      lessonId: item.lessonId,
      pageId: graded.id,
      title: item.title,
      score: graded.results?.score ?? null,
    };
  }

  private async commit(next: QueueState): Promise<void> {
    this.state = next;
    await this.store.save(next);
    this.emit();
  }

  private emit(): void {
    this.listeners.forEach((listener) => listener());
  }
}

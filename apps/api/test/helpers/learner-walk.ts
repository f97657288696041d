import type { RowValidator } from '@parcours/domain/exercises/solution';
import { blockSolutionSchema } from '@parcours/domain/exercises/solution';
import { pageContentSchema, pageRows } from '@parcours/domain/exercises/grade-page';
import type { Db } from '../../src/db/db';
import { parseJson } from '../../src/db/schema';

/**
 * A learner playing lessons over real HTTP (a server process, or a proxy before several), for
 * the durability and operations tests: every answer the server acknowledged is recorded, so the
 * database can be checked against it afterwards.
 */

/** The right answer of a row, as a learner who knows it sends it. */
function rightAnswer(v: RowValidator): unknown {
  switch (v.type) {
    case 'multiple-choice':
    case 'image-cliquable':
    case 'combined-choice':
    case 'drag-n-drop':
      return v.expected;
    case 'pick-words':
      return v.expected.positions;
    case 'free-answer':
      return v.expected.kind === 'number' ? String(v.expected.value) : v.expected.accept[0];
  }
}

/** Per block, the answers that score full marks (read from the database the server uses). */
export async function rightAnswers(db: Db): Promise<Map<string, unknown[]>> {
  const blocks = await db.selectFrom('courseBlocks').select(['id', 'content', 'solution']).execute();
  return new Map(
    blocks.map((b) => {
      const rows = pageRows(pageContentSchema.parse(parseJson(b.content, {})));
      const solution = blockSolutionSchema.parse(parseJson(b.solution, {}));
      return [
        b.id,
        rows.map((r) => {
          const v = solution.validators.find((x) => x.section === r.section && x.row === r.row);
          return v ? rightAnswer(v) : null;
        }),
      ];
    }),
  );
}

export interface Ack {
  lessonId: string;
  pageId: string;
  actual: number;
  max: number;
}

export interface PageDoc {
  data: {
    id: string;
    attributes: {
      block: { id: string; content?: { rows?: unknown[] } } | null;
      children?: { nodeId: string }[];
      timeLimit: number | null;
      results: { score: { actual: number; max: number } } | null;
    };
  };
}

export type Call = (
  method: string,
  url: string,
  body?: unknown,
) => Promise<{ status: number; json: unknown }>;

export function client(base: string | (() => string), token?: string): Call {
  return async (method, url, body) => {
    const res = await fetch(`${typeof base === 'function' ? base() : base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, json };
  };
}

/** The lessons a learner can play now. */
export async function playableLessons(call: Call): Promise<string[]> {
  const lessons = await call('GET', '/api/lessons?page[size]=50');
  return ((lessons.json as { data?: { id: string; attributes: { state: string } }[] }).data ?? [])
    .filter((l) => !['LOCKED', 'HIDDEN', 'EXPIRED', 'DONE'].includes(l.attributes.state))
    .map((l) => l.id);
}

export interface WalkOptions {
  /** Checked before each step: the walk ends once it says so. */
  stop: { now: boolean };
  /** At most this many answers acknowledged in this walk. */
  maxAnswers?: number;
  /** A failed call (a killed process, a 502 of the proxy) is tried again this many times. */
  retries?: number;
}

/** Answers page after page of one lesson until told to stop, the budget is spent or the lesson ends. */
export async function walkLesson(
  call: Call,
  lessonId: string,
  acks: Ack[],
  right: Map<string, unknown[]>,
  opts: WalkOptions,
): Promise<void> {
  const base = `/api/lessons/${lessonId}/pages`;
  let retries = opts.retries ?? 0;
  // A call whose connection failed or got a 5xx (proxy 502) is not acknowledged: try again.
  const retry = async (method: string, url: string, body?: unknown) => {
    for (;;) {
      const res = await call(method, url, body).catch(() => ({ status: 0, json: null }));
      if ((res.status === 0 || res.status >= 500) && retries-- > 0) {
        // A pause, not an event: the process that failed is another one, being killed or restarted.
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      return res;
    }
  };
  let answered = 0;
  let res = await retry('GET', `${base}/current`);
  for (let step = 0; step < 200 && !opts.stop.now && res.status === 200; step++) {
    if (opts.maxAnswers !== undefined && answered >= opts.maxAnswers) return;
    let page = (res.json as PageDoc).data;
    const kids = page.attributes.children ?? [];
    if (!page.attributes.block && kids.length > 0) {
      res = await retry('POST', `${base}/current/choose`, { pageId: page.id, nodeId: kids[0]!.nodeId });
      if (res.status !== 200) return;
      page = (res.json as PageDoc).data;
    }
    if (page.attributes.timeLimit) await retry('POST', `${base}/current/start`, { pageId: page.id });
    if (!page.attributes.results) {
      const rows = page.attributes.block?.content?.rows ?? [];
      const known = page.attributes.block ? right.get(page.attributes.block.id) : undefined;
      // Every other page right, the others a guess, so scores differ from page to page.
      const attempts = [
        ...(known && step % 2 === 0 ? [known] : []),
        rows.map((_, i) => ((step + i) % 2 === 0 ? [0] : ['1'])),
        rows.map(() => null),
      ];
      for (const answers of attempts) {
        const sent = await call('PATCH', `${base}/current`, { pageId: page.id, inputs: { answers } }).catch(
          () => ({ status: 0, json: null }),
        );
        if (sent.status === 200) {
          const score = (sent.json as PageDoc).data.attributes.results?.score;
          if (score) acks.push({ lessonId, pageId: page.id, actual: score.actual, max: score.max });
          answered++;
          break;
        }
        // A refused shape (400) tries the next guess; anything else leaves the page to a re-read.
        if (sent.status !== 400) break;
      }
    }
    res = await retry('POST', `${base}/next`, { fromPageId: page.id });
    // `next` after a lost answer (the process died) may say the page is not answered: re-read.
    if (res.status === 409 || res.status === 400) res = await retry('GET', `${base}/current`);
  }
}

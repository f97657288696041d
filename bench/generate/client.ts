/**
 * A simulated learner over HTTP, as the web app talks to the API: sign in, the home's reads, the
 * lesson player (current page, answer, next page). Shared by the growth and load benches.
 */
export const DEMO_LEARNER = { email: 'learner@example.com', password: 'Learner#2026' };
/** The demo tenant's host (the generated learners are in the demo learner's tenant). */
const HOST = 'localhost';

export interface Session {
  url: string;
  token: string;
  userId: string;
}

export interface Reply<T = unknown> {
  status: number;
  json: T;
  /** Time from sending the request to the end of the body, ms. */
  ms: number;
}

/**
 * The newest stamp each token's writes answered with, sent back with its calls as the web app
 * does (apps/web/src/lib/write-stamp.ts, decision 0059): with several API processes, a learner's
 * call reaching a process that has not yet heard of their last write reads the database.
 */
const STAMP = 'x-parcours-stamp';
const stamps = new Map<string, [number, number]>();

function noteStamp(token: string, header: string | null): void {
  const m = header ? /^(\d+)\.(\d+)$/.exec(header) : null;
  if (!m) return;
  const seen = stamps.get(token);
  stamps.set(token, [Math.max(seen?.[0] ?? 0, Number(m[1])), Math.max(seen?.[1] ?? 0, Number(m[2]))]);
}

export async function request<T = unknown>(
  url: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<Reply<T>> {
  const start = performance.now();
  const stamp = token ? stamps.get(token) : undefined;
  const res = await fetch(url + path, {
    method,
    headers: {
      host: HOST,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(stamp ? { [STAMP]: `${stamp[0]}.${stamp[1]}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (token) noteStamp(token, res.headers.get(STAMP));
  const text = await res.text();
  const ms = performance.now() - start;
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the status says what went wrong
  }
  return { status: res.status, json: json as T, ms };
}

export async function signIn(
  url: string,
  email: string,
  password: string,
): Promise<Session & { ms: number }> {
  const r = await request<{ access_token: string; user_id: string }>(url, 'POST', '/api/users/login', null, {
    email,
    password,
  });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.json)}`);
  return { url, token: r.json.access_token, userId: r.json.user_id, ms: r.ms };
}

/** The home's two reads, exactly as apps/web/src/features/home/api/*.ts sends them. */
export function homeReads(userId: string): { lessons: string; 'class-users': string } {
  return {
    lessons: `/api/lessons?filter[userId]=${userId}&include=course`,
    'class-users':
      '/api/class-users?filter[role]=STUDENT&filter[expired]=false&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers',
  };
}

export interface LessonDoc {
  id: string;
  attributes: { state: string; classProgramId: string | null };
}

export async function lessonsOf(s: Session): Promise<LessonDoc[]> {
  const r = await request<{ data: LessonDoc[] }>(s.url, 'GET', homeReads(s.userId).lessons, s.token);
  if (r.status !== 200) throw new Error(`lessons: ${r.status}`);
  return r.json.data;
}

export interface PageDoc {
  data: {
    id: string;
    attributes: {
      answeredAt?: string | null;
      /** A multiblock's choices (its page has no block until one is chosen). */
      children?: { nodeId: string; done: boolean }[];
      block: { content: { sections: { rows: { type: string; targets?: unknown[] }[] }[] } } | null;
    };
  };
}

/** A valid (not necessarily right) answer for each row of a page; none for a page without questions. */
export function answerBody(doc: PageDoc): { pageId: string; inputs?: { answers: unknown[] } } {
  const rows = doc.data.attributes.block?.content.sections.flatMap((s) => s.rows) ?? [];
  const answers = rows.map((r) => {
    if (['multiple-choice', 'image-cliquable', 'pick-words'].includes(r.type)) return [0];
    if (r.type === 'combined-choice') return 0;
    if (r.type === 'free-answer') return '1';
    if (r.type === 'drag-n-drop') return (r.targets ?? []).map(() => []);
    return null;
  });
  return answers.some((a) => a !== null)
    ? { pageId: doc.data.id, inputs: { answers } }
    : { pageId: doc.data.id };
}

/** Every call the player makes, with its status and time, for the benches to sum up. */
export type Observe = (call: string, reply: Reply) => void;

/**
 * Plays a lesson from its current page: answer it if still open, then ask for the next one, until
 * the lesson ends (next answers 4xx), `more()` says stop, or a call fails. `pause` runs between
 * calls (the load bench's think time). Returns the pages answered.
 */
export async function playLesson(
  s: Session,
  lessonId: string,
  observe: Observe,
  more: () => boolean,
  pause: () => Promise<void> = async () => {},
): Promise<number> {
  const base = `/api/lessons/${lessonId}/pages`;
  let page = await request<PageDoc>(s.url, 'GET', `${base}/current`, s.token);
  observe('GET …/pages/current', page);
  let answered = 0;
  while (page.status === 200 && more()) {
    await pause();
    const choice = page.json.data.attributes.children?.find((c) => !c.done);
    if (!page.json.data.attributes.block && choice) {
      page = await request<PageDoc>(s.url, 'POST', `${base}/current/choose`, s.token, {
        pageId: page.json.data.id,
        nodeId: choice.nodeId,
      });
      observe('POST …/pages/current/choose', page);
      continue;
    }
    if (!page.json.data.attributes.answeredAt) {
      const answer = await request(s.url, 'PATCH', `${base}/current`, s.token, answerBody(page.json));
      observe('PATCH …/pages/current (answer)', answer);
      if (answer.status !== 200) return answered;
      answered++;
      await pause();
    }
    page = await request<PageDoc>(s.url, 'POST', `${base}/next`, s.token, { fromPageId: page.json.data.id });
    // The end of the lesson is a 4xx of next: expected, not an error.
    if (page.status !== 200 && page.status < 500) return answered;
    observe('POST …/pages/next', page);
  }
  return answered;
}

/**
 * Restarts each of the learner's programs whose window is open (their pages archived, the first
 * course available again), so that there are fresh pages to answer. A closed program answers 403.
 */
export async function resetPrograms(s: Session, lessons: LessonDoc[], observe: Observe): Promise<void> {
  for (const id of new Set(lessons.map((l) => l.attributes.classProgramId))) {
    if (!id) continue;
    const reply = await request(s.url, 'POST', `/api/class-programs/${id}/reset/me`, s.token);
    if (reply.status !== 403) observe('POST class-programs/{id}/reset/me', reply);
  }
}

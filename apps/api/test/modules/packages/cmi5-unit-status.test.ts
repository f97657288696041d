import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/db';
import { STATUS_VERBS } from '../../../src/db/migrations/0034-cmi5-status-stamps';
import { answerCacheCounts } from '../../../src/lib/answer-cache';
import { CMI5_RECORD_VERBS } from '../../../src/modules/packages/cmi5-record';
import { auSession } from '../../helpers/cmi5-au';
import { bridge, startPackageWorld, zipOf } from '../../helpers/packages';
import type { PackageWorld, PageData } from '../../helpers/packages';

/**
 * Decision 0071: each unit of a cmi5 course carries its status in the learner's registration, and
 * a statement that can change it moves the learner's `u:` stamp (migration 0034), so the player's
 * cached page read (decision 0068) shows it at the next read; an `experienced` moves nothing.
 */
const page = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head></html>`;
const twoAus = {
  'cmi5.xml': `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.org/courses/two">
    <title><langstring lang="en-US">Two units</langstring></title>
    <description><langstring lang="en-US">A course of two AUs.</langstring></description>
  </course>
  <au id="https://example.org/courses/two/au/quiz" moveOn="Passed" masteryScore="0.7">
    <title><langstring lang="en-US">Quiz</langstring></title>
    <description><langstring lang="en-US">The quiz.</langstring></description>
    <url>quiz.html</url>
  </au>
  <au id="https://example.org/courses/two/au/read" moveOn="Completed">
    <title><langstring lang="en-US">Reading</langstring></title>
    <description><langstring lang="en-US">The reading.</langstring></description>
    <url>read.html</url>
  </au>
</courseStructure>`,
  'quiz.html': page('Quiz'),
  'read.html': page('Reading'),
};

let w: PackageWorld;
beforeAll(async () => {
  w = await startPackageWorld('cmi5-status', undefined, {}, { cmi5: await zipOf(twoAus) });
});
afterAll(async () => w?.close());

type Pkg = Awaited<ReturnType<PackageWorld['toPackage']>>;
type Units = { title: string; status?: string }[];

const read = async (p: Pkg) => {
  const res = await w.api(p.token)('GET', `/api/lessons/${p.lessonId}/pages/current`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: PageData }).data;
};
const statusesOf = (data: PageData) =>
  ((data.attributes.block?.content.package?.units ?? []) as Units).map((u) => u.status);

/** Reads served from the answer cache so far (the counts object is live: read its number). */
const hits = () => answerCacheCounts(w.t.db).hits;

async function stamp(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('homeVersions')
    .select('version')
    .where('key', '=', `u:${userId}`)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The AU at `au` launched and started as a player would, with an LRS client of its token. */
async function startAu(p: Pkg, au: number) {
  const launched = await w.api(p.token)('POST', '/api/packages/launches', {
    lessonId: p.lessonId,
    pageId: p.pageId,
    launch: p.launch,
    au,
  });
  expect(launched.statusCode, launched.body).toBe(200);
  const [, key, secret] = /\/launch\/([0-9a-f]{32})#(.+)$/.exec((launched.json() as { url: string }).url)!;
  const start = await bridge(w, key!, secret!)('POST', '/start');
  expect(start.statusCode, start.body).toBe(200);
  const session = await auSession(w, (start.json() as { entry: string }).entry);
  const { lrs } = session;
  const statement = (
    verb: string,
    extra: Record<string, unknown> = {},
    cmi5 = true,
    moveOn = false,
    extensions: Record<string, unknown> = {},
  ) => session.statement(verb, extra, { cmi5, moveOn, extensions });
  const post = async (...statements: unknown[]) => {
    const res = await lrs('POST', 'statements', statements);
    expect(res.statusCode, res.body).toBe(200);
  };
  return { post, statement };
}

describe('cmi5 unit statuses (decision 0071)', () => {
  it('the migration moves the stamp on every verb an AU record reads', () => {
    expect(STATUS_VERBS).toEqual(expect.arrayContaining(CMI5_RECORD_VERBS));
  });

  it('each unit carries its status; a statement of an AU shows at the next read, served from the cache until then', async () => {
    const p = await w.toPackage('cmi5');
    expect(statusesOf(p.page)).toEqual(['notAttempted', 'notAttempted']);
    const ann = w.users.ann;
    // The first read opened the page (a write): the next one builds, the one after is served.
    await read(p);
    const before = hits();
    expect(statusesOf(await read(p))).toEqual(['notAttempted', 'notAttempted']);
    expect(hits()).toBe(before + 1);

    // The LMS records `launched` (§9.3.1) before the AU gets its URL.
    const au = await startAu(p, 1);
    expect(statusesOf(await read(p))).toEqual(['notAttempted', 'inProgress']);
    const cached = hits();
    expect(statusesOf(await read(p))).toEqual(['notAttempted', 'inProgress']);
    expect(hits()).toBe(cached + 1);

    // What an AU sends by the hundred moves nothing: the page is still served from the cache.
    const quiet = await stamp(w.t.db, ann);
    await au.post(au.statement('initialized'));
    await au.post(au.statement('experienced', {}, false), au.statement('experienced', {}, false));
    expect(await stamp(w.t.db, ann)).toBe(quiet);
    const served = hits();
    expect(statusesOf(await read(p))).toEqual(['notAttempted', 'inProgress']);
    expect(hits()).toBe(served + 1);

    // Its completed (moveOn Completed): the stamp moves and the read shows the unit satisfied.
    await au.post(au.statement('completed', { result: { completion: true, duration: 'PT1M' } }, true, true));
    expect(await stamp(w.t.db, ann)).toBeGreaterThan(quiet);
    expect(statusesOf(await read(p))).toEqual(['notAttempted', 'satisfied']);

    // Another learner's page of the same course shows nothing of Ann's.
    const ben = await w.toPackage('cmi5', 'ben');
    expect(statusesOf(ben.page)).toEqual(['notAttempted', 'notAttempted']);
  });

  it('a failed quiz shows failed, then waived once a teacher waives it', async () => {
    const p = await w.toPackage('cmi5');
    const au = await startAu(p, 0);
    await au.post(
      au.statement('initialized'),
      au.statement(
        'failed',
        { result: { success: false, score: { scaled: 0.4 }, duration: 'PT1M' } },
        true,
        true,
        { 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore': 0.7 },
      ),
    );
    expect(statusesOf(await read(p))).toEqual(['failed', 'notAttempted']);
    const registration = (
      await w.t.db
        .selectFrom('packageLaunches')
        .select('registration')
        .where('pageId', '=', p.pageId)
        .executeTakeFirstOrThrow()
    ).registration;
    const waived = await w.api(await w.login('tom'))(
      'POST',
      `/api/packages/cmi5/registrations/${registration}/waive`,
      { au: 0, reason: 'Tested Out' },
    );
    expect(waived.statusCode, waived.body).toBe(204);
    expect(statusesOf(await read(p))).toEqual(['waived', 'notAttempted']);
  });
});

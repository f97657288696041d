import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

let w: PlayWorld;
let ben: ReturnType<typeof player>;

beforeAll(async () => {
  w = await startPlayWorld();
  ben = player(w.app, await playLogin(w.app, 'ben'));
});
afterAll(async () => w?.close());

describe('GET /pages/{id}/resources: files the toolbar lists (issue 14)', () => {
  it('gives each attached file its type, size in bytes and a download URL signed for the learner', async () => {
    const B = w.lessons.ben.practice;
    const pageId = ((await ben.current(B)).json() as PageDoc).data.id;
    const row = await w.tdb.db
      .selectFrom('lessonPages')
      .select(['nodeId'])
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow();
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['contextId'])
      .where('id', '=', B)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await w.tdb.db
      .insertInto('files')
      .values({
        id: 'guide-fid',
        contextId: lesson.contextId,
        libraryId: null,
        ownerId: null,
        name: 'guide.pdf',
        type: 'application/pdf',
        fileType: 'pdf',
        icon: null,
        size: 123_456,
        storagePath: 'x/guide.pdf',
        sha256: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await w.tdb.db
      .updateTable('courseNodes')
      .set({ attachmentIds: JSON.stringify(['guide-fid']) })
      .where('id', '=', row.nodeId)
      .execute();

    const res = await ben.send('GET', `/api/pages/${pageId}/resources?lessonId=${B}`);
    expect(res.statusCode).toBe(200);
    const files = (res.json() as { meta: { files: Record<string, unknown>[] } }).meta.files;
    expect(files).toEqual([
      {
        id: 'guide-fid',
        name: 'guide.pdf',
        mimeType: 'application/pdf',
        fileType: 'pdf',
        size: 123_456,
        download: expect.stringMatching(/^\/api\/files\/guide-fid\/download\?u=[^&]+&exp=\d+&sig=/),
      },
    ]);
  });
});

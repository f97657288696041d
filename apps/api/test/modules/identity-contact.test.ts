import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, patchContextSettings, send } from '../helpers/identity';
import { startSmtp } from '../helpers/smtp';
import type { TestSmtp } from '../helpers/smtp';

let t: TestContext;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url });
  await patchContextSettings(t.tdb.db, ids.ctxB, { allowContactTeacher: false });
  // A block of the learner's course offers the sound file by e-mail (medias-by-mail row).
  await t.tdb.db
    .insertInto('courseBlocks')
    .values({
      id: 'block-docs',
      contextId: ids.ctxA,
      title: 'Docs',
      type: 'slide',
      categoryId: null,
      competencyId: null,
      attachmentIds: '[]',
      settings: '{}',
      solution: '{}',
      content: JSON.stringify({
        sections: [
          { rows: [{ type: 'medias-by-mail', appFiles: [{ id: ids.fileSound, name: 'sound.mp3' }] }] },
        ],
      }),
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    })
    .execute();
  await t.tdb.db
    .updateTable('courseNodes')
    .set({ blockId: 'block-docs' })
    .where('id', '=', ids.node.b1)
    .execute();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const contact = (body: unknown, token: string, host = hosts.alpha) =>
  send(t.app, 'POST', '/api/users/contact', body, { token, host });

describe('POST /api/users/contact: write to the class teachers', () => {
  it('delivers the message to the teachers of the class, replying to the learner', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await contact(
      {
        classId: ids.classCurrent,
        subject: 'Une question',
        message: 'Bonjour,\nje bloque sur les fractions.',
      },
      token,
    );
    expect(res.statusCode).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('teacher@example.test'));
    expect(mail.to).toEqual(['teacher@example.test']);
    expect(mail.headers['reply-to']).toContain('anna@example.test');
    expect(mail.text).toContain('je bloque sur les fractions.');
    expect(mail.text).toContain('Anna Martin');
    expect(mail.text).toContain('Alpha Academy');
    // The HTML part escapes what the learner wrote.
    const before = smtp.mails.length;
    expect(
      (await contact({ classId: ids.classCurrent, message: '<script>alert(1)</script>' }, token)).statusCode,
    ).toBe(204);
    const second = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before);
    const html = second.text.slice(second.text.indexOf('<!doctype html>'));
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
  });

  it('is 403 where contacting teachers is off', async () => {
    const token = await login(t.app, 'anna@example.test', hosts.beta);
    const res = await contact({ classId: ids.classBeta, message: 'Hello' }, token, hosts.beta);
    expect(res.statusCode).toBe(403);
    expect(firstError(res).code).toBe('Forbidden');
  });

  it('needs a message and a class of the learner', async () => {
    const token = await login(t.app, 'anna@example.test');
    const empty = await contact({ classId: ids.classCurrent, message: '  ' }, token);
    expect(empty.statusCode).toBe(400);
    expect(firstError(empty)).toMatchObject({
      detail: 'validation.contact.message.required',
      source: { pointer: '/message' },
    });
    const noClass = await contact({ message: 'Hello' }, token);
    expect(noClass.statusCode).toBe(400);
    expect(firstError(noClass).detail).toBe('validation.contact.missingData');
    // Bob's class, not Anna's.
    expect((await contact({ classId: ids.classB, message: 'Hello' }, token)).statusCode).toBe(404);
    const bob = await login(t.app, 'bob@example.test');
    const noTeacher = await contact({ classId: ids.classB, message: 'Hello' }, bob);
    expect(noTeacher.statusCode).toBe(422);
  });

  it('needs a token', async () => {
    expect(
      (await send(t.app, 'POST', '/api/users/contact', { classId: ids.classCurrent, message: 'x' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('POST /api/users/contact: documentation by e-mail', () => {
  it('mails the learner the files of their courses, attached, with links', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await contact({ message: 'Pour plus tard', fileIds: [ids.fileSound] }, token);
    expect(res.statusCode).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes('anna@example.test'));
    expect(mail.text).toContain('Voici les documents demandés.');
    expect(mail.text).toContain(`http://alpha.test/api/files/${ids.fileSound}/download`);
    expect(mail.raw).toMatch(/filename="?sound\.mp3/);
  });

  it("refuses a file of the tenant the learner may not see (403) and another tenant's file (404)", async () => {
    const token = await login(t.app, 'anna@example.test');
    const hidden = await contact({ fileIds: [ids.fileLogo] }, token);
    expect(hidden.statusCode).toBe(403);
    expect(firstError(hidden).code).toBe('Forbidden');
    const foreign = await contact({ fileIds: [ids.fileSound, ids.fileBeta] }, token);
    expect(foreign.statusCode).toBe(404);
    // Bob's lessons are on the same course: the file is his to receive too.
    const bob = await login(t.app, 'bob@example.test');
    expect((await contact({ fileIds: [ids.fileSound] }, bob)).statusCode).toBe(204);
  });

  it('needs at least one file (missing-data message)', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await contact({ message: 'x', fileIds: [] }, token);
    expect(res.statusCode).toBe(400);
    expect(firstError(res)).toMatchObject({
      code: 'VALIDATION_ERROR',
      detail: 'validation.contact.missingData',
      source: { pointer: '/fileIds' },
    });
  });
});

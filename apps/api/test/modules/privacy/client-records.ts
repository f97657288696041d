import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * What another tool stores about a learner through the LRS, with client credentials an
 * administrator creates (decision 0040): a statement by her e-mail with an attachment part, one
 * by her account, another person's statement naming her as instructor, one naming someone else
 * (`stranger`), a State document under her account and an agent profile under her e-mail.
 */
export async function storeClientRecords(
  app: FastifyInstance,
  host: string,
  adminToken: string,
  her: {
    name: string;
    mbox: string;
    account: { homePage: string; name: string };
    sha1: string;
    stranger: string;
  },
): Promise<{ byMail: string; instructed: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/xapi/clients',
    headers: { host, authorization: `Bearer ${adminToken}` },
    payload: { name: 'Other tool', scopes: ['all'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const c = created.json() as { key: string; secret: string };
  const auth = `Basic ${Buffer.from(`${c.key}:${c.secret}`).toString('base64')}`;
  const xapi = (
    method: 'POST' | 'PUT',
    url: string,
    body: Buffer | string,
    type: string,
    extra: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: {
        host,
        authorization: auth,
        'x-experience-api-version': '1.0.3',
        'content-type': type,
        ...extra,
      },
      payload: body,
    });
  const essay = Buffer.from(`${her.name}'s essay`);
  const sha2 = createHash('sha256').update(essay).digest('hex');
  const byMail = {
    id: randomUUID(),
    actor: { objectType: 'Agent', name: her.name, mbox: her.mbox },
    verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
    object: { objectType: 'Activity', id: 'http://example.com/essay' },
    attachments: [
      {
        usageType: 'http://example.com/essay',
        display: { en: 'Essay' },
        contentType: 'text/plain',
        length: essay.length,
        sha2,
      },
    ],
  };
  const boundary = 'erase-boundary';
  const multipart = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify([byMail])}`),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${sha2}\r\n\r\n`,
    ),
    essay,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  let res = await xapi('POST', '/api/xapi/statements', multipart, `multipart/mixed; boundary=${boundary}`);
  expect(res.statusCode, res.body).toBe(200);
  const instructed = randomUUID();
  const others = [
    {
      id: randomUUID(),
      actor: { objectType: 'Agent', account: her.account },
      verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' },
      object: { objectType: 'Activity', id: 'http://example.com/quiz' },
    },
    {
      id: instructed,
      actor: { objectType: 'Agent', mbox: 'mailto:someone-else@example.test' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/attended' },
      object: { objectType: 'Activity', id: 'http://example.com/class' },
      context: { instructor: { objectType: 'Agent', mbox_sha1sum: her.sha1 } },
    },
    {
      id: her.stranger,
      actor: { objectType: 'Agent', mbox: 'mailto:someone-else@example.test' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/attended' },
      object: { objectType: 'Activity', id: 'http://example.com/class' },
    },
  ];
  res = await xapi('POST', '/api/xapi/statements', JSON.stringify(others), 'application/json');
  expect(res.statusCode, res.body).toBe(200);
  const agent = encodeURIComponent(JSON.stringify({ objectType: 'Agent', account: her.account }));
  res = await xapi(
    'PUT',
    `/api/xapi/activities/state?activityId=${encodeURIComponent('http://example.com/quiz')}&agent=${agent}&stateId=bookmark`,
    JSON.stringify({ learner: her.name, page: 3 }),
    'application/json',
  );
  expect(res.statusCode, res.body).toBe(204);
  const byMailAgent = encodeURIComponent(JSON.stringify({ objectType: 'Agent', mbox: her.mbox }));
  res = await xapi(
    'PUT',
    `/api/xapi/agents/profile?agent=${byMailAgent}&profileId=prefs`,
    `${her.name} likes green`,
    'text/plain',
    { 'if-none-match': '*' },
  );
  expect(res.statusCode, res.body).toBe(204);
  return { byMail: byMail.id, instructed };
}

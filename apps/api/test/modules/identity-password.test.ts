import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, hosts, ids } from '../helpers/fixtures';
import { get, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, send, tokenIssuedAt } from '../helpers/identity';
import { decodeQuotedPrintable, startSmtp } from '../helpers/smtp';
import type { ReceivedMail, TestSmtp } from '../helpers/smtp';

let t: TestContext;
let smtp: TestSmtp;
// The app's SMTP transport, held here to see what the app hands it (it still sends for real).
let transport: Transporter;
beforeAll(async () => {
  smtp = await startSmtp();
  transport = nodemailer.createTransport(smtp.url);
  t = await startTestApp(
    { SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: '5', LOGIN_IP_RATE_LIMIT: '5' },
    { mailTransport: transport },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
const recover = (email: string, opts: { ip?: string; host?: string } = {}) =>
  send(
    t.app,
    'POST',
    '/api/users/recover',
    { email },
    { ip: opts.ip ?? nextIp(), host: opts.host ?? hosts.alpha },
  );

// Each call from its own address: the per-IP limits (5 a minute here) are tested on their own.
const resetGet = (token: string, host = hosts.alpha) =>
  get(t.app, `/api/users/reset/${token}`, undefined, host, { remoteAddress: nextIp() });
const resetPost = (body: unknown) => send(t.app, 'POST', '/api/users/reset', body, { ip: nextIp() });

function linkOf(mail: ReceivedMail): { url: string; token: string } {
  const m = /(https?:\/\/[^\s"<>]+\/reset\/([A-Za-z0-9_-]{43}))/.exec(mail.text);
  if (!m?.[1] || !m[2]) throw new Error(`no reset link in:\n${mail.text}`);
  return { url: m[1], token: m[2] };
}

async function requestLink(email: string): Promise<string> {
  const before = smtp.mails.length;
  expect((await recover(email)).statusCode).toBe(204);
  const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && m.to.includes(email));
  return linkOf(mail).token;
}

describe('POST /api/users/recover', () => {
  it("mails a single-use reset link to a known e-mail, in the user's language, storing only its hash", async () => {
    const res = await recover('ANNA@example.test');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const mail = await smtp.waitFor((m) => m.to.includes('anna@example.test'));
    expect(mail.headers.subject ?? '').not.toBe('');
    // French learner (preferredLocale fr), with the tenant's name.
    expect(mail.text).toContain('Alpha Academy');
    expect(mail.text).toContain('Vous avez demandé à renouveler votre mot de passe');
    const { url, token } = linkOf(mail);
    // The request came on a registered hostname of the tenant: the link points there.
    expect(url).toBe(`http://alpha.test/reset/${token}`);
    const rows = await t.tdb.db
      .selectFrom('passwordResets')
      .selectAll()
      .where('userId', '=', ids.learnerA)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0]?.tokenHash).not.toContain(token);
  });

  it('answers the same 204 for an unknown e-mail and sends nothing', async () => {
    // The mail goes in the background, but it is handed to the mailer before the answer
    // (password-reset.ts): what was handed over once both are answered is all that will be sent.
    const handed = vi.spyOn(transport, 'sendMail');
    const known = await recover('bob@example.test');
    const unknown = await recover('ghost@example.test');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(handed.mock.calls.map(([mail]) => mail.to)).toEqual(['bob@example.test']);
    handed.mockRestore();
    await smtp.waitFor((m) => m.to.includes('bob@example.test'));
    expect(smtp.mails.some((m) => m.to.includes('ghost@example.test'))).toBe(false);
  });

  it('never mails a user of another tenant, and rejects a malformed body with 400', async () => {
    const before = await t.tdb.db
      .selectFrom('passwordResets')
      .select('tokenHash')
      .where('userId', '=', ids.betaUser)
      .execute();
    // Host alpha: the beta account with the same e-mail is not touched.
    await recover('anna@example.test');
    const after = await t.tdb.db
      .selectFrom('passwordResets')
      .select('tokenHash')
      .where('userId', '=', ids.betaUser)
      .execute();
    expect(after).toHaveLength(before.length);
    const bad = await send(t.app, 'POST', '/api/users/recover', { mail: 'x' }, { ip: nextIp() });
    expect(bad.statusCode).toBe(400);
    expect(firstError(bad).code).toBe('VALIDATION_ERROR');
  });
});

describe('reset link', () => {
  it('loads a valid link, refuses weak passwords with the SPEC §5 keys, then sets the password once', async () => {
    const token = await requestLink('teacher@example.test');
    const load = await resetGet(token);
    expect(load.statusCode).toBe(200);
    expect(load.json()).toMatchObject({
      userId: ids.teacher,
      email: 'teacher@example.test',
      simplePassword: false,
    });

    const cases: [string, string][] = [
      ['', 'validation.password.required'],
      ['Ab1!', 'validation.password.length'],
      ['abcdefgh', 'validation.password.complexity'],
      ['Abc 12!xyz', 'validation.password.whitespace'],
      [`Aa1!${'x'.repeat(251)}`, 'validation.password.length'],
    ];
    for (const [password, key] of cases) {
      const res = await resetPost({ token, password });
      expect(res.statusCode, password).toBe(400);
      expect(firstError(res)).toMatchObject({
        code: 'VALIDATION_ERROR',
        detail: key,
        source: { pointer: '/password' },
      });
    }

    // A token issued before the reset...
    const oldToken = await tokenIssuedAt(ids.teacher, ids.ctxA, new Date(Date.now() - 5_000));
    expect((await get(t.app, '/api/users/me', oldToken)).statusCode).toBe(200);
    // The reset field is trimmed (docs/product.md §5).
    const ok = await resetPost({ token, password: '  New-Pass1!  ' });
    expect(ok.statusCode).toBe(204);
    // ...is revoked; the new password signs in, the old one no longer does.
    expect((await get(t.app, '/api/users/me', oldToken)).statusCode).toBe(401);
    const signIn = await send(
      t.app,
      'POST',
      '/api/users/login',
      { email: 'teacher@example.test', password: 'New-Pass1!' },
      { ip: nextIp() },
    );
    expect(signIn.statusCode).toBe(200);
    const oldPassword = await send(
      t.app,
      'POST',
      '/api/users/login',
      { email: 'teacher@example.test', password: PASSWORD },
      { ip: nextIp() },
    );
    expect(oldPassword.statusCode).toBe(401);

    // Used: 401 'Lien invalide ou expiré', on load and on submit.
    const again = await resetGet(token);
    expect(again.statusCode).toBe(401);
    expect(firstError(again).detail).toContain('Lien invalide ou expiré');
    const reuse = await resetPost({ token, password: 'Other-Pass2!' });
    expect(reuse.statusCode).toBe(401);
  });

  it("answers 403 'Lien expiré' for an expired link", async () => {
    const token = await requestLink('bob@example.test');
    const hash = createHash('sha256').update(token).digest('hex');
    await t.tdb.db
      .updateTable('passwordResets')
      .set({ expireAt: new Date(Date.now() - 1000).toISOString() })
      .where('tokenHash', '=', hash)
      .execute();
    const load = await resetGet(token);
    expect(load.statusCode).toBe(403);
    expect(firstError(load)).toMatchObject({ code: 'Forbidden' });
    expect(firstError(load).detail).toContain('Lien expiré');
    const submit = await resetPost({ token, password: 'Valid-Pass1!' });
    expect(submit.statusCode).toBe(403);
  });

  it("answers 401 for an unknown token and for a link used on another tenant's host", async () => {
    expect((await resetGet('x'.repeat(43))).statusCode).toBe(401);
    const token = await requestLink('admin@example.test');
    expect((await resetGet(token, hosts.beta)).statusCode).toBe(401);
    expect((await resetGet(token)).statusCode).toBe(200);
  });

  it('a reset uses up the other pending links of the user', async () => {
    const first = await requestLink('bob@example.test');
    const second = await requestLink('bob@example.test');
    expect((await resetPost({ token: second, password: 'Bob-Pass1!' })).statusCode).toBe(204);
    expect((await resetGet(first)).statusCode).toBe(401);
  });

  it('is single-use under concurrent submissions', async () => {
    const token = await requestLink('admin@example.test');
    const answers = await Promise.all([
      resetPost({ token, password: 'Race-Pass1!' }),
      resetPost({ token, password: 'Race-Pass2!' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 401]);
  });
});

describe('recover rate limits', () => {
  it('limits per e-mail across addresses (counter in the database)', async () => {
    for (let i = 0; i < 5; i++) expect((await recover('limited@example.test')).statusCode).toBe(204);
    const res = await recover('limited@example.test');
    expect(res.statusCode).toBe(429);
    expect(firstError(res).code).toBe('TOO_MANY_REQUESTS');
  });

  it('limits per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await recover(`ip${i}@example.test`, { ip })).statusCode).toBe(204);
    expect((await recover('ip9@example.test', { ip })).statusCode).toBe(429);
  });
});

describe('mail without SMTP', () => {
  it('writes each message as an .eml file in DATA_DIR/outbox', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-outbox-'));
    const other = await startTestApp({ DATA_DIR: dataDir });
    try {
      expect(
        (await send(other.app, 'POST', '/api/users/recover', { email: 'bob@example.test' })).statusCode,
      ).toBe(204);
      const outbox = path.join(dataDir, 'outbox');
      // Sent in the background: polled until the file is there (at most 5 s).
      const eml = () => (existsSync(outbox) ? readdirSync(outbox).filter((f) => f.endsWith('.eml')) : []);
      const files = await vi
        .waitFor(
          () => {
            const found = eml();
            if (found.length === 0) throw new Error('no .eml yet');
            return found;
          },
          { timeout: 5_000, interval: 100 },
        )
        .catch(() => eml());
      expect(files).toHaveLength(1);
      const raw = decodeQuotedPrintable(readFileSync(path.join(outbox, files[0]!), 'utf8'));
      expect(raw).toContain('To: bob@example.test');
      expect(raw).toMatch(/http:\/\/alpha\.test\/reset\/[A-Za-z0-9_-]{43}/);
    } finally {
      await other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

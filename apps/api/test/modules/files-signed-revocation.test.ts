import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { PASSWORD } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { send } from '../helpers/identity';

/**
 * Issue 29 item 3, finding R3-09: signed download URLs stayed valid for up to 13 hours, through a
 * password change. They now live minutes, and a password change (or a sign-out everywhere)
 * revokes every URL signed before it.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const signedOf = async (token: string): Promise<string> => {
  const res = await get(t.app, `/api/files/${ids.fileSound}`, token);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { attributes: { download: string } } }).data.attributes.download;
};

describe('signed download URLs', () => {
  it('live at most 20 minutes', async () => {
    const url = await signedOf(await login(t.app, 'anna@example.test'));
    const exp = Number(/exp=(\d+)/.exec(url)?.[1]);
    expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(20 * 60 * 1000);
    expect(exp * 1000).toBeGreaterThan(Date.now() + 10 * 60 * 1000);
  });

  it('signed before a password change are refused after it; new ones work', async () => {
    const token = await login(t.app, 'bob@example.test');
    const old = await signedOf(token);
    expect((await get(t.app, old)).statusCode).toBe(200);
    const changed = await send(
      t.app,
      'PATCH',
      `/api/users/${ids.learnerB}`,
      { currentPassword: PASSWORD, password: 'Bob-Other1!' },
      { token, host: hosts.alpha },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get(t.app, old)).statusCode).toBe(401);
    const fresh = await signedOf((changed.json() as { access_token: string }).access_token);
    expect((await get(t.app, fresh)).statusCode).toBe(200);
  });

  it('signed before a sign-out everywhere are refused after it, and so is the token', async () => {
    const token = await login(t.app, 'anna@example.test');
    const old = await signedOf(token);
    const out = await send(
      t.app,
      'POST',
      '/api/users/me/sign-out-everywhere',
      {},
      { token, host: hosts.alpha },
    );
    expect(out.statusCode, out.body).toBe(204);
    expect((await get(t.app, old)).statusCode).toBe(401);
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(401);
  });
});

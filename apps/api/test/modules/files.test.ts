import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

let t: TestContext;
let anna: string;
beforeAll(async () => {
  t = await startTestApp();
  anna = await login(t.app, 'anna@example.test');
});
afterAll(async () => {
  await t.close();
});

describe('files', () => {
  it('serves file metadata to signed-in users of the tenant', async () => {
    const res = await get(t.app, `/api/files/${ids.fileLogo}`, anna);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      type: 'files',
      id: ids.fileLogo,
      attributes: {
        mimeType: 'image/png',
        fileType: 'image',
        name: 'logo.png',
        download: expect.stringContaining(`/api/files/${ids.fileLogo}/download?`),
      },
    });
    expect((await get(t.app, `/api/files/${ids.fileLogo}`)).statusCode).toBe(401);
    expect((await get(t.app, `/api/files/${ids.fileBeta}`, anna)).statusCode).toBe(404);
  });

  it('gives an HTML player for sounds in /infos', async () => {
    const sound = (await get(t.app, `/api/files/${ids.fileSound}/infos`, anna)).json();
    expect(sound.htmlPlayer).toContain('<audio');
    expect(sound.htmlPlayer).toContain(`/api/files/${ids.fileSound}/download`);
    expect((await get(t.app, `/api/files/${ids.fileLogo}/infos`, anna)).json().htmlPlayer).toBeNull();
  });

  it('streams the bytes with the stored mime type and cache headers, without a token', async () => {
    const res = await get(t.app, `/api/files/${ids.fileLogo}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toContain('max-age=3600');
    expect(res.headers.etag).toBeDefined();
    expect(res.rawPayload.toString('hex')).toBe('89504e470d0a1a0a');
    const again = await get(t.app, `/api/files/${ids.fileLogo}/download`, undefined, hosts.alpha, {
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('supports byte ranges for media seeking', async () => {
    const res = await get(t.app, `/api/files/${ids.fileSound}/download`, anna, hosts.alpha, {
      headers: { range: 'bytes=0-2' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('ID3');
  });

  it("does not serve another tenant's file on this host", async () => {
    expect((await get(t.app, `/api/files/${ids.fileBeta}/download`, anna)).statusCode).toBe(404);
    const beta = await login(t.app, 'anna@example.test', hosts.beta);
    expect((await get(t.app, `/api/files/${ids.fileBeta}/download`, beta, hosts.beta)).statusCode).toBe(200);
  });
});

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A PNG of `bytes` bytes (its signature and header, then filler varied by `n`). */
export const png = (n: number, bytes = 64) =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(bytes - 16, n % 251)]);

/** POST /api/files with one image, as the logbook dialog sends it. */
export function uploadPng(
  app: FastifyInstance,
  host: string,
  token: string,
  body: Buffer,
): Promise<LightMyRequestResponse> {
  const boundary = '----parcours-quota-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  return app.inject({
    method: 'POST',
    url: '/api/files',
    headers: {
      host,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat([Buffer.from(head), body, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

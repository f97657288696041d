import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A small PNG (its signature and IHDR tag, then filler): what `/api/files` takes for an image. */
export const SMALL_PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(40, 7),
]);

/** POST /api/files as multipart/form-data with one PNG part named `filename`. */
export function uploadPng(
  app: FastifyInstance,
  host: string,
  token: string,
  filename = 'me.png',
  bytes = SMALL_PNG,
): Promise<LightMyRequestResponse> {
  const boundary = '----parcours-upload';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`;
  return app.inject({
    method: 'POST',
    url: '/api/files',
    headers: {
      host,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { s3Store } from '../../src/files/s3-store';
import type { FileStore } from '../../src/files/store';

/**
 * A real S3 protocol server (s3rver) on a loopback port, with one bucket, for the tests of the
 * S3 file store: the AWS SDK speaks to it exactly as to any S3-compatible store (path-style).
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** s3rver's own credentials (it checks signatures). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  store: FileStore;
  close(): Promise<void>;
}

export async function startS3(bucket = 'parcours-files'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'parcours-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const store = await s3Store({ bucket, region: 'us-east-1', endpoint, credentials });
  return {
    endpoint,
    bucket,
    credentials,
    store,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

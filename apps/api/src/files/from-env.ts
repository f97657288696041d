import type { Env } from '../env';
import { s3Store } from './s3-store';
import { diskStore } from './store';
import type { FileStore } from './store';

/**
 * The configured store: the bucket FILES_S3_BUCKET when set, else the folder DATA_DIR/files.
 * Asynchronous because only the bucket's store loads the AWS SDK (s3-store.ts).
 */
export async function fileStoreOf(
  env: Pick<Env, 'FILES_S3_BUCKET' | 'FILES_S3_REGION' | 'FILES_S3_ENDPOINT'>,
  filesDir: string,
): Promise<FileStore> {
  if (!env.FILES_S3_BUCKET) return diskStore(filesDir);
  return s3Store({
    bucket: env.FILES_S3_BUCKET,
    region: env.FILES_S3_REGION,
    endpoint: env.FILES_S3_ENDPOINT,
  });
}

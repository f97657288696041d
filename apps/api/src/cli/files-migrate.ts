/**
 * `npm run files:migrate`: copies the files of ${DATA_DIR}/files to the bucket FILES_S3_BUCKET
 * (FILES_S3_ENDPOINT, FILES_S3_REGION; credentials from the AWS SDK's usual chain). Safe to run
 * twice, and while the app serves: what is already in the bucket is not copied again.
 * Then start the app with FILES_S3_BUCKET set (docs/operations.md, "Files on S3").
 */
import path from 'node:path';
import { loadEnv } from '../env';
import { fileStoreOf } from '../files/from-env';
import { copyStore } from '../files/migrate';
import { diskStore } from '../files/store';

async function main(): Promise<number> {
  const env = loadEnv();
  if (!env.FILES_S3_BUCKET) {
    console.error('FILES_S3_BUCKET is not set: nothing to copy to (docs/operations.md, "Files on S3").');
    return 2;
  }
  const filesDir = path.join(env.DATA_DIR, 'files');
  const started = Date.now();
  const report = await copyStore(diskStore(filesDir), await fileStoreOf(env, filesDir));
  console.log(
    `${filesDir} -> s3://${env.FILES_S3_BUCKET}: ${report.copied} copied (${report.bytes} bytes), ${report.present} already there, ${Date.now() - started} ms`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);

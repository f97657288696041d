import { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { FileStore } from './store';
import { isSafeKey } from './store';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible store other than AWS (MinIO, Garage, Ceph, s3rver): addressed path-style. */
  endpoint?: string | undefined;
  /** Tests only; otherwise the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: S3ClientConfig['credentials'];
}

function key(k: string): string {
  if (!isSafeKey(k)) throw new Error(`not a stored file key: ${JSON.stringify(k)}`);
  return k;
}

/**
 * Files in an S3 bucket (decision 0036: downloads stream through the API). The AWS SDK is
 * imported here, when a bucket is configured, and nowhere else: most installations keep files
 * on disk, and the SDK is hundreds of modules a start would otherwise read for nothing (issue
 * 40). A dynamic import by package name also stays one in the production bundle
 * (scripts/build.mjs keeps packages external), where a static one would load at start.
 */
export async function s3Store(opts: S3StoreOptions): Promise<FileStore & { client: S3Client }> {
  const {
    DeleteObjectCommand,
    GetObjectCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    S3Client,
    S3ServiceException,
  } = await import('@aws-sdk/client-s3');
  const missing = (err: unknown): boolean => {
    if (err instanceof S3ServiceException) {
      const status = err.$metadata.httpStatusCode;
      return status === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound';
    }
    return false;
  };
  const client = new S3Client({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    // Checksums only where S3 requires them: several S3-compatible stores reject the SDK's
    // default trailing CRC32 on uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = opts.bucket;
  return {
    kind: 's3',
    client,
    async size(k) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key(k) }));
        return head.ContentLength ?? 0;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async put(k, body, contentType) {
      // One PUT: S3 makes an object visible whole or not at all.
      await client.send(new PutObjectCommand({ Bucket, Key: key(k), Body: body, ContentType: contentType }));
    },
    async remove(k) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(k) }));
    },
    async read(k) {
      try {
        const got = await client.send(new GetObjectCommand({ Bucket, Key: key(k) }));
        return got.Body ? Buffer.from(await got.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async open(k, range) {
      try {
        const got = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key(k),
            ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
          }),
        );
        const body = got.Body as Readable | undefined;
        const length = got.ContentLength ?? 0;
        // Content-Range: bytes start-end/size, on a range read.
        const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(got.ContentRange ?? '');
        return {
          body: body ?? Readable.from([]),
          size: m ? Number(m[3]) : length,
          length,
          ...(m ? { range: { start: Number(m[1]), end: Number(m[2]) } } : {}),
          etag: got.ETag,
          lastModified: got.LastModified,
        };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async *list(prefix = '') {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

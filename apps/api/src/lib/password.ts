import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * Password hashing with Node's scrypt (no native dependency). Stored as
 * `scrypt$N$r$p$salt$hash` (base64url) so parameters can be raised later without breaking
 * existing hashes: `needsRehash` tells when to upgrade one at the next sign-in.
 *
 * Where the hashing runs (decision 0025): one hash costs ~60 ms of a core (N = 16 384, 16 MB),
 * and Node's asynchronous scrypt runs it on libuv's pool of 4 threads. On a 2-core server a burst
 * of sign-ins (a class arriving) then had 4 hashes competing with the main thread for 2 cores,
 * and every other request waited: in the load bench, reads' p99 rose far above 100 ms during the
 * sign-in ramp. Hashes now run in a small pool of worker threads of their own (`HASH_WORKERS`,
 * one by default), each lowered to nice `HASH_NICE` (10) at start, so the scheduler gives
 * request handling the cores first and hashing what is left; a sign-in waits in a queue instead
 * of slowing every request. Parameters and the stored format are unchanged.
 */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

export interface HashingOptions {
  /** Worker threads hashing at once (bounded concurrency). 0: libuv's pool as before (no worker). */
  workers: number;
  /** Nice value each worker thread sets on itself (Linux: per thread). 0 keeps the process's. */
  nice: number;
  /** Hashes waiting beyond the running ones before a new one is refused (PasswordQueueFull). */
  maxQueue: number;
}

const DEFAULTS: HashingOptions = { workers: 1, nice: 10, maxQueue: 2_000 };

/** Thrown when more than `maxQueue` hashes wait: the sign-in route answers 503, try again later. */
export class PasswordQueueFull extends Error {
  constructor() {
    super('Too many password checks are waiting.');
  }
}

// Plain CommonJS evaluated as the worker's source: no file to resolve under tsx, vitest or the
// bundled dist/server.js. `os.setPriority(0, …)` lowers the calling thread only on Linux, where
// the nice value is per thread (setpriority(2), NOTES); elsewhere it may lower the whole process,
// so it is attempted on Linux only.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
if (workerData.nice && process.platform === 'linux') {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
parentPort.on('message', (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keylen, job.opts);
    parentPort.postMessage({ id: job.id, key });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message || err) });
  }
});
`;

interface Job {
  id: number;
  password: string;
  salt: Buffer;
  opts: ScryptOptions;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

class HashPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  /** Hashes waiting for a worker (metrics). */
  get waiting(): number {
    return this.queue.length;
  }

  constructor(readonly options: HashingOptions) {}

  hash(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (this.queue.length >= this.options.maxQueue) {
        reject(new PasswordQueueFull());
        return;
      }
      this.queue.push({ id: this.nextId++, password, salt, opts, resolve, reject });
      this.pump();
    });
  }

  /** Stops the workers (tests; a pool is started again on the next hash). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
    for (const job of this.queue.splice(0)) job.reject(new Error('password hashing stopped'));
  }

  private pump(): void {
    for (;;) {
      const job = this.queue[0];
      if (!job) return;
      const slot = this.slots.find((s) => s.job === null) ?? this.spawn();
      if (!slot) return;
      this.queue.shift();
      slot.job = job;
      // Referenced only while it works: an idle pool never keeps a CLI (the importer) alive, and a
      // hash in flight does.
      slot.worker.ref();
      slot.worker.postMessage({
        id: job.id,
        password: job.password,
        salt: job.salt,
        keylen: KEYLEN,
        opts: { ...job.opts, maxmem: MAXMEM },
      });
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.options.workers) return null;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { nice: this.options.nice } });
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: { id: number; key?: Uint8Array; error?: string }) => {
      const job = slot.job;
      slot.job = null;
      worker.unref();
      if (job && job.id === msg.id) {
        if (msg.key) job.resolve(Buffer.from(msg.key.buffer, msg.key.byteOffset, msg.key.byteLength));
        else job.reject(new Error(msg.error ?? 'scrypt failed'));
      }
      this.pump();
    });
    // A worker that dies fails its job only; the next hash starts a new one.
    const lost = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      slot.job?.reject(err);
      slot.job = null;
      this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`password worker exited (${code})`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

let pool = new HashPool(DEFAULTS);

/** Sets how hashing runs (server start, from env; tests). The running pool is replaced. */
export async function configureHashing(options: Partial<HashingOptions>): Promise<void> {
  const old = pool;
  pool = new HashPool({ ...DEFAULTS, ...options });
  await old.close();
}

/** How many hashes wait and run now (the bench and tests look). */
export function hashingOptions(): HashingOptions {
  return { ...pool.options };
}

/** Password hashes waiting for a worker now (metrics: sign-ins queued behind scrypt). */
export function hashQueueLength(): number {
  return pool.waiting;
}

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  const text = password.normalize('NFKC');
  if (pool.options.workers > 0) return pool.hash(text, salt, opts);
  return new Promise((resolve, reject) =>
    scryptCb(text, salt, KEYLEN, { ...opts, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Spend comparable time when there is no usable hash, so timing does not reveal accounts.
    await scrypt(password, randomBytes(16), PARAMS);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$`);
}

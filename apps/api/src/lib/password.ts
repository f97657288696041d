import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { hashRaw } from '@node-rs/argon2';

/**
 * Password hashing (issue 29 R3-14): Argon2id at OWASP's first recommended setting (m = 19 MiB,
 * t = 2, p = 1) through `@node-rs/argon2` (a prebuilt Rust binding shipped in the npm package),
 * stored in the standard PHC string `$argon2id$v=19$m=19456,t=2,p=1$salt$hash` any Argon2
 * library reads. Hashes stored before (`scrypt$N$r$p$salt$hash`, N = 16 384: an eighth of OWASP's
 * scrypt minimum) still verify, and `needsRehash` has sign-in replace them (users/service.ts).
 * One Argon2id hash costs about what the old scrypt did (bench/password-cost.ts), so decision
 * 0025's pool and its figures keep their meaning.
 *
 * Where the hashing runs (decision 0025): one hash costs ~60 ms of a core (N = 16 384, 16 MB),
 * and Node's asynchronous scrypt runs it on libuv's pool of 4 threads. On a 2-core server a burst
 * of sign-ins (a class arriving) then had 4 hashes competing with the main thread for 2 cores,
 * and every other request waited: in the load bench, reads' p99 rose far above 100 ms during the
 * sign-in ramp. Hashes now run in a small pool of worker threads of their own (`HASH_WORKERS`,
 * one by default), each lowered to nice `HASH_NICE` (10) at start, so the scheduler gives
 * request handling the cores first and hashing what is left; a sign-in waits in a queue instead
 * of slowing every request. The pool was built for scrypt; it runs Argon2id the same way.
 */
/** OWASP Password Storage Cheat Sheet, Argon2id: m = 19 MiB, t = 2, p = 1 (the default). */
export const ARGON2 = { m: 19456, t: 2, p: 1 } as const;

/** Argon2id's cost: memory in KiB, passes, lanes. */
export interface Argon2Cost {
  m: number;
  t: number;
  p: number;
}

/**
 * The weakest cost accepted (docs/operations.md "Sign-in"): OWASP's five equivalent settings go
 * from m = 46 MiB, t = 1 to m = 7 MiB, t = 5 (p = 1), so memory × passes of at least 7 168 × 5 KiB
 * and at least 7 MiB; more lanes do not make up for less of either.
 */
export function argon2CostProblem(cost: Argon2Cost): string | null {
  if (cost.m < 7168) return `Argon2id memory ${cost.m} KiB is below OWASP's least (7168 KiB)`;
  if (cost.m * cost.t < 7168 * 5)
    return `Argon2id memory × passes ${cost.m} × ${cost.t} is below OWASP's least (7168 × 5)`;
  return null;
}

/** The cost the environment asks for (env.ts PASSWORD_ARGON2_*). */
export function argon2CostOf(env: {
  PASSWORD_ARGON2_MEMORY_KIB: number;
  PASSWORD_ARGON2_PASSES: number;
  PASSWORD_ARGON2_LANES: number;
}): Argon2Cost {
  return { m: env.PASSWORD_ARGON2_MEMORY_KIB, t: env.PASSWORD_ARGON2_PASSES, p: env.PASSWORD_ARGON2_LANES };
}

const prefixOf = (cost: Argon2Cost) => `$argon2id$v=19$m=${cost.m},t=${cost.t},p=${cost.p}$`;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;
// The worker loads the binding by its resolved path (it runs from a string, with no file of its own).
const ARGON2_PATH = createRequire(import.meta.url).resolve('@node-rs/argon2');

/** What a worker derives: scrypt (hashes stored before issue 29) or Argon2id. */
type Kdf = { alg: 'scrypt'; opts: ScryptOptions } | { alg: 'argon2id'; m: number; t: number; p: number };

export interface HashingOptions {
  /** Worker threads hashing at once (bounded concurrency). 0: libuv's pool as before (no worker). */
  workers: number;
  /** Nice value each worker thread sets on itself (Linux: per thread). 0 keeps the process's. */
  nice: number;
  /** Hashes waiting beyond the running ones before a new one is refused (PasswordQueueFull). */
  maxQueue: number;
  /**
   * Argon2id's cost for new hashes (PASSWORD_ARGON2_*). A stored hash at another cost still
   * verifies with its own and is replaced at the next sign-in (needsRehash).
   */
  argon2: Argon2Cost;
}

const DEFAULTS: HashingOptions = { workers: 1, nice: 10, maxQueue: 2_000, argon2: { ...ARGON2 } };

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
const argon2 = require(workerData.argon2);
if (workerData.nice && process.platform === 'linux') {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
parentPort.on('message', (job) => {
  try {
    const salt = Buffer.from(job.salt);
    const k = job.kdf;
    const key = k.alg === 'argon2id'
      ? argon2.hashRawSync(job.password, { salt, memoryCost: k.m, timeCost: k.t, parallelism: k.p, outputLen: job.keylen, algorithm: 2 })
      : scryptSync(job.password, salt, job.keylen, { ...k.opts, maxmem: job.maxmem });
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
  kdf: Kdf;
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

  hash(password: string, salt: Buffer, kdf: Kdf): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (this.queue.length >= this.options.maxQueue) {
        reject(new PasswordQueueFull());
        return;
      }
      this.queue.push({ id: this.nextId++, password, salt, kdf, resolve, reject });
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
        kdf: job.kdf,
        maxmem: MAXMEM,
      });
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.options.workers) return null;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { nice: this.options.nice, argon2: ARGON2_PATH },
    });
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
  const problem = options.argon2 ? argon2CostProblem(options.argon2) : null;
  if (problem) throw new Error(problem);
  const old = pool;
  pool = new HashPool({ ...DEFAULTS, ...options });
  await old.close();
}

/** How many hashes wait and run now (the bench and tests look). */
export function hashingOptions(): HashingOptions {
  return { ...pool.options };
}

/** Password hashes waiting for a worker now (metrics: sign-ins queued behind the hash). */
export function hashQueueLength(): number {
  return pool.waiting;
}

function derive(password: string, salt: Buffer, kdf: Kdf): Promise<Buffer> {
  const text = password.normalize('NFKC');
  if (pool.options.workers > 0) return pool.hash(text, salt, kdf);
  if (kdf.alg === 'argon2id') {
    // libuv's pool, as scrypt below (HASH_WORKERS=0).
    return hashRaw(text, {
      salt,
      memoryCost: kdf.m,
      timeCost: kdf.t,
      parallelism: kdf.p,
      outputLen: KEYLEN,
      algorithm: 2,
    });
  }
  return new Promise((resolve, reject) =>
    scryptCb(text, salt, KEYLEN, { ...kdf.opts, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

// PHC strings use standard base64 without padding.
const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const cost = pool.options.argon2;
  const key = await derive(password, salt, { alg: 'argon2id', ...cost });
  return `${prefixOf(cost)}${b64(salt)}$${b64(key)}`;
}

/** The salt, expected hash and derivation of a stored hash; null when it is none of ours. */
function parseStored(stored: string): { salt: Buffer; expected: Buffer; kdf: Kdf } | null {
  const argon =
    /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      stored,
    );
  if (argon) {
    const [, m, t, p, salt, hash] = argon as unknown as [string, string, string, string, string, string];
    return {
      salt: Buffer.from(salt, 'base64'),
      expected: Buffer.from(hash, 'base64'),
      kdf: { alg: 'argon2id', m: Number(m), t: Number(t), p: Number(p) },
    };
  }
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  return {
    salt: Buffer.from(salt, 'base64url'),
    expected: Buffer.from(hash, 'base64url'),
    kdf: { alg: 'scrypt', opts: { N: Number(n), r: Number(r), p: Number(p) } },
  };
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parseStored(stored ?? '');
  if (!parsed) {
    // Spend comparable time when there is no usable hash, so timing does not reveal accounts.
    await derive(password, randomBytes(16), { alg: 'argon2id', ...pool.options.argon2 });
    return false;
  }
  const actual = await derive(password, parsed.salt, parsed.kdf);
  return actual.length === parsed.expected.length && timingSafeEqual(actual, parsed.expected);
}

/** True for anything but an Argon2id hash at the configured cost: sign-in replaces it. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(prefixOf(pool.options.argon2));
}

/**
 * The cost of one password hash, on this thread (issue 29 R3-14): the scrypt parameters used
 * before (N = 2^14, r = 8, p = 1), the Argon2id parameters used now (OWASP: m = 19 MiB, t = 2,
 * p = 1, `@node-rs/argon2`), and scrypt at OWASP's minimum (N = 2^17) for comparison. Sign-in's
 * figures in the load bench follow from this: the hashing pool (decision 0025) runs one hash at
 * a time per worker, so its throughput per core is 1 / this cost.
 *
 * Not part of `npm run bench` (no target of its own); run alone on a quiet machine:
 *   npx tsx bench/password-cost.ts            (BENCH_HASH_RUNS, default 15)
 */
import { scryptSync, randomBytes } from 'node:crypto';
import { hashRawSync } from '@node-rs/argon2';

const RUNS = Number(process.env.BENCH_HASH_RUNS ?? 15);

function measure(name: string, hash: () => void): void {
  hash(); // warm-up: first allocation of the memory pool
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    hash();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  const min = times[0] as number;
  console.log(
    `${name.padEnd(40)} median ${median.toFixed(1).padStart(6)} ms  min ${min.toFixed(1).padStart(6)} ms  ` +
      `(${(1000 / median).toFixed(1)} hashes/s per core)`,
  );
}

const password = 'Learner#2026';
const salt = randomBytes(16);
const MAXMEM = 256 * 1024 * 1024;
measure('scrypt N=2^14 r=8 p=1 (before)', () =>
  scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1, maxmem: MAXMEM }),
);
measure('argon2id m=19456 t=2 p=1 (now)', () =>
  hashRawSync(password, {
    salt,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
    outputLen: 32,
    algorithm: 2,
  }),
);
measure('scrypt N=2^17 r=8 p=1 (OWASP minimum)', () =>
  scryptSync(password, salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: MAXMEM }),
);

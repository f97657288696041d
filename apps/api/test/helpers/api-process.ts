import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { parse, stringify } from 'yaml';

/**
 * Real API processes for the operations tests (issue 30): `src/server.ts` through tsx, or once
 * built (`builtServer()`: one esbuild bundle, then each start skips tsx's transform of every
 * file — what a test that starts four processes on a busy machine wants), demo content with generated learners, tokens signed with the
 * processes' JWT_SECRET (tokens are stateless: no scrypt sign-in per learner), and a small
 * round-robin proxy written with node:http.
 */
const SERVER = path.resolve(import.meta.dirname, '../../src/server.ts');
const API_DIR = path.resolve(import.meta.dirname, '../..');
const DEMO = path.resolve(import.meta.dirname, '../../../../content/demo');
export const PROCESS_SECRET = 'operations-secret-operations-secret-0123';

export interface ApiProcess {
  child: ChildProcess;
  base: string;
  /** Everything the process wrote (stdout and stderr). */
  output(): string;
  /** Resolves once the process has written something `pattern` matches (its output's events). */
  said(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

let built: string | undefined;

/**
 * The server bundled as `npm start` runs it (scripts/build.mjs), in a folder of this test file's
 * own inside apps/api (so its packages resolve), removed by `removeBuiltServer`.
 */
export function builtServer(): string {
  if (built) return built;
  const outdir = mkdtempSync(path.join(API_DIR, '.test-dist-'));
  execFileSync(process.execPath, [path.join(API_DIR, 'scripts/build.mjs'), outdir], {
    cwd: API_DIR,
    stdio: 'ignore',
  });
  built = path.join(outdir, 'server.js');
  return built;
}

export function removeBuiltServer(): void {
  if (built) rmSync(path.dirname(built), { recursive: true, force: true });
  built = undefined;
}

/** Starts the server (src/server.ts through tsx, or `entry`, a bundle) and resolves once it listens. */
export function startApiProcess(env: Record<string, string>, entry?: string): Promise<ApiProcess> {
  const args = entry ? [entry] : ['--import', 'tsx', SERVER];
  const child = spawn(process.execPath, args, {
    cwd: API_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      JWT_SECRET: PROCESS_SECRET,
      LOG_LEVEL: 'warn',
      HASH_WORKERS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const heard = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters.filter((x) => x.pattern.test(out))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const said = (pattern: RegExp) =>
    pattern.test(out)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ pattern, resolve }));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      heard(chunk);
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}`, output: () => out, said, exited });
    });
    child.stderr?.on('data', heard);
    void exited.then((code) =>
      reject(new Error(`server exited (${code}) before listening:\n${out.slice(-3000)}`)),
    );
  });
}

/** A copy of the demo content with `count` more learners (no password) in one class of the French tenant. */
export function contentWithLearners(count: number): { dir: string; emails: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'parcours-ops-content-'));
  cpSync(DEMO, dir, { recursive: true });
  const fr = path.join(dir, 'tenants/fr');
  const users = parse(readFileSync(path.join(fr, 'users.yaml'), 'utf8')) as { users: unknown[] };
  const ids = Array.from({ length: count }, (_, i) => `ops-${String(i + 1).padStart(3, '0')}`);
  for (const id of ids)
    users.users.push({
      id,
      email: `${id}@ops.test`,
      firstname: 'Ops',
      lastname: id,
      cguAcceptedVersion: '2026-01',
    });
  writeFileSync(path.join(fr, 'users.yaml'), stringify(users));
  const classes = parse(readFileSync(path.join(fr, 'classes.yaml'), 'utf8')) as { classes: unknown[] };
  classes.classes.push({
    id: 'ops-class',
    name: 'Ops class',
    startAt: '-1d',
    expireAt: '+30d',
    programs: [{ program: 'savoirs-de-base' }],
    users: ids.map((user) => ({ user, role: 'STUDENT' })),
  });
  writeFileSync(path.join(fr, 'classes.yaml'), stringify(classes));
  return { dir, emails: ids.map((id) => `${id}@ops.test`) };
}

/** A token as the API signs it (plugins/auth.ts), for a user of a tenant. */
export async function tokenFor(userId: string, contextId: string, secret = PROCESS_SECRET): Promise<string> {
  const now = Date.now();
  const iat = Math.floor(now / 1000);
  return new SignJWT({ ctx: contextId, iatMs: now })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(new TextEncoder().encode(secret));
}

export interface Proxy {
  base: string;
  /** The backends requests go to, in turn; replace entries as processes die and start. */
  backends: string[];
  close(): Promise<void>;
}

/**
 * Round robin over `backends`, one request each in turn, as a load balancer would. A backend
 * that cannot be reached or drops the connection gives 502: the client sees no answer, so
 * nothing it was not told counts as acknowledged.
 */
export async function startProxy(backends: string[]): Promise<Proxy> {
  let next = 0;
  const proxy: Proxy = { base: '', backends, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const live = proxy.backends;
    const target = new URL(live[next++ % live.length]!);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  proxy.base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

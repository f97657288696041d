import net from 'node:net';
import type { Sample } from './steady';

/**
 * A closed loop of `connections` HTTP/1.1 keep-alive clients whose connections are all open and
 * served once before the clock starts (issue 32).
 *
 * Why not autocannon for the answering runs: autocannon opens its connections when the run
 * starts, and Node's server (libuv) accepts one connection per turn of its event loop (strace:
 * one `accept4` per `epoll_wait`, the kernel's accept queue holding the rest). The first
 * connections make the server busy at once, each turn then takes as long as the requests it
 * reads, and the last of 100 connections was accepted 1–3 s into a run: their first answer
 * waited that long, which made the run's p99 (1–2 s at SQLite's ~900 answers/s, p50 60 ms).
 * A learner's browser keeps its connection, so what the answering targets are about is an
 * answer on an open connection; connection admission under load is reported on its own
 * (`admission` below).
 */

export interface LoopRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoopResult {
  /** Every measured response: when it arrived and how long it took (ms, performance.now()). */
  samples: Sample[];
  /** Responses by status. */
  statuses: Map<number, number>;
  /** Requests that got no response (a connection closed or failed). */
  errors: number;
  /** How long opening and serving every connection once took (ms): connection admission. */
  admissionMs: number;
}

/** The head of an HTTP/1.1 request, its body after. */
export function requestBytes(host: string, r: LoopRequest): Buffer {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `host: ${host}`, 'connection: keep-alive'];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n');
  return body ? Buffer.concat([head, body]) : head;
}

/**
 * The length of the first complete response in `buf` and its status, or null while incomplete.
 * Handles `content-length` and `chunked` bodies (the server sends both).
 */
export function completeResponse(buf: Buffer): { length: number; status: number } | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.subarray(0, headEnd).toString('latin1');
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buf.length >= end ? { length: end, status } : null;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('closed loop: a chunk size that is not hexadecimal');
      // The last chunk (size 0) ends with an empty line (no trailers from our server).
      if (size === 0) return buf.length >= lineEnd + 4 ? { length: lineEnd + 4, status } : null;
      at = lineEnd + 2 + size + 2;
      if (buf.length < at) return null;
    }
  }
  // No body (204, 304) or a response without framing, which this client does not expect.
  if (status === 204 || status === 304) return { length: bodyStart, status };
  throw new Error(`closed loop: a ${status} response without content-length or chunked body`);
}

/** One keep-alive connection that sends a request and resolves with its response's status. */
class Connection {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (err: Error) => void } | null = null;
  readonly socket: net.Socket;

  constructor(port: number, host: string) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      const done = completeResponse(this.buf);
      if (!done || !this.waiting) return;
      this.buf = this.buf.subarray(done.length);
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve(done.status);
    });
    const fail = (err: Error) => {
      const w = this.waiting;
      this.waiting = null;
      w?.reject(err);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(bytes);
    });
  }
}

/**
 * Opens `connections` connections, serves `warm` once on each (all of them, before any measured
 * request), then sends `requests` in order, each connection sending the next one as soon as its
 * previous response arrived, until every request was sent once.
 */
export async function closedLoop(
  url: string,
  connections: number,
  requests: readonly LoopRequest[],
  warm: LoopRequest,
): Promise<LoopResult> {
  const { hostname, port, host } = new URL(url);
  const t0 = performance.now();
  const conns = Array.from({ length: connections }, () => new Connection(Number(port), hostname));
  const warmBytes = requestBytes(host, warm);
  await Promise.all(conns.map((c) => c.send(warmBytes)));
  const admissionMs = performance.now() - t0;
  const samples: Sample[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  let next = 0;
  await Promise.all(
    conns.map(async (c) => {
      while (next < requests.length) {
        const bytes = requestBytes(host, requests[next++]!);
        const start = performance.now();
        try {
          const status = await c.send(bytes);
          const at = performance.now();
          samples.push({ at, ms: at - start });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        } catch {
          errors++;
          return;
        }
      }
    }),
  );
  for (const c of conns) c.socket.destroy();
  return { samples, statuses, errors, admissionMs };
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { freePort } from './lib';

/**
 * `BENCH_PROFILE` (issue 32): a CPU profile of the API process during each measured round, written
 * with the round's figure in its file name, so that a slow round and a fast one can be set side by
 * side (`bench/profile-summary.ts`). `--cpu-prof` writes one profile per process, at its exit; a
 * round is a few seconds of a long-lived server, so the bench starts the server with its inspector
 * on a loopback port and drives V8's Profiler through it (the DevTools protocol), round by round,
 * without any code in the server. `BENCH_PROFILE=1` writes into a fresh directory under the
 * system's temporary one, `BENCH_PROFILE=/some/dir` there. The inspector and the sampling cost the
 * server a little: figures of a profiled run are for comparing its rounds, not for the note.
 */
export interface RoundProfiler {
  /** Node flags for the server: its inspector on a free loopback port. */
  nodeArgs: string[];
  /** Connects to the started server's inspector. */
  attach(): Promise<void>;
  /** Runs `fn` with the Profiler on; the profile comes back beside its result. */
  record<T>(fn: () => Promise<T>): Promise<{ result: T; profile: unknown }>;
  /** Writes `{part}-{name}-round{n}-{figure}.cpuprofile`; returns its path. */
  save(profile: unknown, name: string, round: number, figure: string): string;
  close(): void;
}

/** A file-name-safe word: lower case, dashes for anything else. */
export function fileWord(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The profiler `BENCH_PROFILE` asks for, or none. */
export async function roundProfiler(part: string): Promise<RoundProfiler | undefined> {
  const wanted = process.env.BENCH_PROFILE;
  if (!wanted || wanted === '0') return undefined;
  const dir =
    wanted === '1' ? mkdtempSync(path.join(os.tmpdir(), `parcours-profiles-${part}-`)) : path.resolve(wanted);
  mkdirSync(dir, { recursive: true });
  console.log(`[${part}] CPU profiles of each measured round go to ${dir}`);
  const port = await freePort();
  let socket: WebSocket | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (!socket) return reject(new Error('profiler not attached'));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    nodeArgs: [`--inspect=127.0.0.1:${port}`],
    async attach() {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        webSocketDebuggerUrl: string;
      }[];
      const target = targets[0];
      if (!target) throw new Error('the server has no inspector target');
      const ws = new WebSocket(target.webSocketDebuggerUrl);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.on('message', (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as {
          id?: number;
          result?: unknown;
          error?: { message: string };
        };
        const waiting = message.id === undefined ? undefined : pending.get(message.id);
        if (!waiting) return;
        pending.delete(message.id!);
        if (message.error) waiting.reject(new Error(message.error.message));
        else waiting.resolve(message.result);
      });
      socket = ws;
      await send('Profiler.enable');
    },
    async record(fn) {
      await send('Profiler.start');
      let result;
      try {
        result = await fn();
      } catch (error) {
        // Stopped even when the load failed, so that a next round can start one.
        await send('Profiler.stop').catch(() => undefined);
        throw error;
      }
      const { profile } = (await send('Profiler.stop')) as { profile: unknown };
      return { result, profile };
    },
    save(profile, name, round, figure) {
      const file = path.join(
        dir,
        `${fileWord(part)}-${fileWord(name)}-round${round + 1}-${fileWord(figure)}.cpuprofile`,
      );
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
    close() {
      socket?.close();
      socket = undefined;
    },
  };
}

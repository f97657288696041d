import { createServer, request as httpRequest } from 'node:http';
import type { Agent } from 'node:http';
import { Agent as HttpAgent } from 'node:http';

/**
 * A round-robin HTTP proxy in the bench process (node:http), standing for the load balancer in
 * front of several API processes: each request goes to the next backend in turn, over kept-alive
 * connections. It costs the bench process some CPU, which `BENCH_CPU`-style readings show.
 */
export function nextBackend(backends: readonly string[], counter: number): string {
  if (backends.length === 0) throw new Error('no backend');
  return backends[counter % backends.length]!;
}

export async function startRoundRobinProxy(
  backends: readonly string[],
): Promise<{ url: string; close(): Promise<void> }> {
  let counter = 0;
  const agent: Agent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const target = new URL(nextBackend(backends, counter++));
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, printTable, startServer } from './lib';

/**
 * API throughput under 100 concurrent connections, each figure beside a bare Fastify route
 * measured in the same run. Both servers run as child processes; autocannon runs here.
 */
export async function apiLoad(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-'));
  const app = await startServer(
    'apps/api/src/server.ts',
    { PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', JWT_SECRET: 'bench-secret-bench-secret-bench-secret', LOGIN_RATE_LIMIT: '100000' },
    '/api/contexts/current',
    // BENCH_CPU_PROF=dir writes the API server's CPU profile there when it stops.
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  const bare = await startServer('bench/bare-server.ts', { PORT: '0' }, '/bare');
  try {
    const login = await fetch(`${app.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ email: 'learner@example.com', password: 'Learner#2026' }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { access_token: token, user_id: userId } = (await login.json()) as { access_token: string; user_id: string };
    const auth = { authorization: `Bearer ${token}`, host: 'localhost' };

    const baseline = await load('bare Fastify route', `${bare.url}/bare`);
    const rows = [
      baseline,
      await load('GET /api/contexts/current', `${app.url}/api/contexts/current`, { headers: { host: 'localhost' } }),
      await load(
        "GET /api/lessons (home's query)",
        `${app.url}/api/lessons?filter[userId]=${userId}&include=course&sort=-startedAt`,
        { headers: auth },
      ),
      await load(
        "GET /api/class-users (home's query)",
        `${app.url}/api/class-users?filter[role]=STUDENT&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers`,
        { headers: auth },
      ),
    ];
    printTable(rows, baseline);
  } finally {
    await bare.stop();
    await app.stop();
  }
}

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';

// The yardstick: the cheapest JSON route Fastify can serve on this machine, measured in the
// same run as the real routes so that figures compare across machines as ratios.
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ data: { type: 'bare', id: '1', attributes: { ok: true } } }));

// The floor of a heavier answer: `/floor/{name}` sends the bytes of BENCH_FLOOR_DIR/{name}
// (a real answer the bench saved) from memory, with the real answer's content type. Nothing
// can serve that answer faster than Fastify sends its bytes.
const floorDir = process.env.BENCH_FLOOR_DIR;
if (floorDir) {
  const bodies = new Map(
    readdirSync(floorDir).map((name) => [name, readFileSync(path.join(floorDir, name))]),
  );
  const type = process.env.BENCH_FLOOR_TYPE ?? 'application/json; charset=utf-8';
  app.get<{ Params: { name: string } }>('/floor/:name', async (request, reply) => {
    const body = bodies.get(request.params.name);
    if (!body) return reply.code(404).send();
    return reply.type(type).send(body);
  });
}
await app.listen({ port: Number(process.env.PORT ?? 3201), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

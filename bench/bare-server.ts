import Fastify from 'fastify';

// The yardstick: the cheapest JSON route Fastify can serve on this machine, measured in the
// same run as the real routes so that figures compare across machines as ratios.
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ data: { type: 'bare', id: '1', attributes: { ok: true } } }));
await app.listen({ port: Number(process.env.PORT ?? 3201), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
